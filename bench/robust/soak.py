"""Soak: hours of play on the virtual clock at 100 Hz through the real controller, the simulated
board (with contact bounce) and an SQLite games file. Players think between moves; after each
game they set the start position up again (a new game after a finished one, a takeback to the
start after an unfinished one). Figures: moves, games, scans, resident memory and open file
descriptors at the start and end (and every virtual hour), scan rate.

    .venv/bin/python -m bench.robust.soak [--quick] [--hours H] [--game G] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time

from bench.robust.common import report
from bench.robust.noisy import Run, play
from bench.robust.player import Player, Segment
from firmware_host.board.game import Game
from firmware_host.runtime.session import open_controller
from firmware_host.store.config import Config
from firmware_host.store.storage import Storage
from hardware.clock import VirtualClock
from hardware.sim import Noise, SimBoard

THINK = 4.0  # mean seconds a player thinks before each action group


def rss_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as fp:
        for line in fp:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def reset(start: frozenset[str], board: frozenset[str], rng: random.Random) -> Segment:
    """Set the start position up again by hand."""
    seg = Segment()
    for site in sorted(board - start):
        seg.add("lift", site, gap=rng.uniform(0.05, 0.25))
    for site in sorted(start - board):
        seg.add("place", site, gap=rng.uniform(0.05, 0.25))
    return seg


class Soak:
    def __init__(self, game: Game, seed: int, db: str) -> None:
        self.rng = random.Random(seed)
        self.storage = Storage(db)
        self.controller = open_controller(Config(), self.storage, game)
        layout = self.controller.layout
        self.clock = VirtualClock()
        self.board = SimBoard(
            layout.sensor_channels,
            clock=self.clock,
            noise=Noise(bounce=(0.0005, 0.005), seed=seed),
            leds=layout.led_channels,
        )
        for site in self.controller.boards[0]:
            self.board.place(layout.sensor[site])
        self.run = Run(self.controller, self.board, self.clock, 1000 / self.controller.timing.scan_hz)
        self.sites = [s.label for s in self.controller.state.sites()]
        self.moves = self.games = self.false = self.unsettled = 0

    def game(self) -> None:
        """One game from the start position, then the board set up again."""
        state = self.controller.state
        start = self.controller.boards[0]
        plan = Player(self.rng, self.sites, frozenset({"hover", "bump", "slide"})).plan(state, 200)
        for segment in plan.segments:
            self.segment(segment)
        end = state
        for text in plan.moves:
            end = end.play(text)
        self.segment(reset(start, end.occupied(), self.rng))
        self.games += 1

    def segment(self, segment: Segment) -> None:
        self.run.until(self.run.now + self.rng.expovariate(1 / THINK))
        if not play(self.run, segment, self.rng):
            self.unsettled += 1
        self.moves += sum(e["event"] == "move" for e in self.run.events)
        self.run.events.clear()  # keep nothing that grows with the length of the soak
        self.run.seen.clear()


def run(hours: float, game: Game, seed: int) -> dict:
    with tempfile.TemporaryDirectory() as directory:
        soak = Soak(game, seed, os.path.join(directory, "games.db"))
        soak.game()  # warm up: every code path loaded once
        start_rss, start_fds, start_scans = rss_kb(), open_fds(), soak.run.scans
        hourly = []
        began = time.perf_counter()
        end = soak.run.now + hours * 3600
        next_hour = soak.run.now + 3600
        while soak.run.now < end:
            soak.game()
            if soak.run.now >= next_hour:
                hourly.append(rss_kb())
                next_hour += 3600
        seconds = time.perf_counter() - began
        end_rss, end_fds = rss_kb(), open_fds()
        stored = len(soak.storage.games())
        soak.storage.close()
    scans = soak.run.scans - start_scans
    return {
        "bench": "robust_soak",
        "game": game.title,
        "virtual_hours": round(soak.run.now / 3600, 2),
        "scans": scans,
        "moves": soak.moves,
        "games": soak.games,
        "games_stored": stored,
        "never_settled": soak.unsettled,
        "rss_start_kb": start_rss,
        "rss_end_kb": end_rss,
        "rss_hourly_kb": hourly,
        "fds_start": start_fds,
        "fds_end": end_fds,
        "scans_per_s": round(scans / seconds),
        "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one virtual hour")
    parser.add_argument("--hours", type=float, help="virtual hours (default 24)")
    parser.add_argument("--game", default="antipalos", help="game name (default antipalos)")
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    hours = args.hours or (1.0 if args.quick else 24.0)
    sized = args.game in ("antipalos", "antipod", "anti-grid")
    figures = run(hours, Game.of(args.game, args.size if sized else None), args.seed)
    rows = [(k.replace("_", " "), v) for k, v in figures.items() if k != "bench"]
    report(f"Soak: {hours} virtual hours of {figures['game']}, seed {args.seed}", rows, figures)
    grew = figures["fds_end"] != figures["fds_start"] or figures["rss_end_kb"] > 1.2 * figures["rss_start_kb"]
    return 1 if grew or figures["never_settled"] else 0


if __name__ == "__main__":
    sys.exit(main())
