"""Fault injection: every helper of the daemon and every storage and device call fails at a
random moment of a scripted game against the computer, and the daemon must keep stepping, lose
no acknowledged move and say every fault.

The rig is the daemon loop (stepped at 100 Hz on the wall clock by this script) with real
parts: the board's microcontroller simulated on a pty (``hardware/mcu_sim.py``, read through
the serial protocol), an ssd1306 OLED (luma's driver on its I2C interface) and a max7219 LED
matrix (luma's driver on its SPI interface) over bus stand-ins that can fail with the OS's
errors, the computer and the hints in their worker processes, the simulator page served, the
café network on a real Mosquitto (when installed), the games in a real SQLite file, on a
loop-mounted ext4 "card" when this runs as root (``testbed.tools.Card``). A seeded player plays
white at Antipalos 5 (a random legal move, then carries out the computer's move; a hint now and
then; a new game after each end) while faults come one at a time, each at a random moment:

- processes killed by PID (SIGKILL): the computer's worker, the hints' worker, the fork server;
- exceptions raised inside threads (``testbed.tools.inject``): the OLED's writer, the LEDs'
  animator, the web server's loop, paho's network thread, the MQTT sender, the computer's
  worker's driver;
- devices: the I2C bus refusing transfers (EREMOTEIO), the SPI bus failing (EIO), the serial
  cable pulled for 2.5 s;
- storage: the write lock held by another process, the database full (a real SQLITE_FULL),
  writes refused by SQLite's authorizer, the card failing mid-game (ext4 remounting itself
  read-only after an error) and mended;
- observers that raise: the page's and the network's step.

A fault counts as *said* when the journal (stderr) says it, as *survived* when the daemon
stepped on throughout and the part works again afterwards (the journal says so, or its
failure clears), and a move as *lost* when it was acknowledged (a ``move`` event not taken
back) but is not in the games file at the end.

    .venv/bin/python -m bench.robust.faults [--quick] [--rounds N] [--seed S]
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing.forkserver
import os
import random
import signal
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from luma.core.interface.serial import i2c, spi
from luma.led_matrix.device import max7219
from luma.oled.device import ssd1306

from bench.robust.common import Stop, report
from bench.robust.storage_faults import full, locked, refused
from firmware_host.board.phase import Moving, Over
from firmware_host.net import web
from firmware_host.runtime.loop import Daemon, Hardware
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config, Mqtt, OpponentConfig, Timing
from firmware_host.store.storage import Storage
from hardware.leds import LumaLeds
from hardware.mcu_sim import SimMcu
from hardware.oled import LumaDisplay
from hardware.serial_link import SerialLink, SerialScanner
from hardware.sim import SimBoard
from testbed.recorders import I2cBus, NoGpio, SpiBus
from testbed.tools import InjectedFault, ThreadDeath, inject

TIMING = Timing(settle_ms=100, debounce_scans=2)
HUMAN, COMPUTER = "white", "black"
#: Seconds a fault may take to be said, and then to be over (the part working again).
SAY_SECONDS, RECOVER_SECONDS = 8.0, 12.0
#: What asked the run to stop (SIGTERM), looked at between two of the daemon's steps.
STOP = Stop()


class Stopped(Exception):
    """The run was asked to stop: raised between two steps, so that the rig closes whole."""


class Journal(io.TextIOBase):
    """stderr while the rig runs: every line kept (any thread may write)."""

    def __init__(self) -> None:
        self.text = ""
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            self.text += text
        return len(text)

    def since(self, mark: int) -> str:
        return self.text[mark:]


class Rig:
    """The daemon loop with its real parts (see the module's docstring)."""

    def __init__(self, folder: Path, seed: int, storage: Path, broker: int | None) -> None:
        self.rng = random.Random(seed)
        mqtt = Mqtt(host="127.0.0.1", port=broker, board="rig", discovery=False) if broker else Mqtt()
        self.config = replace(
            Config(),
            game="antipalos",
            size=5,
            storage=str(storage),
            timing=TIMING,
            opponent=OpponentConfig("computer", COMPUTER, 1),
            mqtt=mqtt,
        )
        self.path = str(storage)
        self.storage = Storage(self.path)
        self.controller = open_controller(self.config, self.storage, configured_game(self.config))
        channels = self.controller.layout.sensor_channels
        self.board = SimBoard(channels)
        self.mcu = SimMcu(self.board, str(folder / "ttyBOARD"), interval=0.005)
        self.link = SerialLink(str(folder / "ttyBOARD"), channels)
        self.i2c, self.spi = I2cBus(), SpiBus()
        self.panel = LumaDisplay(ssd1306(i2c(bus=self.i2c)), thread=True)
        self.leds = LumaLeds(max7219(spi(spi=self.spi, gpio=NoGpio(), gpio_DC=None, gpio_RST=None)))
        self.log = io.StringIO()
        self.daemon = Daemon(
            self.controller,
            Hardware(SerialScanner(self.link), self.leds, self.panel, self.board.buttons),
            TIMING.scan_hz,
            log=self.log,
        )
        self.page = web.bind(self.board, TIMING, "127.0.0.1", 0, out=io.StringIO())
        self.page.serve()
        self.daemon.attach(self.page)
        self.net = None
        if broker:
            from firmware_host.net.mqtt.observer import attach

            self.net = attach(self.daemon, self.config)
        self.t0 = time.monotonic()
        self.steps = self.ended = 0
        self.statuses: set[str] = set()
        self.messages: set[str | None] = set()
        self._parsed, self._events = 0, []
        self._acted_at = 0.0

    # ------------------------------------------------------------------ the loop
    def step(self) -> None:
        """One step of the daemon's loop (a step that raises is counted: it would end it)."""
        try:
            self.daemon.step((time.monotonic() - self.t0) * 1000)
        except Exception:  # noqa: BLE001 - the figure this script exists for
            self.ended += 1
        self.steps += 1
        self.statuses.add(self.daemon._status or "")
        self.messages.add(self.controller.message)  # the OLED's message line (maybe paged)
        time.sleep(0.01)

    def run(self, seconds: float, until: Callable[[], bool] = lambda: False) -> bool:
        """Step and play for ``seconds`` or until ``until()``; whether it held."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if STOP.by:
                raise Stopped(STOP.by)
            if until():
                return True
            self.step()
            self.play()
        return until()

    def events(self) -> list[dict]:
        text = self.log.getvalue()
        new = text[self._parsed :]
        cut = new.rfind("\n") + 1
        self._events += [json.loads(line) for line in new[:cut].splitlines()]
        self._parsed += cut
        return self._events

    # ------------------------------------------------------------------ the player
    def play(self) -> None:
        """Act as the player at white would, once the board has settled from the last act."""
        now = time.monotonic()
        c = self.controller
        if now - self._acted_at < 0.35 or not c.quiet(c._now):
            return
        self._acted_at = now
        over = isinstance(c.phase, Over)
        on_board = set(c.boards[-1]) if not over else set()
        if over:
            self._set(set())
        elif c.pending is not None:
            self._set((on_board - c.pending.real.emptied) | c.pending.real.filled)
        elif c.sync is not None or c.board != c.boards[-1]:
            self._set(on_board)  # put the board back as the game stands
        elif c.to_act == HUMAN and isinstance(c.phase, Moving):
            if c.hints and self.rng.random() < 0.1:
                self.board.buttons.press("ok", long=True)
            move = self.rng.choice(c.state.legal_moves())
            real = c.state.realisations(move)[0]
            self._set((on_board - real.emptied) | real.filled)

    def _set(self, sites: set[str]) -> None:
        """Make the board hold exactly ``sites``."""
        sensor = self.controller.layout.sensor
        closed = self.board.scan().closed
        for site, channel in sensor.items():
            if (site in sites) != (channel in closed):
                (self.board.place if site in sites else self.board.lift)(channel)

    # ------------------------------------------------------------------ figures
    def acknowledged(self) -> list[list[str]]:
        """The moves shown and not taken back, game by game."""
        games, moves = [], []
        for event in self.events():
            if event["event"] == "move":
                moves.append(event["move"])
            elif event["event"] == "takeback" and moves:
                moves.pop()
            elif event["event"] == "new_game":
                games.append(moves)
                moves = []
        return games + [moves]

    def close(self) -> None:
        if self.net is not None:
            self.net.stop()
        self.page.stop()
        self.daemon.close()
        self.mcu.close()


# ---------------------------------------------------------------------- the faults
@dataclass
class Fault:
    """A way to fail: ``start(rig)`` breaks the part (returns the mend, or None), ``said``
    the words the journal must have for it, ``back`` those it has once the part works (None:
    nothing to say; then the rig's failing parts must not list ``part``)."""

    name: str
    start: Callable[[Rig], Callable[[], None] | None]
    said: tuple[str, ...]
    part: str | None = None
    back: tuple[str, ...] | None = None
    hold: float = 1.0  # seconds the fault lasts before it is mended
    needs: str = ""  # "broker", "card": skipped without it
    status: str | None = None  # what STATUS= carries meanwhile (default: "(<part>")

    @property
    def shown(self) -> str:
        return self.status or f"({self.part}"


def kill(pid: Callable[[Rig], int | None]) -> Callable[[Rig], None]:
    def start(rig: Rig) -> None:
        target = pid(rig)
        if target is not None:
            os.kill(target, signal.SIGKILL)

    return start


def worker_pid(rig: Rig, which: str) -> int | None:
    """The worker's PID, waiting (and playing) until there is one (a hint asked for it)."""
    thinker = getattr(rig.controller, which)
    if which == "hints":
        rig.run(5, lambda: rig.controller.to_act == HUMAN and not rig.controller.pending)
        rig.board.buttons.press("ok", long=True)
    rig.run(
        10,
        lambda: (
            getattr(getattr(rig.controller, which), "worker", None) is not None
            and getattr(rig.controller, which).worker.pid is not None
        ),
    )
    worker = getattr(getattr(rig.controller, which), "worker", None) or thinker.worker
    return worker.pid


def fork_server(rig: Rig) -> int | None:
    worker_pid(rig, "opponent")
    return multiprocessing.forkserver._forkserver._forkserver_pid


def raise_in(
    thread: Callable[[Rig], threading.Thread | None], poke: Callable[[Rig], None] = lambda rig: None
) -> Callable[[Rig], None]:
    def start(rig: Rig) -> None:
        inject(thread(rig), ThreadDeath)
        poke(rig)  # a thread waiting in C gets it once woken

    return start


def wake_panel(rig: Rig) -> None:
    with rig.panel._ready:
        rig.panel._ready.notify()


def get_page(rig: Rig) -> None:
    """Ask the page for itself (wakes the web server's loop)."""
    import urllib.request

    threading.Thread(
        target=lambda: urllib.request.urlopen(rig.page.server.url, timeout=5).read(), daemon=True
    ).start()


def flag(bus: Callable[[Rig], object]) -> Callable[[Rig], Callable[[], None]]:
    def start(rig: Rig) -> Callable[[], None]:
        part = bus(rig)
        part.broken = True
        return lambda: setattr(part, "broken", False)

    return start


def unplug(rig: Rig) -> Callable[[], None]:
    rig.mcu.unplug()
    return rig.mcu.plug


def card_fails(rig: Rig) -> Callable[[], None]:
    rig.card.fail()
    return rig.card.mend


class FailsOnce:
    """An observer whose next call raises (a bug in it), then calls ``part``'s own."""

    def __init__(self, part) -> None:
        self.part, self.label, self.failed = part, part.label, False

    def sync(self, *args) -> None:
        if not self.failed:
            self.failed = True
            raise InjectedFault("in sync")
        self.part.sync(*args)


def raising(observer: Callable[[Rig], object]) -> Callable[[Rig], Callable[[], None]]:
    """The observer's step raises once; mended: the observer itself again."""

    def start(rig: Rig) -> Callable[[], None]:
        part = observer(rig)
        stand_in = FailsOnce(part)

        def swap(old: Callable, new: Callable) -> None:
            rig.daemon.observers = [new if o == old else o for o in rig.daemon.observers]

        swap(part.sync, stand_in.sync)
        return lambda: swap(stand_in.sync, part.sync)

    return start


FAULTS = [
    Fault(
        "computer process killed",
        kill(lambda rig: worker_pid(rig, "opponent")),
        ("Computer restarting: its process was killed by SIGKILL",),
        "Computer",
        ("Computer works again",),
    ),
    Fault(
        "hints process killed",
        kill(lambda rig: worker_pid(rig, "hints")),
        ("Hints restarting: its process was killed by SIGKILL",),
        "Hints",
        ("Hints works again",),
    ),
    Fault(
        "fork server killed",
        kill(fork_server),
        ("Computer restarting: its process",),
        "Computer",
        ("Computer works again",),
    ),
    Fault(
        "OLED thread raises",
        raise_in(lambda rig: rig.panel._writer.thread, wake_panel),
        ("cannot write to the display (its thread ended (ThreadDeath)",),
        "display",
        ("writing to the display works again",),
    ),
    Fault(
        "LED thread raises",
        raise_in(lambda rig: rig.leds._animator.thread, lambda rig: rig.leds._wake.set()),
        ("cannot write to the LEDs (its thread ended (ThreadDeath)",),
        "LEDs",
        ("writing to the LEDs works again",),
    ),
    Fault(
        "web server thread raises",
        raise_in(lambda rig: rig.page.server._thread.thread, get_page),
        ("ThreadDeath",),
        "Page",
    ),
    Fault(
        "computer's driver thread raises",
        raise_in(
            lambda rig: rig.controller.opponent.worker and rig.controller.opponent.worker._driver,
            lambda rig: rig.controller.opponent.worker._poke(),
        ),
        ("Computer restarting: its supervising thread ended (ThreadDeath)",),
        "Computer",
        ("Computer works again",),
    ),
    Fault(
        "paho's network thread raises",
        raise_in(lambda rig: rig.net.link.client._thread),
        ("Network restarting: its network thread ended (ThreadDeath)",),
        "Network",
        ("Network works again",),
        needs="broker",
    ),
    Fault(
        "MQTT sender thread raises",
        raise_in(lambda rig: rig.net.link._sender.thread),
        ("Network restarting: its thread ended (ThreadDeath)",),
        "Network",
        ("Network works again",),
        needs="broker",
    ),
    Fault(
        "I2C bus fails (OLED)",
        flag(lambda rig: rig.i2c),
        ("cannot write to the display (DeviceNotFoundError",),
        "display",
        ("writing to the display works again",),
    ),
    Fault(
        "SPI bus fails (LEDs)",
        flag(lambda rig: rig.spi),
        ("cannot write to the LEDs (OSError: [Errno 5]",),
        "LEDs",
        ("writing to the LEDs works again",),
    ),
    Fault(
        "serial cable pulled",
        unplug,
        ("Board not connected",),
        None,
        ("the board is connected again",),
        hold=2.5,
        status="(Board not connected",
    ),
    Fault(
        "database locked",
        locked,
        ("(database is locked)",),
        None,
        ("the games can be saved again",),
        hold=1.5,
        status="(cannot save: database is",
    ),
    Fault(
        "database full",
        full,
        ("(database or disk is full)",),
        None,
        ("the games can be saved again",),
        hold=1.5,
        status="(cannot save: database or",
    ),
    Fault(
        "writes refused (authorizer)",
        refused,
        ("(not authorized)",),
        None,
        ("the games can be saved again",),
        hold=1.5,
        status="(cannot save: not author",
    ),
    Fault(
        "card fails mid-game",
        card_fails,
        ("Cannot save: the card is read-only",),
        None,
        ("the games can be saved again",),
        hold=2.0,
        needs="card",
        status="(cannot save: the card is read-only)",
    ),
    Fault(
        "page's step raises",
        raising(lambda rig: rig.page),
        ("Page restarting: it failed (InjectedFault: in sync)",),
        "Page",
        ("Page works again",),
    ),
    Fault(
        "network's step raises",
        raising(lambda rig: rig.net),
        ("Network restarting: it failed (InjectedFault: in sync)",),
        "Network",
        ("Network works again",),
        needs="broker",
    ),
]


# ---------------------------------------------------------------------- running them
def try_fault(rig: Rig, fault: Fault) -> dict:
    """Wait a random moment, break the part, play on (``hold`` s at least, until it is said:
    a part fails only when used), mend it, play on until it works and the game goes on."""
    rig.run(rig.rng.uniform(0.2, 2.0))
    mark, steps, ended, began = len(rig.journal.text), rig.steps, rig.ended, time.monotonic()
    moves = len([e for e in rig.events() if e["event"] == "move"])
    rig.statuses, rig.messages = set(), set()
    events_from = len(rig.events())
    mend = fault.start(rig)
    rig.run(fault.hold)
    heard = lambda words: all(w in rig.journal.since(mark) for w in words)  # noqa: E731
    said = rig.run(SAY_SECONDS, lambda: heard(fault.said))
    if mend is not None:
        mend()
    recovered = rig.run(
        RECOVER_SECONDS, lambda: heard(fault.back or ()) and fault.part not in rig.daemon._failing
    )
    progressed = rig.run(
        RECOVER_SECONDS, lambda: len([e for e in rig.events() if e["event"] == "move"]) >= moves + 2
    )
    in_status = any(fault.shown in status for status in rig.statuses)
    on_oled = fault.part != "Computer" or "Computer restarting" in rig.messages
    c = rig.controller
    stuck = (
        None
        if progressed
        else {
            "phase": type(c.phase).__name__,
            "pending": c.pending and c.pending.text,
            "sync": bool(c.sync),
            "to_act": c.to_act,
            "settled": c.board == c.boards[-1],
            "screen": c.screen().text_lines(),
            "failing": dict(rig.daemon._failing),
            "storage": rig.storage.failure,
            "computer": (
                c.opponent._asked,
                c.opponent._future,
                c.opponent.worker
                and (c.opponent.worker.pid, c.opponent.worker._job, c.opponent.worker._driver.is_alive()),
            ),
        }
    )
    during = [e["event"] for e in rig.events()[events_from:] if e["event"] != "display"]
    return {
        "fault": fault.name,
        "said": said and in_status and on_oled,
        "in_journal": said,
        "during": during[:40],
        "in_status": in_status,
        "on_oled": on_oled,
        "stepped": rig.steps > steps,
        "stuck": stuck,
        "ended": rig.ended - ended,
        "recovered": recovered,
        "progressed": progressed,
        "seconds": round(time.monotonic() - began, 1),
        "journal": rig.journal.since(mark)[-2000:],
    }


def run(
    rounds: int = 1, seed: int = 1, broker: int | None = None, card=None, folder: Path | None = None
) -> dict:
    """``rounds`` times every fault this machine allows, in a random order each; the
    figures. ``card``: a testbed.tools.Card for the games (else a plain folder)."""
    rng = random.Random(seed)
    results: list[dict] = []
    skipped = [
        f.name for f in FAULTS if (f.needs == "broker" and not broker) or (f.needs == "card" and card is None)
    ]
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(folder or tmp)
        storage = (card.folder if card else base) / "games.db"
        journal, stderr = Journal(), sys.stderr
        sys.stderr = journal
        try:
            rig = Rig(base, seed, storage, broker)
            rig.journal, rig.card = journal, card
            try:
                rig.run(1.0)
                for _ in range(rounds):
                    order = [f for f in FAULTS if f.name not in skipped]
                    rng.shuffle(order)
                    for fault in order:
                        results.append(try_fault(rig, fault))
                rig.run(3.0, lambda: rig.storage.failure is None and not rig.storage.pending)
                acknowledged = rig.acknowledged()
                steps, ended = rig.steps, rig.ended
            finally:
                rig.close()
        finally:
            sys.stderr = stderr
        stored = [list(g.moves) for g in Storage(str(storage), read_only=True).games()]
    lost = sum(
        len(a) - sum(1 for x, y in zip(a, s) if x == y)
        for a, s in zip(acknowledged, stored + [[]] * len(acknowledged))
    )
    return {
        "faults_tried": len(results),
        "survived": sum(
            r["stepped"] and not r["ended"] and r["recovered"] and r["progressed"] for r in results
        ),
        "said": sum(r["said"] for r in results),
        "daemon_ended": ended,
        "moves_acknowledged": sum(map(len, acknowledged)),
        "moves_lost": lost,
        "games": len(acknowledged),
        "steps": steps,
        "skipped": skipped,
        "failed": [
            r for r in results if not (r["said"] and r["recovered"] and r["progressed"] and not r["ended"])
        ],
        "seconds": {r["fault"]: r["seconds"] for r in results},
    }


def make_card(base: Path):
    """A testbed.tools.Card in ``base`` (None, said, where this machine cannot make one)."""
    from testbed.tools import Card, NoCard

    try:
        return Card(base)
    except NoCard as why:
        print(f"faults: no card ({why}): its fault is skipped", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one round")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rounds = args.rounds or (1 if args.quick else 10)
    signal.signal(signal.SIGTERM, STOP)  # the rig closed, the card unmounted, the broker ended
    from testbed.broker import Broker

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        broker = Broker(base).start()
        card = make_card(base)
        try:
            figures = run(rounds, args.seed, broker.port, card, base)
        except Stopped as exc:
            print(f"faults: stopped by {exc} before the figures were made", file=sys.stderr)
            return 1
        finally:
            if card is not None:
                card.close()
            broker.stop()
    failed = figures.pop("failed")
    rows = [(k, v) for k, v in figures.items()]
    rows += [
        (
            f"failed: {r['fault']}",
            f"said in the journal {r['in_journal']}, STATUS "
            f"{r['in_status']}, OLED {r['on_oled']}; works again {r['recovered']}, the game "
            f"goes on {r['progressed']}; stuck: {r['stuck']}; events {r['during']}; "
            f"journal {r['journal'][-600:]!r}",
        )
        for r in failed
    ]
    report(
        f"Fault injection: {rounds} round(s), seed {args.seed}",
        rows,
        {**figures, "failed": [r["fault"] for r in failed]},
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
