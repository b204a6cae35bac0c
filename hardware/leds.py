"""LED sinks on luma devices: WS2812 chains (colour) and MAX7219 matrices (monochrome).

The sink animates the patterns itself: a thread renders the frame at ``fps`` only while
something blinks or pulses (and just at the blink edges for blinks), and writes to the device
only when the rendering changed. The daemon sends a frame only when what it wants changes. A
thread that dies is started again by :meth:`LumaLeds.check` and writes the frame again.

Colour sinks scale every colour by ``brightness`` and then, if the estimate of the chain's
current (``ma_per_channel`` per fully lit colour channel: 60 mA for a white WS2812) exceeds
``max_current_ma``, scale the whole frame down to fit. LED channel i is pixel i of the device,
row by row (a WS2812 chain is one row; luma's ``mapping`` handles the wiring order).
"""

from __future__ import annotations

import math
import threading
from typing import Mapping

from PIL import Image

from hardware import patterns
from hardware.base import RETRY_SECONDS, Led
from hardware.clock import Clock, wall_clock
from hardware.supervise import Supervised


class LumaLeds:
    """An LedSink on a luma device (``mode`` "RGB" for colour, "1" for monochrome).

    ``thread=False`` leaves animation to explicit :meth:`tick` calls (tests, replays). A write
    the thread cannot make sets ``failure`` (what went wrong; None again once one goes through)
    and is tried again every :data:`~hardware.base.RETRY_SECONDS`."""

    def __init__(
        self,
        device,
        *,
        brightness: float = 1.0,
        max_current_ma: float | None = 2000,
        ma_per_channel: float = 20.0,
        fps: float = 50,
        clock: Clock = wall_clock,
        thread: bool = True,
    ) -> None:
        if not 0 <= brightness <= 1:
            raise ValueError(f"brightness must be between 0 and 1, not {brightness}")
        self.device = device
        self.colour = device.mode != "1"
        self.channels = device.width * device.height
        self.brightness, self.max_current_ma = brightness, max_current_ma
        self.ma_per_channel, self.fps, self.clock = ma_per_channel, fps, clock
        self.writes = 0
        self.failure: str | None = None
        self._frame: dict[int, Led] = {}
        self._last: bytes | None = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = False
        device.contrast(255 if self.colour else round(255 * brightness))
        self._animator = None
        if thread:
            self._animator = Supervised("leds", self._run, redo=self._redo)
            self._animator.start()
        self.tick()

    def show(self, frame: Mapping[int, Led]) -> None:
        patterns.check_frame(frame, self.channels)
        with self._lock:
            self._frame = dict(frame)
        if self._animator is None:
            self.tick()
        else:
            self._wake.set()

    def check(self) -> str | None:
        """Start the animating thread again if it died; what is wrong (None: nothing)."""
        if self._animator is not None and not self._stop:
            return self._animator.check() or self.failure
        return self.failure

    def _redo(self, why: str) -> None:
        """The thread died: said, and the frame is written again by the next one."""
        self.failure = why
        with self._lock:
            self._last = None

    def tick(self, now: float | None = None) -> float:
        """Render the frame at ``now`` and write it if it changed; returns when the rendering
        next changes (infinity when nothing moves)."""
        now = self.clock() if now is None else now
        with self._lock:
            frame = self._frame
        image = self._render(frame, now)
        data = image.tobytes()
        if data != self._last:
            self._last = None  # what a write that fails leaves shown is not known: written again
            self.device.display(image)
            self._last = data
            self.writes += 1
        return patterns.next_change(frame, now, self.fps)

    def _render(self, frame: Mapping[int, Led], now: float) -> Image.Image:
        width = self.device.width
        if not self.colour:
            image = Image.new("1", self.device.size)
            for ch in patterns.render_mono(frame, now):
                image.putpixel((ch % width, ch // width), 1)
            return image
        pixels = bytearray(3 * self.channels)
        for ch, (r, g, b) in patterns.render(frame, now).items():
            pixels[3 * ch : 3 * ch + 3] = bytes((r, g, b))
        scale = self.brightness
        if self.max_current_ma is not None:
            full = sum(pixels) / 255 * self.ma_per_channel * scale
            if full > self.max_current_ma:
                scale *= self.max_current_ma / full
        image = Image.frombytes("RGB", self.device.size, bytes(pixels))
        if scale < 1:
            image = image.point([math.floor(v * scale) for v in range(256)] * 3)
        return image

    def _run(self) -> None:
        while not self._stop:
            try:
                due = self.tick()
            except Exception as exc:  # noqa: BLE001 - any bus error: said, and tried again
                self.failure = f"{type(exc).__name__}: {exc}"
                due = self.clock() + RETRY_SECONDS
            else:
                self.failure = None
            wait = None if math.isinf(due) else max(0.0, due - self.clock())
            self._wake.wait(wait)
            self._wake.clear()

    def close(self) -> None:
        self._stop = True
        self._wake.set()
        if self._animator is not None:
            self._animator.join(timeout=2)
        if self.failure is not None:  # the LEDs do not answer: nothing to put out
            return
        with self._lock:
            self._frame = {}
        self.tick()
        self.device.cleanup()
