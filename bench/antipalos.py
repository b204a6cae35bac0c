"""Antipalos benchmark: random 20×20 two-player games (all of Phase One, then up to 200 Phase Two
moves). Per move it times what the daemon does: ``play`` + ``outcome`` (the win check), and
separately ``moves_for_change`` (reading the move from the sensed change) and ``targets`` (the
lit sites of a lifted Trirod).

Usage: .venv/bin/python -m bench.antipalos [--quick] [--games N] [--seed S]
The last line is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bench.timing import percentile
from engines.antipalos import COLOURS, Place, Shift, new

SIZE, PHASE_TWO_MOVES = 20, 200


def random_move(state, rng: random.Random):
    """A uniformly random legal move, drawn without listing all ~20,000 Phase Two moves."""
    geo = state.setup.geo
    empty = state.empty_squares()
    to = geo.spots[2 * rng.choice(empty) + rng.randrange(2)]
    if state.phase == 1:
        return Place(to)
    src = rng.choice(state.trirods(COLOURS[state.side]))
    if rng.randrange(2 * len(empty) + 1) == 0:
        to = src.turned
    return Shift(src, to)


def run(games: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    play_ms, change_ms, targets_ms = [], [], []
    wins = 0
    for _ in range(games):
        state = new(SIZE)
        phase_two = 0
        while state.outcome() is None and phase_two < PHASE_TWO_MOVES:
            move = random_move(state, rng)
            real = state.realisations(move)[0]
            t0 = time.perf_counter()
            found = state.moves_for_change(real.emptied, real.filled)
            t1 = time.perf_counter()
            after = state.play(found[0][0])
            after.outcome()
            t2 = time.perf_counter()
            own = after.trirods(COLOURS[after.side]) or (move.to,)
            lifted = rng.choice(own)
            t3 = time.perf_counter()
            after.targets(str(lifted))
            t4 = time.perf_counter()
            change_ms.append((t1 - t0) * 1e3)
            play_ms.append((t2 - t1) * 1e3)
            targets_ms.append((t4 - t3) * 1e3)
            phase_two += state.phase == 2
            state = after
        wins += state.outcome() is not None and state.outcome().winner != "draw"
    total_s = (sum(play_ms) + sum(change_ms) + sum(targets_ms)) / 1e3
    return {
        "bench": "antipalos",
        "size": SIZE,
        "games": games,
        "moves": len(play_ms),
        "wins": wins,
        "moves_per_s": round(len(play_ms) / total_s),
        "play_mean_ms": round(statistics.fmean(play_ms), 4),
        "p99_ms": round(percentile(play_ms, 0.99), 4),
        "max_ms": round(max(play_ms), 4),
        "change_p99_ms": round(percentile(change_ms, 0.99), 4),
        "targets_p99_ms": round(percentile(targets_ms, 0.99), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (3 games)")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures = run(3 if args.quick else args.games, args.seed)
    print(
        f"Antipalos {SIZE}x{SIZE}: {figures['games']} random games, {figures['moves']} moves "
        f"({figures['wins']} won before the Phase Two limit)"
    )
    print(f"{'measure':<40}{'value':>10}")
    rows = [
        ("moves/s (change, play, outcome, targets)", figures["moves_per_s"]),
        ("play+outcome mean ms", figures["play_mean_ms"]),
        ("play+outcome p99 ms (goal < 0.5)", figures["p99_ms"]),
        ("play+outcome max ms", figures["max_ms"]),
        ("moves_for_change p99 ms", figures["change_p99_ms"]),
        ("targets p99 ms", figures["targets_p99_ms"]),
    ]
    for name, value in rows:
        print(f"{name:<40}{value:>10}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
