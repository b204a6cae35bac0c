"""An optional drawing hook: marks a board has besides its sites, for the simulator page.

The page draws every board from :meth:`GameState.sites` alone (outlines, segments, centres).
A game whose board needs more to be read by a person (grid lines between point sites, points
of different colours) gives it by defining ``drawing() -> Drawing`` on its state; the page asks
through :func:`drawing_of` and so never needs a game's name. ``kind`` strings are opaque to the
page: equal kinds are drawn alike (the n-th distinct kind gets the n-th colour of a palette), a
kind equal to a side name gets that side's colour.

>>> from dataclasses import dataclass
>>> drawing_of(object())
Drawing(lines=(), kinds={})
>>> @dataclass(frozen=True)
... class Board:
...     def drawing(self):
...         return Drawing(lines=(Line("white", ((0, 0), (4, 0))),), kinds={"a1": "shared"})
>>> drawing_of(Board()).lines[0].kind
'white'
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


def drawing_of(state: object) -> Drawing:
    """The state's :class:`Drawing` if its game defines ``drawing()``, else an empty one."""
    hook = getattr(state, "drawing", None)
    return hook() if callable(hook) else Drawing()
