"""The board's own page on real hardware: the daemon's parts, tapped so that the page sees what
they see and show (the sensed channels, the LED frame, the OLED image) and can press the
buttons, with the face of the simulated board that the page's bridge reads
(:class:`HardwareBoard`). Pieces are real: nothing here can put or lift one.

>>> from hardware.sim import SimBoard
>>> from firmware_host.runtime.loop import Hardware
>>> sim = SimBoard(8)
>>> parts = Hardware(sim, sim.leds, sim.display, sim.buttons)
>>> board = tap(parts)
>>> sim.place(3); _ = parts.scanner.scan()
>>> sorted(board.pieces()), board.simulated
([3], False)
"""

from __future__ import annotations

import threading
from typing import Any, Mapping

from hardware.base import ButtonEvent, Led, Scan
from hardware.wake import Waker


class _Delegate:
    """Everything not overridden is the wrapped part's own."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class TappedScanner(_Delegate):
    """Keeps the closed channels of the last scan; ``changes`` counts their changes."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self.closed: frozenset[int] = frozenset()
        self.changes = 0

    def scan(self) -> Scan:
        scan = self._inner.scan()
        if scan.closed != self.closed:
            self.closed = scan.closed
            self.changes += 1
        return scan


class TappedLeds(_Delegate):
    """Keeps the last frame shown."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self.frame: dict[int, Led] = {}
        self.frames_shown = 0

    def show(self, frame: Mapping[int, Led]) -> None:
        self._inner.show(frame)
        self.frame = dict(frame)
        self.frames_shown += 1


class TappedDisplay(_Delegate):
    """Keeps the last image shown."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self._image = None
        self.images_shown = 0

    @property
    def image(self):
        if self._image is None:
            from PIL import Image

            self._image = Image.new("1", self._inner.size)
        return self._image

    def show(self, image) -> None:
        self._inner.show(image)
        self._image = image.copy()
        self.images_shown += 1


class PageButtons(_Delegate):
    """The board's buttons and the page's: presses from either come out of :meth:`events`."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self._pressed: list[ButtonEvent] = []
        self._lock = threading.Lock()
        self._waker: Waker | None = None

    def press(self, button: str, long: bool = False) -> None:
        with self._lock:
            self._pressed.append(ButtonEvent(button, long))
        if self._waker:
            self._waker.set()

    def wakes(self, waker: Waker) -> None:
        self._waker = waker
        if hasattr(self._inner, "wakes"):
            self._inner.wakes(waker)

    def events(self) -> list[ButtonEvent]:
        with self._lock:
            pressed, self._pressed = self._pressed, []
        return self._inner.events() + pressed


class HardwareBoard:
    """What the page's bridge reads of a board, for real hardware: the sensed channels, the
    LEDs and the OLED as shown, and the buttons; its sites are wired as the layout says."""

    simulated = False
    noise = None

    def __init__(
        self, scanner: TappedScanner, leds: TappedLeds, display: TappedDisplay, buttons: PageButtons
    ) -> None:
        self.scanner, self.leds, self.display, self.buttons = scanner, leds, display, buttons

    @property
    def closed(self) -> frozenset[int]:
        return self.scanner.closed

    @property
    def changes(self) -> int:
        return self.scanner.changes

    def pieces(self) -> frozenset[int]:
        return self.scanner.closed

    def sensors(self, believed: Mapping[str, int]) -> Mapping[str, int]:
        return believed

    def lights(self, believed: Mapping[str, int]) -> Mapping[str, int]:
        return believed


def tap(hardware) -> HardwareBoard:
    """Wrap ``hardware``'s parts in place (before the daemon's loop takes them) and return the
    board the page shows."""
    hardware.scanner = TappedScanner(hardware.scanner)
    hardware.leds = TappedLeds(hardware.leds)
    hardware.display = TappedDisplay(hardware.display)
    hardware.buttons = PageButtons(hardware.buttons)
    return HardwareBoard(hardware.scanner, hardware.leds, hardware.display, hardware.buttons)
