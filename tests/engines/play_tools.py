"""Positions for engine tests: where a seeded random game stands."""

from __future__ import annotations

import random

from engines import new_game
from engines.core import GameState


def reached(game: str, size: int | None, seed: int, plies: int) -> GameState:
    """The last unfinished position of a random game of up to ``plies`` moves."""
    rng, state = random.Random(seed), new_game(game, size)
    for _ in range(plies):
        after = state.apply(state.random_move(rng))
        if after.outcome() is not None:
            break
        state = after
    return state
