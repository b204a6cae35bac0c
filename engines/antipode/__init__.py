"""Antipode (Shane Hendrickson, 2011) on the 61-cell hexagon.

``board`` holds the cells as bit masks, their lines and sites, and the turn values; ``state``
the rules, notation and physical contract; ``distance`` and ``tactics`` what the computer knows
beyond the rules. See docs/games/antipode.md (its "Rulings" fix what the rule text leaves open).

>>> new().to_move
'blue'
"""

from engines.ai.profile import SearchProfile
from engines.antipode.board import Turn
from engines.antipode.state import VARIANTS, AntipodeState, HouseRules, start
from engines.core import GameInfo

__all__ = ["INFO", "SEARCH", "AntipodeState", "HouseRules", "Turn", "new"]

INFO = GameInfo(
    name="antipode",
    title="Antipode (61-cell hexagon; Blue first)",
    sizes=(),
    default_size=None,
    size_range=None,
    variants=tuple(VARIANTS),
    default_variant="standard",
    notes="house rules: full-board pawn-only turn, third-repetition draw "
    "(variants turn them off; 'rulebook' = neither)",
    notation="place:landing, c4:e3; :e3 when the board is full",
)

#: How the computer searches Antipode (docs/ai.md tells how each value was set).
SEARCH = SearchProfile(
    rate=2000,
    top_work=0.7,
    gentle=0.75,
    loose_sample=2,  # random play won 29 of 1,000 games against one, 14 against the best of two
    scan_cost=(2, 2, 2, 2, 0),  # level 5 weighs every root move
    win_check_cost=1,  # tactics.py finds every win in one with bit masks
)


def new(size: int | None = None, variant: str = "standard") -> AntipodeState:
    """The starting position (one size: ``size`` is ignored); ``variant`` names the house
    rules in force (see ``state.VARIANTS``)."""
    return start(VARIANTS[variant])
