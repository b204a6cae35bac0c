"""What a board shows and tells: :class:`Output` gathers a step's events and, once per step,
shows the LED frame and the screen drawn from that step's
:class:`~firmware_host.board.view.Snapshot`.
"""

from __future__ import annotations

from firmware_host.board.events import Display, Event
from firmware_host.board.notices import Pager
from firmware_host.board.view import Snapshot, build_frame, build_screen
from firmware_host.store.layout import Layout
from firmware_host.ui.screens import Screen
from hardware.base import Led


class Output:
    """The events of the step under way, the LED frame (``version`` counts its changes) and the
    screen, shown page by page by ``pager``. :meth:`show` takes each step's snapshot: frame and
    screen are functions of it (with the layout and brightness), so they are drawn again only
    when those differ from the last step's."""

    def __init__(self, pager: Pager) -> None:
        self.pager = pager
        self.events: list[Event] = []
        self.frame: dict[int, Led] = {}
        self.version = 0
        self._drawn: tuple[Snapshot, Layout, float] | None = None  # what frame and screen show
        self._screen: Screen | None = None
        self._due: float | None = None  # the time of the step whose screen is to be laid out

    def tell(self, event: Event) -> None:
        """Tell ``event``."""
        self.events.append(event)

    def show(self, snap: Snapshot, now: float, layout: Layout, brightness: float, screen: bool) -> None:
        """Show ``snap``, taken at ``now``: the frame at once, the screen too with ``screen``
        (else at :meth:`show_screen`). At the first step, what was told as the board opened
        (a resumed game's guidance) is stamped with its time: the board's time begins there."""
        if self._drawn is None:  # the first step
            for event in self.events:
                event["t"] = now
        if (snap, layout, brightness) != self._drawn:
            self._drawn = (snap, layout, brightness)
            frame = build_frame(snap, layout, brightness)
            if frame != self.frame:
                self.frame, self.version = frame, self.version + 1
            self._screen = build_screen(snap)
        self._due = now
        if screen:
            self.show_screen()

    def show_screen(self) -> None:
        """Lay out the last step's screen, once: a ``display`` event when its text changed."""
        if self._due is None or self._screen is None:
            return
        now, self._due = self._due, None
        lines = self.pager.show(self._screen, now)
        if lines is not None:
            self.events.append(Display(t=now, event="display", lines=list(lines)))

    def take(self) -> list[Event]:
        """The events told since the last take."""
        events, self.events = self.events, []
        return events
