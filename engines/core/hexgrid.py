"""Hexagonal boards named as in Antipode and Antipod (pbmserv style).

A hexagon of side ``r`` has 2r-1 rows a, b, ... from the top; row i (0-based) holds
r + min(i, 2r-2-i) cells, and position j in row i has column c = j + 1 + max(0, i-(r-1)).
Neighbours of (i, c): (i, c±1), (i-1, c-1), (i-1, c), (i+1, c), (i+1, c+1).

>>> cells = hex_cells(5)
>>> len(cells), cells[0], cells[-1]
(61, (0, 1), (8, 9))
>>> cell_name(4, 9), parse_cell("e9")
('e9', (4, 9))
>>> sorted(hex_neighbours(5, 0, 1))
[(0, 2), (1, 1), (1, 2)]
"""

from __future__ import annotations

import math
import re

#: The six straight directions as (row step, column step).
DIRECTIONS = ((0, 1), (0, -1), (-1, -1), (-1, 0), (1, 0), (1, 1))

_CELL = re.compile(r"^([a-z])(\d{1,2})$")


def row_range(r: int, i: int) -> range:
    """Columns present in row ``i`` of a side-``r`` hexagon."""
    first = 1 + max(0, i - (r - 1))
    return range(first, first + r + min(i, 2 * r - 2 - i))


def on_board(r: int, i: int, c: int) -> bool:
    return 0 <= i < 2 * r - 1 and c in row_range(r, i)


def hex_cells(r: int) -> list[tuple[int, int]]:
    """All (row, column) cells, row by row from the top, left to right."""
    return [(i, c) for i in range(2 * r - 1) for c in row_range(r, i)]


def hex_neighbours(r: int, i: int, c: int) -> list[tuple[int, int]]:
    return [(i + di, c + dc) for di, dc in DIRECTIONS if on_board(r, i + di, c + dc)]


def cell_name(i: int, c: int) -> str:
    return f"{chr(ord('a') + i)}{c}"


def parse_cell(text: str) -> tuple[int, int] | None:
    """(row, column) for a name like ``e9``; None when it is not of that form."""
    m = _CELL.match(text.strip().lower())
    if not m:
        return None
    return ord(m.group(1)) - ord("a"), int(m.group(2))


def cell_xy(r: int, i: int, c: int) -> tuple[float, float]:
    """Drawing position: unit spacing along a row, rows sqrt(3)/2 apart, row a at the top."""
    x = c - 1 - 0.5 * i + 0.5 * (r - 1)
    y = (2 * r - 2 - i) * 0.8660254037844386
    return x, y


def hex_outline(x: float, y: float) -> tuple[tuple[float, float], ...]:
    """Outline of a pointy-top cell of unit width centred on (x, y) (for :class:`Site` shapes).

    >>> hex_outline(0, 0)[:2]
    ((0.5, 0.2887), (0.0, 0.5774))
    """
    r = 1 / math.sqrt(3)
    return tuple(
        (round(x + r * math.cos(math.radians(a)), 4), round(y + r * math.sin(math.radians(a)), 4))
        for a in range(30, 360, 60)
    )
