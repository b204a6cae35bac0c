"""An optional drawing hook: marks a board has besides its sites, for the simulator page.

The page draws every board from :meth:`GameState.sites` alone (outlines, segments, centres).
A game whose board needs more to be read by a person (grid lines between point sites, points
of different colours) returns it from :meth:`GameState.drawing`, so the page never needs a
game's name. ``kind`` strings are opaque to the page: equal kinds are drawn alike (the n-th
distinct kind gets the n-th colour of a palette), a kind equal to a side name gets that side's
colour.

>>> Drawing(lines=(Line("red", ((0, 0), (4, 0))),), kinds={"c1": "shared"}).lines[0].kind
'red'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

Point = tuple[float, float]


@dataclass(frozen=True)
class Line:
    """A polyline drawn under the sites (board units, y upwards), styled by ``kind``."""

    kind: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Drawing:
    """Extra marks: ``lines`` under the sites, and site label -> ``kinds`` for colouring sites."""

    lines: tuple[Line, ...] = ()
    kinds: Mapping[str, str] = field(default_factory=dict)
