"""Antipode's board: the 61-cell hexagon as bit masks (bit n = cell ``NAMES[n]``), its lines,
corners and sites, and the turn values named on it.

Cells are numbered row by row from the top (a1 = 0, i9 = 60); a set of cells is an int whose
bit n is cell n. Geometry and names come from :mod:`engines.core.hexgrid`.

>>> NAMES[0], NAMES[-1], INDEX["e5"], len(CELLS), FULL.bit_count()
('a1', 'i9', 30, 61, 61)
>>> sorted(names_of(NEIGHBOURS[INDEX["a1"]])), sorted(names_of(BETWEEN[INDEX["a1"]][INDEX["a4"]]))
(['a2', 'b1', 'b2'], ['a2', 'a3'])
>>> str(TURNS[INDEX["c4"]][INDEX["e3"]]), str(TURNS[PASS][INDEX["e3"]])
('c4:e3', ':e3')
"""

from __future__ import annotations

from typing import Iterable, Iterator, NamedTuple

from engines.core.contract import Site
from engines.core.graph import Graph
from engines.core.hexgrid import (
    DIRECTIONS,
    cell_name,
    cell_xy,
    hex_cells,
    hex_neighbours,
    hex_outline,
    on_board,
)

#: Cells along each side of the hexagon.
SIDE = 5
CELLS = tuple(hex_cells(SIDE))
NAMES = tuple(cell_name(i, c) for i, c in CELLS)
INDEX = {name: n for n, name in enumerate(NAMES)}
#: Every cell's bit.
FULL = (1 << len(CELLS)) - 1
GRAPH = Graph(
    NAMES, tuple(tuple(INDEX[cell_name(*m)] for m in hex_neighbours(SIDE, *cell)) for cell in CELLS)
)
#: Neighbour mask of each cell.
NEIGHBOURS = tuple(sum(1 << m for m in ns) for ns in GRAPH.neighbours)


def _ray(n: int, di: int, dc: int) -> tuple[int, ...]:
    i, c = CELLS[n]
    out = []
    while on_board(SIDE, i + di, c + dc):
        i, c = i + di, c + dc
        out.append(INDEX[cell_name(i, c)])
    return tuple(out)


#: The cells along each of the six directions from each cell, nearest first.
RAYS = tuple(tuple(ray for ray in (_ray(n, *step) for step in DIRECTIONS) if ray) for n in range(len(CELLS)))
#: BETWEEN[a][b]: mask of the cells strictly between a and b when they share a line (else absent).
BETWEEN: tuple[dict[int, int], ...] = tuple(
    {ray[k]: sum(1 << m for m in ray[:k]) for ray in RAYS[n] for k in range(len(ray))}
    for n in range(len(CELLS))
)
#: Corner pairs, in the order a win is reported when several exist.
CORNER_PAIRS = tuple((INDEX[a], INDEX[b]) for a, b in (("a1", "i9"), ("a5", "i5"), ("e1", "e9")))

SITES = tuple(
    Site(name, *xy, shape=hex_outline(*xy))
    for name, xy in zip(NAMES, (cell_xy(SIDE, *cell) for cell in CELLS))
)


def bit_of(name: str) -> int:
    """The bit of the cell named ``name``."""
    return 1 << INDEX[name]


def mask_of(names: Iterable[str]) -> int:
    """The mask of the cells named."""
    return sum(bit_of(n) for n in set(names))


def indices(mask: int) -> Iterator[int]:
    """The cell numbers in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def names_of(mask: int) -> frozenset[str]:
    """The names of the cells in ``mask``."""
    return frozenset(NAMES[n] for n in indices(mask))


class Turn(NamedTuple):
    """A turn: the cell placed on (None for the full-board pawn-only turn) and the pawn's landing.
    A named tuple, so that a search's tables hash it at C speed (a dataclass's hash was a third
    of a wide MCTS node's scan).

    >>> str(Turn("c4", "e3")), str(Turn(None, "e3"))
    ('c4:e3', ':e3')
    """

    place: str | None
    land: str

    def __str__(self) -> str:
        return f"{self.place or ''}:{self.land}"


#: The placement number of the full-board turn, which places nothing.
PASS = len(CELLS)
#: Every possible turn, interned: TURNS[placement cell or PASS][landing cell].
TURNS = tuple(tuple(Turn(NAMES[p] if p < PASS else None, land) for land in NAMES) for p in range(PASS + 1))
