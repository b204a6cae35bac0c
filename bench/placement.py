"""Placement -> ``move`` event: how long after a player's hand leaves the board the move is
announced, per game, with the default configuration (100 Hz, 3 debounce scans, settle 300 ms,
quick settle 100 ms from the placing's first contact, landing settle 40 ms; ``--quick-settle MS``
for another).

Random legal games of every game are played on the simulated board with contact bounce, as
bench/robust/noisy.py plays them (its seeded player and its 100 Hz virtual clock), without the
other noise kinds. The latency of a move is the time from the board's last physical change
before it was announced (the placing; its contact bounce counts as latency) to the controller
step that announced it. That part is on the virtual clock: the settle rule's wait and the
scan period. It is printed twice: for a board polled every scan period (a GPIO matrix), and for
one that wakes the daemon's loop when it changes (the simulated board, the serial link), whose
change is read at once (``WokenRun``); then, on the waking board, for the moves of an opponent
away from the board (the computer, a paired board: the second side plays the plan's moves as
they are lit), carried out by the players. Beside it, the wall-clock time of the step that
announced the move (judging it, saving it to an in-memory database, the events, frame and
screen built), with a bare Python loop of ``BARE_LOOP`` additions timed in the same run as its
baseline.

Then random games through the daemon's own loop (``Daemon.step`` over the simulated board, a
database file, the screen laid out and drawn as on the OLED): the CPU time of the step that
announced a move (this thread's, steadier than the wall clock on a shared machine), until the
move reached the observers (the page and the café network are observers) and until the step
ended. Antipode is left out there: its moves wait
for a tap.

With ``--wall N``, N random games of each game through ``Daemon.run`` itself on the wall
clock, a board polled and one that wakes the loop: the time from a placing to the ``move``
event the observers get (scheduling, the step's work and the machine's load included; a loop
scans a little after its time, so a settle can fall just after the scan that should end it).

Usage: .venv/bin/python -m bench.placement [--quick] [--streams N] [--seed S] [--quick-settle MS]
       [--loop N] [--wall N]
The last line is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.robust.noisy import GAMES, Run, WokenRun, play
from bench.robust.player import Player
from bench.timing import percentile
from engines.core import GameState
from firmware_host.board.controller import Controller
from firmware_host.board.game import Game
from firmware_host.board.opponent import Play
from firmware_host.runtime.loop import Daemon, Hardware
from firmware_host.runtime.session import open_controller
from firmware_host.store.config import Config, Timing
from firmware_host.store.layout import default_layout
from firmware_host.store.storage import Storage
from hardware.base import Scan
from hardware.clock import VirtualClock
from hardware.sim import Noise, SimBoard

#: Additions of the bare loop, the baseline of a step's wall-clock time.
BARE_LOOP = 10_000


class TimedRun(Run):
    """A stream whose steps that announce a move have their wall-clock time (ms) kept."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.step_ms: list[float] = []

    def scan(self) -> None:
        start = time.perf_counter()
        events = len(self.events)
        super().scan()
        if any(e["event"] == "move" for e in self.events[events:]):
            self.step_ms.append((time.perf_counter() - start) * 1000)


class WakingRun(TimedRun, WokenRun):
    """A timed stream scanned as a board that wakes the daemon's loop is."""


class Away:
    """An opponent away from the board (the computer, a paired board) playing the second side's
    moves of a planned game, as the controller asks (testbed/drive.py's ``Scripted``)."""

    WAIT, rethinks, level, note, times_itself, present = "Wait", False, None, None, False, True

    def __init__(self, start: GameState[Any], moves: list[str]) -> None:
        self.side, state, self.moves = start.sides[1], start, []
        for move in moves:
            if state.to_move == self.side:
                self.moves.append(move)
            state = state.play(move)

    def side_in(self, state: GameState[Any]) -> str:
        return self.side

    def record(self, state: GameState[Any]) -> str:
        return "away"

    def poll(self, seen: Any) -> list[Play]:
        if seen.awaiting and self.moves:
            return [Play(self.moves.pop(0), "")]
        return []

    def takeback(self, seen: Any, to: Any = None) -> Any:
        return seen.turns_back(self.side, to)

    def close(self) -> None:
        pass


def bare_loop_ms() -> float:
    """The median wall time (ms) of a bare loop of :data:`BARE_LOOP` additions."""
    times = []
    for _ in range(21):
        start, total = time.perf_counter(), 0
        for i in range(BARE_LOOP):
            total += i
        times.append((time.perf_counter() - start) * 1000)
    return sorted(times)[10]


