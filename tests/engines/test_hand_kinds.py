"""What the screen's "Place a token" / "Lift a piece to move it" rests on: each game says how its
legal moves are made by hand, and a game that knows it without working out every move says
exactly what working them all out says."""

import random

import pytest

from engines import MODULES, new_game
from engines.core.state import GameState


def positions(name: str, seed: int, plies: int = 120):
    """The positions of one random game of ``name`` (captures and removals as they come)."""
    rng, state = random.Random(seed), new_game(name)
    for _ in range(plies):
        yield state
        moves = state.legal_moves()
        if not moves:
            return
        state = state.apply(rng.choice(moves))
    yield state


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_position_names_the_hand_changes_its_moves_take(name):
    for state in positions(name, seed=1):
        assert state.hand_kinds() == GameState.hand_kinds(state), str(state.ply)
