"""Phalanx's board: the 128 triangles, their quarters, the piece shapes, where they fit, and the
piece and move values named on it.

Square (f, r) (file a.. = 0.., rank 1.. = 0.., as Green sees the board) spans [f, f+1] x [r, r+1].
Its diagonal is ``/`` when f + r is even (halves ``nw`` above it, ``se`` below), else ``\\``
(``ne`` above, ``sw`` below). Triangle t = 2 * (8r + f) + (0 for the upper half, 1 for the lower).

Occupancy is held at quarter resolution: both diagonals cut each square into four quarters N, E,
S, W (bit 4 * (8r + f) + q of an int). A small triangle is two quarters, so every piece at every
integer translation (a resting place or a step on the way) is an exact bitmask.

>>> NAMES[0], NAMES[1], NAMES[2], NAMES[3], INDEX["d4se"]
('a1nw', 'a1se', 'b1ne', 'b1sw', 55)
>>> [len(TABLES[s].rests) for s in range(len(SHAPES))]
[32, 32, 32, 32, 64, 28, 28, 28, 28, 28, 28]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

FILES = "abcdefgh"
SIZE = 8
N, E, S, W = range(4)
#: The quarters of each half and of a whole square.
PART_QUARTERS = {"nw": (N, W), "ne": (N, E), "se": (S, E), "sw": (S, W), "full": (N, E, S, W)}
OPPOSITE = {"nw": "se", "se": "nw", "ne": "sw", "sw": "ne", "full": "full"}
#: Corners of each half in a unit square.
CORNERS = {
    "nw": ((0, 0), (1, 1), (0, 1)),
    "se": ((0, 0), (1, 0), (1, 1)),
    "ne": ((0, 1), (1, 1), (1, 0)),
    "sw": ((0, 0), (1, 0), (0, 1)),
}
#: Direction steps (file, rank): orthogonal then diagonal.
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def slash(f: int, r: int) -> bool:
    """True when square (f, r) has the ``/`` diagonal."""
    return (f + r) % 2 == 0


def halves(f: int, r: int) -> tuple[str, str]:
    """(upper, lower) half names of square (f, r)."""
    return ("nw", "se") if slash(f, r) else ("ne", "sw")


def on_board(f: int, r: int) -> bool:
    return 0 <= f < SIZE and 0 <= r < SIZE


def triangle(f: int, r: int, half: str) -> int:
    """Index of triangle ``half`` of square (f, r); ValueError if the square has no such half."""
    return 2 * (SIZE * r + f) + halves(f, r).index(half)


def square_of(t: int) -> tuple[int, int]:
    return (t >> 1) % SIZE, (t >> 1) // SIZE


def half_of(t: int) -> str:
    return halves(*square_of(t))[t & 1]


NAMES = tuple(f"{FILES[f]}{r + 1}{half}" for r in range(SIZE) for f in range(SIZE) for half in halves(f, r))
INDEX = {name: t for t, name in enumerate(NAMES)}


def turned(t: int) -> int:
    """The triangle in ``t``'s place when the board is turned 180 degrees.

    >>> NAMES[turned(INDEX["c2sw"])]
    'f7ne'
    """
    f, r = square_of(t)
    return triangle(SIZE - 1 - f, SIZE - 1 - r, OPPOSITE[half_of(t)])


def polygon(t: int) -> tuple[tuple[float, float], ...]:
    """The triangle's corners in board units (a square is 1 x 1, y grows upwards)."""
    f, r = square_of(t)
    return tuple((f + x, r + y) for x, y in CORNERS[half_of(t)])


#: The square edges each half touches; the edge facing each edge and the step to its square.
TOUCHES = {"nw": ("top", "left"), "se": ("bottom", "right"), "ne": ("top", "right"), "sw": ("bottom", "left")}
FACING = {
    "top": ("bottom", 0, 1),
    "bottom": ("top", 0, -1),
    "left": ("right", -1, 0),
    "right": ("left", 1, 0),
}
SEGMENT = {
    "top": ((0, 1), (1, 1)),
    "bottom": ((0, 0), (1, 0)),
    "left": ((0, 0), (0, 1)),
    "right": ((1, 0), (1, 1)),
}

Segment = tuple[tuple[int, int], tuple[int, int]]


