"""Buttons pressed by a test, a replay file or a page: the simulated board's, and a real
board's without buttons of its own (kept apart from hardware.sim, which such a board does not
load).

>>> buttons = SimButtons()
>>> buttons.press("ok"); buttons.events()
[ButtonEvent(button='ok', long=False)]
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from hardware.base import BUTTONS, ButtonEvent

if TYPE_CHECKING:
    from hardware.wake import Waker


class SimButtons:
    """Buttons pressed by a test, a replay file or the simulator page."""

    def __init__(self) -> None:
        self._pending: list[ButtonEvent] = []
        self._lock = threading.Lock()
        self._waker: Waker | None = None

    def wakes(self, waker: Waker) -> None:
        """Set ``waker`` on every press (the daemon then need not poll for them)."""
        self._waker = waker

    def press(self, button: str, long: bool = False) -> None:
        if button not in BUTTONS:
            raise ValueError(f"no button {button!r} (one of {', '.join(BUTTONS)})")
        with self._lock:
            self._pending.append(ButtonEvent(button, long))
        if self._waker:
            self._waker.set()

    def events(self) -> list[ButtonEvent]:
        with self._lock:
            events, self._pending = self._pending, []
        return events

    def close(self) -> None:
        pass
