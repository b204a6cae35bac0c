"""GPIO backends through gpiozero: the reed-switch matrix scanner and the three buttons.

gpiozero chooses the pin factory (lgpio on a Pi 5, RPi.GPIO on older Pis, ``MockFactory`` in
tests, or whatever ``GPIOZERO_PIN_FACTORY`` names); pass ``pin_factory`` to choose yourself.

The matrix drives one row low at a time and reads the columns through pull-ups: a column reads
low when a closed switch joins it to the driven row. Idle rows are left as inputs (high
impedance), never driven high, so two closed switches on a diode-less board cannot short two
outputs together. Channel = row * len(columns) + column.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Sequence

from gpiozero import Button, DigitalInputDevice, GPIODevice

from hardware.base import BUTTONS, ButtonEvent, Scan
from hardware.ghost import matrix_scan
from hardware.wake import Waker

Pin = int | str


class MatrixRow(GPIODevice):
    """One matrix row: high impedance (input with pull-up) until selected, then driven low."""

    def __init__(self, pin: Pin, *, pin_factory=None) -> None:
        super().__init__(pin, pin_factory=pin_factory)
        self.release()

    def select(self) -> None:
        self.pin.function = "output"
        self.pin.state = False

    def release(self) -> None:
        self.pin.function = "input"
        self.pin.pull = "up"


class GpioMatrix:
    """A reed-switch matrix scanner. ``diodes``: True when every switch has its own diode;
    without them a reading where two rows share two closed columns is reported ambiguous.
    ``settle``: seconds to wait after driving a row before reading the columns."""

    senses_polarity = False

    def __init__(
        self,
        rows: Sequence[Pin],
        columns: Sequence[Pin],
        *,
        diodes: bool = True,
        settle: float = 20e-6,
        pin_factory=None,
    ) -> None:
        if not rows or not columns:
            raise ValueError("a matrix needs at least one row pin and one column pin")
        if len(set(rows) | set(columns)) != len(rows) + len(columns):
            raise ValueError("matrix pins must all be different")
        self.diodes = diodes
        self.settle = settle
        self.channels = len(rows) * len(columns)
        self._rows: list[MatrixRow] = []
        self._columns: list[DigitalInputDevice] = []
        try:
            for pin in rows:
                self._rows.append(MatrixRow(pin, pin_factory=pin_factory))
            for pin in columns:
                self._columns.append(DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory))
        except Exception:
            self.close()
            raise

    def scan(self) -> Scan:
        reading: list[int] = []
        width = len(self._columns)
        for r, row in enumerate(self._rows):
            row.select()
            try:
                self._wait()
                base = r * width
                reading.extend(base + c for c, col in enumerate(self._columns) if not col.pin.state)
            finally:
                row.release()
        return matrix_scan(reading, width, self.diodes)

    def _wait(self) -> None:
        # Busy-wait: time.sleep() cannot sleep for tens of microseconds.
        end = time.perf_counter() + self.settle
        while time.perf_counter() < end:
            pass

    def close(self) -> None:
        for device in self._rows + self._columns:
            device.close()
        self._rows, self._columns = [], []


class GpioButtons:
    """OK, BACK and MENU buttons (to ground, internal pull-ups). A press held ``hold_time``
    seconds is a long press, reported as soon as the hold time is reached; a release before
    that is a short press. Presses shorter than ``min_press`` seconds are contact chatter and
    ignored (on top of the pin driver's own debouncing, ``bounce_time``)."""

    def __init__(
        self,
        pins: dict[str, Pin],
        *,
        hold_time: float = 1.0,
        min_press: float = 0.03,
        bounce_time: float | None = 0.01,
        pin_factory=None,
    ) -> None:
        unknown = set(pins) - set(BUTTONS)
        if unknown:
            raise ValueError(f"no button {sorted(unknown)[0]!r} (one of {', '.join(BUTTONS)})")
        self.min_press = min_press
        self._events: deque[ButtonEvent] = deque()
        self._lock = threading.Lock()
        self._pressed_at: dict[str, float] = {}
        self._held: set[str] = set()
        self._buttons: list[Button] = []
        self._waker: Waker | None = None
        try:
            for name, pin in pins.items():
                self._buttons.append(self._button(name, pin, hold_time, bounce_time, pin_factory))
        except Exception:
            self.close()
            raise

    def _button(self, name, pin, hold_time, bounce_time, pin_factory) -> Button:
        button = Button(
            pin,
            pull_up=True,
            bounce_time=bounce_time,
            hold_time=hold_time,
            pin_factory=pin_factory,
        )
        button.when_pressed = lambda: self._pressed(name)
        button.when_held = lambda: self._long(name)
        button.when_released = lambda: self._released(name)
        return button

    def _pressed(self, name: str) -> None:
        with self._lock:
            self._pressed_at[name] = time.monotonic()
            self._held.discard(name)

    def _long(self, name: str) -> None:
        with self._lock:
            if name in self._pressed_at and name not in self._held:
                self._held.add(name)
                self._events.append(ButtonEvent(name, long=True))
        self._wake()

    def _released(self, name: str) -> None:
        with self._lock:
            start = self._pressed_at.pop(name, None)
            if start is None or name in self._held:
                return
            if time.monotonic() - start >= self.min_press:
                self._events.append(ButtonEvent(name))
        self._wake()

    def wakes(self, waker: Waker) -> None:
        """Set ``waker`` on every press (the daemon then need not poll for them)."""
        self._waker = waker

    def _wake(self) -> None:
        if self._waker:
            self._waker.set()

    def events(self) -> list[ButtonEvent]:
        with self._lock:
            events = list(self._events)
            self._events.clear()
        return events

    def close(self) -> None:
        for button in self._buttons:
            button.close()
        self._buttons = []
