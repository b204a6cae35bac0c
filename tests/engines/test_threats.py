"""Short tactics (engines/ai/threats.py): a fork is proved against every reply, and the move
picked never hands the opponent a win at once when another move would not."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import new_game
from engines.ai.baseline import one_ply
from engines.ai.profile import profile_of
from engines.ai.threats import Budget, fork, pick
from engines.antipode.state import AntipodeState
from engines.core import GameState
from tests.engines.play_tools import reached

FORK_BLUE = [
    "a1",
    "a2",
    "a4",
    "a5",
    "b1",
    "b3",
    "b5",
    "b6",
    "c2",
    "c3",
    "c4",
    "c6",
    "d1",
    "d3",
    "d5",
    "d7",
    "e3",
    "e4",
    "e5",
    "e7",
    "e8",
    "e9",
    "f2",
    "f9",
    "g4",
    "g7",
    "g8",
    "h5",
    "h6",
    "h9",
    "i5",
    "i6",
]
FORK_RED = [
    "a3",
    "b2",
    "c1",
    "c7",
    "d2",
    "d4",
    "d6",
    "d8",
    "e1",
    "e2",
    "e6",
    "f3",
    "f4",
    "f5",
    "f6",
    "f7",
    "f8",
    "g3",
    "g5",
    "g6",
    "g9",
    "h4",
    "h8",
    "i7",
    "i8",
    "i9",
]
#: What one win check costs a tactical budget in Antipode (its search profile).
CHECK = profile_of(new_game("antipode")).win_check_cost


def loses_at_once(state: GameState, move) -> bool:
    """Whether after ``move`` the game is lost or the opponent can win with one move."""
    child = state.apply(move)
    outcome = child.outcome()
    if outcome is not None:
        return outcome.winner not in (state.to_move, "draw")
    return GameState.winning_move(child) is not None


def test_a_fork_leaves_a_win_in_one_after_every_reply():
    state = AntipodeState.setup(FORK_BLUE, FORK_RED, pawns=("a1", "d8"))
    assert state.winning_move() is None
    move = fork(state, state.legal_moves(), Budget(10**6, CHECK))
    assert str(move) == "h7:d1"
    child = state.apply(move)
    for reply in child.legal_moves():
        after = child.apply(reply)
        assert GameState.winning_move(after) is not None, reply
    assert str(pick(state, list(state.legal_moves()), Budget(10**6, CHECK))) == "h7:d1"


def test_a_fork_is_not_claimed_when_a_reply_holds():
    state = new_game("antipode")
    assert fork(state, state.legal_moves(), Budget(10**6, CHECK)) is None
    assert fork(state, state.legal_moves(), Budget(10**6, CHECK), depth=2) is None


@settings(max_examples=25, deadline=None)
@given(st.integers(30, 54), st.integers(0, 10**6), st.integers(0, 400))
def test_the_move_picked_never_hands_over_a_win_when_another_would_not(turns, seed, limit):
    state = reached("antipode", None, seed, turns)
    moves = list(state.legal_moves())
    random.Random(seed).shuffle(moves)
    move = pick(state, moves, Budget(limit, CHECK))
    state.check(move)
    if loses_at_once(state, move):
        assert all(loses_at_once(state, other) for other in moves)


@settings(max_examples=25, deadline=None)
@given(st.integers(30, 54), st.integers(0, 10**6))
def test_the_baseline_never_loses_at_once_when_it_need_not(turns, seed):
    state = reached("antipode", None, seed, turns)
    move = one_ply(state, random.Random(seed))
    if loses_at_once(state, move):
        assert all(loses_at_once(state, other) for other in state.legal_moves())


def test_a_move_that_wins_at_once_is_picked_even_with_no_budget_left():
    """Red can win with c4:f5 here, and every move that does not win hands Blue a win at once;
    pick used to pass over the win as a finished game and fall back to the first move."""
    state = reached("antipode", None, 2923, 45)
    moves = list(state.legal_moves())
    random.Random(2923).shuffle(moves)
    move = pick(state, moves, Budget(0, CHECK))
    assert state.apply(move).outcome().winner == state.to_move
