"""Daemon benchmark on a 20×20 Antipalos board (800 sensor channels).

- lift -> frame: the controller step in which a lifted Trirod's debounce completes, up to the LED
  frame lighting its targets (the time beyond the debounce itself);
- settle -> move: the step in which the board settles, up to the accepted move (saved to SQLite
  in WAL mode with synchronous=FULL on this machine's disk, announced, frame and screen built);
- idle CPU and resident memory of ``reedboard run`` at 100 Hz, from /proc: on the simulated
  board with its page (``--sim``), and on the hardware backends (the serial link to a simulated
  microcontroller on a pty, luma's dummy display), each beside a bare Python loop sleeping
  10 ms, measured over the same seconds (``*_ratio``: the daemon's CPU over the loop's).

Usage: .venv/bin/python -m bench.daemon [--quick] [--seconds S] [--seed N]
The last line is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.timing import percentile
from engines import new_game
from firmware_host.board.controller import Controller
from firmware_host.board.game import Game
from firmware_host.store.config import Timing
from firmware_host.store.layout import default_layout
from firmware_host.store.storage import Storage
from hardware.sim import SimBoard
from testbed.tools import free_port

SIZE = 20
PERIOD_MS = 10


class TimedStorage(Storage):
    """Storage that remembers how long each durable commit of a move took (ms)."""

    commits: list[float] = []

    def add_move(self, game_id: int, ply: int, notation: str) -> None:
        start = time.perf_counter_ns()
        super().add_move(game_id, ply, notation)
        self.commits.append((time.perf_counter_ns() - start) / 1e6)


class Bench:
    """A controller on a simulated 800-channel board, stepped on a virtual clock."""

    def __init__(self, db: str, moves: list[str]) -> None:
        storage = TimedStorage(db)
        game_id = storage.start("antipalos", SIZE, "two")
        for ply, move in enumerate(moves, 1):
            storage.add_move(game_id, ply, move)
        self.ctl = Controller(
            Game.of("antipalos", SIZE),
            lambda s: default_layout(s.sites()),
            Timing(),
            storage,
            resume=(game_id, moves),
        )
        self.board = SimBoard(self.ctl.layout.sensor_channels)
        for site in self.ctl.boards[-1]:
            self.board.place(self.ctl.layout.sensor[site])
        self.t = 0.0
        self.run(500)

    def step(self) -> tuple[list[dict], float]:
        scan = self.board.scan()
        start = time.perf_counter_ns()
        events = self.ctl.step(self.t, scan)
        self.ctl.frame()
        elapsed = (time.perf_counter_ns() - start) / 1e6
        self.t += PERIOD_MS
        return events, elapsed

    def run(self, ms: float) -> None:
        for _ in range(int(ms // PERIOD_MS)):
            self.step()

    def until(self, kind: str, limit_ms: float = 2000) -> float:
        """Step until an event of ``kind``; the duration of that step in ms."""
        for _ in range(int(limit_ms // PERIOD_MS)):
            events, elapsed = self.step()
            if any(e["event"] == kind for e in events):
                return elapsed
        raise RuntimeError(f"no {kind} event")

    def channel(self, site: str) -> int:
        return self.ctl.layout.sensor[site]


def phase_two_start(rng: random.Random) -> list[str]:
    """A random Phase One with no winner: the moves that lead to Phase Two."""
    while True:
        state, moves = new_game("antipalos", SIZE), []
        while state.phase == 1 and not state.outcome():
            move = rng.choice(state.legal_moves())
            moves.append(str(move))
            state = state.apply(move)
        if not state.outcome():
            return moves


def measure_moves(bench: Bench, rng: random.Random, count: int) -> tuple[list[float], list[float]]:
    """Random Phase Two moves made by hand; (lift -> frame, settle -> move) times in ms."""
    lift_ms, settle_ms = [], []
    for _ in range(count):
        state = bench.ctl.state
        if state.outcome():
            break
        move = rng.choice(state.legal_moves())
        real = state.realisations(move)[0]
        (src,), (dst,) = real.emptied, real.filled
        bench.board.lift(bench.channel(src))
        lift_ms.append(bench.until("targets"))
        bench.run(100)
        bench.board.place(bench.channel(dst))
        settle_ms.append(bench.until("move"))
        bench.run(100)
    return lift_ms, settle_ms


#: A Python loop that only sleeps at the daemon's rate: the floor any 100 Hz poller pays here.
BARE_LOOP = """
import time
period, tick = 0.01, time.monotonic()
while True:
    tick += period
    time.sleep(max(0.0, tick - time.monotonic()))
