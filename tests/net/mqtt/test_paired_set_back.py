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
from testbed.streams import of

GAMES = [
    (("antipalos", 3, "two"), 31, None, 4),
    (("antipod", 4, None), 32, None, 4),
    (("anti-grid", 6, "plain"), 33, None, 4),
    (("anti-grid", 8, "chain"), 34, None, 4),
    (("phalanx", None, None), 35, None, 4),
    (("antipode", None, "standard"), 36, None, 4),
    # one of the two turns had a step after it: a capture's removal, an edge stone's twin
    (("anti-grid", 6, "plain"), 50, "remove", 4),
    (("phalanx", None, None), 51, "remove", 4),
    (("antipod", 4, None), 52, "twin", 4),
    # Antipalos's Phase Two: pieces moved, not placed
    (("antipalos", 3, "two"), 90, None, 10),
]


def _steps(state, move: str) -> list[str]:
    """The kinds of the steps after ``move`` (made from ``state``)."""
    return [s.action for s in state.realisations(state.parse_move(move))[0].follow_ups]


def _played(pair: Pair, step: str | None, least: int):
    """Seeded play until the players to move at one board may set back their own last move
    and the opponent's answer in either order (one of them with a ``step`` after it, if
    given), ``least`` moves or more played: (that board's robot, the other's)."""
    for _ in range(80):
        pair.act("move")
        asker = next((r for r in pair.robots if r.at_table()), None)
        if asker is None or len(asker.moves) < least or not apart(asker.states, asker.moves):
            continue
        states, moves = asker.states, asker.moves
        steps = _steps(states[-3], moves[-2]) + _steps(states[-2], moves[-1])
        if states[-3].to_move == asker.state.to_move != states[-2].to_move and (
            step is None or step in steps
        ):
            return asker, pair.robots[1 - pair.robots.index(asker)]
    raise AssertionError("no such position")


@pytest.mark.parametrize("pause", [0, 1000])
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("game, seed, step, least", GAMES)
def test_two_turns_set_back_by_hand_on_paired_boards_give_no_warning(game, seed, step, least, order, pause):
    """The players set back two turns by hand: meanwhile their OLED warns of nothing (it may
    say it waits: "Taking back? ...") and the other board is told nothing but the request to
    undo 2 moves; agreed there, both boards hold the game without them, and no token the
    players turned back is asked (shown or announced) to be turned again."""
    pair = Pair(Game.of(*game), random.Random(seed), kinds=())
    try:
        asker, other = _played(pair, step, least)
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
        assert [g for g in of(here.events[begun:], "guide") if g["action"] == "flip"] == []  # nor said
    finally:
        pair.close()


def _after_a_chain(pair: Pair):
    """Seeded Anti-Grid chain play until the players to move at one board made one move and
    the opponent answered with several (a capture chain): (that board's robot, the other's,
    how many moves stay once both turns are set back)."""
    for _ in range(150):
        pair.act("move")
        asker = next((r for r in pair.robots if r.at_table()), None)
        if asker is None:
            continue
        states, side = asker.states, asker.state.to_move
        keep = len(asker.moves) - 1  # the players' own last move is the one after ``keep``
        while keep > 0 and states[keep].to_move != side:
            keep -= 1
        if len(asker.moves) - keep >= 3 and states[keep].to_move == side:
            before, own, now = (states[i].occupied() for i in (keep, keep + 1, -1))
            if not (before ^ own) & (own ^ now):
                return asker, pair.robots[1 - pair.robots.index(asker)], keep
    raise AssertionError("no such position")


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("seed", [70, 71])
def test_a_turn_set_back_by_hand_after_the_opponents_capture_chain_gives_no_warning(seed, order):
    """Paired Anti-Grid with chain captures: the players' move was answered by a chain of the
    opponent's moves. They set both turns back by hand (their own piece first, the opponent's
    first, or both in the hand), pausing a second halfway: no warning meanwhile, the other
    board asked to undo them all; agreed, both boards hold the game without them."""
    pair = Pair(Game.of("anti-grid", 6, "chain"), random.Random(seed), kinds=())
    try:
        asker, other, keep = _after_a_chain(pair)
        here, there = asker.board, other.board
        moves, states = list(here.held()), asker.states
        before, own, now = (states[i].occupied() for i in (keep, keep + 1, -1))
        halves = {"own": (own - before, before - own), "theirs": (now - own, own - now)}
        begun = len(here.events)

        def hands(lift, put) -> None:
            for site in sorted(lift):
                here.lift(site), here.run(100)
            for site in sorted(put):
                here.place(site), here.run(100)

        first, second = ("theirs", "own") if order == "theirs first" else ("own", "theirs")
        if order == "both in hand":
            hands(halves["own"][0] | halves["theirs"][0], ()), here.run(1000)
            hands((), halves["own"][1] | halves["theirs"][1])
        else:
            hands(*halves[first]), here.run(1000), hands(*halves[second])
        here.settle()
        assert pair._until(lambda: "Take back?" in there.screen())
        assert f"Opponent asks to undo {len(moves) - keep} moves" in there.screen()
        assert warnings(here.events[begun:]) == []
        there.press("ok")
        assert pair._until(lambda: here.held() == there.held() == tuple(moves[:keep]))
    finally:
        pair.close()