class TimedBoard(SimBoard):
    """A simulated board that remembers when (its clock, ms) each piece was placed or lifted."""

    def __init__(self, *args, **kwargs) -> None:
        self.times: list[float] = []
        super().__init__(*args, **kwargs)

    def _changed(self) -> None:
        super()._changed()
        self.times.append(self.clock() * 1000)


def stream_latencies(
    name: str,
    seed: int,
    plies: int = 12,
    timing: Timing = Timing(),
    kind: type[TimedRun] = TimedRun,
    away: bool = False,
) -> tuple[list[float], int, list[float]]:
    """One random game of ``name``: each move's latency (ms), how many moves were wrong, and
    the wall time (ms) of each step that announced a move; ``kind``: how the board is scanned
    (polled every period, or :class:`WakingRun`). ``away``: the second side plays away from
    the board (the computer, a paired board: :class:`Away`), its moves carried out at the
    board as it lights them; only theirs are timed."""
    rng = random.Random(seed)
    size, variant = rng.choice(GAMES[name])
    game = Game.of(name, size, variant)
    start = game.new()
    plan = Player(rng, [s.label for s in start.sites()], frozenset()).plan(start, plies)
    opponent = Away(start, plan.moves) if away else None
    controller = Controller(
        game, lambda state: default_layout(state.sites()), timing, Storage(":memory:"), opponent=opponent
    )
    layout = controller.layout
    clock = VirtualClock()
    noise = Noise(bounce=rng.choice([(0.0005, 0.001), (0.001, 0.005), (0.005, 0.025)]), seed=seed)
    board = TimedBoard(layout.sensor_channels, clock=clock, noise=noise, leds=layout.led_channels)
    for site in controller.boards[0]:
        board.place(layout.sensor[site])
    run = kind(controller, board, clock, 1000 / controller.timing.scan_hz)
    run.settle(0.0)
    for segment in plan.segments:
        play(run, segment, rng)
        if away:  # a move towards the position before the players' own is held back a while
            run.until(run.now + timing.takeback_ms / 1000)
    run.until(run.now + 1.0)
    latencies = []
    for event in run.events:
        if event["event"] == "move" and (opponent is None or event["side"] == opponent.side):
            last = max((t for t in board.times if t <= event["t"]), default=None)
            if last is not None:
                latencies.append(event["t"] - last)
    made = [e["move"] for e in run.events if e["event"] == "move"]
    wrong = sum(a != b for a, b in zip(made, plan.moves)) + abs(len(made) - len(plan.moves))
    return latencies, wrong, run.step_ms


class Observed:
    """An observer of the daemon's steps, as the page and the café network are: this thread's
    CPU time (s) when it is given a ``move`` event."""

    def __init__(self) -> None:
        self.mark: float | None = None

    def __call__(self, now: float, controller: object, events: list) -> None:
        if self.mark is None and any(e["event"] == "move" for e in events):
            self.mark = time.thread_time()


def loop_cpu(name: str, seed: int, plies: int = 12) -> list[tuple[float, float]]:
    """One random game of ``name`` through the daemon's loop (``Daemon.step``: the judging,
    the database file, the LED frame, the screen laid out and drawn, the events written): for
    each step that announced a move, this thread's CPU time (ms) until the move was
    given to the observers (the page, the café network) and until the step ended."""
    rng = random.Random(seed)
    size, variant = rng.choice(GAMES[name])
    with tempfile.TemporaryDirectory() as folder:
        storage = Storage(str(Path(folder) / "games.db"))
        controller = open_controller(Config(), storage, Game.of(name, size, variant))
        layout = controller.layout
        sim = SimBoard(layout.sensor_channels, leds=layout.led_channels)
        for site in controller.boards[0]:
            sim.place(layout.sensor[site])
        log = Observed()
        daemon = Daemon(controller, Hardware(sim, sim.leds, sim.display, sim.buttons), 100, log=io.StringIO())
        daemon.observers.append(log)
        now, found = 0.0, []

        def step() -> tuple[float, float] | None:
            nonlocal now
            now += 10
            log.mark, start = None, time.thread_time()
            daemon.step(now)
            mark = log.mark
            return None if mark is None else ((mark - start) * 1000, (time.thread_time() - start) * 1000)

        for _ in range(50):
            step()
        for _ in range(plies):
            state = controller.state
            reals = [r for m in state.legal_moves() for r in state.realisations(m)[:1] if not r.follow_ups]
            if not reals or state.outcome():
                break
            real = rng.choice(reals)
            for site in real.emptied:
                sim.lift(layout.sensor[site])
            for _ in range(5):
                step()
            for site in real.filled:
                sim.place(layout.sensor[site])
            for _ in range(40):
                if (took := step()) is not None:
                    found.append(took)
        storage.close()
    return found


