"""Long games through the daemon: every game at its standard size, a whole random game (up to
``--plies`` moves, captures first so capture games end) carried out on the simulated board,
follow-ups included (flips, removals, twins), at 100 Hz on a virtual clock.

For each game: the controller step in which the board settles into a move, up to the accepted
move and its LED frame (settle -> move, ms; p50 and p99), over the first and the last quarter
of the moves (what a long history costs), beside the mean step with nothing happening in the
same run (``*_ratio``: settle -> move p50 over the idle step).

Usage: .venv/bin/python -m bench.long_games [--quick] [--plies N] [--game NAME]
The last line is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field

from bench.robust.noisy import Run, whole_game
from bench.timing import percentile
from engines import game_info
from firmware_host.board.game import Game

GAMES = ("antipalos", "antipode", "antipod", "anti-grid", "phalanx")


@dataclass
class TimedRun(Run):
    """A run that times each controller step with its LED frame, and notes which made a move."""

    moved: list[float] = field(default_factory=list)
    idle: list[float] = field(default_factory=list)

    def scan(self) -> None:
        before = len(self.events)
        start = time.perf_counter_ns()
        super().scan()
        self.controller.frame()
        took = (time.perf_counter_ns() - start) / 1e6
        kinds = {e["event"] for e in self.events[before:]}
        if "move" in kinds:
            self.moved.append(took)
        elif not kinds:
            self.idle.append(took)


def long_game(name: str, plies: int, seed: int) -> dict:
    """Play one planned game through the controller; its figures."""
    size = game_info(name).default_size
    run, plan, unsettled = whole_game(Game.of(name, size), random.Random(seed), plies, kind=TimedRun)
    if unsettled:
        raise RuntimeError(f"{name}: the board did not settle {unsettled} times")
    accepted = [e["move"] for e in run.events if e["event"] == "move"]
    if accepted != plan.moves:
        raise RuntimeError(f"{name}: {len(accepted)} moves accepted of {len(plan.moves)} played")
    quarter = max(1, len(run.moved) // 4)
    first, last = run.moved[:quarter], run.moved[-quarter:]
    idle = sum(run.idle) / len(run.idle)
    return {
        "size": size,
        "moves": len(accepted),
        "over": run.controller.state.outcome() is not None,
        "idle_step_ms": round(idle, 3),
        "first_p50_ms": round(percentile(first, 0.5), 2),
        "first_p99_ms": round(percentile(first, 0.99), 2),
        "last_p50_ms": round(percentile(last, 0.5), 2),
        "last_p99_ms": round(percentile(last, 0.99), 2),
        "last_p50_ratio": round(percentile(last, 0.5) / idle, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="80 moves a game at most")
    parser.add_argument("--plies", type=int, default=400, help="most moves a game (400)")
    parser.add_argument("--game", choices=GAMES, help="only this game")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    plies = 80 if args.quick else args.plies
    figures: dict = {"bench": "long_games", "plies": plies}
    for name in [args.game] if args.game else GAMES:
        figures[name] = got = long_game(name, plies, args.seed)
        print(
            f"{name:<10} size {got['size'] or '-':>3}  {got['moves']:>4} moves"
            f" ({'over' if got['over'] else 'unfinished'})  settle -> move p50/p99:"
            f" first quarter {got['first_p50_ms']}/{got['first_p99_ms']} ms,"
            f" last {got['last_p50_ms']}/{got['last_p99_ms']} ms;"
            f" idle step {got['idle_step_ms']} ms",
            flush=True,
        )
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
