"""What the board needs when a piece is lifted beside the one that moves: which legal moves take
pieces off. Each game answers without working out every move where it can, and says exactly
what working them all out says."""

import random

import pytest

from engines import MODULES, new_game
from engines.core.state import GameState
from engines.phalanx.state import _phalanxed, _side_map


def positions(name: str, seed: int, plies: int = 150, variant: str | None = None):
    """The positions of one random game of ``name``, a capture played half the time there is
    one (so that pieces are taken off, removals fall due and capture chains go on)."""
    rng, state = random.Random(seed), new_game(name, variant=variant)
    for _ in range(plies):
        yield state
        moves = state.legal_moves()
        if not moves:
            return
        taking = [move for move, _, _ in GameState.taking_moves(state)] if rng.random() < 0.5 else []
        state = state.apply(rng.choice(taking or list(moves)))
    yield state


def slow(state: GameState) -> list[tuple[str, frozenset[str], frozenset[str]]]:
    """Every legal move's every realisation worked out, those that remove pieces kept."""
    out = []
    for move in state.legal_moves():
        for real in state.realisations(move):
            removed = frozenset().union(*(s.sites for s in real.follow_ups if s.action == "remove"))
            if removed:
                out.append((state.notation(move), real.emptied, removed))
    return out


@pytest.mark.parametrize(
    "name, variant", [(name, None) for name in sorted(MODULES)] + [("anti-grid", "chain")]
)
def test_every_position_names_the_moves_that_take_pieces_off(name, variant):
    seen = 0
    for seed in (1, 2):
        for state in positions(name, seed, plies=60, variant=variant):
            fast = [
                (state.notation(move), emptied, removed) for move, emptied, removed in state.taking_moves()
            ]
            assert fast == slow(state), str(state.ply)
            seen += bool(fast)
    assert seen or not type(state).TAKES  # a game with captures met some


def test_a_phalanx_capture_removes_every_piece_the_move_phalanxes():
    """Worked out over the whole board after the move, as the rules say it."""
    for state in positions("phalanx", 3):
        if state.pending:
            continue
        for move in state.legal_moves():
            index = state.pieces.index(state.piece_on(move.frm))
            after = list(state.pieces)
            after[index] = state.pieces[index]._replace(origin=state._destination(move)[1])
            owner = _side_map(after)
            taken = [p for p in after if p.side != state.turn and _phalanxed(p, owner)]
            (real,) = state.realisations(move)
            removed = [step.sites for step in real.follow_ups if step.action == "remove"]
            assert removed == ([frozenset().union(*(p.sites for p in taken))] if taken else []), str(move)
