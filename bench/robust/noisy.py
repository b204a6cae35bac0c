"""Noisy sensors: random legal games of every game, played on the simulated board with noise
(contact bounce, slides, hovering hands, bumps, missed reads, diode-less ghosting), through the
real controller on a virtual clock at 100 Hz.

Figures: false moves accepted, spurious takebacks and true moves missed once the board settles
(all must be 0). A failing stream is written as a ``reedboard replay`` file (the scans the
controller saw) to ``--failures``. ``--woken`` scans as the daemon scans a board that wakes it
(a change read at once, between two scans), not on the replay's grid.

    .venv/bin/python -m bench.robust.noisy [--quick] [--streams N] [--seed S] [--workers W] [--woken]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from bench.robust.common import parallel_map, report, workers_default
from bench.robust.player import KINDS, Plan, Player, Segment, capturing_first
from firmware_host.board.controller import Controller
from firmware_host.board.game import Game
from firmware_host.runtime.session import open_controller
from firmware_host.store.config import Config
from firmware_host.store.storage import Storage
from hardware.clock import VirtualClock
from hardware.ghost import ambiguous_cells, ghosted, to_cells
from hardware.sim import Noise, SimBoard

#: Game name -> the (size, variant)s streams are drawn from.
GAMES = {
    "antipalos": [(3, "two"), (4, "two"), (5, "team"), (6, "cut-throat-3"), (12, "two")],
    "antipode": [(None, "standard"), (None, "rulebook")],
    "antipod": [(4, None), (6, None)],
    "anti-grid": [(6, "plain"), (6, "chain"), (8, "plain")],
    "phalanx": [(None, None)],
}
#: Longest time the player waits for the board to settle after a segment (virtual seconds).
PATIENCE = 15.0


@dataclass
class Result:
    seed: int
    game: str
    kinds: tuple[str, ...]
    intended: int = 0
    accepted: int = 0
    false: int = 0
    takebacks: int = 0
    missed: int = 0
    corrections: int = 0
    presses: int = 0
    unsettled: int = 0
    cut_short: bool = False
    scans: int = 0
    failure: str | None = None  # the replay file of a failing stream

    @property
    def failed(self) -> bool:
        return bool(self.false or self.takebacks or self.missed or self.unsettled)


@dataclass
class Run:
    """One stream: the board, the controller, and what the controller saw and said. Scans
    happen every ``period_ms`` from 0, at exactly the times ``reedboard replay`` uses."""

    controller: Controller
    board: SimBoard
    clock: VirtualClock
    period_ms: float
    scans: int = 0
    last_ms: float = 0.0
    events: list[dict] = field(default_factory=list)
    seen: list[dict] = field(default_factory=list)  # replay lines of what the scans read
    _last: frozenset[int] | None = None

    @property
    def now(self) -> float:
        """The time of the next scan, in seconds."""
        return self.due_ms() / 1000

    def due_ms(self) -> float:
        """The time of the next scan, in ms."""
        return self.scans * self.period_ms

    def scan(self) -> None:
        self.last_ms = now_ms = self.due_ms()
        self.clock.advance(max(0.0, now_ms / 1000 - self.clock()))
        reading, buttons = self.board.scan(), self.board.buttons.events()
        self._record(now_ms, reading.closed, buttons)
        self.events += self.controller.step(now_ms, reading, buttons)
        self.scans += 1

    def until(self, t: float) -> None:
        """Scan at every scan time before ``t``, then move the clock to ``t``."""
        while self.now < t:
            self.scan()
        self.clock.advance(max(0.0, t - self.clock()))

    def settle(self, after: float) -> bool:
        """Scan until the board has settled (at ``after`` or later); False if it never does."""
        settle_ms = self.controller.timing.settle_ms
        limit = after + PATIENCE
        while self.now < limit:
            self.scan()
            ready = self.last_ms >= after * 1000 + settle_ms
            if ready and self.controller.quiet(self.last_ms):
                return True
        return False

    def _record(self, now_ms: float, closed: frozenset[int], buttons) -> None:
        sites = self.controller.layout.site_of_sensor
        if closed != self._last:
            old = self._last or frozenset()
            for ch in sorted(closed ^ old):
                self.seen.append({"t": now_ms, "site": sites(ch), "on": ch in closed})
            self._last = closed
        for press in buttons:
            self.seen.append({"t": now_ms, "button": press.button})


class WokenRun(Run):
    """A stream scanned as the daemon's loop scans a board that wakes it (the simulated board; a
    serial link's board, whose change comes its firmware's few ms later): a piece placed or
    lifted between two scans is read at once and the pace goes on from it, one early scan a
    period at most; a settle falling between two scans is scanned at its moment. Its scans are
    off the replay's grid."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.woken = self.hurried = False
        self.board.wakes(self)  # type: ignore[arg-type]  # a waker only needs set()

    def set(self) -> None:
        """The board's wake-up."""
        self.woken = True

    def due_ms(self) -> float:
        if self.woken and not self.hurried:
            return self.clock() * 1000
        if not self.scans:
            return 0.0
        paced, settles = self.last_ms + self.period_ms, self.controller.settles_at()
        return settles if settles is not None and self.last_ms < settles < paced else paced

    def scan(self) -> None:
        early = self.woken and not self.hurried
        super().scan()
        self.woken, self.hurried = False, early


