"""Paired boards: a request the players make while something is still being carried out at
their board reaches the other board at once, or is made at once when it undoes only a move
the other board was never sent (written from the players' side: what each OLED says)."""

from __future__ import annotations

import random

import pytest

from firmware_host.board.controller import Game
from testbed.pair import Pair
from testbed.streams import of, said


def _do_all_but_carry(robot) -> None:
    """Do what the board lights, but leave the unseen pawns where they stand (no OK)."""
    for _ in range(8):
        robot.board.settle()
        rest = {s: w for s, w in robot.asks().items() if w not in ("carry", "pawns")}
        if not rest:
            return
        robot._do(rest)


def test_antipode_a_takeback_asked_while_the_last_ones_pawns_are_to_carry_is_asked_at_once():
    """Four moves on paired Antipode boards; Blue's players (t1) take back from the menu, Red's
    (t2) agree. t1's players set the tokens back and, before carrying the pawns back as the
    OLED asks, ask to take back again: t2's OLED asks "Take back?" (before, the request waited
    unsent until the pawns were carried and OK pressed); agreed, both boards go back to the
    start."""
    pair = Pair(Game.of("antipode", None, "standard"), random.Random(5), kinds=())
    try:
        for _ in range(4):
            pair.act("move")
        t1, t2 = pair.robots
        t1.menu("Take back")
        assert pair._until(lambda: "Take back?" in t2.board.screen())
        t2.board.press("ok")
        assert pair._until(lambda: len(t1.board.held()) == 2)
        _do_all_but_carry(t1)
        assert any("back to" in line and line.endswith("then OK") for line in t1.board.screen())
        t1.menu("Take back")
        assert any(line.startswith("Take back asked") for line in t1.board.screen())
        assert pair._until(lambda: "Take back?" in t2.board.screen())
        assert "Opponent asks to undo 2 moves" in t2.board.screen()
        t2.board.press("ok")
        assert pair._until(lambda: t1.board.held() == t2.board.held() == ())
    finally:
        pair.close()


def test_anti_grid_two_moves_set_back_by_hand_pausing_halfway_reads_no_move():
    """Paired Anti-Grid: Red (t1) plays k1-k7, Blue (t2) answers f12-f7. Red's players set both
    back by hand, their own piece first (k7 back to k1, which is also a legal move of Red's),
    pausing a second before Blue's piece goes back to f12. Meanwhile t1 says it waits
    ("Taking back? ...") and t2 is told nothing; then t2 asks its players to undo 2 moves, and
    agreed, both boards are back at the start."""
    pair = Pair(Game.of("anti-grid", 6, "plain"), random.Random(0), kinds=())
    try:
        pair.act("move"), pair.act("move")
        t1, t2 = pair.boards
        assert t1.held() == t2.held() == ("k1-k7", "f12-f7")
        begun = len(t2.events)
        t1.lift("k7"), t1.run(100), t1.place("k1"), t1.run(1000)
        assert any(line.startswith("Taking back? Set the rest back") for line in t1.screen())
        t1.lift("f7"), t1.run(100), t1.place("f12")
        assert pair._until(lambda: "Take back?" in t2.screen())
        assert "Opponent asks to undo 2 moves" in t2.screen()
        assert not [e for e in t2.events[begun:] if e["event"] in ("expect", "move")]
        assert t1.held() == ("k1-k7", "f12-f7")
        t2.press("ok")
        assert pair._until(lambda: t1.held() == t2.held() == ())
    finally:
        pair.close()


