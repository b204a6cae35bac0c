"""Antipod's board: two hexagons of radius r as the two halves of a sphere (:func:`sphere_of`),
their points, names, triangles and sites, and the move value named on them.

The 6(r-1) edge points of a board are the equator: each is ONE point with two names (column c
on the left board, c+2r-1 on the right) whose neighbours are the union of both boards'
neighbours, so the six corners have 4. Points 0.. are the left board's cells in reading order,
then the right board's interior.

>>> sphere = sphere_of(4)
>>> len(sphere.graph.labels), len(sphere.sites), [sphere.graph.labels[p] for p in sphere.centres]
(56, 74, ['d4', 'd11'])
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from engines.core.contract import Site
from engines.core.graph import Graph
from engines.core.hexgrid import (
    cell_name,
    cell_xy,
    hex_cells,
    hex_neighbours,
    hex_outline,
    on_board,
    row_range,
)


class Place(NamedTuple):
    """A move: a stone on the point named ``point`` (canonical: the left-board name). A named
    tuple, not a dataclass: the search hashes moves all the time, a tuple at C speed (a third
    of Antipod's search went to a dataclass's ``__hash__``)."""

    point: str

    def __str__(self) -> str:
        return self.point


def is_edge(r: int, i: int, c: int) -> bool:
    """True for the boundary cells of a radius-``r`` hexagon (the equator points)."""
    cols = row_range(r, i)
    return i in (0, 2 * r - 2) or c in (cols[0], cols[-1])


@dataclass(frozen=True, eq=False)
class Sphere:
    """The point graph of one radius, built once (see :func:`sphere_of`).

    Points 0.. are the left board's cells in reading order, then the right board's interior.
    ``names`` maps every accepted name (both names of an edge point) to its point; ``site_names``
    gives each point's physical sites (two for an edge point: left, right); ``faces`` are the
    triangles of the sphere; ``links[p]`` pairs each neighbour of p with its crossing bit.
    """

    radius: int
    graph: Graph
    names: dict[str, int]
    site_names: tuple[tuple[str, ...], ...]
    faces: tuple[tuple[int, int, int], ...]
    links: tuple[tuple[tuple[int, int], ...], ...]
    centres: tuple[int, int]
    corners: tuple[int, ...]
    sites: tuple[Site, ...]
    moves: tuple[Place, ...]

    def point(self, name: str) -> int | None:
        return self.names.get(name)


@lru_cache(maxsize=None)
def sphere_of(r: int) -> Sphere:
    """The sphere of radius ``r``.

    >>> s = sphere_of(6)
    >>> len(s.graph.labels), s.graph.labels[s.centres[1]], s.site_names[s.names["a12"]]
    (152, 'f17', ('a1', 'a12'))
    >>> sorted(s.graph.labels[q] for q in s.graph.neighbours[s.names["a1"]])
    ['a2', 'b1', 'b13', 'b2']
    """
    cells = hex_cells(r)
    shift = 2 * r - 1
    point: dict[tuple[int, int, int], int] = {}
    labels: list[str] = []
    sites: dict[int, list[str]] = defaultdict(list)
    for board in (0, 1):
        for i, c in cells:
            name = cell_name(i, c + board * shift)
            if board and is_edge(r, i, c):
                point[board, i, c] = point[0, i, c]
            else:
                point[board, i, c] = len(labels)
                labels.append(name)
            sites[point[board, i, c]].append(name)
    edges = [
        (labels[point[b, i, c]], labels[point[(b, *n)]])
        for b in (0, 1)
        for i, c in cells
        for n in hex_neighbours(r, i, c)
    ]
    graph = Graph.from_edges(labels, edges)
    faces = _faces(r, point)
    names = {name: p for p, names in sites.items() for name in names}
    centres = (names[cell_name(r - 1, r)], names[cell_name(r - 1, r + shift)])
    cut = _crossed_edges(faces, *centres)
    return Sphere(
        radius=r,
        graph=graph,
        names=names,
        site_names=tuple(tuple(sites[p]) for p in range(len(labels))),
        faces=faces,
        links=tuple(
            tuple((q, int(frozenset((p, q)) in cut)) for q in graph.neighbours[p]) for p in range(len(labels))
        ),
        centres=centres,
        corners=tuple(names[cell_name(i, c)] for i, c in _corner_cells(r)),
        sites=_sites(r, cells, shift),
        moves=tuple(Place(label) for label in labels),
    )


def _corner_cells(r: int) -> tuple[tuple[int, int], ...]:
    last = 2 * r - 2
    return ((0, 1), (0, r), (r - 1, 1), (r - 1, last + 1), (last, r), (last, last + 1))


def _faces(r: int, point: dict[tuple[int, int, int], int]) -> tuple[tuple[int, int, int], ...]:
    """The triangles of both boards (each board has 6(r-1)² of them)."""
    out = []
    for b in (0, 1):
        for i, c in hex_cells(r):
            for tri in (((i, c), (i, c + 1), (i + 1, c + 1)), ((i, c), (i + 1, c), (i + 1, c + 1))):
                if all(on_board(r, *cell) for cell in tri):
                    first, second, third = (point[(b, *cell)] for cell in tri)
                    out.append((first, second, third))
    return tuple(out)


def _crossed_edges(
    faces: tuple[tuple[int, int, int], ...],
    start: int,
    goal: int,
) -> set[frozenset[int]]:
    """The edges a curve from point ``start`` to point ``goal`` crosses, walking from triangle
    to neighbouring triangle (a shortest walk in the dual graph)."""
    by_edge: defaultdict[frozenset[int], list[int]] = defaultdict(list)
    for f, (a, b, c) in enumerate(faces):
        for pair in ((a, b), (b, c), (a, c)):
            by_edge[frozenset(pair)].append(f)
    came: dict[int, tuple[int, frozenset[int]] | None] = {
        f: None for f, tri in enumerate(faces) if start in tri
    }
    frontier = deque(came)
    while frontier:
        f = frontier.popleft()
        if goal in faces[f]:
            break
        a, b, c = faces[f]
        for edge in map(frozenset, ((a, b), (b, c), (a, c))):
            for g in by_edge[edge]:
                if g not in came:
                    came[g] = (f, edge)
                    frontier.append(g)
    crossed: set[frozenset[int]] = set()
    step = came[f]
    while step is not None:
        f, edge = step
        crossed ^= {edge}
        step = came[f]
    return crossed


def _sites(r: int, cells: list[tuple[int, int]], shift: int) -> tuple[Site, ...]:
    """Both boards side by side: the right board is drawn 2r units to the right."""
    out = []
    for board in (0, 1):
        for i, c in cells:
            x, y = cell_xy(r, i, c)
            x += board * 2 * r
            out.append(Site(cell_name(i, c + board * shift), x, y, hex_outline(x, y)))
    return tuple(out)