class Unwoken:
    """A simulated board's scans alone, with no way to wake the loop: a matrix that must be
    polled."""

    def __init__(self, board: SimBoard) -> None:
        self.board, self.channels, self.senses_polarity = board, board.channels, False

    def scan(self) -> Scan:
        return self.board.scan()

    def close(self) -> None:
        pass


def wall_latencies(name: str, seed: int, polled: bool, timing: Timing, plies: int = 10) -> list[float]:
    """One random game of ``name`` through the daemon's own loop (``Daemon.run``, in a thread,
    on the wall clock; an in-memory database) with ``timing``, a piece set on the simulated
    board now and then: the wall-clock time (ms) from each placing to the observers' ``move``
    event. ``polled``: the board cannot wake the loop."""
    rng = random.Random(seed)
    size, variant = rng.choice(GAMES[name])
    built, parts, moved = threading.Event(), {}, []

    def run() -> None:  # sqlite wants the thread that uses it to open it
        config = replace(Config(), timing=timing)
        controller = open_controller(config, Storage(":memory:"), Game.of(name, size, variant))
        sim = SimBoard(controller.layout.sensor_channels, leds=controller.layout.led_channels)
        for site in controller.boards[0]:
            sim.place(controller.layout.sensor[site])
        scanner = Unwoken(sim) if polled else sim
        daemon = Daemon(
            controller, Hardware(scanner, sim.leds, sim.display, sim.buttons), 100, log=io.StringIO()
        )
        daemon.observers.append(
            lambda now, _, events: moved.extend(time.monotonic() for e in events if e["event"] == "move")
        )
        parts.update(controller=controller, sim=sim, daemon=daemon)
        built.set()
        daemon.run()

    thread = threading.Thread(target=run)
    thread.start()
    built.wait()
    controller, sim, daemon = parts["controller"], parts["sim"], parts["daemon"]
    sensor, found = controller.layout.sensor, []
    time.sleep(0.3)
    for _ in range(plies):
        state = controller.state
        reals = [r for m in state.legal_moves() for r in state.realisations(m)[:1] if not r.follow_ups]
        if not reals or state.outcome():
            break
        real, before = rng.choice(reals), len(moved)
        for site in real.emptied:
            sim.lift(sensor[site])
        time.sleep(rng.uniform(0.15, 0.2))
        placed = time.monotonic()
        for site in real.filled:
            sim.place(sensor[site])
        while len(moved) == before and time.monotonic() < placed + 1:
            time.sleep(0.002)
        if len(moved) > before:
            found.append((moved[before] - placed) * 1000)
        time.sleep(rng.uniform(0.35, 0.45))
    daemon.stop.set()
    thread.join()
    return found


