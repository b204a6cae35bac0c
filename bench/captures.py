"""What the board asks of a position when a piece is lifted beside the one that moves: which
legal moves take pieces off (``GameState.taking_moves``), per game, beside working out every
legal move's realisations (the definition, what the board asked before) in the same run.

Positions: those of three random games of each game at its default size. Prints the CPU
milliseconds per position of each, their ratio, and a Pi Zero 2 W estimate (15-25x this
machine's pure Python, docs/performance.md).

    python -m bench.captures [--quick]
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace
from typing import Any, Callable

from bench.robust.common import report
from engines import GAME_NAMES, new_game
from engines.core.state import GameState


def positions(name: str, seed: int, plies: int) -> list[GameState[Any]]:
    """The positions of one random game of ``name``."""
    rng, state, out = random.Random(seed), new_game(name), []
    for _ in range(plies):
        out.append(state)
        moves = state.legal_moves()
        if not moves:
            break
        state = state.apply(rng.choice(moves))
    return out


def every_realisation(state: GameState[Any]) -> list[Any]:
    """The moves that remove pieces, found by working out every legal move's realisations."""
    return [
        move
        for move in state.legal_moves()
        for real in state.realisations(move)
        if any(step.action == "remove" and step.sites for step in real.follow_ups)
    ]


def ms_per_position(name: str, plies: int, ask: Callable[[GameState[Any]], Any]) -> float:
    """CPU ms per position of ``ask``, each position a fresh copy (nothing it cached while the
    game was played carried over)."""
    states = [replace(s) for seed in (1, 2, 3) for s in positions(name, seed, plies)]
    began = time.process_time()
    for state in states:
        ask(state)
    return 1000 * (time.process_time() - began) / len(states)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    plies = 30 if parser.parse_args(argv).quick else 100
    rows, figures = [], {"bench": "captures"}
    for name in GAME_NAMES:
        slow = ms_per_position(name, plies, every_realisation)
        fast = ms_per_position(name, plies, lambda s: s.taking_moves())
        key = name.replace("-", "")
        figures |= {f"{key}_ms": round(fast, 3), f"{key}_every_realisation_ms": round(slow, 3)}
        rows.append(
            (
                name,
                f"{fast:.3f} ms per position (every realisation: {slow:.3f} ms, "
                f"{slow / max(fast, 1e-6):.0f}x); Pi Zero 2 W ~{15 * fast:.1f}-{25 * fast:.1f} ms",
            )
        )
    report("Which legal moves take pieces off, per position (CPU)", rows, figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
