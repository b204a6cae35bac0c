"""Benchmark: random Anti-Grid games at n = 8 (plain and chain).

For every position it times ``play`` of a random legal move and then the first ``legal_moves()``
call on the fresh state (which runs the win check, then generates the moves: both need the same
generation); it reports moves per second over whole games and the p50/p99/max of each timing. The
generation is also timed in thread CPU time, which a busy machine's preemption does not inflate.
Random play seldom ends a game, so each game stops after --plies plies.

    .venv/bin/python -m bench.antigrid [--quick] [--games N] [--plies N] [--seed S]

The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bench.timing import percentile
from engines.antigrid import new


def run_game(rng: random.Random, variant: str, plies: int, timings: dict[str, list[float]]) -> int:
    """One random game; appends per-position timings (seconds); returns plies played."""
    state = new(8, variant)
    moves = state.legal_moves()
    for done in range(plies):
        if not moves:
            return done
        move = rng.choice(moves)
        t0 = time.perf_counter()
        state = state.play(move)
        t1, c1 = time.perf_counter(), time.thread_time()
        moves = state.legal_moves()  # a fresh state: the win check, then the generation
        t2, c2 = time.perf_counter(), time.thread_time()
        timings["play"].append(t1 - t0)
        timings["gen"].append(t2 - t1)
        timings["gen_cpu"].append(c2 - c1)
    return plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--games", type=int, default=40, help="games per variant")
    parser.add_argument("--plies", type=int, default=300, help="plies per game at most")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = 4 if args.quick else args.games
    rng = random.Random(args.seed)
    timings: dict[str, list[float]] = {"gen": [], "gen_cpu": [], "play": []}
    total_plies = 0
    start = time.perf_counter()
    for variant in ("plain", "chain"):
        for _ in range(games):
            total_plies += run_game(rng, variant, args.plies, timings)
    elapsed = time.perf_counter() - start
    gen, play = timings["gen"], timings["play"]
    figures = {
        "bench": "antigrid",
        "size": 8,
        "games": 2 * games,
        "plies": total_plies,
        "moves_per_s": round(total_plies / elapsed),
        "gen_p50_ms": round(statistics.median(gen) * 1e3, 4),
        "p99_ms": round(percentile(gen, 0.99) * 1e3, 4),
        "gen_max_ms": round(max(gen) * 1e3, 4),
        "p99_cpu_ms": round(percentile(timings["gen_cpu"], 0.99) * 1e3, 4),
        "play_p99_ms": round(percentile(play, 0.99) * 1e3, 4),
    }
    print(f"Anti-Grid n=8: {figures['games']} random games, {total_plies} plies, {elapsed:.2f} s")
    print(f"{'timing':<34}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    rows = (
        ("legal_moves() + win check", gen),
        ("  the same in thread CPU time", timings["gen_cpu"]),
        ("play() (check + apply)", play),
    )
    for name, values in rows:
        print(
            f"{name:<34}{statistics.median(values) * 1e3:>10.4f}"
            f"{percentile(values, 0.99) * 1e3:>10.4f}{max(values) * 1e3:>10.4f}"
        )
    print(f"{'moves per second (whole loop)':<34}{figures['moves_per_s']:>10}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
