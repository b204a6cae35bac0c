"""Ghosting on a diode-less switch matrix, as pure functions on (row, column) cells.

Without a diode per switch, driving a row low also pulls low every column reachable through a
chain of closed switches, so a reading shows the closure of what is really closed. A reading is
ambiguous exactly when two rows share two or more closed columns: then some of those four
corners may be ghosts. Cells are ``(row, column)`` pairs; a channel is ``row * columns + column``.

>>> truth = {(0, 0), (0, 1), (1, 0)}
>>> sorted(ghosted(truth))
[(0, 0), (0, 1), (1, 0), (1, 1)]
>>> sorted(ambiguous_cells(ghosted(truth)))
[(0, 0), (0, 1), (1, 0), (1, 1)]
>>> ambiguous_cells({(0, 0), (0, 1), (2, 5)})
set()
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable, Mapping

from hardware.base import Scan

Cell = tuple[int, int]


def ambiguous_cells(reading: Iterable[Cell]) -> set[Cell]:
    """The cells of ``reading`` that lie on a rectangle: two rows sharing two or more columns."""
    by_row: dict[int, set[int]] = defaultdict(set)
    for row, col in reading:
        by_row[row].add(col)
    rows = [(r, cols) for r, cols in by_row.items() if len(cols) >= 2]
    out: set[Cell] = set()
    for i, (r1, cols1) in enumerate(rows):
        for r2, cols2 in rows[i + 1 :]:
            shared = cols1 & cols2
            if len(shared) >= 2:
                out.update((r, c) for r in (r1, r2) for c in shared)
    return out


def ghosted(truth: Iterable[Cell]) -> set[Cell]:
    """What a diode-less matrix reads when ``truth`` is closed: each connected group of rows
    and columns (linked by closed switches) reads as fully closed."""
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def find(node: tuple[str, int]) -> tuple[str, int]:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    cells = list(truth)
    for row, col in cells:
        parent[find(("r", row))] = find(("c", col))
    rows: dict[tuple[str, int], set[int]] = defaultdict(set)
    cols: dict[tuple[str, int], set[int]] = defaultdict(set)
    for row, col in cells:
        rows[find(("r", row))].add(row)
        cols[find(("c", col))].add(col)
    return {(r, c) for root, rs in rows.items() for r in rs for c in cols[root]}


def to_cells(channels: Iterable[int], columns: int) -> set[Cell]:
    """Channels to (row, column) cells."""
    return {divmod(ch, columns) for ch in channels}


def to_channels(cells: Iterable[Cell], columns: int) -> frozenset[int]:
    """(row, column) cells to channels."""
    return frozenset(r * columns + c for r, c in cells)


def matrix_scan(
    reading: Iterable[int], columns: int, diodes: bool, polarity: Mapping[int, bool] | None = None
) -> Scan:
    """A :class:`~hardware.base.Scan` from a matrix reading (closed channels). On a diode-less
    matrix the cells on a rectangle are reported as ambiguous, not as closed.

    >>> matrix_scan({0, 1, 4, 5}, columns=4, diodes=False).ambiguous
    frozenset({0, 1, 4, 5})
    >>> matrix_scan({0, 1, 4, 5}, columns=4, diodes=True).sound
    True
    """
    closed = frozenset(reading)
    if diodes:
        return Scan(closed, polarity=polarity)
    unsure = to_channels(ambiguous_cells(to_cells(closed, columns)), columns)
    if polarity is not None:
        polarity = {c: v for c, v in polarity.items() if c not in unsure}
    return Scan(closed - unsure, unsure, polarity)
