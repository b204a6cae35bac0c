"""Pondering: the computer thinking on the players' time.

After the computer moves, :func:`start` keeps what its search knows about the position that
follows (the players to move) and :meth:`Ponder.grow` goes on searching it in slices while
the players think. When they have moved, :meth:`Ponder.reply` answers from what was kept
where it can, else with the level's own search:

- an MCTS (Antipode, Antipod) grows the tree at the players' position, so it learns their
  likely moves and its answers to each. The players' move picks the subtree under it, and the
  answer is the level's search grown on that subtree: the level's budget on top of the visits
  pondering gave it. Any move the tree reached is a hit.
- alpha-beta (Antipalos, Anti-Grid, Phalanx) expects one move, the players' reply its own
  search found (else the best its level's search finds for the players), and searches its
  answer to it with ever larger budgets (the level's, twice that, ...). When the players play
  that move, the deepest finished answer is the reply, at once; any other move gets the
  level's search.

Like the rest of ``engines/``, no clocks or threads: ``stop`` (the caller's) ends a slice,
and ponder work is capped at :data:`TIMES` of the level's budget (a tree's memory grows with
it).

>>> from engines import new_game
>>> from engines.ai import choose
>>> state = new_game("antipod", size=4)
>>> choice = choose(state, 3, seed=1)
>>> ponder = start(state, choice, 3, seed=1)
>>> while ponder.grow(1000, lambda: False):
...     pass
>>> played = state.apply(choice.move)
>>> reply = ponder.reply(played, played.legal_moves()[0], seed=2)
>>> reply.tree.visits > choose(played.apply(played.legal_moves()[0]), 3, seed=2).tree.visits
True
"""

from __future__ import annotations

import random
from typing import Any, Callable

from engines.ai import SearchChoice, alphabeta, budget, choose, mcts
from engines.ai.profile import profile_of
from engines.core import GameState

#: Ponder work is capped at this many times the level's budget.
TIMES = 8


class Ponder:
    """What the computer keeps of its search over the players' turn at ``state`` (the position
    after its move, the players to move); ``level`` and ``seed`` are its own."""

    def __init__(
        self, state: GameState[Any], level: int, seed: int, tree: mcts.Node[Any] | None, expected: Any = None
    ) -> None:
        self.state, self.level, self.seed = state, level, seed
        self.profile = profile_of(state)
        self.budget = budget(state, level)
        self.rng = random.Random(seed)
        #: Work done pondering so far.
        self.spent = 0
        self.tree = tree
        if self.profile.search == "mcts" and tree is None:
            self.tree = mcts.Node(state, self.rng)
        #: Alpha-beta: the players' move it expects, and its answer (move, work) so far.
        self.expected: Any = expected
        self.answer: tuple[Any, int] | None = None

    def grow(self, work: int, stop: Callable[[], bool]) -> bool:
        """Ponder about ``work`` positions more (fewer if ``stop()``); False once pondering is
        done (the cap reached)."""
        if self.spent >= TIMES * self.budget:
            return False
        if self.tree is not None:
            scan = self.profile.scan_cost[self.level - 1]
            self.spent += mcts.grow(self.tree, work, self.rng, stop, scan)[1]
        else:
            self._deepen(stop)
        return self.spent < TIMES * self.budget

    def _deepen(self, stop: Callable[[], bool]) -> None:
        """Alpha-beta: find the expected move, then an answer to it with twice the work of the
        last (a search ``stop`` cut short is not kept)."""
        selective = self.level >= 5
        state, work = self.state, self.budget
        if self.expected is not None:
            state = self.state.apply(self.expected)
            work = 2 * (self.answer[1] if self.answer else self.budget // 2)
            if state.outcome() is not None or state.to_move == self.state.to_move:
                self.spent = TIMES * self.budget  # nothing to answer yet: done
                return
        try:
            move, _, made, _ = alphabeta.search(
                state, work, self.rng, stop, selective, self.profile, abandon=True
            )
        except alphabeta.OutOfBudget:
            self.spent += work // 4  # about what a stopped first iteration made
            return
        self.spent += made
        if stop():
            return  # cut short: not kept
        if self.expected is None:
            self.expected = move
        else:
            self.answer = (move, made)

    def reply(
        self, state: GameState[Any], move: Any, seed: int, stop: Callable[[], bool] | None = None
    ) -> SearchChoice:
        """The computer's move at ``state``, reached by the players' ``move`` from the kept
        position: from what pondering kept when it can, else the level's search (``stop``:
        the caller's, as for ``choose``)."""
        if self.tree is not None:
            kept = self.tree.children.get(move)
            if kept is not None and kept.state == state:
                return choose(state, self.level, seed, stop, tree=kept)
        elif move == self.expected and self.answer is not None:
            found, work = self.answer
            if work >= self.budget:
                return SearchChoice(found, self.level, alphabeta.COUNTS, 0, work)
        return choose(state, self.level, seed, stop)


def start(state: GameState[Any], choice: SearchChoice, level: int, seed: int) -> Ponder | None:
    """Pondering over the players' turn after the computer plays ``choice`` at ``state``
    (None where there is none: the game ends, or the computer moves again)."""
    after = state.apply(choice.move)
    if after.outcome() is not None or after.to_move in (None, state.to_move):
        return None
    tree = choice.tree.children.get(choice.move) if choice.tree is not None else None
    return Ponder(after, level, seed, tree, choice.reply)
