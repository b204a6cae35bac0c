"""The scan loop while the computer thinks: controller step times (scan in, LED frame and screen
out) at 100 Hz on a simulated board, while the computer's worker process searches, beside the
same steps with nothing thinking (``*_ratio``: thinking over idle); and sensor change -> LED
frame: a piece the first player did not move lifted and put back again and again, in simulated
10 ms scans without sleeping, each figure the step (frame included) in which the lit frame
changes, while the computer thinks (over several games until ``CHANGES`` figures) beside as many
with nobody thinking.

Usage: .venv/bin/python -m bench.opponent [--game antipod] [--size N] [--level 1..5] [--quick]
The last line is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from itertools import cycle

from bench.timing import percentile
from firmware_host.board.controller import Controller
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config, OpponentConfig
from firmware_host.store.storage import Storage
from hardware.sim import SimBoard

PERIOD_S = 0.01
CHANGES = 400  # sensor change -> frame figures per case


def _after_first_move(game: str, size: int | None, level: int | None) -> tuple[Controller, SimBoard]:
    """A controller (the computer at ``level`` playing second, or nobody) and its simulated board
    with the start position seen and the first player's move made on it (not yet settled)."""
    opponent = OpponentConfig("computer", None, level) if level else OpponentConfig()
    config = replace(Config(), opponent=opponent)
    c = open_controller(config, Storage(":memory:"), configured_game(config, game, size))
    board = SimBoard(c.layout.sensor_channels)
    for site in c.boards[0]:
        board.place(c.layout.sensor[site])
    c.step(0.0, board.scan())  # the start position seen first
    real = next(
        r for m in c.state.legal_moves() for r in c.state.realisations(m) if not r.follow_ups
    )  # a move without follow-ups: the computer answers it
    for site in real.emptied:
        board.lift(c.layout.sensor[site])
    for site in real.filled:
        board.place(c.layout.sensor[site])
    return c, board


def steps(game: str, size: int | None, level: int | None) -> tuple[list[float], float]:
    """Step times (ms) after the first player's move until the computer's move is lit (or, with
    no ``level``, for 100 steps), and the seconds the computer took."""
    c, board = _after_first_move(game, size, level)
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


def change_frames(game: str, size: int | None, level: int | None, count: int) -> list[float]:
    """Sensor change -> LED frame (ms): ``count`` figures while the computer at ``level``
    thinks (or nobody, with no ``level``), over as many games as it takes."""
    found: list[float] = []
    while len(found) < count:
        c, board = _after_first_move(game, size, level)
        try:
            found += _changes(c, board, level, count - len(found))
        finally:
            if c.opponent:
                c.opponent.close()
    return found


def _changes(c: Controller, board: SimBoard, level: int | None, count: int) -> list[float]:
    """Lift and put back a piece the move left alone (on an empty start, put a stray piece on a
    hole and take it off) until ``count`` frame changes are timed or
    the computer has answered; the first player's move is settled first."""
    now, found = 0.0, []
    while not c.moves:
        now += PERIOD_S * 1000
        c.step(now, board.scan())
    kept = [s for s in c.boards[0] if s in c.boards[-1]]  # pieces the move left alone, else a hole
    site = kept[0] if kept else next(s for s in c.layout.sensor if s not in c.boards[-1])
    channel = c.layout.sensor[site]
    for lifted in cycle((True, False) if kept else (False, True)):
        if len(found) >= count or (level and c.pending is not None):
            break
        (board.lift if lifted else board.place)(channel)
        before = dict(c.frame())
        for _ in range(100):
            now += PERIOD_S * 1000
            scan = board.scan()
            t0 = time.perf_counter()
            c.step(now, scan)
            frame = c.frame()
            elapsed = (time.perf_counter() - t0) * 1000
            if frame != before:
                found.append(elapsed)
                break
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="antipod")
    parser.add_argument("--size", type=int, default=None)
    parser.add_argument("--level", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help=f"{CHANGES // 4} changes, not {CHANGES}")
    args = parser.parse_args()
    changes = CHANGES // 4 if args.quick else CHANGES
    idle, _ = steps(args.game, args.size, None)
    busy, seconds = steps(args.game, args.size, args.level)
    figures = {
        "game": args.game,
        "level": args.level,
        "think_s": round(seconds, 3),
        "steps": len(busy),
        "idle_p50_ms": round(percentile(idle, 0.5), 3),
        "idle_p99_ms": round(percentile(idle, 0.99), 3),
        "think_p50_ms": round(percentile(busy, 0.5), 3),
        "think_p99_ms": round(percentile(busy, 0.99), 3),
    }
    figures["p99_ratio"] = round(figures["think_p99_ms"] / max(figures["idle_p99_ms"], 1e-6), 2)
    quiet = change_frames(args.game, args.size, None, changes)
    thinking = change_frames(args.game, args.size, args.level, changes)
    figures |= {
        "changes": len(thinking),
        "change_idle_p50_ms": round(percentile(quiet, 0.5), 3),
        "change_idle_p99_ms": round(percentile(quiet, 0.99), 3),
        "change_think_p50_ms": round(percentile(thinking, 0.5), 3),
        "change_think_p99_ms": round(percentile(thinking, 0.99), 3),
    }
    figures["change_p99_ratio"] = round(
        figures["change_think_p99_ms"] / max(figures["change_idle_p99_ms"], 1e-6), 2
    )
    for key, value in figures.items():
        print(f"{key:20} {value}")
    print(json.dumps({"bench": "opponent", **figures}))


if __name__ == "__main__":
    main()
