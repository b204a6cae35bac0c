"""What the players' hands mean, tried on positions no other test plays: each case of
``test_hand_streams.py`` again, on positions reached by seeded random play in every game that
has it, the stream written as a player acts (what the OLED and the events should then say).
"""

from __future__ import annotations

import json
import random
from typing import Iterable

import pytest

from engines import new_game
from firmware_host.board.turn import undo_steps
from testbed.robot import knocks_to_moves
from testbed.streams import Stream, after, board_after, kinds, moves, of, run, said

#: The Antipode variants, one per seed in turn.
VARIANTS = ("standard", "rulebook", "no-repetition-draw", "no-full-board-turn")


def _start(game: str, size: int | None = None, variant: str | None = None):
    return new_game(game, size, variant) if size or variant else new_game(game)


def _played(seed: int, game: str = "antipode", size=None, variant=None, most: int = 30):
    """A position reached by seeded random play: (the moves, the position)."""
    rng, state, played = random.Random(seed), _start(game, size, variant), []
    for _ in range(rng.randint(3, most)):
        if state.outcome():
            break
        move = rng.choice(state.legal_moves())
        played.append(state.notation(move))
        state = state.apply(move)
    return played, state


def _make(stream: Stream, state, move: str) -> Stream:
    """``move`` made by hand as the board asks: pieces moved, tokens turned (0.3 s each), the
    landing tapped, pieces taken off, twins placed; then OK."""
    real = state.realisations(state.parse_move(move))[0]
    stream.move(real.emptied, real.filled)
    for step in real.follow_ups:
        if step.action in ("remove", "twin"):
            stream.move(
                step.sites if step.action == "remove" else (), step.sites if step.action == "twin" else ()
            )
        for site in (
            [min(step.sites)]
            if step.action == "pick"
            else sorted(step.sites)
            if step.action == "flip"
            else ()
        ):
            stream.lift(site).wait(50 if step.action == "pick" else 300).place(site).settle()
    return stream.press("ok").settle()


def _by_hand(game: str, size, variant, played: list[str]) -> Stream:
    """``played`` made by hand from the start."""
    state, stream = _start(game, size, variant), Stream()
    for move in played:
        _make(stream, state, move)
        state = state.play(move)
    return stream


def _antipode(stream: Stream, variant: str, before: list[str]) -> list[dict]:
    """``stream`` replayed on Antipode ``variant`` after ``before``."""
    head = {"setup": "start", "game": "antipode", "variant": variant, "moves": before}
    return run([json.dumps(head)] + stream.text().splitlines(), "antipode")


# ------------------------------------------------------------ a capture with both hands
def _capture_at(seed: int, game: str, size, variant):
    """The moves of a seeded game up to the first capture of the side to move, and that
    capture (a move with a removal)."""
    rng, state, played = random.Random(seed), _start(game, size, variant), []
    while not state.outcome():
        legal = state.legal_moves()
        captures = [
            m for m in legal if any(s.action == "remove" for s in state.realisations(m)[0].follow_ups)
        ]
        if captures and len(played) > 4:
            return played, state, captures[0]
        move = rng.choice([m for m in legal if m not in captures] or legal)
        played.append(state.notation(move))
        state = state.apply(move)
    raise AssertionError("no capture in this game")


CAPTURE_GAMES = [("anti-grid", 8, "plain", 11), ("anti-grid", 6, "chain", 12), ("phalanx", None, None, 13)]


