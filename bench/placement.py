"""Placement -> ``move`` event: how long after a player's hand leaves the board the move is
announced, per game, with the default configuration (100 Hz, 3 debounce scans, settle 300 ms).

Random legal games of every game are played on the simulated board with contact bounce, as
bench/robust/noisy.py plays them (its seeded player and its 100 Hz virtual clock), without the
other noise kinds. The latency of a move is the time from the board's last physical change
before it was announced (the placing; its contact bounce counts as latency) to the controller
step that announced it.

Usage: .venv/bin/python -m bench.placement [--quick] [--streams N] [--seed S]
The last line is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import random

from bench.robust.noisy import GAMES, Run, play
from bench.robust.player import Player
from bench.timing import percentile
from firmware_host.board.game import Game
from firmware_host.runtime.session import open_controller
from firmware_host.store.config import Config
from firmware_host.store.storage import Storage
from hardware.clock import VirtualClock
from hardware.sim import Noise, SimBoard


class TimedBoard(SimBoard):
    """A simulated board that remembers when (its clock, ms) each piece was placed or lifted."""

    def __init__(self, *args, **kwargs) -> None:
        self.times: list[float] = []
        super().__init__(*args, **kwargs)

    def _changed(self) -> None:
        super()._changed()
        self.times.append(self.clock() * 1000)


def stream_latencies(name: str, seed: int, plies: int = 12) -> tuple[list[float], int]:
    """One random game of ``name``: each move's latency (ms), and how many moves were wrong."""
    rng = random.Random(seed)
    size, variant = rng.choice(GAMES[name])
    controller = open_controller(Config(), Storage(":memory:"), Game.of(name, size, variant))
    layout = controller.layout
    plan = Player(rng, [s.label for s in controller.state.sites()], frozenset()).plan(
        controller.state, plies)
    clock = VirtualClock()
    noise = Noise(bounce=rng.choice([(0.0005, 0.001), (0.001, 0.005), (0.005, 0.025)]), seed=seed)
    board = TimedBoard(layout.sensor_channels, clock=clock, noise=noise, leds=layout.led_channels)
    for site in controller.boards[0]:
        board.place(layout.sensor[site])
    run = Run(controller, board, clock, 1000 / controller.timing.scan_hz)
    run.settle(0.0)
    for segment in plan.segments:
        play(run, segment, rng)
    run.until(run.now + 1.0)
    latencies = []
    for event in run.events:
        if event["event"] == "move":
            last = max((t for t in board.times if t <= event["t"]), default=None)
            if last is not None:
                latencies.append(event["t"] - last)
    made = [e["move"] for e in run.events if e["event"] == "move"]
    wrong = sum(a != b for a, b in zip(made, plan.moves)) + abs(len(made) - len(plan.moves))
    return latencies, wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 games of each game")
    parser.add_argument("--streams", type=int, help="games of each game (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    streams = args.streams or (20 if args.quick else 100)
    figures: dict = {"bench": "placement", "streams_per_game": streams}
    everything: list[float] = []
    print(f"{'game':<12}{'moves':>7}{'median ms':>11}{'p90 ms':>8}{'p99 ms':>8}{'max ms':>8}"
          f"{'wrong':>7}")
    for name in GAMES:
        samples, wrong = [], 0
        for i in range(streams):
            got, bad = stream_latencies(name, args.seed * 1_000_003 + i)
            samples += got
            wrong += bad
        everything += samples
        row = {"moves": len(samples), "median_ms": percentile(samples, 0.5),
               "p90_ms": percentile(samples, 0.9), "p99_ms": percentile(samples, 0.99),
               "max_ms": max(samples, default=0.0), "wrong": wrong}
        figures[name] = row
        print(f"{name:<12}{row['moves']:>7}{row['median_ms']:>11.0f}{row['p90_ms']:>8.0f}"
              f"{row['p99_ms']:>8.0f}{row['max_ms']:>8.0f}{wrong:>7}")
    figures["median_ms"] = percentile(everything, 0.5)
    figures["p99_ms"] = percentile(everything, 0.99)
    figures["wrong"] = sum(figures[name]["wrong"] for name in GAMES)
    print(f"{'all':<12}{len(everything):>7}{figures['median_ms']:>11.0f}{'':>8}"
          f"{figures['p99_ms']:>8.0f}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