def test_antipode_tokens_turned_back_while_a_takeback_by_hand_is_asked_count_once_agreed():
    """Paired Antipode: Blue's players (t1) place b1, turning a1, and regret it before Red
    answers: they lift b1 and turn a1 back, then wait for Red's players (t2) to agree. Agreed,
    t1 asks only for the pawn to be carried back, not for a1 to be turned again (before, it
    asked "Flip a1", and a player who obeyed left a1 showing the wrong face)."""
    pair = Pair(Game.of("antipode", None, "standard"), random.Random(1), kinds=())
    try:
        pair.act("move")
        t1, t2 = pair.boards
        assert t1.held() == ("b1:b1",)
        t1.lift("b1"), t1.run(150), t1.lift("a1"), t1.run(300), t1.place("a1"), t1.run(150)
        t1.settle(), t1.run(2000), t1.settle()
        assert any(line.startswith("Take back asked") for line in t1.screen())
        assert pair._until(lambda: "Take back?" in t2.screen())
        t2.press("ok")
        assert pair._until(lambda: t1.held() == t2.held() == ())
        t1.settle()
        assert not any("Flip" in line for line in t1.screen())
        assert any("Blue pawn: b1 back to e1, then OK" in line for line in t1.screen())
    finally:
        pair.close()


@pytest.mark.parametrize("game", [("antipod", 4, None), ("antipode", None, "standard")])
def test_paired_a_takeback_asked_while_the_own_move_is_under_way_is_never_left_unsent(game):
    """Paired boards: the players to move begin their move (a stone without its twin yet; a
    token placed, its flips and landing to come) and ask MENU -> Take back. A move the other
    board was never sent is taken back at once here ("Took back ..."); else the other board is
    asked at once ("Take back?") and agrees. Either way both boards then hold the same game."""
    pair = Pair(Game.of(*game), random.Random(7), kinds=())
    try:
        for _ in range(3):
            pair.act("move")
        asker = next(r for r in pair.robots if r.at_table())
        other = pair.robots[1 - pair.robots.index(asker)]
        state = asker.board.position()
        move = next(
            m for m in sorted(state.legal_moves(), key=state.notation) if state.realisations(m)[0].follow_ups
        )
        for site in sorted(state.realisations(move)[0].filled):
            asker.board.place(site), asker.board.run(100)
        asker.board.settle()
        begun = len(asker.board.events)
        asker.menu("Take back")
        local = of(asker.board.events[begun:], "takeback")
        if local:
            assert said(asker.board.events[begun:], "Took back") and not said(asker.board.events, "refused")
        else:
            assert pair._until(lambda: "Take back?" in other.board.screen())
            other.board.press("ok")
        assert pair._until(lambda: pair.link.idle() and asker.board.held() == other.board.held())
    finally:
        pair.close()


@pytest.mark.parametrize(
    "game, seed",
    [
        (("antipalos", 3, "two"), 3),
        (("antipod", 4, None), 4),
        (("phalanx", None, None), 3),
        (("anti-grid", 6, "chain"), 4),
        (("anti-grid", 8, "plain"), 3),
    ],
)
def test_two_turns_set_back_by_hand_with_a_pause_reads_no_move_in_any_game(game, seed):
    """Paired boards, two turns played (t1's first). t1's players set both back by hand, their
    own piece first, pausing a second halfway (the pieces may then show a legal move). t2 is
    told nothing meanwhile, then asked to undo 2 moves; agreed, both boards are at the start."""
    from engines import new_game

    pair = Pair(Game.of(*game), random.Random(seed), kinds=())
    try:
        pair.act("move"), pair.act("move")
        t1, t2 = pair.boards
        first, second = t1.held()
        state = new_game(*game)
        own = state.realisations(state.parse_move(first))[0]
        state = state.play(first)
        theirs = state.realisations(state.parse_move(second))[0]
        begun = len(t2.events)
        for real, pause in ((own, 1000), (theirs, 0)):
            for site in sorted(real.filled):
                t1.lift(site), t1.run(100)
            for site in sorted(real.emptied):
                t1.place(site), t1.run(100)
            t1.run(pause)
        assert pair._until(lambda: "Take back?" in t2.screen())
        assert "Opponent asks to undo 2 moves" in t2.screen()
        assert not [e for e in t2.events[begun:] if e["event"] in ("expect", "move")]
        t2.press("ok")
        assert pair._until(lambda: t1.held() == t2.held() == ())
    finally:
        pair.close()