def _edges(t: int) -> tuple[tuple[Segment, int | None], ...]:
    """The triangle's three unit edges (endpoints, lower-left first) with the triangle across
    each (None beyond the board edge)."""
    f, r = square_of(t)
    out = []
    for edge in TOUCHES[half_of(t)]:
        facing, df, dr = FACING[edge]
        g, s = f + df, r + dr
        other = None
        if on_board(g, s):
            other = triangle(g, s, next(h for h in halves(g, s) if facing in TOUCHES[h]))
        (x0, y0), (x1, y1) = SEGMENT[edge]
        out.append((((f + x0, r + y0), (f + x1, r + y1)), other))
    diagonal = ((f, r), (f + 1, r + 1)) if slash(f, r) else ((f, r + 1), (f + 1, r))
    return (*out, (diagonal, t ^ 1))


EDGES = tuple(_edges(t) for t in range(len(NAMES)))


@dataclass(frozen=True)
class Shape:
    """A piece's outline as cells (file offset, rank offset, part), part a half name or "full".

    The origin cell (0, 0) is in the lowest rank, leftmost there; ``side`` is 0 (Green) or 1 (Red)
    for shapes only one side has, else None."""

    name: str
    kind: str
    side: int | None
    cells: tuple[tuple[int, int, str], ...]

    def rotated(self, name: str, side: int | None) -> "Shape":
        """The shape turned 180 degrees (how Red's pieces face), origin renormalised."""
        cells = [(-dx, -dy, OPPOSITE[part]) for dx, dy, part in self.cells]
        low = min(dy for _, dy, _ in cells)
        left = min(dx for dx, dy, _ in cells if dy == low)
        cells = sorted((dx - left, dy - low, part) for dx, dy, part in cells)
        return Shape(name, self.kind, side, tuple(cells))


_AUXILIARIES = tuple(Shape(f"auxiliary-{h}", "Auxiliary", None, ((0, 0, h),)) for h in CORNERS)
_ARCHER = Shape("archer", "Archer", None, ((0, 0, "full"),))
_HOPLITE_LEFT = Shape("hoplite-left", "Hoplite", 0, ((0, 0, "full"), (0, 1, "sw")))
_HOPLITE_RIGHT = Shape("hoplite-right", "Hoplite", 0, ((0, 0, "full"), (0, 1, "se")))
_SYNTAGMA = Shape("syntagma", "Syntagma", 0, ((0, 0, "se"), (1, 0, "sw")))

#: Every shape: the four Auxiliaries, the Archer, then Green's and Red's Hoplites and Syntagmas.
SHAPES: tuple[Shape, ...] = (
    *_AUXILIARIES,
    _ARCHER,
    _HOPLITE_LEFT,
    _HOPLITE_RIGHT,
    _HOPLITE_LEFT.rotated("hoplite-left", 1),
    _HOPLITE_RIGHT.rotated("hoplite-right", 1),
    _SYNTAGMA,
    _SYNTAGMA.rotated("syntagma", 1),
)
POINTS = {"Syntagma": 20, "Hoplite": 15, "Archer": 10, "Auxiliary": 5}


@dataclass(frozen=True)
class Rest:
    """A shape at a resting place: its triangles, anchor triangle, quarter mask, and its sides
    that lie inside the board, each as the triangles across its unit edges."""

    triangles: tuple[int, ...]
    anchor: int
    mask: int
    sides: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class ShapeTable:
    """Where one shape fits. Positions are origins o = 8r + f.

    ``masks``: every origin where the shape lies on the board (resting or on the way);
    ``rests``: the resting places; ``by_anchor``: anchor triangle -> origin; ``rays``: for each
    resting origin, per direction the steps (mask, resting origin or -1), nearest first."""

    masks: dict[int, int]
    rests: dict[int, Rest]
    by_anchor: dict[int, int]
    rays: dict[int, tuple[tuple[tuple[int, int], ...], ...]]


def _cells_at(shape: Shape, f: int, r: int) -> list[tuple[int, int, str]] | None:
    cells = [(f + dx, r + dy, part) for dx, dy, part in shape.cells]
    return cells if all(on_board(g, s) for g, s, _ in cells) else None


def _rest(cells: list[tuple[int, int, str]], mask: int) -> Rest | None:
    triangles: list[int] = []
    for g, s, part in cells:
        if part == "full":
            triangles += (triangle(g, s, h) for h in halves(g, s))
        elif part in halves(g, s):
            triangles.append(triangle(g, s, part))
        else:
            return None
    return Rest(tuple(sorted(triangles)), _anchor(cells), mask, _sides(triangles))