def latency_table(
    figures: dict,
    streams: int,
    seed: int,
    timing: Timing,
    kind: type[TimedRun],
    prefix: str = "",
    away: bool = False,
) -> list[float]:
    """Print the latency per game of ``streams`` games each scanned as ``kind`` (``away``: of
    the moves of an opponent away from the board, carried out), keep its figures in ``figures``
    (their names after ``prefix``); the wall times (ms) of the steps that announced a move."""
    everything: list[float] = []
    steps: list[float] = []
    print(f"{'game':<12}{'moves':>7}{'median ms':>11}{'p90 ms':>8}{'p99 ms':>8}{'max ms':>8}{'wrong':>7}")
    for name in GAMES:
        samples, wrong = [], 0
        for i in range(streams):
            got, bad, took = stream_latencies(name, seed * 1_000_003 + i, timing=timing, kind=kind, away=away)
            samples += got
            wrong += bad
            steps += took
        everything += samples
        row = {
            "moves": len(samples),
            "median_ms": percentile(samples, 0.5),
            "p90_ms": percentile(samples, 0.9),
            "p99_ms": percentile(samples, 0.99),
            "max_ms": max(samples, default=0.0),
            "wrong": wrong,
        }
        figures[prefix + name] = row
        print(
            f"{name:<12}{row['moves']:>7}{row['median_ms']:>11.0f}{row['p90_ms']:>8.0f}"
            f"{row['p99_ms']:>8.0f}{row['max_ms']:>8.0f}{wrong:>7}"
        )
    figures[prefix + "median_ms"] = percentile(everything, 0.5)
    figures[prefix + "p99_ms"] = percentile(everything, 0.99)
    figures[prefix + "wrong"] = sum(figures[prefix + name]["wrong"] for name in GAMES)
    median, p99 = figures[prefix + "median_ms"], figures[prefix + "p99_ms"]
    print(f"{'all':<12}{len(everything):>7}{median:>11.0f}{'':>8}{p99:>8.0f}")
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 games of each game")
    parser.add_argument("--streams", type=int, help="games of each game (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--loop", type=int, help="games of each game through the daemon's loop (default 10)")
    parser.add_argument(
        "--wall",
        type=int,
        default=0,
        metavar="N",
        help="games of each game through the loop on the wall clock",
    )
    parser.add_argument(
        "--quick-settle",
        type=int,
        metavar="MS",
        help=f"[timing] quick_settle_ms (default {Timing().quick_settle_ms})",
    )
    args = parser.parse_args()
    streams = args.streams or (20 if args.quick else 100)
    timing = Timing()
    if args.quick_settle is not None:
        timing = timing._replace(quick_settle_ms=args.quick_settle)
    figures: dict = {
        "bench": "placement",
        "streams_per_game": streams,
        "quick_settle_ms": timing.quick_settle_ms,
    }
    print("a board polled every scan period (a GPIO matrix, 74HC165 registers):")
    steps = latency_table(figures, streams, args.seed, timing, TimedRun)
    print("a board that wakes the loop when it changes (the simulated board, the serial link):")
    latency_table(figures, streams, args.seed, timing, WakingRun, prefix="woken_")
    print("the opponent's move (the computer's, a paired board's) carried out, a board that wakes the loop:")
    latency_table(figures, streams, args.seed, timing, WakingRun, prefix="away_", away=True)
    bare = bare_loop_ms()
    figures["step_median_ms"] = percentile(steps, 0.5)
    figures["step_p99_ms"] = percentile(steps, 0.99)
    figures["bare_loop_ms"] = bare
    print(
        f"the step announcing a move (wall clock): median {figures['step_median_ms']:.2f} ms, "
        f"p99 {figures['step_p99_ms']:.2f} ms; a bare loop of {BARE_LOOP} additions "
        f"{bare:.2f} ms (p99 {figures['step_p99_ms'] / bare:.1f}x it)"
    )
    loop_games = args.loop or (3 if args.quick else 10)
    print(f"through the daemon's loop ({loop_games} games of each), the CPU of the step announcing a move:")
    print(
        f"{'game':<12}{'moves':>7}{'to observers: median':>21}{'p99':>8}{'whole step: median':>20}{'p99':>8}"
    )
    loop: dict = {}
    for name in GAMES:
        cpu = [t for i in range(loop_games) for t in loop_cpu(name, args.seed * 1_000_003 + i)]
        if not cpu:  # every move of it waits for a tap (Antipode's): not played here
            continue
        line, whole = [t[0] for t in cpu], [t[1] for t in cpu]
        loop[name] = row = {
            "moves": len(cpu),
            "observed_median_ms": percentile(line, 0.5),
            "observed_p99_ms": percentile(line, 0.99),
            "step_median_ms": percentile(whole, 0.5),
            "step_p99_ms": percentile(whole, 0.99),
        }
        print(
            f"{name:<12}{len(cpu):>7}{row['observed_median_ms']:>18.2f} ms{row['observed_p99_ms']:>5.2f} ms"
            f"{row['step_median_ms']:>17.2f} ms{row['step_p99_ms']:>5.2f} ms"
        )
    figures["loop_cpu"] = loop
    if args.wall:
        print(f"through the daemon's loop on the wall clock ({args.wall} games of each), placing -> move:")
        for polled in (True, False):
            took = [
                t
                for name in GAMES
                for i in range(args.wall)
                for t in wall_latencies(name, args.seed + i, polled, timing)
            ]
            kind = "polled" if polled else "woken"
            figures[f"wall_{kind}_median_ms"] = median = percentile(took, 0.5)
            figures[f"wall_{kind}_p90_ms"] = p90 = percentile(took, 0.9)
            load = os.getloadavg()[0]
            print(
                f"  {kind:<8}{len(took):>5} moves: median {median:.1f} ms, p90 {p90:.1f} ms (load {load:.1f})"
            )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
