"""Antipode benchmark: random games played to the end.

Times, per position, what a daemon does: legal-turn generation on a fresh state (which includes
the win / repetition / forfeit check), ``play`` of the chosen turn, and ``moves_for_change`` +
``realisations`` for that turn's hand change. Prints a table and, last, one JSON line.

    .venv/bin/python -m bench.antipode [--quick] [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter

from bench.timing import percentile, print_timings
from engines.antipode import AntipodeState, new

MAX_TURNS = 5000  # random full-board play can wander long before a third repetition


def play_game(rng: random.Random, times: dict[str, list[float]]) -> AntipodeState:
    clock = time.perf_counter
    state = new()
    while state.ply < MAX_TURNS:
        t0 = clock()
        moves = state.legal_moves()
        t1 = clock()
        if not moves:
            break
        turn = rng.choice(moves)
        (real,) = state.realisations(turn)
        state.moves_for_change(real.emptied, real.filled)
        t2 = clock()
        after = state.play(turn)
        t3 = clock()
        phase = "full" if state.full else "placing"
        times[f"legal/{phase}"].append(t1 - t0)
        times["legal/all"].append(t1 - t0)
        times["contract"].append(t2 - t1)
        times["play"].append(t3 - t2)
        times["turn"].append(t3 - t0)
        state = after
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (20 games)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = 20 if args.quick else args.games
    rng = random.Random(args.seed)
    times: dict[str, list[float]] = {
        k: [] for k in ("legal/all", "legal/placing", "legal/full", "contract", "play", "turn")
    }
    endings: Counter[str] = Counter()
    started = time.perf_counter()
    for _ in range(games):
        final = play_game(rng, times)
        outcome = final.outcome()
        endings[f"{outcome.winner} {outcome.result}" if outcome else "cut off"] += 1
    elapsed = time.perf_counter() - started
    turns = len(times["turn"])

    print(f"Antipode: {games} random games, {turns} turns, {elapsed:.2f} s")
    print("endings: " + ", ".join(f"{k}: {v}" for k, v in sorted(endings.items())))
    print_timings(times)
    figures = {
        "bench": "antipode",
        "games": games,
        "turns": turns,
        "turns_per_s": round(turns / elapsed, 1),
        "legal_p99_ms": round(percentile(times["legal/all"], 0.99) * 1e3, 4),
        "legal_placing_p99_ms": round(percentile(times["legal/placing"], 0.99) * 1e3, 4),
        "play_p99_ms": round(percentile(times["play"], 0.99) * 1e3, 4),
        "contract_p99_ms": round(percentile(times["contract"], 0.99) * 1e3, 4),
        "cut_off": endings["cut off"],
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
