"""A page's commands, spaced out per site so that the board's scan sees every change.

A piece put on a site and taken off again between two scans is never seen (the debouncer takes
a change only once it holds), so two quick clicks on one site, applied in one loop step, would
be lost. :class:`Spacing` holds a site's next change back until ``gap_ms`` after its last one
and ``gap_scans`` loop steps (a scan each) later, so that a loop slowed down by a busy machine
still scans each change long enough; each site's changes keep their order, and one busy site
never holds the others up. The game's page (``bridge.WebBoard``) and the set-up wizard's
(``setup_page.SetupPage``) both use it.

A command for the whole board (a button, a new game) waits for every change before it, as a
player's hand would: until the last change is as far back, so the board has read it, and
until the board has settled on it (``settled``: the game's page judges a placing then), so OK
pressed right after a click acts on what the placing showed. A board that does not settle
holds it back for ``HOLD_MS`` at most. (The board holds a press made as a piece lands by itself
too, ``firmware_host/board/presses.py``; the wait here keeps it behind clicks not yet applied.)

>>> from firmware_host.net.web.commands import Press, SiteChange
>>> waiting = [SiteChange("a1", "toggle"), SiteChange("a1", "toggle"), SiteChange("b2", "place")]
>>> spacing = Spacing(gap_ms=60, gap_scans=3)
>>> spacing.due(0, lambda most: [waiting.pop(0) for _ in range(min(most, len(waiting)))])
[SiteChange(site='a1', action='toggle'), SiteChange(site='b2', action='place')]
>>> spacing.changed("a1", 0)
>>> spacing.due(30, lambda most: []), spacing.waiting
([], True)
>>> spacing.due(60, lambda most: [])  # 60 ms later, but scanned twice since: it waits
[]
>>> spacing.due(70, lambda most: [Press("ok")])
[SiteChange(site='a1', action='toggle')]
>>> spacing.changed("a1", 70)
>>> [spacing.due(t, lambda most: [], settled=t < 130) for t in (100, 110, 130)]
[[], [], []]
>>> spacing.due(140, lambda most: [])
[Press(button='ok', long=False)]
"""

from __future__ import annotations

import math
from collections import deque
from typing import Callable

from firmware_host.board.presses import HOLD_MS  # the board's own bound for a held press
from firmware_host.net.web.commands import Drag, PageCommand, SiteChange

#: Commands waiting for the loop at most (the page is told the board is busy), and applied in
#: one loop step at most: a flood of them never holds a scan up.
MAX_WAITING, PER_STEP = 256, 16
#: When a site that never changed did (ms, loop step).
NEVER = (-math.inf, -math.inf)


def gap(debounce_scans: int, scan_hz: float) -> tuple[float, int]:
    """The spacing of one site's changes, in ms and in scans: two debounce times, so each is
    seen and a quick click-click is a lift and a placing (a tap).

    >>> gap(3, 100)
    (60.0, 6)
    """
    return 2 * debounce_scans * 1000 / scan_hz, 2 * debounce_scans


class Spacing:
    """The commands taken from a page's hub and not yet applied, and when each site last
    changed (ms on the loop's clock)."""

    def __init__(self, gap_ms: float, gap_scans: int = 0) -> None:
        self.gap_ms, self.gap_scans = gap_ms, gap_scans
        self._pending: deque[PageCommand] = deque()
        self._step = 0  # the loop steps so far (one scan each)
        #: When (ms, and the loop step) each site last changed, and the last change of any.
        self._changed: dict[str, tuple[float, float]] = {}
        self._last = NEVER

    @property
    def waiting(self) -> bool:
        """True while commands are held back (for their sites, or past PER_STEP)."""
        return bool(self._pending)

    def changed(self, site: str, at: float) -> None:
        """``site`` changed at ``at`` ms in this loop step: its next change waits until
        ``gap_ms`` and ``gap_scans`` steps later."""
        self._changed[site] = (at, self._step)
        self._last = max(self._last, (at, self._step))

    def due(
        self, now: float, take: Callable[[int], list[PageCommand]], settled: bool = True
    ) -> list[PageCommand]:
        """Up to PER_STEP commands to apply at ``now``, after those ``take(most)`` hands over
        from the page: each one's sites' earlier changes are far enough back, and no earlier
        command waits for its sites. A command for the whole board (a button, a new game, a
        setup) waits for everything before it, applied in an earlier step, read and
        ``settled``."""
        self._step += 1
        if len(self._pending) < MAX_WAITING:
            self._pending.extend(take(MAX_WAITING - len(self._pending)))
        due: list[PageCommand] = []
        busy: set[str] = set()
        kept: deque[PageCommand] = deque()
        while self._pending and len(due) < PER_STEP:
            command = self._pending.popleft()
            sites = sites_of(command)
            if not sites and (busy or not self._read(now, settled)):
                self._pending.appendleft(command)
                break
            if busy.intersection(sites) or not self._free(sites, now):
                kept.append(command)
            else:
                due.append(command)
            busy.update(sites)  # one change of a site per step, in order
        self._pending.extendleft(reversed(kept))
        return due

    def _read(self, now: float, settled: bool) -> bool:
        """The last change is read by the board, and settled (or held long enough)."""
        return self._past(self._last, now) and (settled or now - self._last[0] >= HOLD_MS)

    def _free(self, sites: tuple[str, ...], now: float) -> bool:
        return all(self._past(self._changed.get(s, NEVER), now) for s in sites)

    def _past(self, change: tuple[float, float], now: float) -> bool:
        """``change`` (when, in which step) is ``gap_ms`` and ``gap_scans`` steps back."""
        return now - change[0] >= self.gap_ms and self._step - change[1] >= self.gap_scans


def sites_of(command: PageCommand) -> tuple[str, ...]:
    """The sites a command changes (none: it is for the whole board)."""
    if isinstance(command, SiteChange):
        return (command.site,)
    if isinstance(command, Drag):
        return (command.source, command.target)
    return ()
