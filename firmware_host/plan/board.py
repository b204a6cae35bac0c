"""The board drawn at 1:1 from the engine's sites: each site's outline, the point where its
switch goes (a cross and a circle), its label, and its sensor and LED channels; cut into paper
tiles that overlap by their alignment marks when it is larger than the paper.

One board unit (the distance between neighbouring squares, cells or points) is ``pitch`` mm.
Sites that share a centre (Antipalos's two diagonals of a square) cannot share a switch: each
one's switch goes a quarter of the way along its own segment, where a piece lying on the other
diagonal leaves it open.

>>> from engines.core.contract import Site
>>> plan = BoardPlan([Site("a1", 0, 0), Site("b1", 1, 0)], pitch=20)
>>> [round(x - plan.point("a1")[0], 3) for x, _ in map(plan.point, ("a1", "b1"))]
[0.0, 20.0]
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from engines.core.contract import Site
from engines.core.graph import UnionFind
from firmware_host.plan.sheet import Circle, Clip, Group, Item, Line, Point, Sheet, Text

#: Paper sizes in mm (portrait) and the margin a printer leaves blank.
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PRINT_MARGIN = 8.0
#: How much neighbouring tiles overlap (mm); the alignment marks sit in the middle of it.
OVERLAP = 16.0
#: The arms of an alignment mark's L (mm): a corner, unlike any switch mark.
MARK_ARM = 7.0
#: Room at the foot of a page for what the page is.
FOOTER = 10.0
#: Where along a segment a site's switch goes when another site shares its centre.
OFF_CENTRE = 0.25
#: The scale bar printed on every sheet, to check the printer did not scale it (mm).
SCALE_BAR = 100.0
#: A reed switch's glass body (mm), drawn lying left to right under its site's magnet.
SWITCH_BODY = (14.0, 2.5)
#: How far the LED sits above (towards the top of the sheet from) its switch, at most (mm).
LED_OFFSET = 7.0


class BoardPlan:
    """Board units -> mm on the sheet, and where each site's switch goes."""

    def __init__(self, sites: Sequence[Site], pitch: float) -> None:
        self.sites, self.pitch = list(sites), pitch
        points = [p for s in sites for p in (s.shape or ((s.x, s.y),))]
        self.min_x = min(x for x, _ in points)
        self.max_y = max(y for _, y in points)
        span_x = max(x for x, _ in points) - self.min_x
        span_y = self.max_y - min(y for _, y in points)
        #: Blank board around the sites, and the room for the title above them.
        self.margin = max(12.0, 0.6 * pitch)
        self.top = self.margin + 16.0
        self.width = span_x * pitch + 2 * self.margin
        self.height = span_y * pitch + self.margin + self.top
        centres: dict[tuple[float, float], int] = {}
        for s in sites:
            centres[(s.x, s.y)] = centres.get((s.x, s.y), 0) + 1
        self._switch = {s.label: self._switch_at(s, centres[(s.x, s.y)] > 1) for s in sites}
        #: The distance between the nearest two switches (mm): the labels must fit in it.
        self.nearest = _nearest(list(self._switch.values())) if len(sites) > 1 else pitch
        self._centre = {s.label: self.mm(s.x, s.y) for s in sites}
        self._sites = {s.label: s for s in sites}

    def mm(self, x: float, y: float) -> Point:
        """A point in board units as mm on the sheet (y downwards)."""
        return ((x - self.min_x) * self.pitch + self.margin, (self.max_y - y) * self.pitch + self.top)

    def _switch_at(self, site: Site, shared: bool) -> Point:
        if shared and len(site.shape) == 2:
            (ax, ay), (bx, by) = site.shape
            return self.mm(ax + OFF_CENTRE * (bx - ax), ay + OFF_CENTRE * (by - ay))
        return self.mm(site.x, site.y)

    def point(self, label: str) -> Point:
        """Where the switch of site ``label`` goes (mm on the sheet)."""
        return self._switch[label]

    def site(self, label: str) -> Site:
        return self._sites[label]

    def off_centre(self, label: str) -> bool:
        """True when the site's switch is off its centre (another site shares the centre)."""
        return math.dist(self._switch[label], self._centre[label]) > 1e-6

    def magnets(self, label: str) -> list[Point]:
        """Where a piece on site ``label`` has magnets (mm on the sheet): over the switch, and
        where the switch is off the centre also over its mirror image through the centre, since
        the piece may lie either way round."""
        (sx, sy), (cx, cy) = self._switch[label], self._centre[label]
        return [(sx, sy), (2 * cx - sx, 2 * cy - sy)] if self.off_centre(label) else [(sx, sy)]

    def led(self, label: str) -> Point:
        """Where the site's LED goes (mm on the sheet): at the other end of a segment whose
        switch is off the centre, else just above the switch, clear of its glass."""
        if self.off_centre(label):
            return self.magnets(label)[1]
        sx, sy = self._switch[label]
        return sx, sy - min(LED_OFFSET, 0.3 * self.nearest)

    def closest_magnet(self) -> tuple[float, str, str]:
        """The smallest distance (mm) from a piece's magnet on one site to the switch of
        another, with the two sites: a magnet that near may close that switch."""
        switches = sorted((p, label) for label, p in self._switch.items())
        xs = [p[0] for p, _ in switches]
        best = (math.inf, "", "")
        for label in self._switch:
            for m in self.magnets(label):
                i = bisect.bisect_left(xs, m[0] - best[0])
                for p, other in switches[i:]:
                    if p[0] > m[0] + best[0]:
                        break
                    d = math.dist(m, p)
                    if other != label and d < best[0]:
                        best = (d, label, other)
        return best

    @property
    def font(self) -> float:
        """The labels' size (mm): large enough to read, small enough to fit between switches."""
        return min(4.5, max(1.8, self.nearest * 0.16))