@pytest.mark.parametrize(
    "how", ["together", "taken_first", "at_once", "taken_first_paused", "together_paused"]
)
@pytest.mark.parametrize("game, size, variant, seed", CAPTURE_GAMES)
def test_a_capture_made_with_both_hands_gives_no_warning(game, size, variant, seed, how):
    """The player lifts the capturing piece and, with the other hand, the piece it captures
    (together, the captured one first, or both at once; held 0.7 s, or paused 1.5 s so the
    board settles), then sets the piece down where it goes: no warning on the way, and the
    capture is recorded."""
    played, state, capture = _capture_at(seed, game, size, variant)
    real = state.realisations(capture)[0]
    mover, to = sorted(real.emptied), sorted(real.filled)
    taken = sorted(real.follow_ups[0].sites)
    stream = _by_hand(game, size, variant, played)
    begun = stream.t
    if how.startswith("together"):
        stream.lift(*mover).lift(*taken, after=50)
    elif how.startswith("taken_first"):
        stream.lift(*taken)
    else:
        stream.lift(*mover).lift(*taken, after=50)
    if how.endswith("paused"):
        stream.settle().wait(1500).settle()
    elif how != "at_once":
        stream.wait(700)
    if how.startswith("taken_first"):
        stream.lift(*mover)
    stream.place(*to).settle().wait(1000).settle()
    events = run(stream.text(), game, size, variant)
    since = [e for e in events if e.get("t", 0) > begun]
    assert "out_of_sync" not in kinds(since) and "illegal" not in kinds(since)
    lines = [line for e in since if e["event"] == "display" for line in e["lines"]]
    assert not any(" back" in line for line in lines)
    assert not any("to a lit site" in line and any(t in line for t in taken) for line in lines)
    assert events[-1]["moves"] == played + [state.notation(capture)]


# ------------------------------------------------------------ a takeback through an earlier position
def _flips_the_last_placed(seed: int, variant: str):
    """A seeded Antipode game up to a move that turns the token the move before placed (its
    takeback, that token in the hand, shows the position before that move): (the moves, the
    position, the move)."""
    rng, state, played, placed = random.Random(seed), _start("antipode", None, variant), [], None
    while not state.outcome():
        for move in state.legal_moves():
            flips = frozenset().union(
                *(s.sites for s in state.realisations(move)[0].follow_ups if s.action == "flip")
            )
            if placed in flips and len(played) >= 4:
                return played, state, state.notation(move)
        move = rng.choice(state.legal_moves())
        placed = min(state.realisations(move)[0].filled, default=None)
        played.append(state.notation(move))
        state = state.apply(move)
    raise AssertionError("no such move in this game")


@pytest.mark.parametrize("seed", range(20, 26))
def test_antipode_a_takeback_by_hand_through_an_earlier_position_takes_back_one_turn(seed):
    """A move made in full, then regretted: the placed token off, the tokens it turned
    turned back one by one (held 0.4 s each: one of them was placed by the move before, so
    meanwhile the pieces show the position before that move), the pawn carried home, OK. One
    turn is taken back, nothing else is read, and the side that moved is to move again."""
    variant = VARIANTS[seed % len(VARIANTS)]
    before, state, move = _flips_the_last_placed(seed, variant)
    stream = _make(Stream(), state, move)
    real = state.realisations(state.parse_move(move))[0]
    stream.lift(*sorted(real.filled)).wait(500).settle()
    played = state.play(move)
    for site in sorted(
        frozenset().union(*(s.sites for s in undo_steps(played, state) if s.action == "flip"))
    ):
        stream.lift(site).wait(400).place(site).settle()
    stream.wait(1500).settle().press("ok").settle()
    events = _antipode(stream, variant, before)
    assert of(events, "takeback") == [{"move": move}] and moves(events) == [move]
    assert not said(events, before[-1]) and events[-1]["moves"] == before
    assert events[-1]["position"]["to_move"] == state.to_move


# ------------------------------------------------------------ a knock that equals a legal move
def _knock_positions(seeds: Iterable[int] = range(30, 40)):
    """Seeded Antipode positions where a token knocked onto its empty neighbour equals a legal
    move: (seed, variant, moves, token, neighbour, move)."""
    found = []
    for seed in seeds:
        variant = VARIANTS[seed % len(VARIANTS)]
        before, state = _played(seed, variant=variant)
        knocks = [] if state.outcome() else knocks_to_moves(state)
        if knocks:
            found.append((seed, variant, before, *random.Random(seed).choice(knocks)))
    return found


