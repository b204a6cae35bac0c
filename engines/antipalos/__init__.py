"""Antipalos: connect two opposite borders with a chain of Trirods.

``board`` holds the squares, sites, geometry tables, the move values and their notation;
``state`` the rules and physical contract; ``match`` game records and match play;
``distance`` what the computer's search weighs. See docs/games/antipalos.md (its "Rulings"
fix what the rulebook leaves open).

>>> s = new(12)
>>> s.to_move, s.phase, s.legal_count(), len(s.sites())
('white', 1, 288, 288)
>>> s.play("F2*").play("*G7").to_move
'white'
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engines.ai.profile import SearchProfile
from engines.antipalos.board import Move, Place, Shift, Spot, rotate, rotate_spot
from engines.antipalos.state import COLOURS, TARGETS, AntipalosState, Setup, start
from engines.core import GameInfo, GameState
from engines.core.options import GameOption

if TYPE_CHECKING:  # loaded when first asked for (``__getattr__``)
    from engines.antipalos.match import Match, Record, read_record, write_record

__all__ = [
    "COLOURS",
    "INFO",
    "SEARCH",
    "AntipalosState",
    "Match",
    "Move",
    "Place",
    "Record",
    "Setup",
    "Shift",
    "Spot",
    "new",
    "new_match",
    "read_record",
    "rotate",
    "rotate_spot",
    "write_record",
]

#: What :mod:`engines.antipalos.match` gives, loaded only when a game asks for match play or
#: a record.
_MATCH = ("Match", "Record", "read_record", "write_record")

INFO = GameInfo(
    name="antipalos",
    title="Antipalos",
    sizes=(12, 14, 16, 18, 20),
    default_size=12,
    size_range=(3, 26),
    variants=("two", "team", "cut-throat-3", "cut-throat-4"),
    default_variant="two",
    size_help="board N×N",
    notes="3N/2 Trirods per side; white begins",
    notation="a placement B4* or *B4; Phase Two B2* - B3*, turning in place B2* - *B2",
    match_targets=TARGETS,
    options=(
        GameOption("supply", None, "Trirods per side, 3N/2 or an equal smaller number", default_text="3N/2"),
        GameOption("first", "white", "the side that begins", choices=COLOURS),
        GameOption("repetition-draw", True, "the third repetition in Phase Two is a draw"),
    ),
)


@dataclass(frozen=True)
class _Search(SearchProfile):
    """Antipalos's profile: its evaluation's floods grow with the board."""

    #: The largest board the rate holds for; beyond, it falls in proportion to the side.
    rate_size: int = 20

    def rate_for(self, state: GameState[Any]) -> int:
        """The rate up to ``rate_size`` squares a side, and less beyond.

        >>> SEARCH.rate_for(new(12)), SEARCH.rate_for(new(24))
        (3000, 2500)
        """
        size = state.setup.size if isinstance(state, AntipalosState) else self.rate_size
        return self.rate * self.rate_size // max(self.rate_size, size)


#: How the computer searches Antipalos (docs/ai.md tells how each value was set): no mobility
#: bonus, since every position of a ply has as many legal moves.
SEARCH = _Search(search="alphabeta", rate=3000, mobility=0.0)


def new(
    size: int = 12,
    variant: str = "two",
    supply: int | None = None,
    first: str | None = None,
    repetition_draw: bool = True,
) -> AntipalosState:
    """A new game (see :func:`engines.antipalos.state.start`); OptionError for a size,
    variant, supply or first side the game does not offer."""
    return start(size, variant, supply, first, repetition_draw)


def new_match(size: int = 12, variant: str = "two", target: int = TARGETS[0]) -> "Match":
    """A match (Chart A, docs/games/antipalos.md) to ``target`` points; the loser of a game
    begins the next.

    >>> new_match(4, target=15).new_game().to_move
    'white'
    """
    from engines.antipalos.match import Match

    return Match(target=target, size=size, variant=variant)


def __getattr__(name: str) -> Any:
    """Match play and game records (:data:`_MATCH`), loaded when first asked for."""
    if name in _MATCH:
        from engines.antipalos import match

        return getattr(match, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_MATCH])