def rows_of(plan: BoardPlan, labels: Sequence[str] | None = None) -> list[list[str]]:
    """The sites (of ``labels``, else all) in rows across the sheet, top to bottom, each left
    to right: a site joins a row while its centre is less than half a pitch below the row's
    first."""
    chosen = [plan.site(label) for label in labels] if labels else plan.sites
    order = sorted(chosen, key=lambda s: (-s.y, plan.point(s.label)[0]))
    rows: list[list[str]] = []
    top = math.inf
    for site in order:
        if not rows or top - site.y >= 0.5:
            rows.append([])
            top = site.y
        rows[-1].append(site.label)
    return [sorted(row, key=lambda label: plan.point(label)) for row in rows]


def islands(plan: BoardPlan) -> list[list[str]]:
    """The board's parts that a gap wider than one and a half times the sites' spacing keeps
    apart (Antipod's two hemispheres), left to right."""
    order = sorted(plan.sites, key=lambda s: (s.x, s.y))
    sets = UnionFind(len(order))
    steps = [math.dist((a.x, a.y), (b.x, b.y)) for a, b in zip(order, order[1:])]
    reach = 1.5 * max(min((d for d in steps if d > 1e-9), default=1.0), plan.nearest / plan.pitch)
    for i, a in enumerate(order):
        for j in range(i + 1, len(order)):
            b = order[j]
            if b.x - a.x > reach:
                break
            if math.dist((a.x, a.y), (b.x, b.y)) <= reach:
                sets.union(i, j)
    groups: dict[int, list[str]] = {}
    for i, s in enumerate(order):
        groups.setdefault(sets.find(i), []).append(s.label)
    return list(groups.values())


