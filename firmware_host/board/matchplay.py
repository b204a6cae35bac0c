"""Match play on the board: the engine's match value (``engines.core.MatchPlay``: it decides the
score and who begins the next game), the stored id of the match's first game, and the value
before the last game was recorded, so a takeback after game over can undo the recording.

>>> tally = OngoingMatch.begin("antipalos", 3, "two", 6)
>>> tally.score, tally.result
('0-0 (to 6)', None)
>>> state = tally.next_game()
>>> for move in ["B1*", "A1*", "*B2", "C1*", "B3*"]:
...     state = state.play(move)
>>> tally.record(state); tally.score, tally.next_game().to_move
('3-0 (to 6)', 'black')
>>> tally.unrecord(); tally.score, tally.next_game().to_move
('0-0 (to 6)', 'white')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engines
from engines.core import GameState, MatchPlay, Outcome
from firmware_host.i18n import _


@dataclass
class OngoingMatch:
    """A match being played: ``match`` now, ``first_id`` the stored id of its first game (None
    until it is stored), ``before`` the match before the last :meth:`record`."""

    match: MatchPlay
    first_id: int | None = None
    before: MatchPlay | None = None

    @classmethod
    def begin(cls, game: str, size: int | None, variant: str | None, target: int) -> "OngoingMatch":
        """A new match; OptionError for a game or target without match play."""
        return cls(engines.new_match(game, size, variant, target))

    @property
    def target(self) -> int:
        return self.match.target

    @property
    def won(self) -> bool:
        return self.match.winner is not None

    def next_game(self) -> GameState[Any]:
        """The start of the match's next game (the engine decides who begins)."""
        return self.match.new_game()

    def record(self, finished: GameState[Any], outcome: Outcome | None = None) -> None:
        """Score a finished game begun by :meth:`next_game` (``outcome``: how it ended when its
        position did not end it, a flag)."""
        self.before, self.match = self.match, self.match.record(finished, outcome)

    def unrecord(self) -> None:
        """Undo the last :meth:`record` (the game it scored is taken back)."""
        if self.before is not None:
            self.match, self.before = self.before, None

    @property
    def score(self) -> str:
        """The points in side order and the target: "3-5 (to 6)"."""
        return _("{points} (to {target})").format(
            points="-".join(map(str, self.match.totals.values())), target=self.target
        )

    @property
    def result(self) -> str | None:
        """Once the match is won: "White wins the match 6-3" (the winner's points first)."""
        winner = self.match.winner
        if winner is None:
            return None
        totals = self.match.totals
        points = [totals[winner]] + [p for side, p in totals.items() if side != winner]
        side = _(winner)
        return _("{side} wins the match {points}").format(
            side=side[:1].upper() + side[1:], points="-".join(map(str, points))
        )
