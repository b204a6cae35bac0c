"""One board against the computer: the players set back the computer's last move and their
own before it by hand, in every order their hands may take (their own piece first, the
computer's first, both in the hand at once), quickly or pausing halfway longer than the board
takes to settle. Written from the players' side: no warning on the OLED at any step, both
turns taken back, nothing read as a move and the computer not asked to answer meanwhile. The
positions are reached by seeded play, on positions no other test plays."""

from __future__ import annotations

import random

import pytest

from firmware_host.board.controller import Game
from testbed.board_under_test import BoardUnderTest
from testbed.robot import Robot
from testbed.setback import ORDERS, apart, set_back, warnings
from testbed.streams import of

GAMES = [
    (("antipalos", 3, "two"), 41),
    (("antipalos", 3, "cut-throat-3"), 46),
    (("antipalos", 4, "cut-throat-4"), 47),
    (("antipod", 4, None), 42),
    (("anti-grid", 6, "chain"), 43),
    (("phalanx", None, None), 44),
    (("antipode", None, "rulebook"), 45),
]


def _played(robot: Robot) -> None:
    """Seeded play until the players' last move and the computer's answer after it may be set
    back in either order (in a game of three or four, the players play the other sides)."""
    for _ in range(30):
        robot.move()
        states = robot.states
        if len(robot.moves) >= 4 and apart(states, robot.moves) and robot.at_table():
            if states[-3].to_move not in robot.others and states[-2].to_move in robot.others:
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
        _played(robot)
        moves = list(board.held())
        begun = len(board.events)
        set_back(board, robot.states, moves, order, pause)
        board.settle(), board.run(2000), board.settle()
        since = board.events[begun:]
        assert [t["move"] for t in of(since, "takeback")] == moves[:-3:-1]
        assert of(since, "move") == [] and warnings(since) == []
        assert board.held() == tuple(moves[:-2])
    finally:
        board.close()
