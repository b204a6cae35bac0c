"""Optional drawing hooks for the simulator page: marks a board has besides its sites
(:meth:`GameState.drawing`), and the pieces as they stand on the table (:meth:`GameState.figures`).

The page draws every board from :meth:`GameState.sites` alone (outlines, segments, centres).
A game whose board needs more to be read by a person (grid lines between point sites, points
of different colours) returns it from :meth:`GameState.drawing`, so the page never needs a
game's name. ``kind`` strings are opaque to the page: equal kinds are drawn alike (the n-th
distinct kind gets the n-th colour of a palette), a kind equal to a side name gets that side's
colour.

>>> Drawing(lines=(Line("red", ((0, 0), (4, 0))),), kinds={"c1": "shared"}).lines[0].kind
'red'

A :class:`Figure` is one piece: its side (drawn in the side's colour), the sites it covers (a
Phalanx piece covers several triangles, drawn as one outline) and its ``kind``, opaque to the
page except for a few words: ``"pawn"`` (drawn as a pawn standing on whatever holds the site),
``"token"`` (a two-faced token: the side is the face up), ``"stone"`` and ``"trirod"`` (round
pieces, rods on segment sites); a figure of any other kind is drawn as the outline of its sites.

>>> Figure("white", ("A1*",)).kind
'piece'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, NamedTuple

Point = tuple[float, float]


class Line(NamedTuple):
    """A polyline drawn under the sites (board units, y upwards), styled by ``kind``."""

    kind: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Drawing:
    """Extra marks: ``lines`` under the sites, and site label -> ``kinds`` for colouring sites."""

    lines: tuple[Line, ...] = ()
    kinds: Mapping[str, str] = field(default_factory=dict)


class Figure(NamedTuple):
    """A piece on the board: ``side`` (a side name), the ``sites`` it covers, its ``kind``."""

    side: str
    sites: tuple[str, ...]
    kind: str = "piece"


@dataclass(frozen=True)
class PieceSet:
    """Pieces to make for a game: ``count`` of ``kind`` in each colour of ``sides``, each
    covering sites like ``sites`` (one placement of it, for its size and its magnets);
    ``sensed``: False for a piece no switch reads (it needs no magnet); ``note`` what else a
    maker should know (a token's two faces).

    >>> sets_of((Figure("red", ("a1",), "pawn"), Figure("blue", ("b2",), "pawn"),
    ...          Figure("red", ("c1",), "pawn")))
    (PieceSet(kind='pawn', count=2, sides=('red',), sites=('a1',), sensed=True, note=''), \
PieceSet(kind='pawn', count=1, sides=('blue',), sites=('b2',), sensed=True, note=''))
    """

    kind: str
    count: int
    sides: tuple[str, ...]
    sites: tuple[str, ...]
    sensed: bool = True
    note: str = ""


def sets_of(figures: tuple[Figure, ...]) -> tuple[PieceSet, ...]:
    """The pieces laid out as ``figures``, counted by kind and side, in the order they come
    (sides with equal counts of a kind as one set)."""
    counts: dict[tuple[str, str], list[Figure]] = {}
    for f in figures:
        counts.setdefault((f.kind, f.side), []).append(f)
    merged: dict[tuple[str, int], PieceSet] = {}
    for (kind, side), found in counts.items():
        key = (kind, len(found))
        if key in merged:
            merged[key] = PieceSet(kind, len(found), (*merged[key].sides, side), merged[key].sites)
        else:
            merged[key] = PieceSet(kind, len(found), (side,), found[0].sites)
    return tuple(merged.values())
