"""One board against the computer: the players set back the computer's last move and their
own before it by hand, in every order their hands may take (their own piece first, the
computer's first, both in the hand at once), quickly or pausing halfway longer than the board
takes to settle, turning back on the way the tokens those moves turned; or two such pairs of
turns, newest first. Written from the players' side: no warning on the OLED at any step, the
turns taken back, nothing read as a move and no token they turned back asked to turn again.
The positions are reached by seeded play, on positions no other test plays."""

from __future__ import annotations

import random

import pytest

from firmware_host.board.controller import Game
from testbed.board_under_test import BoardUnderTest
from testbed.robot import Robot
from testbed.setback import ORDERS, apart_last, hands, set_back, set_back_newest_first, warnings
from testbed.streams import of

GAMES = [
    (("antipalos", 3, "two"), 41),
    (("antipalos", 3, "cut-throat-3"), 46),
    (("antipalos", 4, "cut-throat-4"), 47),
    (("antipod", 4, None), 42),
    (("anti-grid", 6, "chain"), 43),
    (("phalanx", None, None), 44),
    (("antipode", None, "rulebook"), 45),
    (("antipode", None, "no-full-board-turn"), 61),
    (("antipode", None, "standard"), 62),
]


def _played(robot: Robot, n: int) -> None:
    """Seeded play until the last ``n`` moves, each pair the players' and the computer's
    answer, may be set back in any order (in a game of three or four, the players play the
    other sides); in Antipode, with tokens to turn back."""
    for _ in range(40):
        robot.move()
        states, moves, others = robot.states, robot.moves, robot.others
        if len(moves) < n + 2 or not robot.at_table() or not apart_last(states, moves, n):
            continue
        theirs = [states[i].to_move in others for i in range(-n - 1, -1)]
        turned = any(hands(states[i - 1], moves[i])[2] for i in range(-n, 0))
        if theirs == [False, True] * (n // 2) and (turned or not robot.state.markers()):
            return
    raise AssertionError("no such position")


@pytest.mark.parametrize("pause", [0, 1000])
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("game, seed", GAMES)
def test_the_computers_move_and_the_players_set_back_by_hand_give_no_warning(game, seed, order, pause):
    """Both turns are taken back (the computer agrees at once), no move is read on the way,
    and the OLED warns of nothing; the players are to move where they were."""
    board = BoardUnderTest(Game.of(*game), computer="second")
    try:
        robot = Robot(board, random.Random(seed), kinds=())
        _played(robot, 2)
        moves = list(board.held())
        begun = len(board.events)
        set_back(board, robot.states, moves, order, pause)
        board.settle(), board.run(2000), board.settle()
        since = board.events[begun:]
        assert [t["move"] for t in of(since, "takeback")] == moves[:-3:-1]
        assert of(since, "move") == [] and warnings(since) == []
        assert board.held() == tuple(moves[:-2])
        assert not any(line.startswith("Flip") for line in board.screen())  # turned back already
    finally:
        board.close()


@pytest.mark.parametrize("pause", [0, 1000])
@pytest.mark.parametrize("game, seed", GAMES[3:])
def test_four_turns_set_back_by_hand_against_the_computer_are_taken_back_once_settled(game, seed, pause):
    """Two of the players' turns and the computer's answers set back by hand, newest first
    (quickly, or pausing a second after each turn): all four are taken back, nothing is read
    as a move, nothing warned of, and no token turned back on the way is asked to turn again."""
    board = BoardUnderTest(Game.of(*game), computer="second")
    try:
        robot = Robot(board, random.Random(seed + 100), kinds=())
        _played(robot, 4)
        moves = list(board.held())
        begun = len(board.events)
        set_back_newest_first(board, robot.states, moves, 4, pause)
        board.settle(), board.run(2000), board.settle()
        since = board.events[begun:]
        assert [t["move"] for t in of(since, "takeback")] == moves[:-5:-1]
        assert of(since, "move") == [] and warnings(since) == []
        assert board.held() == tuple(moves[:-4])
        assert not any(line.startswith("Flip") for line in board.screen())
    finally:
        board.close()
