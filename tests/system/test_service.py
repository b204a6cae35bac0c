"""The run loop as systemd sees it: sd_notify datagrams from a real ``reedboard run --sim`` on a
real AF_UNIX socket, watchdog pings that stop while the scan hangs or fails, SIGTERM during a move,
and the power-off command."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import threading
import time

import pytest

from firmware_host.runtime.loop import Daemon, Hardware
from firmware_host.runtime.notify import Notifier
from firmware_host.runtime.service import PowerOffProcess
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config
from firmware_host.store.storage import Storage
from hardware.sim import SimBoard
from testbed.running import DRAINED_SECONDS, Running
from testbed.stopping import HANG_SECONDS, stop
from testbed.tools import REEDBOARD, receive, sim_config, wait_for


def events(board: Running) -> list[dict]:
    """The events not read yet, to the end (the daemon has stopped)."""
    return [json.loads(line) for line in iter(lambda: board.events.next(DRAINED_SECONDS), "")]


def until(board: Running, test) -> list[dict]:
    """The events read from ``board`` up to the first that passes ``test`` (that one too)."""
    seen: list[dict] = []
    while not seen or not test(seen[-1]):
        line = board.events.next(HANG_SECONDS)
        assert line, f"the daemon ended first: {seen[-3:]}"
        seen.append(json.loads(line))
    return seen


# ------------------------------------------------------------------- a real run --sim
def test_ready_status_watchdog_and_stopping_from_run_sim(tmp_path, notify_socket):
    path, sock = notify_socket
    board = Running(sim_config(tmp_path), NOTIFY_SOCKET=path, WATCHDOG_USEC="200000")
    try:
        first = wait_for(sock, "READY=1")
        assert first == ["READY=1\nSTATUS=Antipalos 5: white to move"]  # nothing before READY
        for _ in range(3):  # pings go on (every 0.1 s, half the interval: not timed here)
            assert wait_for(sock, "WATCHDOG=1")[-1] == "WATCHDOG=1"
        board.send(site="B2*", on=True)
        got = wait_for(sock, "STATUS=")
        assert got[-1] == "STATUS=Antipalos 5: black to move"
        time.sleep(0.3)
        board.send(site="B2*", on=False)  # taken back: white to move again
        assert wait_for(sock, "STATUS=")[-1] == "STATUS=Antipalos 5: white to move"
        statuses = [m for m in receive(sock, 0.5) if m.startswith("STATUS=")]
        assert statuses == []  # only on change, not every tick
        assert board.stop() == 0
        assert receive(sock, 0.2)[-1] == "STOPPING=1"
    finally:
        board.stop(signal.SIGKILL)


def test_missing_hardware_falls_back_to_the_simulated_board_and_says_so(tmp_path, notify_socket):
    path, sock = notify_socket
    config = sim_config(tmp_path, '[display]\nbackend = "ssd1306"\nport = 97')
    proc = subprocess.Popen(
        [*REEDBOARD, "run", "--config", str(config)],
        env={**os.environ, "NOTIFY_SOCKET": path},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        ready = wait_for(sock, "READY=1")[-1]
        assert ready == (
            "READY=1\nSTATUS=Antipalos 5: white to move (simulated board: the "
            "configured hardware is missing, see reedboard doctor)"
        )
        assert stop(proc) == 0
        assert "i2c bus 97" in proc.stderr.read().lower()
    finally:
        proc.kill()
        proc.wait()


def test_sigterm_during_a_move_keeps_the_move(tmp_path):
    config = sim_config(tmp_path, "[timing]\nsettle_ms = 1000")
    board = Running(config)
    try:
        board.wait_for("display")  # the first screen: the loop is scanning
        board.send(site="C3*", on=True)
        time.sleep(0.3)  # the piece is down, the board not yet settled
        assert board.stop() == 0
        moved = [e for e in events(board) if e["event"] == "move"]
        assert [e["move"] for e in moved] == ["C3*"]
        assert Storage(str(tmp_path / "games.db")).unfinished().moves == ("C3*",)
    finally:
        board.stop(signal.SIGKILL)


def test_the_simulated_board_never_runs_the_power_off_command(tmp_path):
    flag = tmp_path / "powered-off"
    board = Running(sim_config(tmp_path, f'poweroff_command = ["touch", "{flag}"]'))
    try:
        board.wait_for("display")
        board.send(button="menu", long=True)
        board.send(button="ok")
        out = until(board, lambda e: e["event"] == "display" and e["lines"][0] == "Powered off")
        assert board.stop() == 0
        out += events(board)
        assert [e for e in out if e["event"] == "power_off"]
        shown = [e["lines"] for e in out if e["event"] == "display"]
        assert shown[-1][:2] == ["Powered off", "(simulated)"]
        assert not flag.exists()
        assert "the host is not powered off" in board.stderr()
    finally:
        board.stop(signal.SIGKILL)


@pytest.mark.parametrize("command, works", [(["touch", "{flag}"], True), (["false"], False)])
def test_a_real_board_runs_the_power_off_command(tmp_path, command, works):
    """A board that is not the simulator (here the simulated one behind a wrapper, as a real
    backend is) runs ``poweroff_command``."""
    flag = tmp_path / "powered-off"
    config = Config(game="antipalos", size=3)
    controller = open_controller(config, Storage(":memory:"), configured_game(config))
    board = SimBoard(32)
    log = io.StringIO()
    daemon = Daemon(controller, Hardware(Gate(board), board.leds, board.display, board.buttons), 100, log=log)
    daemon.power_off = PowerOffProcess([arg.format(flag=flag) for arg in command])
    board.buttons.press("menu", True)
    board.buttons.press("ok")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and '"power_off"' not in log.getvalue():  # (a quick command
        daemon.step(time.monotonic() * 1000)  # may have ended by the step that started it)
    while time.monotonic() < deadline and daemon.power_off._proc is not None:
        daemon.step(time.monotonic() * 1000)
        time.sleep(0.01)
    out = [json.loads(line) for line in log.getvalue().splitlines()]
    assert [e for e in out if e["event"] == "power_off"]
    assert flag.exists() == works
    assert controller.screen().title == ("Powering off" if works else "Cannot power off")


# ------------------------------------------------------------- in-process: a hung scan
class Gate:
    """A simulated board whose scan blocks while the gate is shut, or raises when broken."""

    def __init__(self, board: SimBoard) -> None:
        self.board = board
        self.channels = board.channels
        self.senses_polarity = False
        self.open = threading.Event()
        self.open.set()
        self.broken = False
        #: Set when a scan is held at the shut gate, or has failed: every ping of a good scan
        #: (which follows it in the loop) was sent before.
        self.held = threading.Event()

    def scan(self):
        if not self.open.is_set():
            self.held.set()
        self.open.wait()
        if self.broken:
            self.held.set()
            raise OSError(5, "Input/output error")
        return self.board.scan()

    def close(self) -> None:
        self.open.set()


@pytest.fixture
def running(notify_socket):
    """A Daemon in a thread on a gated board, its notifications on the test's socket with a
    0.1 s watchdog (a ping every 0.05 s)."""
    path, sock = notify_socket
    config = Config(game="antipalos", size=3)
    controller = open_controller(config, Storage(":memory:"), configured_game(config))
    board = SimBoard(32)
    gate = Gate(board)
    daemon = Daemon(
        controller, Hardware(gate, board.leds, board.display, board.buttons), 100, log=io.StringIO()
    )
    daemon.notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "100000"})
    thread = threading.Thread(target=daemon.run)
    thread.start()
    wait_for(sock, "READY=1")
    yield gate, sock
    gate.open.set()
    daemon.stop.set()
    thread.join(HANG_SECONDS)
    assert not thread.is_alive()


def test_a_hung_scan_stops_the_watchdog_pings_until_it_returns(running):
    gate, sock = running
    for _ in range(3):  # pings go on (how often is not timed here: a loaded machine is slow)
        assert wait_for(sock, "WATCHDOG=1")[-1] == "WATCHDOG=1"
    gate.held.clear()
    gate.open.clear()
    assert gate.held.wait(HANG_SECONDS)  # a scan hangs at the gate
    receive(sock, 0.05)  # a ping already on its way
    assert receive(sock, 0.5) == []
    gate.open.set()
    assert wait_for(sock, "WATCHDOG=1")


def test_a_failing_scan_stops_the_pings_and_says_so(running, capsys):
    gate, sock = running
    gate.held.clear()
    gate.broken = True
    assert gate.held.wait(HANG_SECONDS)  # a scan has failed
    status = wait_for(sock, "STATUS=")[-1]
    assert status == (
        "STATUS=Antipalos 3: white to move (Board not connected: OSError: [Errno 5] Input/output error)"
    )
    assert receive(sock, 0.5) == []
    gate.broken = False
    back = wait_for(sock, "WATCHDOG=1")  # STATUS= comes with the good step before
    assert back == ["STATUS=Antipalos 3: white to move", "WATCHDOG=1"]
    err = capsys.readouterr().err
    assert err.count("Board not connected: the scan failed (OSError: [Errno 5] Input/output error)") == 1
    assert "the scan works again" in err and "the board is connected again" in err