@pytest.mark.parametrize("seed, variant, before, token, onto, move", _knock_positions())
def test_antipode_a_knock_that_equals_a_move_set_right_leaves_no_move(
    seed, variant, before, token, onto, move
):
    """The hand pushes a token onto its empty neighbour (the pieces then show a legal move,
    that token turned) and the player sets it right: the token back, the neighbour cleared.
    No move is recorded or said, nothing is taken back or asked to turn; the board says the
    token was knocked off."""
    stream = Stream().switch(token, False).switch(onto, True, after=30).wait(600).settle()
    stream.place(token).lift(onto, after=400).settle().wait(2000).settle()
    events = _antipode(stream, variant, before)
    assert moves(events) == [] and "takeback" not in kinds(events)
    assert events[-1]["moves"] == before and said(events, f"{token} knocked off")
    assert "out_of_sync" not in kinds(events)


# ------------------------------------------------------------ the pawn carried first
def _pawn_first(seed: int):
    """A seeded Antipode position and a move whose pawn passes tokens already on the board
    that neither the placement turns nor it is placed on: (variant, moves, position, move)."""
    variant = VARIANTS[seed % len(VARIANTS)]
    before, state = _played(seed, variant=variant)
    for move in sorted(state.legal_moves(), key=state.notation):
        steps = state.realisations(move)[0].follow_ups
        if [s.action for s in steps] == ["flip", "pick", "flip"]:
            path = steps[2].sites
            if path <= state.occupied() and not path & steps[0].sites:
                return variant, before, state, state.notation(move)
    return None


@pytest.mark.parametrize("seed", [s for s in range(40, 56) if _pawn_first(s)][:6])
def test_antipode_the_pawn_carried_first_turning_tokens_on_its_way_is_that_move(seed):
    """The player carries the pawn first, turning the tokens it passes; then places the
    token, turns its neighbours, taps the landing and presses OK: the move is recorded (any
    early turn first taken as a landing is corrected), no token is asked to turn again, and
    the other side is to move."""
    variant, before, state, move = _pawn_first(seed)
    first, pick, path = state.realisations(state.parse_move(move))[0].follow_ups
    stream = Stream()
    for site in sorted(path.sites):
        stream.lift(site).wait(300).place(site).settle()
    stream.move((), state.realisations(state.parse_move(move))[0].filled)
    for site in sorted(first.sites):
        stream.lift(site).wait(300).place(site).settle()
    landing = min(pick.sites)
    stream.lift(landing).wait(150).place(landing).settle().press("ok").settle()
    events = _antipode(stream, variant, before)
    assert events[-1]["moves"] == before + [move]
    assert events[-1]["position"]["to_move"] != state.to_move
    asked = [g for g in of(after(events, "move"), "guide") if g["action"] == "flip"]
    assert not any(set(g["sites"]) & path.sites for g in asked)


@pytest.mark.parametrize("seed", [44, 45])
def test_antipode_the_pawn_first_past_a_token_the_placement_turns_too_is_that_move(seed):
    """As above, but the pawn passes a token that the placement turns too (the player turns
    it twice: on the pawn's way, then as the placement's neighbour). The second turn is first
    taken as the tap on that token as a landing (a move of the same placement); the tap on
    the real landing then corrects it (before, the move the player did not make stayed)."""
    variant = VARIANTS[seed % len(VARIANTS)]
    before, state = _played(seed, variant=variant)
    real, move = next(
        (r, m)
        for m in sorted(state.legal_moves(), key=state.notation)
        for r in state.realisations(m)[:1]
        if [s.action for s in r.follow_ups] == ["flip", "pick", "flip"]
        and r.follow_ups[2].sites <= state.occupied()
        and r.follow_ups[2].sites & r.follow_ups[0].sites
    )
    first, pick, path = real.follow_ups
    stream = Stream()
    for site in sorted(path.sites):
        stream.lift(site).wait(300).place(site).settle()
    stream.move((), real.filled)
    for site in sorted(first.sites):
        stream.lift(site).wait(300).place(site).settle()
    landing = min(pick.sites)
    stream.lift(landing).wait(150).place(landing).settle().press("ok").settle()
    events = _antipode(stream, variant, before)
    assert events[-1]["moves"] == before + [state.notation(move)]
    assert events[-1]["position"]["to_move"] != state.to_move
    assert [c["move"] for c in of(events, "correction")] in ([], [state.notation(move)])


