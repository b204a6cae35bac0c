"""Anti-Grid (David McCord, 2009): two offset grids, custodial capture.

``board`` holds the geometry, point names, precomputed tables and the move values; ``state``
the rules, notation and physical contract. See docs/games/anti-grid.md (its "Rulings" fix
what the rule text leaves open).

>>> s = new(6)
>>> s.to_move, len(s.sites())
('red', 122)
"""

from engines.ai.profile import SearchProfile
from engines.antigrid.board import OK, EndTurn, Move, point_kind
from engines.antigrid.state import QUIET_LIMIT, AntiGridState, start
from engines.core import GameInfo
from engines.core.options import GameOption

__all__ = [
    "INFO",
    "OK",
    "QUIET_LIMIT",
    "SEARCH",
    "AntiGridState",
    "EndTurn",
    "Move",
    "new",
    "point_kind",
]

#: The size played unless another is chosen (points along a grid's side).
SIZE = 6

INFO = GameInfo(
    name="anti-grid",
    title="Anti-Grid",
    sizes=(6, 8),
    default_size=SIZE,
    size_range=None,
    variants=("plain", "chain"),
    default_variant="plain",
    size_help="points per grid side n:",
    notation="a3-e3 (a capture suffix xc3 is optional, checked when given); ok ends a chain",
    options=(
        GameOption("first", "red", "the side that begins", choices=("red", "blue")),
        GameOption(
            "trapped",
            True,
            "after 40 plies without a capture, a side whose pawns can never be flanked loses",
            param="trapped_rule",
        ),
    ),
)

#: How the computer searches Anti-Grid (docs/ai.md tells how the rate was set).
SEARCH = SearchProfile(search="alphabeta", rate=6500)


def new(
    size: int | None = None, variant: str | None = None, trapped_rule: bool = True, first: str = "red"
) -> AntiGridState:
    """The start (``size`` points a grid side); ``trapped_rule`` the house rule of
    40 plies without a capture, on by default; ``first`` the side that begins (house rule:
    red). OptionError for a size or variant the game does not offer."""
    n, variant = INFO.check_options(size, variant)
    return start(n or SIZE, variant, trapped_rule, first)
