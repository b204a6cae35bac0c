"""The factory: plain option dicts to backends, one-line errors naming the bad option."""

import time

import pytest
from gpiozero.pins.mock import MockFactory
from luma.led_matrix.device import ws2812

from hardware.backends import (
    HardwareOptionError,
    HardwareUnavailable,
    make_buttons,
    make_display,
    make_leds,
    make_scanner,
)
from hardware.base import Led
from hardware.gpio import GpioButtons, GpioMatrix
from hardware.leds import LumaLeds
from hardware.mcu_sim import SimMcu
from hardware.oled import LumaDisplay
from hardware.sim import Noise, SimBoard
from testbed.recorders import RecordingWs281x

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")


def test_sim_everything_shares_one_board():
    board = make_scanner(
        {
            "backend": "sim",
            "channels": 32,
            "senses_polarity": True,
            "noise": {"seed": 3, "missed_read": 0.1, "bounce_ms": [0.5, 1]},
        }
    )
    assert board.noise == Noise((0.0005, 0.001), 0.1, 0.0, 0.03, 3) and board.senses_polarity
    assert make_leds({"backend": "sim"}, sim=board) is board.leds
    assert make_display({"backend": "sim"}, sim=board) is board.display
    assert make_buttons({"backend": "sim"}, sim=board) is board.buttons
    assert make_leds({"backend": "sim", "count": 5}).channels == 5


def test_gpio_backends_on_mock_pins():
    factory = MockFactory()
    scanner = make_scanner(
        {"backend": "gpio-matrix", "rows": [5, 6], "columns": [13, 19, 26], "diodes": False, "settle_us": 0},
        pin_factory=factory,
    )
    assert isinstance(scanner, GpioMatrix) and scanner.channels == 6 and not scanner.diodes
    buttons = make_buttons(
        {"backend": "gpio", "ok": 17, "back": 27, "menu": 22, "hold_time": 0.5}, pin_factory=factory
    )
    assert isinstance(buttons, GpioButtons)
    scanner.close()
    buttons.close()


def test_luma_backends_with_given_devices():
    dma = RecordingWs281x()
    leds = make_leds(
        {"backend": "ws2812", "count": 8, "brightness": 1, "max_current_ma": 100},
        device=ws2812(dma_interface=dma, cascaded=8),
    )
    assert isinstance(leds, LumaLeds) and leds.max_current_ma == 100 and leds.brightness == 1
    leds.close()
    display = make_display({"backend": "dummy", "rotate": 1})
    assert isinstance(display, LumaDisplay) and display.size == (64, 128)


def test_serial_scanner_and_leds_share_one_link(tmp_path):
    board = SimBoard(16, leds=16)
    board.place(3)
    mcu = SimMcu(board, str(tmp_path / "b"), heartbeat=0.2)
    try:
        scanner = make_scanner({"backend": "serial", "port": str(tmp_path / "b"), "channels": 16})
        leds = make_leds({"backend": "serial", "port": str(tmp_path / "b"), "count": 16})
        assert scanner.link is leds.link
        end = time.monotonic() + 5
        while scanner.scan().closed != {3} and time.monotonic() < end:
            time.sleep(0.005)
        assert scanner.scan().closed == {3}
        leds.show({1: Led()})
        while board.leds.frame != {1: Led()} and time.monotonic() < end:
            leds.link.poll()
            time.sleep(0.005)
        assert board.leds.frame == {1: Led()}
        scanner.close()
    finally:
        mcu.close()


@pytest.mark.parametrize(
    "make, options, message",
    [
        (
            make_scanner,
            {"backend": "magic"},
            "scanner: 'backend' must be one of sim, gpio-matrix, 74hc165, mcp23017, serial, not 'magic'",
        ),
        (make_scanner, {"channels": 8}, "scanner: 'backend' must be one of"),
        (make_scanner, {"backend": "sim"}, "scanner.sim: missing option 'channels'"),
        (
            make_scanner,
            {"backend": "sim", "channels": 8, "colour": 1},
            "scanner.sim: unknown option 'colour'",
        ),
        (make_scanner, {"backend": "sim", "channels": 8, "diodes": False}, "needs 'columns'"),
        (make_scanner, {"backend": "sim", "channels": 8, "noise": {"bounce_ms": 3}}, "'bounce_ms' must be"),
        (make_scanner, {"backend": "sim", "channels": 8, "noise": {"gust": 1}}, "unknown option 'gust'"),
        (
            make_scanner,
            {"backend": "gpio-matrix", "rows": [5, 6], "columns": "13"},
            "'columns' must be a list",
        ),
        (make_scanner, {"backend": "gpio-matrix", "rows": [5], "columns": [5]}, "must all differ"),
        (
            make_scanner,
            {"backend": "gpio-matrix", "rows": [5], "columns": [6], "diodes": "no"},
            "'diodes' must be true or false, not 'no'",
        ),
        (make_scanner, {"backend": "serial", "channels": 8}, "scanner.serial: missing option 'port'"),
        (
            make_leds,
            {"backend": "ws2812", "count": 0},
            "leds.ws2812: 'count' must be a whole number from 1 to 4096, not 0",
        ),
        (make_leds, {"backend": "ws2812", "count": 4, "mapping": [0, 1]}, "'mapping' must be a reordering"),
        (
            make_leds,
            {"backend": "max7219", "block_orientation": 45},
            "'block_orientation' must be 0, 90, -90 or 180",
        ),
        (make_leds, {"backend": "sim"}, "leds.sim: missing option 'count'"),
        (make_display, {"backend": "ssd1306", "address": 0x100}, "display.ssd1306: 'address' must be"),
        (make_display, {"backend": "sh1106", "rotate": 4}, "'rotate' must be a whole number from 0 to 3"),
        (make_display, "ssd1306", "display: expected a table of options"),
        (make_buttons, {"backend": "gpio", "ok": 17, "back": 17, "menu": 22}, "must all differ"),
        (make_buttons, {"backend": "gpio", "ok": 17, "back": 27}, "buttons.gpio: missing option 'menu'"),
    ],
)
def test_bad_options_name_the_option(make, options, message):
    with pytest.raises(HardwareOptionError, match=message.replace("(", r"\(")):
        make(options)


@pytest.mark.parametrize(
    "make, options, message",
    [
        (make_display, {"backend": "ssd1306", "port": 7}, "ssd1306 on I2C bus 7 address 0x3c: "),
        (make_leds, {"backend": "ws2812", "count": 4}, "ws2812 (needs the rpi_ws281x module"),
        (make_leds, {"backend": "max7219"}, "max7219 on SPI 0.0"),
    ],
)
def test_missing_hardware_is_a_clear_error(make, options, message):
    with pytest.raises(HardwareUnavailable) as error:
        make(options)
    assert str(error.value).startswith(message) and "\n" not in str(error.value)
