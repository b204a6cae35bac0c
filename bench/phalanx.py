"""Phalanx benchmark: random games played to the end.

Times legal-move generation on a fresh state (it includes the outcome check: captures,
repetition, quiet plies, no-moves) in the opening position, in crowded middle-game positions
(at least 24 of the 30 pieces on the board, ply 20 or later) and over all positions; ``play`` of
the chosen move; and the contract calls a daemon makes per move (``realisations``,
``moves_for_change`` of the hand change, ``targets`` of the lifted piece). Prints a table and,
last, one JSON line.

    .venv/bin/python -m bench.phalanx [--quick] [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from dataclasses import replace

from bench.timing import percentile, print_timings
from engines.phalanx import Move, PhalanxState, new

CROWDED_PIECES = 24
CROWDED_FROM_PLY = 20


def timed_legal(state: PhalanxState, times: dict[str, list[float]], key: str) -> None:
    """Wall and thread-CPU time of legal-move generation on a fresh copy of ``state`` (CPU time
    is what the code costs when other processes compete for the cores)."""
    fresh = replace(state)  # a new value: nothing cached yet
    c0, t0 = time.thread_time(), time.perf_counter()
    fresh.legal_moves()
    t1, c1 = time.perf_counter(), time.thread_time()
    times[key].append(t1 - t0)
    times[f"{key} cpu"].append(c1 - c0)


def play_game(rng: random.Random, times: dict[str, list[float]]) -> PhalanxState:
    clock = time.perf_counter
    state = new()
    while True:
        t0 = clock()
        moves = state.legal_moves()
        t1 = clock()
        if not moves:
            return state
        times["legal/all"].append(t1 - t0)
        if len(state.pieces) >= CROWDED_PIECES and state.ply >= CROWDED_FROM_PLY:
            timed_legal(state, times, "legal/crowded")
        move = rng.choice(moves)
        t2 = clock()
        (real,) = state.realisations(move)
        state.moves_for_change(real.emptied, real.filled)
        if isinstance(move, Move):
            state.targets(move.frm)
        t3 = clock()
        state = state.play(move)
        t4 = clock()
        times["contract"].append(t3 - t2)
        times["play"].append(t4 - t3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (5 games)")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = 5 if args.quick else args.games
    rng = random.Random(args.seed)
    times: dict[str, list[float]] = {
        k: []
        for k in (
            "legal/opening",
            "legal/opening cpu",
            "legal/crowded",
            "legal/crowded cpu",
            "legal/all",
            "contract",
            "play",
        )
    }
    opening = new()
    for _ in range(200 if args.quick else 2000):
        timed_legal(opening, times, "legal/opening")
    endings: Counter[str] = Counter()
    started = time.perf_counter()
    for _ in range(games):
        outcome = play_game(rng, times).outcome()
        endings[f"{outcome.winner} {outcome.result}"] += 1
    elapsed = time.perf_counter() - started
    moves = len(times["play"])

    print(f"Phalanx: {games} random games, {moves} moves, {elapsed:.2f} s")
    print("endings: " + ", ".join(f"{k}: {v}" for k, v in sorted(endings.items())))
    print_timings(times)
    figures = {
        "bench": "phalanx",
        "games": games,
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "legal_opening_p99_ms": round(percentile(times["legal/opening"], 0.99) * 1e3, 4),
        "legal_crowded_p99_ms": round(percentile(times["legal/crowded"], 0.99) * 1e3, 4),
        "legal_opening_cpu_p99_ms": round(percentile(times["legal/opening cpu"], 0.99) * 1e3, 4),
        "legal_crowded_cpu_p99_ms": round(percentile(times["legal/crowded cpu"], 0.99) * 1e3, 4),
        "legal_p99_ms": round(percentile(times["legal/all"], 0.99) * 1e3, 4),
        "play_p99_ms": round(percentile(times["play"], 0.99) * 1e3, 4),
        "contract_p99_ms": round(percentile(times["contract"], 0.99) * 1e3, 4),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
