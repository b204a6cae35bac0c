"""How a game ended: who won (a side, or :data:`DRAW`) and how (a :class:`Result`).

Both are string enums, so events, records and storage write them as before: a draw is
``"draw"``, a result its word.

>>> outcome = Outcome(DRAW, Result.REPETITION)
>>> outcome.drawn, f"{outcome.winner} by {outcome.result}", outcome == Outcome("draw", "repetition")
(True, 'draw by repetition', True)
>>> import json; json.dumps([outcome.winner, outcome.result])
'["draw", "repetition"]'
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Draw(StrEnum):
    """The winner of a game nobody won: :data:`DRAW`, written ``"draw"``."""

    DRAW = "draw"


#: The winner of a drawn game (``Outcome.winner`` is a side name or this).
DRAW = Draw.DRAW


class Result(StrEnum):
    """How a game ended, in the words events, records and storage use."""

    CONNECTION = "connection"  #: a chain joins what the game asks (Antipalos, Antipode, Antipod's Black)
    RING = "ring"  #: Antipod's White cut the centres apart
    FORFEIT = "forfeit"  #: the side to move had no legal turn (Antipode)
    CAPTURES = "captures"  #: enough of the opponent's pieces taken (Anti-Grid, Phalanx)
    NO_MOVES = "no-moves"  #: the side to move had no legal move (Anti-Grid; Phalanx by points)
    TRAPPED = "trapped"  #: Anti-Grid's trapped rule after 40 quiet plies
    REPETITION = "repetition"  #: the third repetition of a position
    NO_CAPTURES = "no-captures"  #: too many plies without a capture (Phalanx, by points)
    TIME = "time"  #: decided by points when time ran out (Phalanx)


class Outcome(NamedTuple):
    """How a game ended: ``winner`` a side name or :data:`DRAW`; ``result`` how; ``score`` the
    match-play category where the game has one; ``sites`` the winning chain or ring to light."""

    winner: str | Draw
    result: Result
    score: int | None = None
    sites: tuple[str, ...] = ()

    @property
    def drawn(self) -> bool:
        """True when nobody won."""
        return self.winner == DRAW
