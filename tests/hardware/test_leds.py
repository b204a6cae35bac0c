"""LED sinks on luma's real ws2812 and max7219 classes, with the buses recorded."""

import time

import pytest
from luma.led_matrix.device import max7219, ws2812

from hardware import leds
from hardware.base import Led
from hardware.clock import VirtualClock
from hardware.leds import LumaLeds
from testbed.recorders import RecordingSerial, RecordingWs281x
from testbed.tools import wait_until

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")

RED, WHITE = (255, 0, 0), (255, 255, 255)


def chain(count=10, **kw):
    dma = RecordingWs281x()
    clock = VirtualClock()
    sink = LumaLeds(ws2812(dma_interface=dma, cascaded=count), clock=clock, thread=False, **kw)
    return sink, dma, clock


def test_ws2812_shows_colours_scaled_by_brightness():
    sink, dma, _ = chain(brightness=0.5, max_current_ma=None)
    sink.show({0: Led(RED), 3: Led((0, 100, 200))})
    assert dma.leds[0] == (127, 0, 0) and dma.leds[3] == (0, 50, 100) and dma.leds[1] == (0, 0, 0)
    assert dma.brightness == 255 and sink.channels == 10


def test_full_white_is_capped_to_the_current_budget():
    sink, dma, _ = chain(count=400, brightness=1.0, max_current_ma=2000)
    sink.show({ch: Led(WHITE) for ch in range(400)})
    total_ma = sum(sum(rgb) for rgb in dma.leds.values()) / 255 * 20
    assert 1900 < total_ma <= 2000  # 24 A uncapped
    sink.show({0: Led(WHITE)})
    assert dma.leds[0] == WHITE  # one LED is far under the cap


def test_blinks_render_on_the_clock_and_write_only_on_edges():
    sink, dma, clock = chain()
    sink.show({2: Led(RED, "fast"), 5: Led(RED)})
    writes = sink.writes
    lit = []
    for _ in range(16):  # 0.5 s at 32 Hz: two fast-blink periods
        due = sink.tick()
        lit.append(dma.leds[2] != (0, 0, 0))
        assert due > clock()
        clock.advance(1 / 32)
    assert lit == ([True] * 4 + [False] * 4) * 2
    assert sink.writes - writes == 3  # off, on, off: nothing written in between
    assert dma.leds[5] != (0, 0, 0)


def test_pulse_swells_without_going_dark():
    sink, dma, clock = chain(brightness=1.0, max_current_ma=None)
    sink.show({1: Led(WHITE, "pulse")})
    levels = []
    for _ in range(40):
        sink.tick()
        levels.append(dma.leds[1][0])
        clock.advance(0.05)
    assert min(levels) > 0 and max(levels) > 240 and len(set(levels)) > 10


def test_steady_frame_needs_no_animation():
    sink, _, clock = chain()
    sink.show({1: Led(RED)})
    assert sink.tick() == float("inf")


def test_bad_frames_are_refused_and_change_nothing():
    sink, dma, _ = chain(brightness=0.3)
    sink.show({1: Led(RED)})
    for frame, message in [
        ({10: Led()}, "no LED channel 10"),
        ({1: Led(RED, "strobe")}, "strobe"),
        ({1: Led((300, 0, 0))}, "colour"),
    ]:
        with pytest.raises(ValueError, match=message):
            sink.show(frame)
    assert dma.leds[1] == (76, 0, 0)


def test_animator_thread_blinks_by_itself():
    dma = RecordingWs281x()
    sink = LumaLeds(ws2812(dma_interface=dma, cascaded=4), fps=50, brightness=0.3)
    try:
        sink.show({0: Led(RED, "fast")})
        seen = set()
        end = time.monotonic() + 3
        while len(seen) < 2 and time.monotonic() < end:
            seen.add(dma.leds.get(0))
            time.sleep(0.01)
        assert seen == {(76, 0, 0), (0, 0, 0)}
    finally:
        sink.close()


def _failing_chain(monkeypatch):
    """A chain on its thread whose renders fail (the DMA channel taken by another program),
    once it has found out; its DMA recorder; and the renders that went through before."""
    monkeypatch.setattr(leds, "RETRY_SECONDS", 0.05)
    dma = RecordingWs281x()
    sink = LumaLeds(ws2812(dma_interface=dma, cascaded=4))
    renders, dma.failing = dma.renders, -5
    sink.show({1: Led(RED)})
    assert wait_until(lambda: sink.failure is not None)
    return sink, dma, renders


def test_a_chain_that_cannot_be_written_is_said_and_tried_again(monkeypatch):
    sink, dma, renders = _failing_chain(monkeypatch)
    assert sink.failure == "RuntimeError: ws2811_render failed with code -5"
    assert dma.renders == renders
    dma.failing = 0  # tried again without a new frame
    assert wait_until(lambda: sink.failure is None)
    assert dma.renders == renders + 1 and dma.leds[1] == RED
    sink.close()


def test_a_chain_that_cannot_be_written_is_not_said_to_work_until_a_write_goes_through(monkeypatch):
    sink, dma, renders = _failing_chain(monkeypatch)
    sink.show({})  # back to what the chain showed before it failed: it is written again
    assert wait_until(lambda: dma.leds[1] == (0, 0, 0))
    tried = dma.tried
    assert wait_until(lambda: dma.tried > tried)  # and tried again, failing
    assert sink.failure == "RuntimeError: ws2811_render failed with code -5"
    dma.failing = 0
    assert wait_until(lambda: sink.failure is None)
    assert dma.renders == renders + 1 and dma.leds[1] == (0, 0, 0)
    sink.close()


def test_closing_a_chain_that_does_not_answer_returns(monkeypatch):
    sink, dma, _ = _failing_chain(monkeypatch)
    sink.close()
    assert not sink._animator.alive()
    dma.failing = 0  # luma clears the chain when the device is collected


def max7219_lit(serial, width=8):
    """Decode the last display update of one MAX7219 (digit registers 1-8 = columns)."""
    lit = set()
    digits = [w for w in serial.writes if len(w) == 2 and 1 <= w[0] <= 8][-8:]
    for reg, byte in digits:
        lit |= {(reg - 1) + y * width for y in range(8) if byte >> y & 1}
    return lit


def test_max7219_is_monochrome_and_blinks_by_pattern():
    serial = RecordingSerial()
    clock = VirtualClock()
    sink = LumaLeds(max7219(serial, cascaded=1), clock=clock, thread=False, brightness=0.5)
    assert not sink.colour and sink.channels == 64
    assert [0x0A, 8] in serial.writes  # intensity from the brightness
    sink.show({0: Led(RED), 9: Led((0, 0, 255), "slow"), 63: Led((0, 0, 0))})
    assert max7219_lit(serial) == {0, 9}  # black is off; any colour is on
    clock.advance(0.6)
    sink.tick()
    assert max7219_lit(serial) == {0}


def test_max7219_pulse_is_a_double_flash():
    serial = RecordingSerial()
    clock = VirtualClock()
    sink = LumaLeds(max7219(serial, cascaded=1), clock=clock, thread=False)
    sink.show({5: Led(WHITE, "pulse")})
    seen = []
    for _ in range(10):
        sink.tick()
        seen.append(5 in max7219_lit(serial))
        clock.advance(0.1)
    assert seen == [True, False, True] + [False] * 7


def test_full_brightness_by_default_the_daemon_dims_by_the_menu_level():
    sink, dma, _ = chain()
    sink.show({1: Led(RED), 2: Led((128, 0, 0))})
    assert dma.leds[1] == RED and dma.leds[2] == (128, 0, 0)
