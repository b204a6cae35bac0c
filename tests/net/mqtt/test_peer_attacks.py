"""A paired board's game against forged messages from its peer: someone publishing as the other
board (a broker without the docs' ACL) rewrites its earlier moves, or sends moves of this
board's side, or floods long histories. Two boards as docs/cafe.md pairs them
(``testbed/pair.py``), the forger on the same in-memory bus; the board attacked is t1."""

from __future__ import annotations

import json
import random
import time

import pytest

from engines.core import GameState
from firmware_host.board.game import Game
from firmware_host.board.opponent import Play, Seen
from firmware_host.net.mqtt.remote import Remote
from testbed.bus import Bus
from testbed.pair import Pair

ANTIPOD = Game.of("antipod", 4)
FORGED = "reedboard run: board t2's game is not followed"


def played(plies: int) -> Pair:
    """t1 and t2 paired in Antipod 4, ``plies`` moves played by their players."""
    pair = Pair(ANTIPOD, random.Random(5), kinds=())
    for _ in range(plies):
        pair.act("move")
    assert len(pair.boards[0].held()) == plies
    return pair


def forge(pair: Pair, moves: list[str], t2_reads_its_topic: bool = False) -> None:
    """Publish, retained, as t2 on its topic: t1's game (its token and rewrites) with ``moves``;
    unless ``t2_reads_its_topic``, t2 does not hear it (its ACL lets it read only the other
    board's topics: it cannot put its own game back)."""
    if not t2_reads_its_topic:
        pair.bus.links["t2"].handlers.pop("reedboard/t2/moves", None)
    record = pair.boards[0].controller.record
    payload = Remote.payload(
        "antipod", 4, None, record.token, moves, [list(r) for r in record.rewrites], None, None
    )
    pair.bus.link("forger").publish("reedboard/t2/moves", payload, retain=True)
    pair.boards[0].run(2000)


def other_move(state: GameState, not_this: str) -> str:
    """A legal move in ``state`` other than ``not_this``."""
    return next(m for m in map(state.notation, state.legal_moves()) if m != not_this)


def continued(state: GameState, moves: list[str], plies: int, rng: random.Random) -> list[str]:
    """``moves`` (which lead to ``state``) and random legal moves after them, up to ``plies`` in
    all or the game's end."""
    moves = list(moves)
    while len(moves) < plies and state.outcome() is None:
        moves.append(state.notation(rng.choice(list(state.legal_moves()))))
        state = state.play(moves[-1])
    return moves


