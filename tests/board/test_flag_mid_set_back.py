"""Antipode on a 5 s clock against the computer (Red): Blue plays h5:i5 (h5 placed, i5 turned),
the computer answers, its token placed and turned as lit. Blue regrets h5:i5 and sets both
turns back by hand: the computer's token lifted first, and Blue's flag falls while it is in
the hand. The game is lost on time, and Blue's hand goes on: h5 lifted too, which leaves the
start position showing, with i5 and the computer's turned tokens still showing the faces the
game gave them. That is the takeback by hand finished, not a new game set up (no new game
begins with tokens showing the wrong face, nothing asked): the game stays lost on time, and a
change of the pieces after that sets up the next game (the robot's "faces after takeback hands"
episode, ``bench/robot.py --clock 5 --game all --seed 740 --from 330``)."""

from __future__ import annotations

import random

from firmware_host.board.controller import Game
from firmware_host.store.config import ClockConfig, Config
from testbed.board_under_test import BoardUnderTest
from testbed.robot import Robot
from testbed.streams import kinds


def computer_answered() -> tuple[BoardUnderTest, str]:
    """Blue's h5:i5 and the computer's answer, made on the board as lit; the computer's token."""
    board = BoardUnderTest(
        Game.of("antipode", None, "rulebook"), config=Config(clock=ClockConfig("5")), computer="red"
    )
    board.settle()
    board.place("h5")
    board.settle()
    assert board.held() == ("h5:i5",)
    placed = carry_out(board)
    assert len(board.held()) == 2 and "Blue to move" in board.screen()
    return board, placed


def carry_out(board: BoardUnderTest) -> str:
    """Do what the lights ask (tokens to place, tokens to turn over) until nothing is asked;
    the site of the token placed."""
    placed = ""
    for _ in range(10):
        lit = board.lit()
        fill = sorted(s for s, kind in lit.items() if kind == "fill")
        flips = sorted(s for s, kind in lit.items() if kind == "flip")
        if fill:
            placed = fill[0]
            board.place(placed)
        elif flips:
            board.lift(flips[0])
            board.run(300)
            board.place(flips[0])
        else:
            return placed
        board.settle()
    raise AssertionError(f"still asked {board.lit()}: {board.screen()}")


def flag_falls(board: BoardUnderTest) -> None:
    while not board.timed_out():
        board.run(50)


def set_back_as_the_flag_falls() -> BoardUnderTest:
    """Both turns set back by hand, the flag falling with the computer's token in the hand."""
    board, placed = computer_answered()
    board.lift(placed)
    board.run(300)
    flag_falls(board)
    board.run(200)
    board.lift("h5")
    board.settle()
    board.run(3000)
    return board


def test_a_set_back_finished_after_the_flag_is_no_new_game_set_up():
    board = set_back_as_the_flag_falls()
    try:
        assert "new_game" not in kinds(board.events)
        assert len(board.held()) == 2 and board.timed_out()
        assert board.screen()[2] == "Red wins: time"
        assert board.storage.games()[0].result == "red wins by time"
    finally:
        board.close()


def test_the_next_change_sets_the_next_game_up():
    """The players set up again: a token lifted and set back (turned to its start face) shows
    the start once more, and the next game begins."""
    board = set_back_as_the_flag_falls()
    try:
        board.lift("i5")
        board.settle()
        board.place("i5")
        board.settle()
        assert "new_game" in kinds(board.events)
        assert board.held() == () and not board.timed_out()
        assert "Blue to move" in board.screen()
    finally:
        board.close()


def test_the_robot_sets_no_game_lost_on_time_back_by_hand():
    """The robot's "takeback hands" after the flag fell (while it followed the board): no
    takeback; lifting the pieces would set the next game up, which it does not mean."""
    board, _ = computer_answered()
    try:
        flag_falls(board)
        robot = Robot(board, random.Random(1), kinds=())
        for move in board.held():
            robot._believe(move)
        here = board.occupied()
        assert robot.take_back("hands") is None
        assert board.occupied() == here and len(board.held()) == 2
        assert "new_game" not in kinds(board.events)
    finally:
        board.close()