# ------------------------------------------------------------ a restart mid-steps
def _with_path_flip(seed: int):
    """A seeded Antipode position and a move ending with tokens its pawn passes to turn."""
    variant = VARIANTS[seed % len(VARIANTS)]
    before, state = _played(seed, variant=variant, most=16)
    for move in sorted(state.legal_moves(), key=state.notation):
        steps = state.realisations(move)[0].follow_ups
        if [s.action for s in steps] == ["flip", "pick", "flip"] and steps[2].sites <= state.occupied():
            return variant, before, state, state.notation(move)
    return None


@pytest.mark.parametrize("what", ["move", "takeback"])
@pytest.mark.parametrize("seed", [50, 53, 55])
def test_antipode_a_restart_mid_steps_asks_them_again_naming_the_side(seed, what):
    """The daemon restarts while a move's last flips are still to make (or, the move made in
    full and taken back from the menu, the takeback's): the board asks for them again as a
    `guide` event, and the OLED names the side whose steps they are."""
    variant, before, state, move = _with_path_flip(seed)
    stream = _by_hand("antipode", None, variant, before)
    first, pick, path = state.realisations(state.parse_move(move))[0].follow_ups
    stream.move((), state.realisations(state.parse_move(move))[0].filled)
    for site in sorted(first.sites):
        stream.lift(site).wait(300).place(site).settle()
    stream.lift(min(pick.sites)).wait(50).place(min(pick.sites)).settle()
    if what == "takeback":
        for site in sorted(path.sites):
            stream.lift(site).wait(300).place(site).settle()
        stream.press("ok").settle()
        for _ in range(4):
            stream.press("menu")
        stream.press("ok").settle()
    board = board_after(stream.restart().wait(1000), "antipode", variant=variant)
    try:
        since = board.events[board.restarts[-1] :]
        flips = [g for g in of(since, "guide") if g["action"] == "flip"]
        assert flips and (what == "takeback" or set(flips[0]["sites"]) == path.sites)
        assert f"{state.to_move.capitalize()} to move" in board.screen()
        assert any(line.startswith("Flip ") for line in board.screen())
    finally:
        board.close()


# ------------------------------------------------------------ two turns set back, one put again
SET_BACK_GAMES = [
    ("antipalos", 3, "two"),
    ("antipalos", 3, "cut-throat-3"),
    ("antipod", 4, None),
    ("anti-grid", 6, "plain"),
    ("phalanx", None, None),
]


def _plain_moves(seed: int, game: str, size, variant) -> list[str]:
    """4-12 moves of seeded random play (fewer if the game allows no more), none with a step
    after it (a set-back of the last two is then the pieces alone)."""
    rng, state, played = random.Random(seed), _start(game, size, variant), []
    for _ in range(rng.randint(4, 12)):
        plain = [m for m in state.legal_moves() if not state.realisations(m)[0].follow_ups]
        if state.outcome() or not plain:
            break
        move = rng.choice(plain)
        played.append(state.notation(move))
        state = state.apply(move)
    assert len(played) >= 2
    return played


@pytest.mark.parametrize("again", [True, False])
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("game, size, variant", SET_BACK_GAMES)
def test_two_turns_set_back_by_hand_then_one_made_again_takes_back_one(game, size, variant, seed, again):
    """Two players at one board set the last two turns back by hand, quickly, and 0.6 s later
    one of them makes the first of the two again (the other hand slipped): only the last turn
    is taken back. Left as set back, both are."""
    played = _plain_moves(seed, game, size, variant)
    states = [_start(game, size, variant)]
    for move in played:
        states.append(states[-1].play(move))
    first, last = (states[i - 1].realisations(states[i - 1].parse_move(played[i]))[0] for i in (-2, -1))
    stream = _by_hand(game, size, variant, played)
    stream.lift(*sorted(last.filled)).place(*sorted(last.emptied))
    stream.lift(*sorted(first.filled)).place(*sorted(first.emptied)).wait(600)
    if again:
        stream.lift(*sorted(first.emptied)).place(*sorted(first.filled))
    events = run(stream.settle().wait(2000).settle().text(), game, size, variant)
    undone = played[-1:] if again else played[:-3:-1]
    assert of(events, "takeback") == [{"move": move} for move in undone]
    assert moves(events) == played and events[-1]["moves"] == played[: len(played) - len(undone)]
