"""Short tactics, for games that find a win at once quickly (their search profile's
``win_check_cost``): forks, and the moves that leave the opponent none.

A fork is a move after which every reply leaves a win at once. A search ranks its moves;
:func:`pick` then plays a fork when there is one, else the best-ranked move after which the
opponent has neither a win at once nor a fork of its own. Each check stops at the first reply
that refutes it, trying first the reply that refuted the move before (a killer), so most moves
cost a few positions. Work is counted in positions made, like the searches' budgets.

>>> from engines import new_game
>>> state = new_game("antipode")
>>> budget = Budget(2000, check=1)
>>> fork(state, state.legal_moves(), budget) is None, 0 < budget.spent <= 2000
(True, True)
"""

from __future__ import annotations

from typing import Callable, Iterable

from engines.core import GameState
from engines.core.state import M, side_to_move


class Budget:
    """Positions a tactical check may still make; ``check``: what one ``winning_move`` call
    costs (the game's ``win_check_cost``); ``stop``: the caller's, which also ends it (the
    level's time limit)."""

    def __init__(self, limit: int, check: int, stop: Callable[[], bool] | None = None) -> None:
        self.limit, self.check, self.spent = limit, check, 0
        self.stop = stop

    def charge(self, positions: int) -> None:
        self.spent += positions

    @property
    def out(self) -> bool:
        return self.spent >= self.limit or (self.stop is not None and self.stop())


def to_front(moves: Iterable[M], first: M | None) -> list[M]:
    """``moves`` as a list with ``first`` put first, if it is among them (a killer, a best move).

    >>> to_front(["a", "b", "c"], "c"), to_front(["a", "b"], None)
    (['c', 'a', 'b'], ['a', 'b'])
    """
    moves = list(moves)
    if first is not None and first in moves:
        moves.remove(first)
        moves.insert(0, first)
    return moves


def _holds(after: GameState[M], side: str) -> bool:
    """Whether ``side`` has no win at once in ``after``, a position after the opponent's reply
    (the reply held, or won)."""
    outcome = after.outcome()
    if outcome is not None:
        return outcome.winner != side
    return after.to_move != side or after.winning_move() is None


def fork(state: GameState[M], moves: Iterable[M], budget: Budget, depth: int = 1) -> M | None:
    """The first of ``moves`` after which every reply leaves the mover a win at once (or, at a
    ``depth`` above 1, a fork of one less depth), or None (also when the budget runs out)."""
    side, killer = side_to_move(state), None
    for move in moves:
        if budget.out:
            return None
        child = state.apply(move)
        budget.charge(1)
        if child.to_move in (None, side):
            continue
        for reply in to_front(child.legal_moves(), killer):
            if budget.out:
                return None
            after = child.apply(reply)
            budget.charge(1 + budget.check)
            if _holds(after, side) and (
                depth == 1
                or after.outcome() is not None
                or fork(after, after.legal_moves(), budget, depth - 1) is None
            ):
                killer = reply
                break
        else:
            return move
    return None


def pick(state: GameState[M], ranked: list[M], budget: Budget) -> M:
    """A fork among ``ranked`` (two moves deep with half the budget left); else the first move
    that wins at once or after which the opponent can neither win at once nor fork; else the
    first after which it cannot win at once (looked for even when the budget has run out); else
    ``ranked[0]``."""
    found = fork(state, ranked, budget)
    if found is None:
        deep = Budget((budget.limit - budget.spent) // 2, budget.check, budget.stop)
        found = fork(state, ranked, deep, 2)
        budget.charge(deep.spent)
    if found is not None:
        return found
    side, fallback = state.to_move, None
    for move in ranked:
        if budget.out and fallback is not None:
            break
        child = state.apply(move)
        budget.charge(1 + budget.check)
        outcome = child.outcome()
        if child.to_move == side or (outcome is not None and outcome.winner == side):
            return move  # it moves again, or won (the searches play a win at once before this)
        if outcome is not None or child.winning_move() is not None:
            continue
        fallback = fallback or move
        if fork(child, child.legal_moves(), budget) is None and not budget.out:
            return move
    return fallback if fallback is not None else ranked[0]
