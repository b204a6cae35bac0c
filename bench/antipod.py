"""Antipod benchmark: random games at radius 6 and 10, played to the end (there are no draws).

Per move it times what the daemon does: ``play`` + ``outcome`` (the win check; on the winning
move this includes finding Black's chain or White's ring), and separately ``moves_for_change``
(reading the move from the sensed change: one site, or both sites of an edge point).

Usage: .venv/bin/python -m bench.antipod [--quick] [--games N] [--seed S]
The last line is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bench.timing import percentile
from engines.antipod import new

RADII = (6, 10)


def run(radius: int, games: int, rng: random.Random) -> dict[str, float]:
    play_ms, change_ms, final_ms = [], [], []
    results = {"connection": 0, "ring": 0}
    for _ in range(games):
        state = new(radius)
        empty = list(state.legal_moves())
        while True:
            move = empty.pop(rng.randrange(len(empty)))
            real = rng.choice(state.realisations(move))
            t0 = time.perf_counter()
            state.moves_for_change(real.emptied, real.filled)
            t1 = time.perf_counter()
            state = state.play(move)
            outcome = state.outcome()
            t2 = time.perf_counter()
            change_ms.append((t1 - t0) * 1e3)
            play_ms.append((t2 - t1) * 1e3)
            if outcome:
                final_ms.append(play_ms[-1])
                results[outcome.result] += 1
                break
    total_s = (sum(play_ms) + sum(change_ms)) / 1e3
    return {
        "radius": radius,
        "games": games,
        "moves": len(play_ms),
        "black_wins": results["connection"],
        "white_wins": results["ring"],
        "moves_per_s": round(len(play_ms) / total_s),
        "play_mean_ms": round(statistics.fmean(play_ms), 4),
        "p99_ms": round(percentile(play_ms, 0.99), 4),
        "max_ms": round(max(play_ms), 4),
        "winning_move_mean_ms": round(statistics.fmean(final_ms), 4),
        "change_p99_ms": round(percentile(change_ms, 0.99), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--games", type=int, help="games per radius (default 400; --quick 20)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = args.games or (20 if args.quick else 400)
    rng = random.Random(args.seed)
    rows = [run(radius, games, rng) for radius in RADII]
    columns = list(rows[0])
    print("  ".join(f"{c:>20}" for c in columns[:1]) + "".join(f"{r['radius']:>14}" for r in rows))
    for c in columns[1:]:
        print(f"{c:>20}" + "".join(f"{r[c]:>14}" for r in rows))
    figures = {"bench": "antipod", "games_per_radius": games}
    for r in rows:
        for c in columns[1:]:
            figures[f"r{r['radius']}_{c}"] = r[c]
    figures["moves_per_s"] = min(r["moves_per_s"] for r in rows)
    figures["p99_ms"] = max(r["p99_ms"] for r in rows)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