def spec(seed: int) -> tuple[str, int | None, str | None, frozenset[str], random.Random]:
    rng = random.Random(seed)
    name = sorted(GAMES)[seed % len(GAMES)]
    size, variant = rng.choice(GAMES[name])
    kinds = frozenset(k for k in KINDS if rng.random() < (0.25 if k == "ghost" else 0.5))
    return name, size, variant, kinds, rng


def run_stream(seed: int, plies: tuple[int, int] = (3, 12), woken: bool = False) -> Result:
    """Play one seeded stream; its figures."""
    name, size, variant, kinds, rng = spec(seed)
    controller = open_controller(Config(), Storage(":memory:"), Game.of(name, size, variant))
    layout = controller.layout
    channels = layout.sensor_channels
    columns = math.ceil(math.sqrt(channels))

    def readable(board: frozenset[str]) -> bool:
        return not ambiguous_cells(ghosted(to_cells((layout.sensor[s] for s in board), columns)))

    start = controller.boards[0]
    if "ghost" in kinds and not readable(start):
        kinds = kinds - {"ghost"}  # a diode-less matrix cannot read this game's start position
    player = Player(
        rng,
        [s.label for s in controller.state.sites()],
        kinds,
        readable if "ghost" in kinds else (lambda b: True),
    )
    plan = player.plan(controller.state, rng.randint(*plies))
    noise = Noise(
        bounce=rng.choice([(0.0005, 0.001), (0.001, 0.005), (0.005, 0.025)]),
        missed_read=rng.uniform(0.0005, 0.003) if "missed" in kinds else 0.0,
        hover_rate=rng.uniform(0.05, 0.5) if "hover" in kinds else 0.0,
        seed=seed,
    )
    clock = VirtualClock()
    board = SimBoard(
        channels,
        clock=clock,
        noise=noise,
        columns=columns,
        diodes="ghost" not in kinds,
        leds=layout.led_channels,
    )
    for site in start:
        board.place(layout.sensor[site])
    run = (WokenRun if woken else Run)(controller, board, clock, 1000 / controller.timing.scan_hz)
    result = Result(
        seed,
        name if size is None else f"{name} {size}",
        tuple(sorted(kinds)),
        intended=len(plan.moves),
        cut_short=plan.cut_short,
    )
    if not run.settle(0.0):
        result.unsettled += 1
    for segment in plan.segments:
        if not play(run, segment, rng):
            result.unsettled += 1
    run.until(run.now + 1.0)
    run.seen.append({"t": run.last_ms})  # the replay runs as long as the stream did
    judge(result, plan, run.events)
    result.scans = run.scans
    if result.failed:
        result.failure = replay_text(run.seen, name, size, variant)
    return result


def play(run: Run, segment: Segment, rng: random.Random) -> bool:
    """Make a segment's actions on the board, then wait for the board to settle."""
    begin = run.now + rng.uniform(0.05, 0.3)
    board, sensor = run.board, run.controller.layout.sensor
    for action in segment.actions:
        run.until(begin + action.dt)
        chans = [sensor[s] for s in action.sites]
        if action.kind == "place":
            board.place(chans[0])
        elif action.kind == "lift":
            board.lift(chans[0])
        elif action.kind == "flip":
            board.flip(chans[0])
        elif action.kind == "hover":
            board.hover(chans[0], action.length)
        elif action.kind == "slide":
            board.slide(chans, step=action.length / (len(chans) - 1))
        elif action.kind == "press":
            board.buttons.press(action.button)
    return run.settle(begin + segment.end)


