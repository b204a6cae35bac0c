"""A game played through the host's own ``reedboard run`` and ``reedboard doctor`` on the board's
firmware in the emulator: the default Mega 2560 build (a 16 x 18 diode matrix, 288 WS2812
LEDs) on a pty named in the config, as a USB board on a laptop would be."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path

import pytest

from firmware_host.board.view import LIGHTS
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config
from firmware_host.store.storage import Storage
from testbed.firmware_emulator import EmulatedBoard, build
from testbed.running import Lines
from testbed.tools import REEDBOARD, wait_until, write_config


@pytest.fixture
def board(tmp_path):
    board = EmulatedBoard(build("mega"), str(tmp_path / "ttyACM-reedboard"))
    yield board
    board.close()
    assert board.errors == []  # no UART overrun, no short, nothing dropped


def serial_config(tmp_path: Path, port: str, game: str) -> Path:
    """``game`` on a board whose sensors and LEDs answer on the pty ``port``."""
    return write_config(
        tmp_path,
        f"""game = "{game}"

[timing]
settle_ms = 150

[sensors]
backend = "serial"
port = "{port}"
channels = 288

[leds]
backend = "serial"
port = "{port}"
count = 288
brightness = 1.0
""",
    )


class Daemon:
    """``reedboard run --config`` in a process of its own; its JSON events as they come."""

    def __init__(self, config: Path) -> None:
        self.events: list[dict] = []
        self.process = subprocess.Popen(
            [*REEDBOARD, "run", "--config", str(config)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.journal = Lines(self.process.stderr)  # drained meanwhile: a full pipe would stall it

    def _read(self) -> None:
        for line in self.process.stdout:
            self.events.append(json.loads(line))

    def of(self, kind: str) -> list[dict]:
        return [e for e in self.events if e["event"] == kind]

    def close(self) -> str:
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._reader.join(timeout=2)
        return self.journal.text(drained=True)


def lit(board: EmulatedBoard) -> dict[int, tuple[int, int, int]]:
    return {ch: rgb for ch, rgb in enumerate(board.leds) if any(rgb)}


def test_a_game_moved_by_closing_switches_with_targets_lit_on_the_chain(tmp_path, board):
    config = serial_config(tmp_path, board.path, "anti-grid")
    game = Config(game="anti-grid")
    controller = open_controller(game, Storage(":memory:"), configured_game(game))
    sensor, led = controller.layout.sensor, controller.layout.led
    start = sorted(controller.expected)
    daemon = Daemon(config)
    try:
        # An empty board: the start position's sites light up as missing (a pulse).
        missing = LIGHTS["missing"].colour
        assert wait_until(lambda: set(lit(board)) == {led[s] for s in start}, timeout=15), lit(board)
        for rgb in lit(board).values():  # crimson at some level of the pulse
            assert all(abs(rgb[i] - round(rgb[0] * missing[i] / missing[0])) <= 2 for i in (1, 2))
        for site in start:
            board.place(sensor[site])
        assert wait_until(lambda: not lit(board), timeout=10), lit(board)  # all in place
        assert wait_until(lambda: daemon.of("in_sync"), timeout=10)  # judged still (settle_ms): begun
        # Lift a piece: its targets light amber, exactly the daemon's targets.
        piece = "a11"
        board.lift(sensor[piece])
        assert wait_until(lambda: daemon.of("targets") and daemon.of("targets")[-1]["sites"], 10)
        targets = daemon.of("targets")[-1]["sites"]
        assert targets == sorted(controller.state.targets(piece))
        yellow = LIGHTS["target"].colour
        assert wait_until(lambda: lit(board) == {led[s]: yellow for s in targets}, timeout=5), lit(board)
        raw = board.led_writes[-1].grb  # on the wire: green, red, blue
        assert raw[3 * led[targets[0]] : 3 * led[targets[0]] + 3] == bytes((yellow[1], yellow[0], yellow[2]))
        # Put it down on a target: the move is the daemon's.
        board.place(sensor["d11"])
        assert wait_until(lambda: daemon.of("move"), timeout=10)
        assert daemon.of("move")[0]["move"] == "a11-d11"
        assert wait_until(lambda: not lit(board), timeout=5)
    finally:
        stderr = daemon.close()
    assert "Traceback" not in stderr


def test_doctor_finds_the_board_and_its_counts(tmp_path, board):
    config = serial_config(tmp_path, board.path, "anti-grid")
    done = subprocess.run(
        [*REEDBOARD, "doctor", "--config", str(config)], capture_output=True, text=True, timeout=60
    )
    assert f"OK    sensors: board on {board.path} answered" in done.stdout, done.stdout
    assert "288" in done.stdout
    # the firmware says its release, as the host ships it
    assert "OK    sensors firmware: firmware 2, serial protocol v1, as this host's" in done.stdout
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(config.read_text().replace("channels = 288", "channels = 300"))
    done = subprocess.run(
        [*REEDBOARD, "doctor", "--config", str(wrong)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "board reports 288 sensor channels, config says 300" in done.stdout, done.stdout