def refused_once(pair: Pair, held: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    """t1's game is ``held`` still, its journal said the refusal once and its screen says it."""
    board = pair.boards[0]
    assert board.held() == held
    assert capsys.readouterr().err.count(FORGED) == 1
    assert board.controller.opponent.note == Remote.DIFFERS
    assert "changed the game" in " ".join(board.screen())


def test_a_peer_changing_its_earlier_move_does_not_cut_this_boards_game(capsys):
    """Six moves played; "t2" publishes the first two with its own move changed: t1 keeps its six
    moves (before, it took the two, its players' later moves deleted with no takeback asked),
    says so once in the journal, and its screen says the opponent's board changed the game."""
    pair = played(6)
    try:
        held = pair.boards[0].held()
        second = pair.boards[0].controller.states[1]
        capsys.readouterr()
        forge(pair, [held[0], other_move(second, held[1])])
        forge(pair, [held[0], other_move(second, held[1])])  # sent again: said once
        refused_once(pair, held, capsys)
    finally:
        pair.close()


@pytest.mark.parametrize("changed", [True, False], ids=["history changed", "history kept"])
def test_a_peer_sending_moves_of_this_boards_side_is_refused(changed, capsys):
    """ "t2" publishes 28 moves: the game played (or with its move changed) and a continuation
    holding moves of t1's side: t1 keeps its game (before, it took all 28, 13 moves of its own
    side it never made, and a game won stored as running)."""
    pair = played(6)
    try:
        held = pair.boards[0].held()
        states = pair.boards[0].controller.states
        start = [*held[:1], other_move(states[1], held[1])] if changed else list(held)
        state = states[1].play(start[1]) if changed else states[-1]
        capsys.readouterr()
        forge(pair, continued(state, start, 28, random.Random(2)))
        refused_once(pair, held, capsys)
    finally:
        pair.close()


def test_the_pair_agrees_again_after_a_forgery(capsys):
    """After a forged change published as t2, t2 (which reads its own topic) publishes its game
    again: t1 follows it again, its note gone, and the game goes on on both boards."""
    pair = played(6)
    try:
        held = pair.boards[0].held()
        forge(
            pair, [held[0], other_move(pair.boards[0].controller.states[1], held[1])], t2_reads_its_topic=True
        )
        pair.check()
        assert json.loads(pair.bus.retained["reedboard/t2/moves"])["moves"] == list(held)
        assert pair.boards[0].controller.opponent.note is None and pair.boards[0].held() == held
        pair.act("move")
        assert pair.boards[0].held() == pair.boards[1].held() == (*held, pair.boards[1].held()[-1])
    finally:
        pair.close()


# ---------------------------------------------------------------------- long histories
GRID = Game.of("anti-grid", 8)


def long_game(plies: int) -> tuple[tuple[str, ...], tuple[GameState, ...]]:
    """A legal Anti-Grid 8 game of ``plies`` random moves, and the positions it leads through."""
    states, rng = [GRID.new()], random.Random(1)  # a game that lasts
    moves: list[str] = []
    while len(moves) < plies:
        moves.append(states[-1].notation(rng.choice(list(states[-1].legal_moves()))))
        states.append(states[-1].play(moves[-1]))
    return tuple(moves), tuple(states)


def test_long_histories_cost_the_loop_only_their_new_moves(monkeypatch):
    """A forged peer publishes long legal histories again and again: each message is read once
    (polled at three steps), and reading it plays through the engine only the moves new to this
    board up to where this board's side is to move (one here), not the thousands known (before,
    every message was played from the start: 300-1,200 ms a step at 5,000 plies). Lists that
    rewrite the game or go on with this board's side are refused; the peer's next move is lit.
    The poll's cost is printed (not asserted)."""
    moves, states = long_game(3000)
    bus = Bus()
    t1 = Remote(bus.link("t1"), "t1", "t2", "second", clock=lambda: bus.now / 1000)
    theirs = t1.side_in(states[0])
    k = max(n for n in range(len(moves) - 1) if states[n].to_move == theirs)  # t2 is to move
    token = "00000001764050000000:t1"
    here = Seen(GRID, 1, moves[:k], states[: k + 1], awaiting=True, final=True, token=token)
    plays: list[str] = []
    real_play = type(states[0]).play
    monkeypatch.setattr(type(states[0]), "play", lambda s, m: plays.append(m) or real_play(s, m))
    first = next(n for n in range(k) if states[n].to_move == theirs)
    changed = [*moves[:first], other_move(states[first], moves[first]), *moves[first + 1 : k + 1]]
    forged = {
        "its next move": list(moves[: k + 1]),
        "history changed": changed,
        "this board's moves too": list(moves),
    }
    for name, texts in forged.items():
        payload = Remote.payload("anti-grid", 8, None, token, texts, [], None, None)
        plays.clear()
        began = time.perf_counter()
        for _ in range(10):  # ten messages, each polled at three steps
            bus.link("forger").publish("reedboard/t2/moves", payload, retain=True)
            bus.deliver(bus.now + 1)
            intents = [t1.poll(here) for _ in range(3)][-1]
        print(f"{name}: {(time.perf_counter() - began) / 30 * 1000:.2f} ms a poll, {k}-ply game")
        assert len(plays) <= 10, (name, len(plays))
        assert bool(intents and isinstance(intents[0], Play)) == (name == "its next move"), name
        assert (t1.note == Remote.DIFFERS) == (name != "its next move"), name


def test_a_forged_change_made_at_once_with_ours_does_not_win_over_it(capsys):
    """t1's players corrected their move (a history entry t2 has not followed yet); "t2"
    publishes a takeback of t1's moves to the start that nobody asked for, as if made at the
    same time: the fewer moves kept would win, but a takeback of this board's moves stands only
    where its players asked (before, t1 took the empty game)."""
    bus = Bus()
    t1 = Remote(bus.link("t1"), "t1", "t2", "second", clock=lambda: bus.now / 1000)
    states, moves = [ANTIPOD.new()], []
    for _ in range(3):  # white (t1), black (t2), white corrected
        moves.append(states[-1].notation(next(iter(states[-1].legal_moves()))))
        states.append(states[-1].play(moves[-1]))
    token = "00000001764050000000:t1"
    here = Seen(
        ANTIPOD,
        1,
        tuple(moves),
        tuple(states),
        awaiting=False,
        final=True,
        token=token,
        rewrites=((2, "white"),),
    )
    payload = Remote.payload("antipod", 4, None, token, [], [[0, "white"]], None, None)
    bus.link("forger").publish("reedboard/t2/moves", payload, retain=True)
    bus.deliver(1)
    capsys.readouterr()
    assert t1.poll(here) == [] and t1.poll(here) == []
    assert capsys.readouterr().err.count(FORGED) == 1 and t1.note == Remote.DIFFERS
