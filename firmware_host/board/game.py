"""Which game a board plays (:class:`Game`) and results in words.

>>> Game.of("antipalos", 12).title
'Antipalos 12'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from engines import game_info, new_game
from engines.core import GameState, Outcome
from firmware_host.board.matchplay import OngoingMatch
from firmware_host.ui.screens import result_words


@dataclass(frozen=True)
class Game:
    """Which game is played: its name (opaque here), size and variant, ``match`` the points a
    match goes to (0: single games) and ``options`` its house rules (name, value)."""

    name: str
    size: int | None = None
    variant: str | None = None
    match: int = 0
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, name: str, size: int | None = None, variant: str | None = None, match: int = 0) -> "Game":
        """The game with its defaults filled in; OptionError for a bad game, option or match
        target."""
        info = game_info(name)
        return cls(name, *info.check_options(size, variant), match and info.check_match(match))

    def new(self) -> GameState[Any]:
        return new_game(self.name, self.size, self.variant, dict(self.options))

    def with_options(self, options: Mapping[str, Any] | None) -> "Game":
        """This game with ``options`` (the config's house rules for it) when it has none."""
        if self.options or not options:
            return self
        return replace(self, options=tuple(sorted(options.items())))

    def new_match(self) -> OngoingMatch | None:
        """A new match of this game (None for single games)."""
        if not self.match:
            return None
        return OngoingMatch.begin(self.name, self.size, self.variant, self.match)

    @property
    def title(self) -> str:
        """The short title, with the size: "Antipalos 12"."""
        title = game_info(self.name).short_title
        return f"{title} {self.size}" if self.size else title

    @property
    def shown_variant(self) -> str | None:
        """The variant when it is not the default one."""
        return None if self.variant == game_info(self.name).default_variant else self.variant


def win_sites(state: GameState[Any]) -> set[str]:
    """The sites that show the win (a point may have several, e.g. an Antipod edge point)."""
    outcome = state.outcome()
    return {site for name in (outcome.sites if outcome else ()) for site in state.sites_of(name)}


def result_text(outcome: Outcome) -> str:
    """A result in words: "white wins by connection", "draw by repetition"."""
    if outcome.winner == "draw":
        return f"draw by {outcome.result}"
    return f"{outcome.winner} wins by {outcome.result}"


def result_lines(outcome: Outcome | None, match: OngoingMatch | None) -> tuple[str | None, str | None]:
    """The result line and the match score line: a won match's result replaces both."""
    result = result_words(outcome.winner, outcome.result) if outcome else None
    if match is None:
        return result, None
    return (match.result, None) if match.won else (result, match.score)
