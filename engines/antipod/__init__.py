"""Antipod (Cameron Browne, 2003): Hex on a sphere.

``board`` holds the sphere of each radius (points, names, triangles, sites) and the move value;
``state`` the rules, notation and physical contract. See docs/games/antipod.md (its "Rulings"
fix what the rule text leaves open).

>>> new(6).to_move
'white'
"""

from engines.ai.profile import SearchProfile
from engines.antipod.board import Place, sphere_of
from engines.antipod.state import AntipodState, start
from engines.core import GameInfo

__all__ = ["INFO", "SEARCH", "AntipodState", "Place", "new", "sphere_of"]

#: The radius played unless another is chosen.
RADIUS = 6

INFO = GameInfo(
    name="antipod",
    title="Antipod (two hexagons as a sphere; White first)",
    sizes=(4, 5, 6, 7, 8, 9, 10),
    default_size=RADIUS,
    size_range=None,
    variants=("standard",),
    default_variant="standard",
    size_help="radius r",
    notation="a point, f14; an edge point by either board's name, a3 or a3+",
)

#: How the computer searches Antipod (docs/ai.md tells how each value was set).
SEARCH = SearchProfile(
    rate=90000,
    gentle=1.0,  # level 1 plays loose where it is well ahead (Black, at the start)
    gentle_ahead=0.7,
)


def new(size: int | None = RADIUS, variant: str = "standard") -> AntipodState:
    """The starting position at radius ``size``: Black on both centres, White on the
    corners."""
    return start(size or RADIUS)
