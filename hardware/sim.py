"""The simulated board: sensors, LEDs, display and buttons in memory.

The same daemon code runs on it as on a Pi. Tests and ``reedboard replay`` drive it on a virtual
clock; the simulator page drives it on the wall clock.

>>> board = SimBoard(channels=8)
>>> board.place(3); board.place(5); board.lift(3)
>>> sorted(board.scan().closed)
[5]
>>> board.buttons.press("ok"); board.buttons.events()
[ButtonEvent(button='ok', long=False)]
"""

from __future__ import annotations

from typing import Mapping

from PIL import Image

from hardware.base import ButtonEvent, Led, Scan


class SimLeds:
    """An LED sink that keeps the last frame it was given."""

    def __init__(self, channels: int) -> None:
        self.channels = channels
        self.frame: dict[int, Led] = {}
        self.frames_shown = 0

    def show(self, frame: Mapping[int, Led]) -> None:
        self.frame = dict(frame)
        self.frames_shown += 1

    def close(self) -> None:
        self.frame = {}


class SimDisplay:
    """A display that keeps the last image it was given."""

    size = (128, 64)

    def __init__(self) -> None:
        self.image = Image.new("1", self.size)
        self.images_shown = 0

    def show(self, image: Image.Image) -> None:
        self.image = image.copy()
        self.images_shown += 1

    def close(self) -> None:
        pass


class SimButtons:
    """Buttons pressed by a test, a replay file or the simulator page."""

    def __init__(self) -> None:
        self._pending: list[ButtonEvent] = []

    def press(self, button: str, long: bool = False) -> None:
        self._pending.append(ButtonEvent(button, long))

    def events(self) -> list[ButtonEvent]:
        events, self._pending = self._pending, []
        return events

    def close(self) -> None:
        pass


class SimBoard:
    """Which sensor channels are closed (and, optionally, which face is up), plus simulated
    LEDs, display and buttons. Implements the Scanner interface itself."""

    def __init__(self, channels: int, senses_polarity: bool = False) -> None:
        self.channels = channels
        self.senses_polarity = senses_polarity
        self.closed: set[int] = set()
        self.north: dict[int, bool] = {}
        self.leds = SimLeds(channels)
        self.display = SimDisplay()
        self.buttons = SimButtons()

    def place(self, channel: int, north: bool = True) -> None:
        self._check(channel)
        self.closed.add(channel)
        self.north[channel] = north

    def lift(self, channel: int) -> None:
        self._check(channel)
        self.closed.discard(channel)
        self.north.pop(channel, None)

    def flip(self, channel: int) -> None:
        if channel in self.closed:
            self.north[channel] = not self.north[channel]

    def scan(self) -> Scan:
        polarity = {c: self.north[c] for c in self.closed} if self.senses_polarity else None
        return Scan(frozenset(self.closed), polarity=polarity)

    def close(self) -> None:
        pass

    def _check(self, channel: int) -> None:
        if not 0 <= channel < self.channels:
            raise ValueError(f"no sensor channel {channel} (board has {self.channels})")
