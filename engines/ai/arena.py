"""Games between players, for measuring the levels (bench/ai.py and the tests).

A player is a function (state, rng) -> move. :func:`duel` plays games alternating who begins
and counts the first player's wins, so both colours are measured.

>>> from engines import new_game
>>> from engines.ai.baseline import random_player
>>> result = duel(lambda: new_game("antipod", size=4), level_player(1), random_player, games=2)
>>> result.games, result.wins + result.losses + result.unfinished
(2, 2)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from engines.ai import choose
from engines.core import GameState

Player = Callable[[GameState[Any], random.Random], Any]


def level_player(level: int) -> Player:
    """The computer at ``level``, seeded from the game's generator (different games differ)."""
    return lambda state, rng: choose(state, level, seed=rng.randrange(1 << 30)).move


def play(
    start: GameState[Any], players: tuple[Player, ...], rng: random.Random, max_plies: int = 200
) -> str | None:
    """The winner (a side or "draw"); players in the order of ``start.sides``. A game still
    going after ``max_plies`` goes to the side with more material, or None (unfinished)."""
    state, sides = start, start.sides
    while state.outcome() is None and state.ply - start.ply < max_plies:
        state = state.apply(players[sides.index(state.to_move)](state, rng))
    outcome = state.outcome()
    if outcome:
        return outcome.winner
    material = state.material()
    ranked = sorted(material, key=material.__getitem__, reverse=True)
    return ranked[0] if len(ranked) > 1 and material[ranked[0]] > material[ranked[1]] else None


@dataclass(frozen=True)
class Duel:
    games: int
    wins: int
    losses: int
    unfinished: int  # draws and games stopped at the ply limit
    wins_beginning: int = 0  # wins in the games it began (half of them)
    beginner_won: int = 0  # games won by whichever player began (a game's bias to a seat)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def duel(
    new: Callable[[], GameState[Any]],
    first: Player,
    second: Player,
    games: int,
    seed: int = 0,
    max_plies: int = 200,
) -> Duel:
    """``games`` games of ``first`` against ``second``, ``first`` beginning every other one."""
    wins = losses = wins_beginning = beginner_won = 0
    for index in range(games):
        start = new()
        sides = start.sides
        mine = sides[index % 2]
        players = (first, second) if index % 2 == 0 else (second, first)
        winner = play(start, players, random.Random(seed * 1000 + index), max_plies)
        wins += winner == mine
        losses += winner in sides and winner != mine
        wins_beginning += winner == mine == sides[0]
        beginner_won += winner == sides[0]
    return Duel(games, wins, losses, games - wins - losses, wins_beginning, beginner_won)
