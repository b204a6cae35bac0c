"""Anti-Grid's board: points, lines, rays, blockade guards, never-flankable points, sites, and
the move values named on it (docs/games/anti-grid.md: the geometry there is the definition).

Doubled coordinates (X, Y), 0..2n-1, X from the left and Y from the bottom. Red points have X and
Y even, blue points both odd; a shared point (a red line crossing a blue one) has one of each.
Red lines are the rows and columns with an even coordinate, blue lines those with an odd one; the
points of a line, in order, are all the points lying on it. A point is stored as the integer
``X + 16 * Y`` and named by a letter for X (a = 0) and the number Y + 1.

>>> g = grid(6)
>>> len(g.points), sum(1 for p in g.points if g.kind[p] == SHARED)
(122, 50)
>>> point_name(pid(4, 2)), parse_point("e3"), point_kind("e3"), point_kind("b3")
('e3', 36, 'red', 'shared')
>>> [point_name(p) for p in g.line_points(RED, row=2)][:4]
['a3', 'b3', 'c3', 'd3']
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Union

from engines.core import Site

EMPTY, RED, BLUE, SHARED = 0, 1, 2, 3
#: Side names by colour value (index 0 unused).
COLOUR_NAMES = ("", "red", "blue")
#: Point ids are ``X + STRIDE * Y``; 16 columns cover n <= 8 (letters a..p).
STRIDE = 16
MAX_N = STRIDE // 2

_POINT = re.compile(r"([a-z])(\d{1,2})", re.IGNORECASE)
#: A small octagon drawn around every point (board units: one doubled-coordinate step).
_RADIUS = 0.3
_OUTLINE = tuple(
    (round(_RADIUS * math.cos(k * math.pi / 4), 4), round(_RADIUS * math.sin(k * math.pi / 4), 4))
    for k in range(8)
)

Ray = tuple[int, ...]


def pid(x: int, y: int) -> int:
    """The id of the point at doubled coordinates (x, y)."""
    return x + STRIDE * y


def point_name(p: int) -> str:
    """``a1`` for the red corner: a letter for X, the number Y + 1."""
    return f"{chr(ord('a') + p % STRIDE)}{p // STRIDE + 1}"


def parse_point(text: str) -> int | None:
    """The id named by ``text`` (any case), or None when it is not a name on a 16x16 field."""
    m = _POINT.fullmatch(text.strip())
    if not m:
        return None
    x, y = ord(m[1].lower()) - ord("a"), int(m[2]) - 1
    return pid(x, y) if 0 <= x < STRIDE and 0 <= y < STRIDE else None


def point_kind(label: str) -> str:
    """ "red", "blue" or "shared" for a point's label (site label), from the parity of X and Y.

    A drawer uses it to colour sites; ValueError for a label that is no point name.
    >>> point_kind("a1"), point_kind("b2"), point_kind("c2")
    ('red', 'blue', 'shared')
    """
    p = parse_point(label)
    if p is None:
        raise ValueError(f"not a point name: {label!r}")
    x, y = p % STRIDE, p // STRIDE
    if x % 2 == y % 2:
        return "red" if x % 2 == 0 else "blue"
    return "shared"


def _kind_at(n: int, x: int, y: int) -> int:
    """RED, BLUE, SHARED or EMPTY (no point) at (x, y) on the 2n x 2n field."""
    top = 2 * n - 1
    if x % 2 == 0 and y % 2 == 0:
        return RED
    if x % 2 == 1 and y % 2 == 1:
        return BLUE
    if x % 2 == 1:  # odd X, even Y: on red row Y and blue column X
        return SHARED if x <= top - 2 and y >= 2 else EMPTY
    return SHARED if x >= 2 and y <= top - 2 else EMPTY  # even X, odd Y


@dataclass(frozen=True, eq=False)
class Grid:
    """Precomputed tables for one board size; get it with :func:`grid` (cached).

    Tables indexed by colour use RED/BLUE (index 0 unused); tables indexed by point have
    ``STRIDE * STRIDE`` entries.
    """

    n: int
    kind: bytes
    points: tuple[int, ...]
    #: (colour, the line's points in order), rows then columns.
    lines: tuple[tuple[int, tuple[int, ...]], ...]
    #: [colour] -> points a pawn of that colour may stand on (own colour and shared).
    stands: tuple[tuple[int, ...], ...]
    #: [colour][p] -> rays from p along the colour's lines through p (nearest point first).
    move_rays: tuple[tuple[tuple[Ray, ...], ...], ...]
    #: [p] -> rays from p along every line through p, both colours.
    capture_rays: tuple[tuple[Ray, ...], ...]
    #: [colour][p] -> the two enemy-colour points that blockade shared point p for a travelling
    #: pawn of ``colour`` (its neighbours on the enemy line through p), or None.
    guards: tuple[tuple[tuple[int, int] | None, ...], ...]
    sites: tuple[Site, ...]
    index: dict[str, int]

    def line_points(self, colour: int, row: int | None = None, column: int | None = None) -> Ray:
        """The points of the line Y = row or X = column (for docs and tests)."""
        for line_colour, points in self.lines:
            if line_colour != colour:
                continue
            first = points[0]
            if row is not None and first // STRIDE == row and points[-1] // STRIDE == row:
                return points
            if column is not None and first % STRIDE == column and points[-1] % STRIDE == column:
                return points
        raise ValueError("no such line")

    def start_points(self, colour: int) -> frozenset[int]:
        """Red: its points with X = 0 or Y = 0; Blue: its points with X = 2n-1 or Y = 2n-1."""
        edge = 0 if colour == RED else 2 * self.n - 1
        return frozenset(
            p for p in self.points if self.kind[p] == colour and edge in (p % STRIDE, p // STRIDE)
        )

    def far_corner(self, colour: int) -> int:
        """Red's (2n-2, 2n-2) and Blue's (1, 1): the own point farthest from the start."""
        return pid(2 * self.n - 2, 2 * self.n - 2) if colour == RED else pid(1, 1)

    @cached_property
    def safe(self) -> tuple[frozenset[int], ...]:
        """[colour] -> :meth:`never_flankable` points (index 0 unused), computed once."""
        return (frozenset(), self.never_flankable(RED), self.never_flankable(BLUE))

    def never_flankable(self, colour: int) -> frozenset[int]:
        """Points where a pawn of ``colour`` can never be captured, whatever the position.

        A pawn on p is capturable along a line when some run of points containing p, each one a
        point ``colour`` may stand on, has on both sides a point the enemy may stand on.
        """
        enemy_stands = set(self.stands[3 - colour])
        own_stands = set(self.stands[colour])

        def closed(ray: Ray) -> bool:
            for q in ray:
                if q in enemy_stands:
                    return True
                if q not in own_stands:
                    return False
            return False

        def flankable(p: int) -> bool:
            for _, line in self.lines:
                if p in line:
                    i = line.index(p)
                    if closed(line[i + 1 :]) and closed(line[:i][::-1]):
                        return True
            return False

        return frozenset(p for p in self.stands[colour] if not flankable(p))


@lru_cache(maxsize=None)
def grid(n: int) -> Grid:
    """The tables for size n (2 <= n <= 8)."""
    if not 2 <= n <= MAX_N:
        raise ValueError(f"Anti-Grid size must be 2..{MAX_N}, not {n}")
    span = range(2 * n)
    kind = bytearray(STRIDE * STRIDE)
    for y in span:
        for x in span:
            kind[pid(x, y)] = _kind_at(n, x, y)
    points = tuple(pid(x, y) for y in span for x in span if kind[pid(x, y)])
    rows = [(RED if v % 2 == 0 else BLUE, tuple(pid(x, v) for x in span if kind[pid(x, v)])) for v in span]
    columns = [(RED if v % 2 == 0 else BLUE, tuple(pid(v, y) for y in span if kind[pid(v, y)])) for v in span]
    lines = tuple(rows + columns)
    size = STRIDE * STRIDE
    move_rays: list[list[list[Ray]]] = [[[] for _ in range(size)] for _ in range(3)]
    capture_rays: list[list[Ray]] = [[] for _ in range(size)]
    guards: list[list[tuple[int, int] | None]] = [[None] * size for _ in range(3)]
    for colour, line in lines:
        for i, p in enumerate(line):
            rays = [r for r in (line[i + 1 :], line[:i][::-1]) if r]
            move_rays[colour][p] += rays
            capture_rays[p] += rays
            if kind[p] == SHARED and 0 < i < len(line) - 1:
                pair = (line[i - 1], line[i + 1])
                if kind[pair[0]] == kind[pair[1]] == colour:
                    guards[3 - colour][p] = pair
    stands = ((), *(tuple(p for p in points if kind[p] in (c, SHARED)) for c in (RED, BLUE)))
    sites = tuple(
        Site(
            point_name(p),
            p % STRIDE,
            p // STRIDE,
            tuple((p % STRIDE + dx, p // STRIDE + dy) for dx, dy in _OUTLINE),
        )
        for p in points
    )
    return Grid(
        n=n,
        kind=bytes(kind),
        points=points,
        lines=lines,
        stands=stands,
        move_rays=tuple(tuple(tuple(r) for r in per) for per in move_rays),
        capture_rays=tuple(tuple(r) for r in capture_rays),
        guards=tuple(tuple(g) for g in guards),
        sites=sites,
        index={point_name(p): p for p in points},
    )


@dataclass(frozen=True, slots=True)
class Move:
    """A pawn move from point ``src`` to point ``dst`` (point ids, see :func:`pid`)."""

    src: int
    dst: int

    def __str__(self) -> str:
        return f"{point_name(self.src)}-{point_name(self.dst)}"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """The end of a capture chain (the OK button); notation ``ok``."""

    def __str__(self) -> str:
        return "ok"


OK = EndTurn()
AnyMove = Union[Move, EndTurn]