def whole_game(
    game: Game, rng: random.Random, plies: int, noise: Noise | None = None, kind: type[Run] = Run
) -> tuple[Run, Plan, int]:
    """Up to ``plies`` random moves (captures first, so capture games end) carried out from the
    start on a simulated board, follow-ups included, through a new controller: the ``kind`` of
    run that played them, the plan, and how many of its segments the board did not settle
    after."""
    controller = open_controller(Config(), Storage(":memory:"), game)
    layout, clock = controller.layout, VirtualClock()
    board = SimBoard(layout.sensor_channels, clock=clock, leds=layout.led_channels, noise=noise)
    for site in controller.boards[0]:
        board.place(layout.sensor[site])
    run = kind(controller, board, clock, 1000 / controller.timing.scan_hz)
    start = controller.state
    plan = Player(rng, [s.label for s in start.sites()], frozenset(), choose=capturing_first).plan(
        start, plies
    )
    unsettled = sum(not play(run, segment, rng) for segment in plan.segments)
    return run, plan, unsettled


def judge(result: Result, plan: Plan, events: list[dict]) -> None:
    """Compare the final record (moves, corrections of the last move) with the intended moves."""
    record: list[str] = []
    for event in events:
        if event["event"] == "move":
            record.append(event["move"])
        elif event["event"] == "correction":
            record[-1] = event["move"]
            result.corrections += 1
        elif event["event"] == "takeback" and record:
            n = len(record)  # a mis-read resting move taken back is fine; an intended one is not
            result.takebacks += n <= len(plan.moves) and record[-1] == plan.moves[n - 1]
            record.pop()
    matched = 0
    while matched < min(len(record), len(plan.moves)) and record[matched] == plan.moves[matched]:
        matched += 1
    result.accepted = matched
    result.false = len(record) - matched
    result.missed = len(plan.moves) - matched
    result.presses = sum(a.kind == "press" for seg in plan.segments for a in seg.actions)


def replay_text(seen: list[dict], game: str, size: int | None, variant: str | None) -> str:
    """The scans as a ``reedboard replay`` file whose first line names the game."""
    named = {k: v for k, v in (("game", game), ("size", size), ("variant", variant)) if v is not None}
    return "".join(json.dumps(line) + "\n" for line in [{"setup": "empty", **named}, *seen])


def _stream(args: tuple[int, tuple[int, int], bool]) -> Result:
    return run_stream(*args)


def run_all(streams: int, seed: int, workers: int, plies=(3, 12), woken: bool = False) -> list[Result]:
    return parallel_map(_stream, [(seed * 1_000_003 + i, plies, woken) for i in range(streams)], workers)


def summarise(results: list[Result], seconds: float) -> dict:
    by_game: Counter[str] = Counter()
    moves: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    presses: Counter[str] = Counter()
    for r in results:
        by_game[r.game.split()[0]] += 1
        moves[r.game.split()[0]] += r.intended
        kinds.update(r.kinds)
        presses[r.game.split()[0]] += r.presses
    return {
        "bench": "robust_noisy",
        "streams": len(results),
        "moves": sum(r.intended for r in results),
        "false_moves_accepted": sum(r.false for r in results),
        "spurious_takebacks": sum(r.takebacks for r in results),
        "true_moves_missed": sum(r.missed for r in results),
        "wrong_final_records": sum(bool(r.false or r.missed) for r in results),
        "corrections": sum(r.corrections for r in results),
        "ok_presses_by_game": dict(sorted(presses.items())),
        "never_settled": sum(r.unsettled for r in results),
        "failed_streams": sum(r.failed for r in results),
        "ghost_streams_cut_short": sum(r.cut_short for r in results),
        "scans": sum(r.scans for r in results),
        "streams_by_game": dict(sorted(by_game.items())),
        "moves_by_game": dict(sorted(moves.items())),
        "streams_with_noise": dict(sorted(kinds.items())),
        "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 streams")
    parser.add_argument("--streams", type=int, help="number of streams (default 10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=workers_default())
    parser.add_argument("--failures", default="noisy-failures", help="where failing streams go")
    parser.add_argument(
        "--woken", action="store_true", help="scan as a board that wakes the loop (a change read at once)"
    )
    args = parser.parse_args(argv)
    streams = args.streams or (100 if args.quick else 10_000)
    began = time.perf_counter()
    results = run_all(streams, args.seed, args.workers, woken=args.woken)
    figures = summarise(results, time.perf_counter() - began)
    failing = [r for r in results if r.failed]
    if failing:
        os.makedirs(args.failures, exist_ok=True)
        for r in failing[:20]:
            path = os.path.join(args.failures, f"{r.game.replace(' ', '-')}-seed{r.seed}.jsonl")
            with open(path, "w", encoding="utf-8") as fp:
                fp.write(r.failure or "")
        figures["failures_written"] = args.failures
    rows = [(k.replace("_", " "), v) for k, v in figures.items() if k != "bench"]
    scanned = ", woken scans" if args.woken else ""
    report(f"Noisy sensors: {streams} streams, seed {args.seed}{scanned}", rows, figures)
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
