"""What a board shows and tells: :class:`Output` gathers a step's events and, once per step,
draws the LED frame and the screen from one :class:`~firmware_host.board.view.Snapshot`.
"""

from __future__ import annotations

from typing import Callable

from firmware_host.board.events import Display, Event
from firmware_host.board.notices import Pager
from firmware_host.board.view import Snapshot, build_frame, build_screen
from firmware_host.store.layout import Layout
from hardware.base import Led


class Output:
    """The events of the step under way, the LED frame (``version`` counts its changes) and the
    screen's text, shown page by page by ``pager``. Anything that may change what is shown
    calls :meth:`changed`; :meth:`flush` draws it then, once."""

    def __init__(self, pager: Pager) -> None:
        self.pager = pager
        self.events: list[Event] = []
        self.frame: dict[int, Led] = {}
        self.version = 0
        self._changed = True  # since the last flush
        self._screen_due = False

    def tell(self, event: Event) -> None:
        """Tell ``event`` (what is shown may change with it)."""
        self.events.append(event)
        self._changed = True

    def changed(self) -> None:
        """What is shown may have changed."""
        self._changed = True

    def flush(
        self, snapshot: Callable[[], Snapshot], layout: Layout, brightness: float, screen: bool
    ) -> None:
        """Draw the frame if anything changed, and with ``screen`` the screen too, from one
        snapshot (else the screen waits for :meth:`flush_screen`)."""
        snap = None
        if self._changed:
            self._changed, snap = False, snapshot()
            frame = build_frame(snap, layout, brightness)
            if frame != self.frame:
                self.frame, self.version = frame, self.version + 1
            self._screen_due = True
        if screen:
            self.flush_screen(lambda: snap or snapshot())

    def flush_screen(self, snapshot: Callable[[], Snapshot]) -> None:
        """Lay the screen out if it is due: a ``display`` event when its text changed."""
        if not self._screen_due:
            return
        self._screen_due = False
        snap = snapshot()
        lines = self.pager.show(build_screen(snap), snap.now)
        if lines is not None:
            self.events.append(Display(t=snap.now, event="display", lines=list(lines)))

    def take(self) -> list[Event]:
        """The events told since the last take."""
        events, self.events = self.events, []
        return events
