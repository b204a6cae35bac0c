"""An OLED that stops answering: a real ssd1306 (luma's driver, its I2C interface) on a bus
that refuses every transfer, written by the panel's own thread. The daemon goes on scanning and
judging moves, says once in the journal and in STATUS that the display cannot be written, and
shows the board as it stands once the panel answers again."""

from __future__ import annotations

import io
import json
import time

import pytest
from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306

from firmware_host.config import Config, Timing
from firmware_host.daemon import Daemon, Hardware
from firmware_host.session import configured_game, open_controller
from firmware_host.storage import Storage
from hardware import oled
from hardware.oled import LumaDisplay
from hardware.sim import SimBoard
from tests.hardware.hw_recorders import I2cBus

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")
TIMING = Timing(settle_ms=100, debounce_scans=2)


class Board:
    """The daemon stepped on a virtual clock over the simulated board, with a real panel."""

    def __init__(self) -> None:
        config = Config(game="antipalos", size=3, timing=TIMING)
        self.controller = open_controller(config, Storage(":memory:"), configured_game(config))
        self.sim, self.bus, self.log = SimBoard(64), I2cBus(), io.StringIO()
        self.panel = LumaDisplay(ssd1306(i2c(bus=self.bus)), thread=True)
        hardware = Hardware(self.sim, self.sim.leds, self.panel, self.sim.buttons)
        self.daemon = Daemon(self.controller, hardware, 100, log=self.log)
        self.t = 0.0

    def wait(self, ms: float) -> None:
        for _ in range(int(ms // 10)):
            self.t += 10
            assert self.daemon.step(self.t)
            time.sleep(0.001)  # the panel's thread gets its turn

    def put(self, site: str) -> None:
        self.sim.place(self.controller.layout.sensor[site])
        self.wait(300)

    def moves(self) -> list[str]:
        return [e["move"] for e in map(json.loads, self.log.getvalue().splitlines())
                if e["event"] == "move"]


def test_a_panel_that_stops_answering_does_not_stop_the_game(monkeypatch, capsys):
    monkeypatch.setattr(oled, "RETRY_SECONDS", 0.05)
    board = Board()
    board.wait(200)
    assert board.panel.redraws == 1 and board.panel.failure is None
    board.bus.broken = True  # the panel's cable comes loose
    board.put("A1*")
    board.put("A3*")
    assert board.moves() == ["A1*", "A3*"]  # judged and logged as ever
    assert board.panel.failure and "(display: " in board.daemon._status
    err = capsys.readouterr().err
    assert err.count("the display cannot be written") == 1 and "0x3C" in err
    board.wait(500)
    assert capsys.readouterr().err == ""  # said once
    board.bus.broken = False  # plugged back in
    deadline = time.monotonic() + 5
    while board.panel.failure is not None and time.monotonic() < deadline:
        board.wait(50)
    board.wait(50)
    assert "the display works again" in capsys.readouterr().err
    assert "display" not in board.daemon._status
    shown = board.controller.screen().render(board.panel.size)
    assert board.bus.frame() == _sent(shown)  # the board as it stands, not what came loose
    board.daemon.close()


def _sent(image) -> bytes:
    bus = I2cBus()
    LumaDisplay(ssd1306(i2c(bus=bus))).show(image)
    return bus.frame()
