"""Two reference players the levels are measured against (bench/ai.py and the tests).

``one_ply``: wins at once when it can, else avoids a move that loses at once or after which the
opponent wins at once (blocking it), preferring the move that leaves the most material, else
plays at random.
``random_player``: any legal move. Both take (state, rng) and look at no more than
:data:`SAMPLE` moves, so Antipalos Phase Two's tens of thousands stay affordable.

>>> import random
>>> from engines import new_game
>>> state = new_game("antipod", size=4)
>>> state.check(one_ply(state, random.Random(1)))
"""

from __future__ import annotations

import random

from engines.ai.mcts import candidate_moves
from engines.ai.profile import profile_of
from engines.core import DRAW, GameState
from engines.core.state import M, side_to_move

SAMPLE = 400


def random_player(state: GameState[M], rng: random.Random) -> M:
    return state.random_move(rng)


def _moves(state: GameState[M], rng: random.Random) -> list[M]:
    return candidate_moves(state, rng, SAMPLE)


def _wins(state: GameState[M], side: str) -> bool:
    outcome = state.outcome()
    return outcome is not None and outcome.winner == side


def _lost(state: GameState[M], side: str) -> bool:
    """Whether ``side`` has lost (a move can connect the opponent's chain)."""
    outcome = state.outcome()
    return outcome is not None and outcome.winner not in (side, None, DRAW)


def _opponent_wins(state: GameState[M], rng: random.Random) -> bool:
    """Whether the side to move in ``state`` (an opponent) can win with one move."""
    if state.to_move is None:
        return False
    moves = None if profile_of(state).win_check_cost is not None else _moves(state, rng)
    return state.winning_move(moves) is not None


def one_ply(state: GameState[M], rng: random.Random) -> M:
    side = side_to_move(state)
    after = [(move, state.apply(move)) for move in _moves(state, rng)]
    for move, child in after:
        if _wins(child, side):
            return move
    after.sort(key=lambda kid: -kid[1].material_balance(side))
    for move, child in after:
        if not _lost(child, side) and (child.to_move == side or not _opponent_wins(child, rng)):
            return move
    return after[0][0]
