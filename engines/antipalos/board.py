"""Antipalos's board: squares, sites, geometry tables, the move values named on it, their
notation and the players' points of view.

Squares (c, r) are 0-based from the first player's lower left; a Trirod lies on one diagonal:
``/`` (diag 0, notation ``B4*``) joins (c, r)-(c+1, r+1); ``\\`` (diag 1, ``*B4``) joins
(c, r+1)-(c+1, r). Each diagonal of each square is one site, indexed ``(r*N + c)*2 + diag``.

>>> Spot.parse("b4*"), str(Spot(3, 1, 1))
(Spot(col=1, row=3, diag=0), '*D2')
>>> str(parse_move(" B2 *-  b3* ", 12))
'B2* - B3*'
>>> str(rotate(parse_move("B2* - *C3", 12), 2, 12))
'K11* - *J10'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from engines.core import InvalidMove, Site
from engines.core.notation import column_index, column_letter

SLASH, BACKSLASH = 0, 1
#: Border bits of :attr:`Geometry.borders`.
WEST, EAST, SOUTH, NORTH = 1, 2, 4, 8

_SPOT = r"(\*?)\s*([A-Za-z])\s*(\d{1,2})\s*(\*?)"
_SPOT_RE = re.compile(rf"^\s*{_SPOT}\s*$")
_SHIFT_RE = re.compile(rf"^\s*{_SPOT}\s*[-\u2013]\s*{_SPOT}\s*$")


@dataclass(frozen=True, order=True)
class Spot:
    """One diagonal of one square: a Trirod's place and a physical site."""

    col: int
    row: int
    diag: int

    def __str__(self) -> str:
        square = f"{column_letter(self.col)}{self.row + 1}"
        return f"{square}*" if self.diag == SLASH else f"*{square}"

    @property
    def square(self) -> str:
        """The square's name without the diagonal (``B4``)."""
        return f"{column_letter(self.col)}{self.row + 1}"

    @property
    def turned(self) -> "Spot":
        """The other diagonal of the same square."""
        return Spot(self.col, self.row, 1 - self.diag)

    @classmethod
    def parse(cls, text: str) -> "Spot":
        match = _SPOT_RE.match(text)
        if not match:
            raise InvalidMove(f"Cannot read {text.strip()!r}")
        return _spot(text, *match.groups())


def _spot(text: str, before: str, letter: str, number: str, after: str) -> Spot:
    if bool(before) == bool(after):
        raise InvalidMove(f"Cannot read {text.strip()!r}: one '*' before or after")
    return Spot(column_index(letter), int(number) - 1, SLASH if after else BACKSLASH)


@dataclass(frozen=True)
class Place:
    """Phase One: put a Trirod from the supply on ``to``."""

    to: Spot

    def __str__(self) -> str:
        return str(self.to)


@dataclass(frozen=True)
class Shift:
    """Phase Two: move the Trirod on ``src`` to ``to`` (the other diagonal: turn in place)."""

    src: Spot
    to: Spot

    def __str__(self) -> str:
        return f"{self.src} - {self.to}"


Move = Place | Shift


def parse_move(text: str, size: int) -> Move:
    """Read ``B4*``, ``*B4``, ``B2* - B3*`` (any spacing, ``-`` or an en dash)."""
    if _SPOT_RE.match(text):
        move: Move = Place(Spot.parse(text))
    else:
        match = _SHIFT_RE.match(text)
        if not match:
            raise InvalidMove(f"Cannot read {text.strip()!r}")
        groups = match.groups()
        move = Shift(_spot(text, *groups[:4]), _spot(text, *groups[4:]))
    for spot in spots(move):
        if not (0 <= spot.col < size and 0 <= spot.row < size):
            raise InvalidMove(f"No square {spot.square} on a {size}x{size} board")
    return move


def spots(move: Move) -> tuple[Spot, ...]:
    return (move.to,) if isinstance(move, Place) else (move.src, move.to)


# ------------------------------------------------------------------ points of view
def rotate_spot(spot: Spot, quarter_turns: int, size: int) -> Spot:
    """How a player seated ``quarter_turns`` seats clockwise from the first player (1: on
    their left, 2: opposite) names ``spot``. A half turn keeps the diagonal; a quarter turn
    swaps it.

    >>> str(rotate_spot(Spot.parse("A1*"), 2, 12)), str(rotate_spot(Spot.parse("A1*"), 1, 12))
    ('L12*', '*L1')
    """
    col, row, diag = spot.col, spot.row, spot.diag
    for _ in range(quarter_turns % 4):
        col, row, diag = size - 1 - row, col, 1 - diag
    return Spot(col, row, diag)


def rotate(move: Move, quarter_turns: int, size: int) -> Move:
    """``move`` as seen from a seat ``quarter_turns`` clockwise (see :func:`rotate_spot`)."""
    if isinstance(move, Place):
        return Place(rotate_spot(move.to, quarter_turns, size))
    return Shift(rotate_spot(move.src, quarter_turns, size), rotate_spot(move.to, quarter_turns, size))


# ------------------------------------------------------------------ geometry
@dataclass(frozen=True, eq=False)
class Geometry:
    """Precomputed tables for an N×N board (one shared instance per size)."""

    size: int
    labels: tuple[str, ...]
    index: dict[str, int]
    spots: tuple[Spot, ...]
    neighbours: tuple[tuple[int, ...], ...]
    borders: tuple[int, ...]
    sites: tuple[Site, ...]

    def site_of(self, spot: Spot) -> int:
        return (spot.row * self.size + spot.col) * 2 + spot.diag

    def on_board(self, spot: Spot) -> bool:
        return 0 <= spot.col < self.size and 0 <= spot.row < self.size and spot.diag in (0, 1)


def ends_of(spot: Spot) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two end vertices (x, y) of a Trirod on ``spot``."""
    c, r = spot.col, spot.row
    return ((c, r), (c + 1, r + 1)) if spot.diag == SLASH else ((c, r + 1), (c + 1, r))


def border_bits(ends: tuple[tuple[int, int], ...], size: int) -> int:
    bits = 0
    for x, y in ends:
        bits |= (WEST if x == 0 else 0) | (EAST if x == size else 0)
        bits |= (SOUTH if y == 0 else 0) | (NORTH if y == size else 0)
    return bits


@lru_cache(maxsize=None)
def geometry(size: int) -> Geometry:
    all_spots = tuple(Spot(c, r, d) for r in range(size) for c in range(size) for d in (0, 1))
    ends = tuple(ends_of(s) for s in all_spots)
    at_vertex: dict[tuple[int, int], list[int]] = {}
    for site, pair in enumerate(ends):
        for vertex in pair:
            at_vertex.setdefault(vertex, []).append(site)
    neighbours = tuple(
        tuple(sorted({n for v in pair for n in at_vertex[v] if n != site})) for site, pair in enumerate(ends)
    )
    labels = tuple(str(s) for s in all_spots)
    sites = tuple(
        Site(label, s.col + 0.5, s.row + 0.5, pair) for label, s, pair in zip(labels, all_spots, ends)
    )
    return Geometry(
        size=size,
        labels=labels,
        index={label: i for i, label in enumerate(labels)},
        spots=all_spots,
        neighbours=neighbours,
        borders=tuple(border_bits(pair, size) for pair in ends),
        sites=sites,
    )
