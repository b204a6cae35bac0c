"""The computer's choices, seeded: record them once, compare them after a change that must not
change how the search plays (a refactoring, a faster rule check).

Per game and level, ``--seeds`` positions (the start, or a random game of 0 to 60 moves, on a
small board and in each variant) each get ``engines.ai.choose`` with their own seed; the move,
the playouts or nodes, the work and whether it was a loose move are kept. The budgets of every
game, size and level are kept as well (they turn a level into work). ``--compare`` prints how
many choices differ (the first few in full) and exits 1 when any does.

Usage: .venv/bin/python -m bench.ai_choices (--record FILE | --compare FILE) [--seeds N] [--jobs J]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engines import GAME_NAMES, game_info, new_game
from engines.ai import LEVELS, budget, choose

#: Game -> the (size, variant) positions are drawn from, in turn (small boards: cheap positions).
SETUPS: dict[str, tuple[tuple[int | None, str | None], ...]] = {
    "antipalos": ((6, "two"), (6, "team"), (6, "cut-throat-3"), (8, "two")),
    "antipode": ((None, "standard"), (None, "rulebook")),
    "antipod": ((4, None), (5, None)),
    "anti-grid": ((6, "plain"), (6, "chain")),
    "phalanx": ((None, None),),
}


def position(game: str, seed: int) -> Any:
    """The position for ``seed``: a random game of 0 to 60 moves, cut short where it ended."""
    rng = random.Random(seed)
    size, variant = SETUPS[game][seed % len(SETUPS[game])]
    state = new_game(game, size, variant)
    for _ in range(rng.randrange(61)):
        after = state.apply(state.random_move(rng))
        if after.outcome() is not None:
            break
        state = after
    return state


def choices(game: str, level: int, seeds: int) -> list[list[Any]]:
    out = []
    for seed in range(seeds):
        choice = choose(position(game, seed), level, seed=seed)
        out.append([seed, str(choice.move), choice.kind, choice.count, choice.work, choice.loose])
    return out


def budgets() -> dict[str, int]:
    """Every game's budget at each size it offers and each level."""
    out = {}
    for game in GAME_NAMES:
        info = game_info(game)
        for size in info.sizes or (None,):
            state = new_game(game, size)
            for level in LEVELS:
                out[f"{game} {size} {level}"] = budget(state, level)
    for size in (22, 26):  # Antipalos beyond 20x20: its rate falls with the board
        for level in LEVELS:
            out[f"antipalos {size} {level}"] = budget(new_game("antipalos", size), level)
    return out


def record(seeds: int, jobs: int) -> dict[str, Any]:
    tasks = [(game, level) for game in GAME_NAMES for level in LEVELS]
    with ProcessPoolExecutor(jobs) as pool:
        futures = {task: pool.submit(choices, *task, seeds) for task in tasks}
        found = {f"{game} {level}": futures[game, level].result() for game, level in tasks}
    return {"seeds": seeds, "budgets": budgets(), "choices": found}


def compare(before: dict[str, Any], after: dict[str, Any]) -> int:
    """Print the differences; the number of choices and budgets that differ."""
    differ = [k for k in before["budgets"] if before["budgets"][k] != after["budgets"].get(k)]
    for key in differ[:5]:
        print(f"budget {key}: {before['budgets'][key]} -> {after['budgets'].get(key)}")
    total = 0
    for key, old in before["choices"].items():
        new = after["choices"][key]
        changed = [(a, b) for a, b in zip(old, new) if a != b]
        total += len(old)
        differ += changed
        for a, b in changed[:3]:
            print(f"{key} seed {a[0]}: {a[1:]} -> {b[1:]}")
        print(f"{key}: {len(old) - len(changed)} of {len(old)} the same")
    print(f"{total} choices and {len(before['budgets'])} budgets compared, {len(differ)} differ")
    return len(differ)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--record", metavar="FILE")
    what.add_argument("--compare", metavar="FILE")
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    start = time.perf_counter()
    if args.record:
        found = record(args.seeds, args.jobs)
        with open(args.record, "w") as out:
            json.dump(found, out)
        print(
            f"recorded {sum(map(len, found['choices'].values()))} choices in "
            f"{time.perf_counter() - start:.0f} s"
        )
        return 0
    with open(args.compare) as saved:
        before = json.load(saved)
    after = record(before["seeds"], args.jobs)
    differ = compare(before, after)
    print(f"{time.perf_counter() - start:.0f} s")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