def serpentine(plan: BoardPlan) -> list[str]:
    """The sites along a path that runs each row the other way round from the one before
    (the LED chain's path: no long way back across the board); a board in parts is run part
    by part, left to right, each from the end nearest the last.

    >>> from engines.core.contract import Site
    >>> plan = BoardPlan([Site(f"{c}{r}", x, y) for y, r in enumerate("12")
    ...                   for x, c in enumerate("ab")], pitch=20)
    >>> serpentine(plan)
    ['a2', 'b2', 'b1', 'a1']
    """
    path: list[str] = []
    for part in islands(plan):
        rows = rows_of(plan, part)
        if (
            path
            and len(rows) > 1
            and plan.point(path[-1])[1] > (plan.point(rows[0][0])[1] + plan.point(rows[-1][0])[1]) / 2
        ):
            rows = rows[::-1]
        flip = bool(path) and plan.point(path[-1])[0] > plan.point(rows[0][-1])[0]
        path += [
            label for n, row in enumerate(rows) for label in (row[::-1] if (n % 2 == 1) != flip else row)
        ]
    return path


def _nearest(points: list[Point]) -> float:
    """The smallest distance between two of ``points`` (a grid of cells a pitch wide: sorted
    by x, each point is compared with those less than the best distance to its right)."""
    points = sorted(points)
    best = math.inf
    for i, (x, y) in enumerate(points):
        for u, v in points[i + 1 :]:
            if u - x >= best:
                break
            best = min(best, math.hypot(u - x, v - y))
    return best


@dataclass(frozen=True)
class Channels:
    """What the sheet says of each site's channels: the layout's numbers and the terminals
    they are wired to."""

    sensor: dict[str, int]
    led: dict[str, int]
    terminal: Callable[[int], str]


def site_items(plan: BoardPlan, channels: Channels) -> list[Item]:
    """One group per site: outline, centre, switch mark, label, channels."""
    groups: list[Item] = []
    size = plan.font
    for site in plan.sites:
        cx, cy = plan.mm(site.x, site.y)
        sx, sy = plan.point(site.label)
        sensor, led = channels.sensor[site.label], channels.led[site.label]
        items: list[Item] = []
        if site.shape:
            items.append(Line(tuple(plan.mm(*p) for p in site.shape), "outline", closed=len(site.shape) > 2))
        items += [
            Circle((cx, cy), 0.35, "centre"),
            Circle((sx, sy), 1.6, "switch"),
            Line(((sx - 3.2, sy), (sx + 3.2, sy)), "switch"),
            Line(((sx, sy - 3.2), (sx, sy + 3.2)), "switch"),
            Text((sx, sy - 2.6), site.label, size, "label"),
            Text((sx, sy + 2.6 + 0.8 * size), f"S{sensor} L{led}", 0.72 * size, "channel"),
            Text((sx, sy + 2.9 + 1.6 * size), channels.terminal(sensor), 0.62 * size, "note"),
        ]
        groups.append(Group("site", {"site": site.label, "sensor": sensor, "led": led}, items))
    return groups


