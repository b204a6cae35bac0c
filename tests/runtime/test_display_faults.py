"""An OLED or LEDs that stop answering: a real ssd1306 (luma's driver, its I2C interface) on a
bus that refuses every transfer, and luma's ws2812 whose DMA render fails, each written by a
thread of its own. The daemon goes on scanning and judging moves, says once in the journal and
in STATUS that it cannot write to them, and shows the board as it stands once they answer."""

from __future__ import annotations

import pytest
from luma.core.interface.serial import i2c
from luma.led_matrix.device import ws2812
from luma.oled.device import ssd1306

from firmware_host.store.config import Config, Timing
from firmware_host.store.storage import Storage
from hardware import leds, oled
from hardware.leds import LumaLeds
from hardware.oled import LumaDisplay
from testbed.recorders import I2cBus, RecordingWs281x
from testbed.stepped import Stepped

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")
TIMING = Timing(settle_ms=100, debounce_scans=2)


class RealParts(Stepped):
    """The daemon stepped over the simulated board, with a real panel on an I2C bus that can
    break and a real LED chain whose DMA render can fail."""

    def __init__(self) -> None:
        self.bus, self.dma = I2cBus(), RecordingWs281x()
        self.panel = LumaDisplay(ssd1306(i2c(bus=self.bus)), thread=True)
        self.leds = LumaLeds(ws2812(dma_interface=self.dma, cascaded=64))
        super().__init__(
            Config(game="antipalos", size=3, timing=TIMING),
            Storage(":memory:"),
            leds=self.leds,
            display=self.panel,
            pause=0.001,
        )


def test_a_panel_that_stops_answering_does_not_stop_the_game(monkeypatch, capsys):
    monkeypatch.setattr(oled, "RETRY_SECONDS", 0.05)
    board = RealParts()
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
    board = RealParts()
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
