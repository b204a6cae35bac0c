"""An OLED or LEDs that stop answering: a real ssd1306 (luma's driver, its I2C interface) on a
bus that refuses every transfer, and luma's ws2812 whose DMA render fails, each written by a
thread of its own. The daemon goes on scanning and judging moves, says once in the journal and
in STATUS that it cannot write to them, and shows the board as it stands once they answer."""

from __future__ import annotations

import io
import json
import time

import pytest
from luma.core.interface.serial import i2c
from luma.led_matrix.device import ws2812
from luma.oled.device import ssd1306

from firmware_host.cli.daemon import Daemon, Hardware
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config, Timing
from firmware_host.store.storage import Storage
from hardware import leds, oled
from hardware.leds import LumaLeds
from hardware.oled import LumaDisplay
from hardware.sim import SimBoard
from testbed.recorders import I2cBus, RecordingWs281x

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")
TIMING = Timing(settle_ms=100, debounce_scans=2)


class Board:
    """The daemon stepped on a virtual clock over the simulated board, with a real panel and
    a real LED chain."""

    def __init__(self) -> None:
        config = Config(game="antipalos", size=3, timing=TIMING)
        self.controller = open_controller(config, Storage(":memory:"), configured_game(config))
        self.sim, self.bus, self.log = SimBoard(64), I2cBus(), io.StringIO()
        self.panel = LumaDisplay(ssd1306(i2c(bus=self.bus)), thread=True)
        self.dma = RecordingWs281x()
        self.leds = LumaLeds(ws2812(dma_interface=self.dma, cascaded=64))
        hardware = Hardware(self.sim, self.leds, self.panel, self.sim.buttons)
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

    def until(self, condition) -> None:
        """Step on until ``condition()`` (the parts' threads run on the real clock), and once more."""
        deadline = time.monotonic() + 5
        while not condition():
            assert time.monotonic() < deadline, "timed out"
            self.wait(50)
        self.wait(50)

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
    board.until(lambda: board.panel.failure is not None)
    assert board.panel.failure and "(display: " in board.daemon._status
    err = capsys.readouterr().err
    assert err.count("cannot write to the display") == 1 and "0x3C" in err
    board.wait(500)
    assert capsys.readouterr().err == ""  # said once
    board.bus.broken = False  # plugged back in
    board.until(lambda: board.panel.failure is None)
    assert "writing to the display works again" in capsys.readouterr().err
    assert "display" not in board.daemon._status
    shown = board.controller.screen().render(board.panel.size)
    assert board.bus.frame() == _sent(shown)  # the board as it stands, not what came loose
    board.daemon.close()


def test_leds_that_stop_answering_do_not_stop_the_game(monkeypatch, capsys):
    monkeypatch.setattr(leds, "RETRY_SECONDS", 0.05)
    board = Board()
    board.wait(200)
    board.dma.failing = -5  # another program took the DMA channel
    board.put("A1*")
    board.sim.place(board.controller.layout.sensor["B2*"])
    board.put("C3*")  # two stones at once: lit as not the game's
    assert board.moves() == ["A1*"] and board.controller.frame()
    board.until(lambda: board.leds.failure is not None)
    assert "(LEDs: RuntimeError: ws2811_render failed with code -5)" in board.daemon._status
    assert capsys.readouterr().err.count("cannot write to the LEDs") == 1
    board.dma.failing = 0
    board.until(lambda: board.leds.failure is None)
    assert "writing to the LEDs works again" in capsys.readouterr().err
    assert "LEDs" not in board.daemon._status
    lit = lambda: {ch for ch, rgb in board.dma.leds.items() if rgb != (0, 0, 0)}  # noqa: E731
    board.until(lambda: lit() == set(board.controller.frame()))  # the frame as it stands, blinking
    board.daemon.close()


def _sent(image) -> bytes:
    bus = I2cBus()
    LumaDisplay(ssd1306(i2c(bus=bus))).show(image)
    return bus.frame()
