"""Paired boards: the players at one board set their own last move and the opponent's answer
back by hand, in every order their hands may take (their own piece first, the opponent's
first, both in the hand at once), quickly or pausing halfway longer than the board takes to
settle. Written from the players' side: what the OLED says at every step (no warning a player
would have to ignore), what the other board is told, and both records once it agrees. The
positions are reached by seeded play, on positions no other test plays."""

from __future__ import annotations

import random

import pytest

from firmware_host.board.controller import Game
from testbed.pair import Pair
from testbed.setback import ORDERS, apart, set_back, warnings

GAMES = [
    (("antipalos", 3, "two"), 31),
    (("antipod", 4, None), 32),
    (("anti-grid", 6, "plain"), 33),
    (("anti-grid", 8, "chain"), 34),
    (("phalanx", None, None), 35),
    (("antipode", None, "standard"), 36),
]


def _played(pair: Pair):
    """Seeded play until the players to move at one board may set back their own last move
    and the opponent's answer in either order: (that board's robot, the other's)."""
    for _ in range(30):
        pair.act("move")
        asker = next((r for r in pair.robots if r.at_table()), None)
        if asker is not None and len(asker.moves) >= 4 and apart(asker.states, asker.moves):
            side = asker.state.to_move
            if asker.states[-3].to_move == side != asker.states[-2].to_move:
                return asker, pair.robots[1 - pair.robots.index(asker)]
    raise AssertionError("no such position")


@pytest.mark.parametrize("pause", [0, 1000])
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("game, seed", GAMES)
def test_two_turns_set_back_by_hand_on_paired_boards_give_no_warning(game, seed, order, pause):
    """The players set back two turns by hand: meanwhile their OLED warns of nothing (it may
    say it waits: "Taking back? ...") and the other board is told nothing but the request to
    undo 2 moves; agreed there, both boards hold the game without them, and no token the
    players turned back is asked to be turned again."""
    pair = Pair(Game.of(*game), random.Random(seed), kinds=())
    try:
        asker, other = _played(pair)
        here, there = asker.board, other.board
        moves = list(here.held())
        begun, told = len(here.events), len(there.events)
        set_back(here, asker.states, moves, order, pause)
        here.settle()
        assert pair._until(lambda: "Take back?" in there.screen()), here.screen()
        assert "Opponent asks to undo 2 moves" in there.screen()
        assert not [e for e in there.events[told:] if e["event"] in ("expect", "move")]
        assert warnings(here.events[begun:]) == []
        assert here.held() == there.held() == tuple(moves)
        there.press("ok")
        assert pair._until(lambda: here.held() == there.held() == tuple(moves[:-2]))
        here.settle()
        assert warnings(here.events[begun:]) == []
        assert not any(line.startswith("Flip") for line in here.screen())  # turned back already
    finally:
        pair.close()
