"""Antipalos (RULINGS.md §1): connect two opposite borders with a chain of Trirods.

>>> s = new(12)
>>> s.to_move, s.phase, s.legal_count(), len(s.sites())
('white', 1, 288, 288)
>>> s.play("F2*").play("*G7").to_move
'white'
"""

from engines.antipalos.board import Move, Place, Shift, Spot, rotate, rotate_spot
from engines.antipalos.match import TARGETS, Match, Record, read_record, write_record
from engines.antipalos.state import COLOURS, AntipalosState, Setup, new
from engines.core import GameInfo
from engines.core.options import GameOption

INFO = GameInfo(
    name="antipalos",
    title="Antipalos",
    sizes=(12, 14, 16, 18, 20),
    default_size=12,
    size_range=(3, 26),
    variants=("two", "team", "cut-throat-3", "cut-throat-4"),
    default_variant="two",
    size_help="board N×N",
    notes="3N/2 Trirods per side; white begins; moves 'B4*', '*B4', Phase Two 'B2* - B3*'",
    match_targets=TARGETS,
    options=(
        GameOption("supply", None, "Trirods per side, 3N/2 or an equal smaller number",
                   default_text="3N/2"),
        GameOption("first", "white", "the side that begins", choices=COLOURS),
        GameOption("repetition-draw", True, "the third repetition in Phase Two is a draw"),
    ),
)


def new_match(size: int = 12, variant: str = "two", target: int = TARGETS[0]) -> Match:
    """A match (RULINGS §1, Chart A) to ``target`` points; the loser of a game begins the next.

    >>> new_match(4, target=15).new_game().to_move
    'white'
    """
    return Match(target=target, size=size, variant=variant)

__all__ = [
    "COLOURS",
    "INFO",
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
