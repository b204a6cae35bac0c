"""A game's board as the board-drawing module (``web/shared/board.js``) reads it, alike for the
page, a stored game's replay and the café dashboard: the sites (label, centre, outline; a twin,
one of several sites of one point, also with the point's name and its other sites), the
drawing's guide lines and site kinds, and the pieces as figures.

>>> from engines import new_game
>>> state = new_game("antipalos", 3)
>>> board = drawn(state)
>>> board["sites"][0]["label"], sorted(board["drawing"]), figures(state)
('A1*', ['kinds', 'lines'], [])
"""

from __future__ import annotations

from typing import Any

from engines.core import GameState
from engines.core.contract import Site
from engines.core.drawing import Figure


def drawn(state: GameState) -> dict[str, Any]:
    """``{"sites": [...], "drawing": {"lines": [...], "kinds": {...}}}`` of ``state``'s board."""
    drawing = state.drawing()
    return {
        "sites": [site(state, s) for s in state.sites()],
        "drawing": {"lines": [line._asdict() for line in drawing.lines], "kinds": dict(drawing.kinds)},
    }


def site(state: GameState, s: Site) -> dict[str, Any]:
    """A site as the module draws it; a twin with the name notation gives its point."""
    out: dict[str, Any] = {"label": s.label, "x": s.x, "y": s.y, "shape": s.shape}
    named = state.sites_of(s.label)
    if len(named) > 1:
        out["point"], out["twins"] = named[0], [t for t in named if t != s.label]
    return out


def figures(state: GameState) -> list[dict[str, Any]]:
    """The pieces of ``state``: ``{"side", "sites", "kind"}`` each."""
    return [figure(f) for f in state.figures()]


def figure(f: Figure) -> dict[str, Any]:
    return {"side": f.side, "sites": list(f.sites), "kind": f.kind}
