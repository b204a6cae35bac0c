"""The player robot's ``new game not asked`` invariant (testbed/robot.py, :meth:`Robot.check_game`):
the game a board plays changes only when the players asked for a new one (the menu, a command,
other players, a league round, a restart once the game is over; on paired boards, at either
board). A board that begins a game on its own, or goes back to an earlier one, is named at
once: last round a flag falling mid-flip made a board begin a new game by itself, found only
through the token faces that went wrong after it. A new game asked that the board never begins
(nor, paired, joins) is ``new game not begun``, named as the robot checks the board it followed."""

from __future__ import annotations

import random

import pytest

from firmware_host.board.controller import Game
from testbed.board_under_test import BoardUnderTest
from testbed.pair import Pair
from testbed.robot import Robot, Violated

GAME = Game.of("antipod", 4)


@pytest.fixture
def robot():
    board = BoardUnderTest(GAME)
    robot = Robot(board, random.Random(5), kinds=())
    for _ in range(2):
        robot.act("move")
    yield robot
    board.close()


def unasked(robot: Robot, intention: str) -> str:
    """The violation ``intention`` meets: its invariant's name and detail."""
    with pytest.raises(Violated) as caught:
        robot.act(intention)
    return f"{caught.value.violation.invariant}: {caught.value.violation.detail}"


def test_a_board_beginning_a_new_game_by_itself_is_a_new_game_not_asked(robot):
    board = robot.board
    game = board.game_id()
    board.controller.new_game(board.game)  # the daemon's own doing, nobody asked
    found = unasked(robot, "move")
    assert found.startswith(f"new game not asked: the board began game {board.game_id()} on its own")
    assert f"the robot plays game {game}" in found


def test_a_restart_that_does_not_resume_the_game_going_on_is_a_new_game_not_asked(robot):
    board = robot.board
    board.storage.finish(board.game_id(), "abandoned")  # lost behind the players' back
    found = unasked(robot, "restart")
    assert found.startswith("new game not asked: the board began game")
    assert "a restart must resume game" in found


def test_a_restart_that_goes_back_to_an_earlier_game_is_a_new_game_not_asked(robot):
    board = robot.board
    first, moves = board.game_id(), len(board.held())
    robot.act("new_game command")
    robot.act("move")
    board.storage.finish(board.game_id(), "abandoned")
    board.storage.truncate(first, moves)  # the first game stored as going on again
    found = unasked(robot, "restart")
    assert found.startswith(f"new game not asked: the board went back to game {first} on its own")


@pytest.mark.parametrize("intention", ["new_game command", "new_game menu", "players command"])
def test_a_new_game_asked_that_never_begins_is_a_new_game_not_begun(robot, monkeypatch, intention):
    """The daemon broken on purpose: it takes the request and goes on with the game."""
    board = robot.board
    game = board.game_id()
    monkeypatch.setattr(board.controller, "new_game", lambda *_: None)
    found = unasked(robot, intention)
    assert found.startswith(f"new game not begun: a new game was asked, the board plays game {game} on")


def test_new_games_the_players_ask_for_and_restarts_pass(robot):
    board = robot.board
    first = board.game_id()
    for intention in ("new_game menu", "move", "restart", "new_game command", "players command", "move"):
        robot.act(intention)
    robot.check()
    assert board.game_id() != first
    assert robot.games[0] == first and robot.games[-1] == board.game_id()
    assert len(robot.games) == len(set(robot.games)) == 4


def test_paired_a_new_game_asked_at_one_board_passes_at_both():
    pair = Pair(GAME, random.Random(3), kinds=())
    try:
        pair.act("move")
        before = [b.game_id() for b in pair.boards]
        pair.act("new_game command")
        pair.act("move")
        for robot, game in zip(pair.robots, before):
            robot.check()
            assert robot.games[-1] == robot.board.game_id() != game
    finally:
        pair.close()


def test_paired_a_game_joining_an_earlier_game_with_the_other_board_is_a_new_game_not_asked():
    pair = Pair(GAME, random.Random(3), kinds=())
    try:
        pair.act("move")
        one = pair.robots[0]
        earlier = one.board.token()
        pair.act("new_game command")
        one.board.controller.record.set_token(earlier)  # joined the last game again
        with pytest.raises(Violated) as caught:
            one.check()
        assert caught.value.violation.invariant == "new game not asked"
        assert f"joined again game {one.games[-2]} played with the other board" in str(caught.value)
    finally:
        pair.close()
