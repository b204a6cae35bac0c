"""The simulated board's pieces as a page's hands move them: put on a site, lifted, or dragged
to another (lifted and put down; slid across the sites between while the page's noise is on, as
a hand slides a magnet), and the noise switched. The game's page (``bridge.WebBoard``) and the
set-up page (``setup_page.SetupPage``) both move pieces through :class:`SimPieces`, so a click
and a drag do the same on both; each change is told to the page's ``Spacing``.

>>> from firmware_host.net.web.commands import Drag, SiteChange
>>> from engines.core.contract import Site
>>> from hardware.sim import SimBoard
>>> board = SimBoard(3)
>>> pieces = SimPieces(board, Spacing(60), [Site("a1", 0, 0), Site("a2", 1, 0), Site("a3", 2, 0)])
>>> wired = {"a1": 0, "a2": 1, "a3": 2}
>>> pieces.apply(SiteChange("a1", "toggle"), wired, 0)
[(0, 'a1', True)]
>>> pieces.apply(Drag("a1", "a3"), wired, 100), sorted(board.closed)
([(100, 'a1', False), (100, 'a3', True)], [2])
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from engines.core.contract import Site
from firmware_host.net.web.commands import Drag, SetNoise, SiteChange
from firmware_host.net.web.spacing import Spacing

if TYPE_CHECKING:  # a real board's page never loads the simulated board (its pieces are real)
    from hardware.sim import Noise, SimBoard

#: Seconds a slid piece takes per site.
SLIDE_STEP = 0.04

#: A change made: when (ms on the loop's clock), the site, and whether a piece was put on it.
Change = tuple[float, str, bool]
#: Site -> the channel its switch is wired to (None: no switch).
Wired = Mapping[str, int | None]


def page_noise() -> Noise:
    """The noise the page's switch turns on: contact bounce, and a hand hovering now and then."""
    from hardware.sim import Noise

    return Noise(bounce=(0.002, 0.008), hover_rate=0.5, hover_time=0.02, seed=9)


class SimPieces:
    """Moves the pieces of ``board`` whose ``sites`` a page shows, spacing each site's changes
    by ``spacing``."""

    def __init__(self, board: SimBoard, spacing: Spacing, sites: Iterable[Site]) -> None:
        self.board, self.spacing = board, spacing
        self.geometry = Geometry(sites)

    def apply(self, command: SiteChange | Drag | SetNoise, wired: Wired, now: float) -> list[Change]:
        """Carry ``command`` out at ``now`` on the board as ``wired``; the changes it made (a
        slid piece's each at the time it is sensed)."""
        if isinstance(command, SetNoise):
            self.board.noise = page_noise() if command.on else None
            return []
        if isinstance(command, Drag):
            return self._drag(command, wired, now)
        on = command.action == "place" or (command.action == "toggle" and not self.holds(wired, command.site))
        return self.set(wired, command.site, on, now)

    def holds(self, wired: Wired, site: str) -> bool:
        """A piece is on ``site``."""
        return wired.get(site) in self.board.closed

    def set(self, wired: Wired, site: str, on: bool, now: float) -> list[Change]:
        """Put a piece on ``site`` (``on``) or lift it, if that changes anything."""
        channel = wired.get(site)
        if channel is None or on == (channel in self.board.closed):
            return []  # a dead switch, the game changed since the page sent it, or nothing to do
        (self.board.place if on else self.board.lift)(channel)
        self.spacing.changed(site, now)
        return [(now, site, on)]

    def _drag(self, drag: Drag, wired: Wired, now: float) -> list[Change]:
        """Lift the piece on the drag's source and put it on its target: slid across the sites
        between while there is noise and each has a switch."""
        if not self.holds(wired, drag.source):
            return []
        path = self.geometry.between(drag.source, drag.target) if self.board.noise else []
        channels = [wired.get(s) for s in path]
        if not path or None in channels:  # no noise, or a dead switch on the way (a wired board)
            return self.set(wired, drag.source, False, now) + self.set(wired, drag.target, True, now)
        occupied = {site for site in path[1:-1] if self.holds(wired, site)}
        self.board.slide([c for c in channels if c is not None], step=SLIDE_STEP)
        for site in path:
            self.spacing.changed(site, now + len(path) * SLIDE_STEP * 1000)
        return slid(path, occupied, now)


def slid(path: Sequence[str], occupied: set[str], now: float) -> list[Change]:
    """The changes a piece slid along ``path`` from ``now`` makes, as ``SimBoard.slide`` times
    them (sites already holding a piece do not change), in time order.

    >>> slid(["a1", "a2", "a3"], set(), 0)
    [(30.0, 'a2', True), (40.0, 'a1', False), (70.0, 'a3', True), (80.0, 'a2', False)]
    """
    step, overlap = SLIDE_STEP * 1000, SLIDE_STEP * 250
    changes = [(now + step, path[0], False)]
    for i, site in enumerate(path[1:-1], start=1):
        if site not in occupied:
            changes += [(now + i * step - overlap, site, True), (now + (i + 1) * step, site, False)]
    changes.append((now + (len(path) - 1) * step - overlap, path[-1], True))
    return sorted(changes)


class Geometry:
    """Where the sites are, to find the sites a slid piece crosses."""

    def __init__(self, sites: Iterable[Site]) -> None:
        self.centre = {s.label: (s.x, s.y) for s in sites}
        points = sorted(set(self.centre.values()))
        self.spacing = _spacing(points)

    def between(self, source: str, target: str) -> list[str]:
        """``source``, the sites whose centres lie on the way to ``target``, and ``target``."""
        (ax, ay), (bx, by) = self.centre[source], self.centre[target]
        length2 = (bx - ax) ** 2 + (by - ay) ** 2
        if length2 == 0:
            return [source, target]
        near = self.spacing * 0.45
        crossed: dict[tuple[float, float], tuple[float, str]] = {}
        for label, (x, y) in self.centre.items():
            u = ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / length2
            if not 0 < u < 1 or (x, y) in crossed or (x, y) in (self.centre[source], self.centre[target]):
                continue
            if math.dist((x, y), (ax + u * (bx - ax), ay + u * (by - ay))) <= near:
                crossed[(x, y)] = (u, label)
        return [source, *(label for _, label in sorted(crossed.values())), target]


def _spacing(points: list[tuple[float, float]]) -> float:
    """The typical distance between neighbouring site centres (the median nearest one)."""
    if len(points) < 2:
        return 1.0
    sample = points[:: max(1, len(points) // 64)]
    nearest = sorted(min(math.dist(p, q) for q in points if q != p) for p in sample)
    return nearest[len(nearest) // 2]
