"""The daemon's loop waits for a wake-up on a settled board instead of polling: every change
and press still reaches the controller, none is lost, and a stop ends the wait."""

from __future__ import annotations

import io
import json
import threading

import pytest

from firmware_host.runtime.loop import Daemon, Hardware
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config, Timing
from firmware_host.store.storage import Storage
from hardware.sim import SimBoard
from testbed.tools import wait_until


def until(predicate) -> bool:
    return wait_until(predicate, timeout=10.0)


class Polled:
    """The simulated board's scans only, with no way to wake a loop."""

    def __init__(self, board: SimBoard) -> None:
        self.board, self.channels, self.senses_polarity = board, board.channels, False

    def scan(self):
        return self.board.scan()

    def close(self) -> None:
        pass


class Loop:
    """A Daemon in a thread on a simulated 3×3 Antipalos board; its events as dicts."""

    def __init__(
        self, timing: Timing = Timing(settle_ms=100), polled: bool = False, board: SimBoard | None = None
    ) -> None:
        self.config = Config(game="antipalos", size=3, timing=timing)
        self.board = board or SimBoard(32)
        #: A scanner that cannot wake the loop (as a GPIO matrix): it must be polled.
        self.scanner = Polled(self.board) if polled else self.board
        self.log = io.StringIO()
        self.built = threading.Event()
        self.thread = threading.Thread(target=self._run)
        self.thread.start()
        assert self.built.wait(10)

    def _run(self) -> None:  # sqlite wants the thread that uses it to open it
        board, config = self.board, self.config
        self.controller = open_controller(config, Storage(":memory:"), configured_game(config))
        self.daemon = Daemon(
            self.controller,
            Hardware(self.scanner, board.leds, board.display, board.buttons),
            100,
            log=self.log,
            idle_scan_hz=config.timing.idle_scan_hz,
        )
        self.built.set()
        self.daemon.run()
        self.saved = self.controller.storage.unfinished().moves

    def events(self) -> list[dict]:
        return [json.loads(line) for line in self.log.getvalue().splitlines()]

    def place(self, site: str) -> None:
        self.board.place(self.controller.layout.sensor[site])

    def stop(self) -> None:
        self.daemon.stop.set()
        self.thread.join(timeout=5)
        assert not self.thread.is_alive()


@pytest.fixture
def loop():
    running = Loop()
    yield running
    if running.thread.is_alive():
        running.stop()


def test_a_settled_board_waits_and_a_placing_wakes_it(loop):
    assert until(lambda: loop.daemon.waiting)
    loop.place("B2*")
    assert until(lambda: any(e["event"] == "move" for e in loop.events()))
    assert until(lambda: loop.daemon.waiting)  # judged, and waiting again


def test_nothing_is_lost_when_changes_come_while_it_waits(loop):
    moves = ["B2*", "A1*", "C3*", "A3*"]
    for site in moves:
        assert until(lambda: loop.daemon.waiting)
        loop.place(site)
        assert until(lambda: sum(e["event"] == "move" for e in loop.events()) == moves.index(site) + 1)
    assert [e["move"] for e in loop.events() if e["event"] == "move"] == moves
    loop.stop()
    assert loop.saved == tuple(moves)


def test_a_button_press_wakes_it(loop):
    assert until(lambda: loop.daemon.waiting)
    shown = loop.board.display.images_shown
    loop.board.buttons.press("menu")
    assert until(lambda: loop.board.display.images_shown > shown)  # the menu opened


def test_a_stop_ends_the_wait(loop):
    assert until(lambda: loop.daemon.waiting)
    loop.stop()


def test_a_board_in_motion_is_scanned_at_the_scan_rate(loop):
    assert until(lambda: loop.daemon.waiting)
    loop.board.hover(loop.controller.layout.sensor["A2*"], duration=0.3)
    assert until(lambda: not loop.daemon.waiting)
    assert not loop.daemon._can_wait(loop.controller._now)  # the hover is still in progress


def test_a_polled_scanner_never_waits_and_its_slower_idle_rate_loses_nothing():
    loop = Loop(Timing(settle_ms=100, idle_scan_hz=10), polled=True)
    try:
        assert until(lambda: loop.controller.quiet(loop.controller._now))
        for count, site in enumerate(("B2*", "A1*"), 1):
            loop.place(site)
            assert until(lambda: sum(e["event"] == "move" for e in loop.events()) == count)
            assert not loop.daemon.waiting
    finally:
        loop.stop()
    assert loop.saved == ("B2*", "A1*")


class Reading(SimBoard):
    """A simulated board that keeps what each of its scans read."""

    def __init__(self, channels: int) -> None:
        super().__init__(channels)
        self.readings: list[frozenset[int]] = []

    def scan(self):
        reading = super().scan()
        self.readings.append(reading.closed)
        return reading


def test_a_piece_set_down_while_the_board_is_in_motion_is_read_at_once():
    """A board still moving is scanned at its pace (here a scan every 30 s); a piece set down
    between two scans wakes the loop and is read straight away, not at the next scan."""
    loop = Loop(board=Reading(32))
    sensor = loop.controller.layout.sensor
    try:
        assert until(lambda: loop.daemon.waiting)
        loop.daemon.period = 30.0
        loop.board.hover(sensor["A2*"], duration=120)  # a hand over the board: it is in motion
        assert until(lambda: any(sensor["A2*"] in r for r in loop.board.readings))
        loop.place("B2*")
        assert until(lambda: any(sensor["B2*"] in r for r in loop.board.readings))
    finally:
        loop.daemon.period = 0.01  # a stop drains at the scan rate
        loop.stop()


def test_a_settle_between_two_scans_is_judged_when_it_falls_due():
    """The board paced at a scan every 30 s: a placing, read at once (it wakes the loop), is
    judged when its settle falls due, not at the next scan."""
    loop = Loop(Timing(settle_ms=100, debounce_scans=1))
    try:
        assert until(lambda: loop.daemon.waiting)
        loop.daemon.period = 30.0
        loop.place("B2*")
        assert until(lambda: any(e["event"] == "move" for e in loop.events()))
    finally:
        loop.daemon.period = 0.01  # a stop drains at the scan rate
        loop.stop()
    assert loop.saved == ("B2*",)