def scale_bar(x: float, y: float) -> list[Item]:
    """A ruler of :data:`SCALE_BAR` mm with ticks every 10 mm, to check the print's scale."""
    ticks = [
        Line(((x + i * 10, y), (x + i * 10, y - (3 if i % 5 else 5))), "switch")
        for i in range(int(SCALE_BAR // 10) + 1)
    ]
    return [
        Line(((x, y), (x + SCALE_BAR, y)), "switch"),
        *ticks,
        Text(
            (x + SCALE_BAR + 2, y),
            f"{SCALE_BAR:g} mm: measure to check the print is 1:1",
            2.6,
            "note",
            "start",
        ),
    ]


def board_sheet(plan: BoardPlan, channels: Channels, title: str) -> Sheet:
    """The whole board at 1:1 on one sheet."""
    header = [
        Text((plan.margin, plan.margin), title, 5, "label", "start"),
        *scale_bar(plan.margin, plan.margin + 9),
    ]
    frame = Line(((0, 0), (plan.width, 0), (plan.width, plan.height), (0, plan.height)), "frame", closed=True)
    data: dict[str, object] = {"pitch": plan.pitch, "sites": len(plan.sites)}
    return Sheet(plan.width, plan.height, [frame, *header, *site_items(plan, channels)], data, title)


# ------------------------------------------------------------------------------------ tiles
@dataclass(frozen=True)
class Paper:
    """A page and the part of it that is printed (the window)."""

    width: float
    height: float

    @property
    def window(self) -> tuple[float, float]:
        return self.width - 2 * PRINT_MARGIN, self.height - 2 * PRINT_MARGIN - FOOTER

    def fits(self, width: float, height: float) -> bool:
        w, h = self.window
        return width <= w and height <= h

    def grid(self, width: float, height: float) -> tuple[int, int]:
        """Pages across and down to cover ``width`` x ``height`` mm with overlaps."""
        w, h = self.window
        return (
            max(1, math.ceil((width - OVERLAP) / (w - OVERLAP))),
            max(1, math.ceil((height - OVERLAP) / (h - OVERLAP))),
        )


def paper(name: str, width: float, height: float) -> Paper:
    """The page orientation of paper ``name`` that needs the fewest pages for the board."""
    w, h = PAPERS[name]
    options = [Paper(w, h), Paper(h, w)]
    return min(options, key=lambda p: (math.prod(p.grid(width, height)), p.width > p.height))


def tiles(board: Sheet, page: Paper) -> list[Sheet]:
    """The board cut into pages that overlap by :data:`OVERLAP` mm, with alignment marks in
    the middle of each overlap (the same board point on both pages: lay one on the other).
    A board that fits the page is one page, centred."""
    w, h = page.window
    across, down = page.grid(board.width, board.height)
    if across == down == 1:
        dx, dy = (page.width - board.width) / 2, (page.height - FOOTER - board.height) / 2
        return [
            Sheet(
                page.width,
                page.height,
                [shifted(i, dx, dy) for i in board.items],
                {**board.data, "tile": "1,1", "origin": f"{-dx:.3f},{-dy:.3f}"},
                board.title,
            )
        ]
    marks = _marks(board, across, down, w, h)
    sheets = []
    for row in range(down):
        for col in range(across):
            ox, oy = col * (w - OVERLAP), row * (h - OVERLAP)
            shift = (PRINT_MARGIN - ox, PRINT_MARGIN - oy)
            inside = [shifted(i, *shift) for i in board.items + marks if _meets(i, ox, oy, ox + w, oy + h)]
            number = row * across + col + 1
            footer = (
                f"{board.title} - page {number} of {across * down} (row {row + 1}, "
                f"column {col + 1}): trim, then lay each red L on the L of the same number on "
                "the next page, corner on corner"
            )
            window = Line(
                (
                    (PRINT_MARGIN, PRINT_MARGIN),
                    (PRINT_MARGIN + w, PRINT_MARGIN),
                    (PRINT_MARGIN + w, PRINT_MARGIN + h),
                    (PRINT_MARGIN, PRINT_MARGIN + h),
                ),
                "frame",
                closed=True,
            )
            bottom = page.height - PRINT_MARGIN - FOOTER + 5
            sheets.append(
                Sheet(
                    page.width,
                    page.height,
                    [
                        window,
                        Clip((PRINT_MARGIN, PRINT_MARGIN, w, h), inside),
                        Text((PRINT_MARGIN, bottom), footer, 2.6, "note", "start"),
                        *scale_bar(PRINT_MARGIN, bottom + 4.5),
                    ],
                    {
                        **board.data,
                        "tile": f"{row + 1},{col + 1}",
                        "origin": f"{ox - PRINT_MARGIN:.3f},{oy - PRINT_MARGIN:.3f}",
                    },
                    board.title,
                )
            )
    return sheets


def _marks(board: Sheet, across: int, down: int, w: float, h: float) -> list[Item]:
    """Alignment marks in the middle of every overlap: on each seam, near the quarters of each
    page it joins, and where seams cross. Each is an L with its number, a corner unlike the
    switches' crosses and circles, slid along its seam clear of every switch and label."""
    xs = [c * (w - OVERLAP) + OVERLAP / 2 for c in range(1, across)]
    ys = [r * (h - OVERLAP) + OVERLAP / 2 for r in range(1, down)]
    points = {(x, y, "") for x in xs for y in ys}
    for x in xs:
        points |= {(x, r * (h - OVERLAP) + f * h, "y") for r in range(down) for f in (0.3, 0.7)}
    for y in ys:
        points |= {(c * (w - OVERLAP) + f * w, y, "x") for c in range(across) for f in (0.3, 0.7)}
    taken = [
        _bounds(part)
        for i in board.items
        if isinstance(i, Group)
        for part in i.items
        if not (isinstance(part, Line) and part.style == "outline")
    ]
    marks: list[Item] = []
    for n, (x, y, along) in enumerate(
        sorted(p for p in points if p[0] < board.width and p[1] < board.height)
    ):
        x, y = _clear(x, y, along, taken)
        marks.append(
            Group(
                "align",
                {"mark": n + 1, "x": f"{x:.3f}", "y": f"{y:.3f}"},
                [
                    Line(((x, y + MARK_ARM), (x, y), (x + MARK_ARM, y)), "mark"),
                    Text((x + 1.5, y + 4.8), str(n + 1), 3.4, "mark-label", "start"),
                ],
            )
        )
    return marks


def _clear(x: float, y: float, along: str, taken: list[tuple[float, float, float, float]]) -> Point:
    """(x, y) or the nearest point along its seam (``along``: "x", "y" or "" to stay) whose
    mark meets none of the boxes ``taken``, within 40 mm."""
    for step in (0, *(s * d for s in range(2, 42, 2) for d in (1, -1))):
        px, py = (x + step, y) if along == "x" else (x, y + step) if along == "y" else (x, y)
        box = (px - 1, py - 1, px + MARK_ARM + 1, py + MARK_ARM + 1)
        if not any(a < box[2] and c > box[0] and b < box[3] and d > box[1] for a, b, c, d in taken):
            return px, py
        if not along:
            break
    return x, y


def _bounds(item: Item) -> tuple[float, float, float, float]:
    if isinstance(item, Clip):
        x, y, w, h = item.box
        return x, y, x + w, y + h
    if isinstance(item, Group):
        boxes = [_bounds(i) for i in item.items]
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )
    if isinstance(item, Circle):
        (x, y), r = item.centre, item.r
        return x - r, y - r, x + r, y + r
    if isinstance(item, Text):
        x, y = item.at
        half = 0.35 * item.size * len(item.text)
        return x - half, y - item.size, x + half, y
    xs, ys = [p[0] for p in item.points], [p[1] for p in item.points]
    return min(xs), min(ys), max(xs), max(ys)


def _meets(item: Item, x0: float, y0: float, x1: float, y1: float) -> bool:
    a, b, c, d = _bounds(item)
    return a < x1 and c > x0 and b < y1 and d > y0


def shifted(item: Item, dx: float, dy: float) -> Item:
    if isinstance(item, Clip):
        x, y, w, h = item.box
        return replace(item, box=(x + dx, y + dy, w, h), items=[shifted(i, dx, dy) for i in item.items])
    if isinstance(item, Group):
        return replace(item, items=[shifted(i, dx, dy) for i in item.items])
    if isinstance(item, Circle):
        return replace(item, centre=(item.centre[0] + dx, item.centre[1] + dy))
    if isinstance(item, Text):
        return replace(item, at=(item.at[0] + dx, item.at[1] + dy))
    return replace(item, points=tuple((x + dx, y + dy) for x, y in item.points))
