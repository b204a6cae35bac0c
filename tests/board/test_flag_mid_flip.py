"""Antipode on a 5 s clock: Blue's first turn is b1:a1 (b1 placed, a1 turned, a1 tapped as the
landing, then "Flip b1": the pawn passed over it). Blue's flag falls before b1 is turned. With
b1 in the hand the pieces stand as at the start, yet the player is turning a token the board
asked for, not setting up: no new game begins (the robot's "faces" and "stuck" episodes on 5 s
clocks, ``bench/robot.py --clock 5 --seed 711 --from 43``). A token left off is a set-up: the
next game begins."""

from __future__ import annotations

import pytest

from firmware_host.board.controller import Game
from firmware_host.board.phase import TOKEN_HOLD_MS
from firmware_host.store.config import ClockConfig, Config
from testbed.board_under_test import BoardUnderTest
from testbed.streams import kinds


def played_to_the_last_flip() -> BoardUnderTest:
    """Blue plays b1:a1 on a 5 s clock; the board asks "Flip b1"."""
    board = BoardUnderTest(Game.of("antipode", None, "rulebook"), config=Config(clock=ClockConfig("5")))
    play_to_the_last_flip(board)
    return board


def play_to_the_last_flip(board: BoardUnderTest) -> None:
    """On Antipode's rulebook start, Blue plays b1:a1 on ``board``: "Flip b1" is asked."""
    board.settle()
    board.place("b1")
    board.settle()
    for _ in range(2):  # a1 turned over, then tapped as the pawn's landing
        board.lift("a1")
        board.run(300)
        board.place("a1")
        board.settle()
    assert board.held() == ("b1:a1",) and "Flip b1" in board.screen()


def flag_falls(board: BoardUnderTest) -> None:
    while not board.timed_out():
        board.run(50)


@pytest.mark.parametrize("lifted", ["after the flag", "before the flag"])
def test_the_last_flip_made_as_the_flag_falls_is_no_new_game_set_up(lifted):
    board = played_to_the_last_flip()
    try:
        if lifted == "after the flag":
            flag_falls(board)
            board.lift("b1")
        else:
            board.lift("b1")
            flag_falls(board)
        board.run(800)
        board.place("b1")  # turned over
        board.settle()
        board.run(TOKEN_HOLD_MS)
        assert "new_game" not in kinds(board.events)
        assert board.held() == ("b1:a1",) and board.timed_out()
        assert board.screen()[2] == "Red wins: time"
        assert board.storage.games()[0].result == "red wins by time"
    finally:
        board.close()


def test_the_token_left_off_is_the_start_set_up_again():
    board = played_to_the_last_flip()
    try:
        flag_falls(board)
        off = board.now_ms
        board.lift("b1")
        board.settle()
        assert "new_game" not in kinds(board.events)  # a flip under way, maybe
        while "new_game" not in kinds(board.events):
            board.run(100)
        assert board.now_ms - off >= TOKEN_HOLD_MS
        assert board.held() == () and not board.timed_out()
        assert "Blue to move" in board.screen()
    finally:
        board.close()


def test_a_token_turned_after_the_flag_then_lifted_again_is_a_set_up_at_once():
    """b1 turned after the flag (its flip done), then lifted to clear the board: the next game
    begins a settle later, as any start set up again."""
    board = played_to_the_last_flip()
    try:
        flag_falls(board)
        board.lift("b1")
        board.run(600)
        board.place("b1")
        board.settle()
        board.lift("b1")
        board.settle()
        assert "new_game" in kinds(board.events)
        assert board.held() == ()
    finally:
        board.close()
