"""The OLED on luma's dummy device (golden images) and on real ssd1306/sh1106 classes with the
I2C bus recorded: an unchanged image is never sent again; and a panel written by its own
thread over a bus that is slow, busy or does not answer."""

from pathlib import Path

import pytest
from luma.core.device import dummy
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from hardware import oled
from hardware.oled import LumaDisplay
from testbed.recorders import I2cBus, RecordingSerial
from testbed.tools import wait_until

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")

GOLDEN = Path(__file__).parent / "golden"


def status_screen(fill=1):
    """A status-like screen from shapes only (fonts change between Pillow versions)."""
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 127, 63), outline=1)
    draw.rectangle((4, 4, 60, 14), fill=fill)
    draw.line((4, 20, 123, 20), fill=1)
    draw.ellipse((90, 28, 120, 58), outline=1)
    for i in range(6):
        draw.rectangle((6 + 12 * i, 30, 14 + 12 * i, 38 + 3 * i), fill=1)
    return image


def golden(name):
    return Image.open(GOLDEN / name).convert("1")


def test_dummy_shows_the_golden_image():
    screen = LumaDisplay(dummy(mode="1"))
    screen.show(status_screen())
    assert screen.device.image.tobytes() == golden("status.png").tobytes()


def test_rotation_turns_the_image_on_the_panel():
    screen = LumaDisplay(dummy(mode="1", rotate=2))
    screen.show(status_screen())
    expected = golden("status.png").transpose(Image.Transpose.ROTATE_180)
    assert screen.device.image.tobytes() == expected.tobytes()


def test_greyscale_images_are_converted():
    screen = LumaDisplay(dummy(mode="1"))
    screen.show(status_screen().convert("L"))
    assert screen.device.image.tobytes() == golden("status.png").tobytes()


@pytest.mark.parametrize("panel", [ssd1306, sh1106])
def test_unchanged_images_are_not_sent_again(panel):
    bus = RecordingSerial()
    screen = LumaDisplay(panel(bus))
    bus.writes.clear()
    screen.show(status_screen())
    sent = len(bus.writes)
    assert sent > 0
    screen.show(status_screen())
    assert len(bus.writes) == sent and screen.redraws == 1 and screen.images_shown == 2
    screen.show(status_screen(fill=0))
    assert len(bus.writes) > sent and screen.redraws == 2


def test_wrong_size_is_refused():
    screen = LumaDisplay(dummy(mode="1"))
    with pytest.raises(ValueError, match="image is 64x32, the display 128x64"):
        screen.show(Image.new("1", (64, 32)))
    assert screen.redraws == 0


def _panel(bus, thread=True):
    from luma.core.interface.serial import i2c

    return LumaDisplay(ssd1306(i2c(bus=bus)), thread=thread)


def _sent(image):
    """The frame bytes an ssd1306 is sent for ``image``."""
    bus = I2cBus()
    _panel(bus, thread=False).show(image)
    return bus.frame()


def _failing_panel(monkeypatch):
    """A panel on its thread whose bus stopped answering, once it has found out; and the bus."""
    monkeypatch.setattr(oled, "RETRY_SECONDS", 0.05)
    bus = I2cBus()
    screen = _panel(bus)
    bus.broken = True
    screen.show(status_screen())
    assert wait_until(lambda: screen.failure is not None)
    return screen, bus


def test_a_panel_on_its_thread_takes_the_newest_image_and_never_holds_up_show():
    bus = I2cBus()
    screen = _panel(bus)
    bus.gate.clear()  # the bus is busy: the first write waits (a show waiting too would fail)
    before = bus.attempts  # luma's set-up commands
    screen.show(status_screen(fill=1).rotate(180))
    assert wait_until(lambda: bus.attempts > before)  # being sent
    screen.show(status_screen(fill=0))  # overtaken by the next while the first is sent
    screen.show(status_screen(fill=1).rotate(180))
    assert screen.skipped == 1 and screen.redraws == 0
    bus.gate.set()
    assert wait_until(lambda: screen.redraws == 2)
    assert screen.images_shown == 3 and screen.failure is None
    assert bus.frame() == _sent(status_screen(fill=1).rotate(180))
    screen.close()


def test_a_panel_that_stops_answering_is_said_and_tried_again(monkeypatch):
    screen, bus = _failing_panel(monkeypatch)
    assert "I2C device not found on address: 0x3C" in screen.failure and screen.redraws == 0
    bus.broken = False  # plugged back: the same image goes out without being shown again
    assert wait_until(lambda: screen.failure is None)
    assert screen.redraws == 1 and bus.frame() == _sent(status_screen())
    screen.close()


def test_closing_a_panel_that_does_not_answer_returns(monkeypatch):
    screen, _ = _failing_panel(monkeypatch)
    screen.close()
    assert not screen._writer.alive()
