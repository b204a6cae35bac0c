"""What the computer knows of Antipode beyond the rules: wins in one found with bit masks agree
with playing every turn, and a corner ends the placements with the colour the distance expects.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import new_game
from engines.antipode import AntipodeState
from engines.antipode.board import CELLS, NAMES
from engines.antipode.distance import CORNERS, FAR, destined, distances
from engines.antipode.tactics import winning_turns
from engines.core import GameState
from tests.engines.play_tools import reached


def wins(state: AntipodeState, turn) -> bool:
    outcome = state.apply(turn).outcome()
    return outcome is not None and outcome.winner == state.to_move


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 160), st.integers(0, 10**6))
def test_a_win_in_one_is_found_exactly_when_playing_every_turn_finds_one(turns, seed):
    state = reached("antipode", None, seed, turns)
    slow = GameState.winning_move(state)
    fast = list(winning_turns(state))
    assert (state.winning_move() is None) == (slow is None)
    assert all(wins(state, turn) for turn in fast)
    assert {str(t) for t in fast} == {str(t) for t in state.legal_moves() if wins(state, t)}


def test_a_win_by_leaving_the_opponent_no_turn_is_found():
    blue = [
        "a1",
        "a3",
        "a4",
        "b1",
        "b5",
        "b6",
        "c2",
        "d1",
        "d8",
        "e1",
        "e2",
        "e3",
        "e5",
        "f2",
        "f4",
        "f6",
        "g3",
        "g5",
        "g9",
        "h4",
        "h5",
        "h6",
        "h7",
        "h9",
        "i5",
        "i7",
        "i8",
    ]
    red = [name for name in NAMES if name not in blue]
    state = AntipodeState.setup(blue, red, pawns=("f2", "c1"))
    turn = state.winning_move()
    assert str(turn) == ":c2"
    assert state.apply(turn).outcome().result == "forfeit"


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 50), st.integers(0, 10**6))
def test_a_corner_ends_the_placements_with_the_colour_it_is_bound_to(turns, seed):
    """Unless a pawn stands on it while a neighbour is filled (it then keeps its face)."""
    rng, state = random.Random(seed), reached("antipode", None, seed, turns)
    bound, guarded = destined(state.blue, state.tokens), 0
    while not state.full and state.outcome() is None:
        guarded |= (1 << state.pawns[0]) | (1 << state.pawns[1])
        state = state.apply(state.random_move(rng))
    if state.full:
        for corner in CORNERS:
            if not guarded >> corner & 1:
                assert state.blue >> corner & 1 == bound >> corner & 1, NAMES[corner]


def test_a_pair_with_a_corner_bound_to_the_other_colour_is_out():
    """At the start every corner will be flipped by its three empty neighbours, so each pair
    stays split; a token placed beside a corner under its own pawn keeps that corner's face."""
    state = new_game("antipode")
    blue, red = state.blue, state.tokens & ~state.blue
    assert distances(blue, red) == (8, 8)
    assert distances(blue, red, state.tokens) == (FAR, FAR)
    after = state.play("d1:d1")  # Blue's pawn on e1 keeps it blue; e9 will turn blue
    assert distances(after.blue, after.tokens & ~after.blue, after.tokens) == (8, FAR)
    full = (1 << len(CELLS)) - 1
    assert distances(blue, full & ~blue, full) == (FAR, FAR)
