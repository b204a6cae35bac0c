"""The scan loop while the computer thinks: controller step times (scan in, LED frame and screen
out) at 100 Hz on a simulated board, while the computer's worker process searches, beside the
same steps with nothing thinking (``*_ratio``: thinking over idle).

Usage: .venv/bin/python bench/opponent.py [--game antipod] [--size N] [--level 1..5]
The last line is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace

from firmware_host.config import Config, Opponent
from firmware_host.session import configured_game, open_controller
from firmware_host.storage import Storage
from hardware.sim import SimBoard
from timing import percentile

PERIOD_S = 0.01


def steps(game: str, size: int | None, level: int | None) -> tuple[list[float], float]:
    """Step times (ms) after the first player's move until the computer's move is lit (or, with
    no ``level``, for 100 steps), and the seconds the computer took."""
    opponent = Opponent("computer", None, level) if level else Opponent()
    config = replace(Config(), opponent=opponent)
    c = open_controller(config, Storage(":memory:"), configured_game(config, game, size))
    board = SimBoard(c.layout.sensor_channels)
    for site in c.boards[0]:
        board.place(c.layout.sensor[site])
    c.step(0.0, board.scan())  # the start position seen first
    real = next(r for m in c.state.legal_moves() for r in c.state.realisations(m)
                if not r.follow_ups)  # a move without follow-ups: the computer answers it
    for site in real.emptied:
        board.lift(c.layout.sensor[site])
    for site in real.filled:
        board.place(c.layout.sensor[site])
    times: list[float] = []
    start = time.monotonic() - 0.001
    moved = None
    try:
        while len(times) < 6000:
            now = (time.monotonic() - start) * 1000
            t0 = time.perf_counter()
            c.step(now, board.scan())
            times.append((time.perf_counter() - t0) * 1000)
            if moved is None and c.moves:
                moved, times = time.monotonic(), []
            if c.pending is not None or (not level and moved and len(times) >= 100):
                break
            time.sleep(PERIOD_S)
    finally:
        if c.opponent:
            c.opponent.close()
    return times, time.monotonic() - (moved or start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="antipod")
    parser.add_argument("--size", type=int, default=None)
    parser.add_argument("--level", type=int, default=5)
    args = parser.parse_args()
    idle, _ = steps(args.game, args.size, None)
    busy, seconds = steps(args.game, args.size, args.level)
    figures = {
        "game": args.game, "level": args.level, "think_s": round(seconds, 3), "steps": len(busy),
        "idle_p50_ms": round(percentile(idle, 0.5), 3), "idle_p99_ms": round(percentile(idle, 0.99), 3),
        "think_p50_ms": round(percentile(busy, 0.5), 3), "think_p99_ms": round(percentile(busy, 0.99), 3),
    }
    figures["p99_ratio"] = round(figures["think_p99_ms"] / max(figures["idle_p99_ms"], 1e-6), 2)
    for key, value in figures.items():
        print(f"{key:14} {value}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
