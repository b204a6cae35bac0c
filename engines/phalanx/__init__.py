"""Phalanx (Whitman, 1964) on the 8x8 board of 128 triangles, as fixed by RULINGS.md §5.

``geometry`` holds the board, the piece shapes and where they fit; ``state`` the rules, notation
and physical contract. See docs/games/phalanx.md for the notation and house rules.

>>> s = new()
>>> s.to_move, len(s.sites()), len(s.occupied()), s.points()
('green', 128, 48, {'green': 130, 'red': 130})
"""

from engines.core import GameInfo
from engines.core.options import GameOption
from engines.phalanx.state import (
    SIDES,
    Move,
    PhalanxState,
    Piece,
    Removal,
    Rules,
    make_piece,
    new,
    position,
    start,
)

__all__ = [
    "INFO", "SIDES", "Move", "PhalanxState", "Piece", "Removal", "Rules",
    "make_piece", "new", "position", "start",
]

INFO = GameInfo(
    name="phalanx",
    title="Phalanx",
    sizes=(),
    default_size=None,
    size_range=None,
    variants=("standard",),
    default_variant="standard",
    notes="green moves first; moves name anchor triangles, e.g. c1se-c3se; removal xd4se",
    options=(
        GameOption("repetition-draw", True, "the third repetition ends the game (decided by "
                   "points)", param="repetition"),
        GameOption("quiet-plies", 200, "plies without a capture that end the game (decided by "
                   "points)"),
    ),
)