"""


def idle_run(seconds: float, tmp: Path, hardware: str) -> dict[str, float]:
    """CPU % of one core and RSS (MB) of ``reedboard run`` left idle, with the CPU % of
    :data:`BARE_LOOP` measured beside it over the same seconds. ``hardware``: "sim" (``--sim``
    and its page) or "serial" (the serial link to a simulated microcontroller on a pty, run by
    this process, and luma's dummy display: the hardware backends, no page)."""
    config = tmp / f"{hardware}.toml"
    text = f'game = "antipalos"\nsize = {SIZE}\nstorage = "{tmp / (hardware + ".db")}"\n'
    mcu = None
    if hardware == "sim":
        text += f"[web]\nport = {free_port()}\n"  # the simulator page's
    else:
        from hardware.mcu_sim import SimMcu

        channels = SIZE * SIZE * 2
        port = str(tmp / "board")
        mcu = SimMcu(SimBoard(channels, leds=channels), port, interval=0.005)
        text += (
            f'[sensors]\nbackend = "serial"\nport = "{port}"\nchannels = {channels}\n'
            f'[leds]\nbackend = "serial"\nport = "{port}"\ncount = {channels}\n'
            '[display]\nbackend = "dummy"\n'
        )
    config.write_text(text)
    args = [sys.executable, "-m", "firmware_host.cli.main", "run", "--config", str(config)]
    proc = subprocess.Popen(
        args + (["--sim"] if hardware == "sim" else []),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    floor = subprocess.Popen([sys.executable, "-c", BARE_LOOP])
    try:
        proc.stdout.readline()  # the first display event: started
        time.sleep(1.5)
        pids = (proc.pid, floor.pid)
        ticks, start = [cpu_ticks(pid) for pid in pids], time.monotonic()
        time.sleep(seconds)
        used = [(cpu_ticks(pid) - t) / os.sysconf("SC_CLK_TCK") for pid, t in zip(pids, ticks)]
        elapsed = time.monotonic() - start
        rss = rss_mb(proc.pid)
    finally:
        for running in (proc, floor):
            running.terminate()
            running.wait(timeout=5)
        if mcu is not None:
            mcu.close()
    cpu, floor_cpu = (100 * u / elapsed for u in used)
    return {"cpu": cpu, "floor": floor_cpu, "rss": rss}


def idle_step_us(bench: "Bench", steps: int = 5000) -> float:
    """Mean time of one scan + controller step with nothing happening on the board."""
    start = time.perf_counter()
    for _ in range(steps):
        bench.step()
    return (time.perf_counter() - start) / steps * 1e6


def _ratio(value: float, floor: float) -> float | None:
    return round(value / floor, 2) if floor else None


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer moves, a shorter idle run")
    parser.add_argument("--seconds", type=float, help="idle measurement time (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    count = 30 if args.quick else 200
    seconds = args.seconds or (3.0 if args.quick else 10.0)
    with tempfile.TemporaryDirectory(dir=os.getcwd(), prefix=".bench-daemon-") as tmp:
        bench = Bench(str(Path(tmp) / "bench.db"), phase_two_start(rng))
        TimedStorage.commits.clear()
        lift_ms, settle_ms = measure_moves(bench, rng, count)
        commits = list(TimedStorage.commits)
        step_us = idle_step_us(bench)
        sim = idle_run(seconds, Path(tmp), "sim")
        serial = idle_run(seconds, Path(tmp), "serial")
    figures = {
        "bench": "daemon",
        "channels": SIZE * SIZE * 2,
        "moves": len(settle_ms),
        "lift_to_frame_p99_ms": round(percentile(lift_ms, 0.99), 3),
        "lift_to_frame_median_ms": round(percentile(lift_ms, 0.5), 3),
        "settle_to_move_p99_ms": round(percentile(settle_ms, 0.99), 3),
        "settle_to_move_median_ms": round(percentile(settle_ms, 0.5), 3),
        "of_which_commit_p99_ms": round(percentile(commits, 0.99), 3),
        "settle_to_move_without_commit_p99_ms": round(
            percentile([s - c for s, c in zip(settle_ms, commits)], 0.99), 3
        ),
        "idle_cpu_percent": round(sim["cpu"], 2),
        "idle_floor_cpu_percent": round(sim["floor"], 2),
        "idle_cpu_ratio": _ratio(sim["cpu"], sim["floor"]),
        "serial_idle_cpu_percent": round(serial["cpu"], 2),
        "serial_idle_floor_cpu_percent": round(serial["floor"], 2),
        "serial_idle_cpu_ratio": _ratio(serial["cpu"], serial["floor"]),
        "idle_step_us": round(step_us, 2),
        "idle_seconds": seconds,
        "rss_mb": round(sim["rss"], 1),
        "serial_rss_mb": round(serial["rss"], 1),
    }
    print(f"{'figure':<28}{'value':>10}  goal")
    goals = {
        "lift_to_frame_p99_ms": "< 5",
        "settle_to_move_p99_ms": "< 5",
        "idle_cpu_ratio": "<= 1.3",
        "serial_idle_cpu_ratio": "<= 1.3",
        "serial_rss_mb": "<= 40",
    }
    for key, value in figures.items():
        if key != "bench":  # a ratio is None when its floor took no CPU tick (short runs)
            print(f"{key:<28}{'-' if value is None else value:>10}  {goals.get(key, '')}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
