"""Phalanx (Whitman, 1964) on the 8x8 board of 128 triangles.

``board`` holds the triangles, the piece shapes, where they fit, and the piece and move values;
``state`` the rules, notation and physical contract. See docs/games/phalanx.md for the notation,
the house rules and the "Rulings" that correct the garbled rule text.

>>> s = new()
>>> s.to_move, len(s.sites()), len(s.occupied()), s.points()
('green', 128, 48, {'green': 130, 'red': 130})
"""

from engines.ai.profile import SearchProfile
from engines.core import GameInfo
from engines.core.options import GameOption
from engines.phalanx.board import Move, Piece, Removal
from engines.phalanx.state import SIDES, PhalanxState, Rules, make_piece, position, start

__all__ = [
    "INFO",
    "SEARCH",
    "SIDES",
    "Move",
    "PhalanxState",
    "Piece",
    "Removal",
    "Rules",
    "make_piece",
    "new",
    "position",
    "start",
]

INFO = GameInfo(
    name="phalanx",
    title="Phalanx",
    sizes=(),
    default_size=None,
    size_range=None,
    variants=("standard",),
    default_variant="standard",
    notes="green moves first",
    notation="anchor triangles, a1se-a2sw; xd4se removes a self-phalanxed piece",
    options=(
        GameOption(
            "repetition-draw",
            True,
            "the third repetition ends the game (decided by points)",
            param="repetition",
        ),
        GameOption("quiet-plies", 200, "plies without a capture that end the game (decided by points)"),
    ),
)

#: How the computer searches Phalanx (docs/ai.md tells how the rate was set).
SEARCH = SearchProfile(search="alphabeta", rate=3500)


def new(
    size: int | None = None,
    variant: str = "standard",
    *,
    repetition: bool = True,
    quiet_plies: int | None = 200,
) -> PhalanxState:
    """The starting position. ``size`` is ignored (one board); house rules as in :class:`Rules`."""
    return start(Rules(repetition, quiet_plies))