def _anchor(cells: list[tuple[int, int, str]]) -> int:
    """The piece's triangle in its lowest rank, leftmost there; of a whole square the lower half."""
    g, s, part = min(cells, key=lambda c: (c[1], c[0]))
    return triangle(g, s, halves(g, s)[1] if part == "full" else part)


def _line(segment: Segment) -> tuple[tuple[int, int], int]:
    (x0, y0), (x1, y1) = segment
    step = (x1 - x0, y1 - y0)
    key = {(1, 0): y0, (0, 1): x0, (1, 1): y0 - x0, (1, -1): x0 + y0}[step]
    return step, key


def _sides(triangles: list[int]) -> tuple[tuple[int, ...], ...]:
    """The outline's straight sides (runs of collinear, touching unit edges) that lie inside the
    board, each as the triangles across its units. A side on the board edge is left out: it can
    never be bordered."""
    inside = set(triangles)
    units = sorted(
        (_line(seg), seg, other) for t in triangles for seg, other in EDGES[t] if other not in inside
    )
    sides: list[list[int | None]] = []
    last = None
    for line, seg, other in units:
        if last is not None and last[0] == line and last[1][1] == seg[0]:
            sides[-1].append(other)
        else:
            sides.append([other])
        last = (line, seg)
    return tuple(tuple(t for t in side if t is not None) for side in sides if None not in side)


def _table(shape: Shape) -> ShapeTable:
    masks: dict[int, int] = {}
    rests: dict[int, Rest] = {}
    for r in range(SIZE):
        for f in range(SIZE):
            cells = _cells_at(shape, f, r)
            if cells is None:
                continue
            o = SIZE * r + f
            masks[o] = sum(1 << (4 * (SIZE * s + g) + q) for g, s, part in cells for q in PART_QUARTERS[part])
            rest = _rest(cells, masks[o])
            if rest is not None:
                rests[o] = rest
    rays = {o: tuple(_ray(masks, rests, o, step) for step in DIRECTIONS) for o in rests}
    return ShapeTable(masks, rests, {rest.anchor: o for o, rest in rests.items()}, rays)


def _ray(
    masks: dict[int, int],
    rests: dict[int, Rest],
    o: int,
    step: tuple[int, int],
) -> tuple[tuple[int, int], ...]:
    f, r = o % SIZE, o // SIZE
    out: list[tuple[int, int]] = []
    while True:
        f, r = f + step[0], r + step[1]
        o = SIZE * r + f
        if not on_board(f, r) or o not in masks:
            return tuple(out)
        out.append((masks[o], o if o in rests else -1))


TABLES: tuple[ShapeTable, ...] = tuple(_table(shape) for shape in SHAPES)
#: Triangle set of a resting piece -> (shape, origin); no two shapes ever cover the same set.
PLACEMENTS: dict[frozenset[int], tuple[int, int]] = {
    frozenset(rest.triangles): (shape, o)
    for shape, table in enumerate(TABLES)
    for o, rest in table.rests.items()
}


class Piece(NamedTuple):
    """A piece: side (0 Green, 1 Red), shape (index into SHAPES), origin (8 * rank + file)."""

    side: int
    shape: int
    origin: int

    @property
    def rest(self) -> Rest:
        return TABLES[self.shape].rests[self.origin]

    @property
    def kind(self) -> str:
        return SHAPES[self.shape].kind

    @property
    def anchor(self) -> str:
        return NAMES[self.rest.anchor]

    @property
    def sites(self) -> frozenset[str]:
        return frozenset(NAMES[t] for t in self.rest.triangles)


@dataclass(frozen=True, slots=True)
class Move:
    """Move the piece anchored on ``frm`` so that its anchor lands on ``to``.

    >>> str(Move("c1se", "c3se"))
    'c1se-c3se'
    """

    frm: str
    to: str

    def __str__(self) -> str:
        return f"{self.frm}-{self.to}"


@dataclass(frozen=True, slots=True)
class Removal:
    """The forced turn after a self-phalanx: remove the opponent's pieces anchored on ``anchors``.

    >>> str(Removal(("d4se", "e4sw")))
    'xd4se,e4sw'
    """

    anchors: tuple[str, ...]

    def __str__(self) -> str:
        return "x" + ",".join(self.anchors)
