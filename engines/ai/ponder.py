"""Pondering: the computer thinking on the players' time.

After the computer moves, :func:`start` keeps what its search knows about the position that
follows (the players to move) and :meth:`Ponder.grow` goes on searching it in slices while
the players think. When they have moved, :meth:`Ponder.reply` answers from what was kept
where it can, else with the level's own search:

- an MCTS (Antipode, Antipod) grows the tree at the players' position, so it learns their
  likely moves and its answers to each. The players' move picks the subtree under it, and the
  answer is the level's search grown on that subtree: the level's budget on top of the visits
  pondering gave it. Any move the tree reached is a hit.
- alpha-beta (Antipalos, Anti-Grid, Phalanx) answers the players' likeliest replies
  (``alphabeta.Deepening``): first the one its own search expected (played on 36-40 % of
  moves), deepened to :data:`FIRST` of the cap, then the best for them at one ply, taking
  turns a level's work at a time with what is left (as many as it has a level's work for).
  When the players play one of them, the answer's search goes on from where pondering left
  it with the level's budget: deeper than the level's own search. Any other move gets the
  level's search.

Either way a move's own work is the level's budget: pondering adds to it, never replaces it
(bench/ponder.py measures what that is worth at equal time).

Like the rest of ``engines/``, no clocks or threads: ``stop`` (the caller's) ends a slice,
a slice makes no more positions than asked, and ponder work is capped at :data:`TIMES` the
work of a level's move (a tree's memory grows with it).

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
from dataclasses import replace
from itertools import islice
from typing import Any, Callable

from engines.ai import SELECTIVE, SearchChoice, alphabeta, budget, choose, mcts
from engines.ai.profile import profile_of
from engines.core import GameState

#: Ponder work is capped at this many times the work of a level's move, by level: a tree's or
#: a table's memory grows with it (bench/ponder.py --memory: 8 of level 5's moves keep up to
#: 35 MB more in the worker, 16 of level 3's up to 17 MB).
TIMES = (16, 16, 16, 8, 8)
#: Alpha-beta's pondering looks at as many moves a node as a search of this many times the
#: level's budget (a small budget looks at fewer): a pondered answer has at least that much work.
WIDER = 2
#: Alpha-beta: the share of the cap the answer to the expected reply is deepened to before any
#: other reply is answered. Half the cap, the other half a level's work each to the next
#: likeliest, scored 0.780 over 100 games at level 3 in Phalanx where turns of a level's work
#: each for all scored 0.495 (docs/performance.md "Thirteenth round"; ``bench/ponder.py
#: --expected``).
FIRST = 0.5


class Ponder:
    """What the computer keeps of its search over the players' turn at ``state`` (the position
    after its move, the players to move); ``level`` and ``seed`` are its own, ``work`` its
    budget a move when not the level's (bench/ponder.py)."""

    def __init__(
        self,
        state: GameState[Any],
        level: int,
        seed: int,
        tree: mcts.Node[Any] | None,
        expected: Any = None,
        work: int | None = None,
    ) -> None:
        self.state, self.level, self.seed, self.work = state, level, seed, work
        self.profile = profile_of(state)
        self.selective = level >= SELECTIVE
        self.budget = budget(state, level) if work is None else work
        move = mcts.move_work(self.budget, self.profile) if self.profile.search == "mcts" else self.budget
        #: Ponder work at most: TIMES a level's move, its work counted as the move counts it
        #: (an MCTS's tactics after the tree too: Antipode's).
        self.cap = TIMES[level - 1] * move
        #: The least work a slice should ask: alpha-beta's a level's (a shorter one cuts an
        #: iteration short, to be started again), a tree's any.
        self.least = 1 if self.profile.search == "mcts" else self.budget
        self.rng = random.Random(seed)
        #: Work done pondering so far.
        self.spent = 0
        self.tree = tree
        if self.profile.search == "mcts" and tree is None:
            self.tree = mcts.Node(state, self.rng)
        #: Alpha-beta: the players' replies it answers, likeliest first (the one the computer's
        #: own search expected, then the best at one ply from their side): the first and one
        #: for each level's work the rest of the cap allows; and its answers.
        self.expected: Any = expected
        self.replies: list[Any] | None = None
        self.answers: dict[Any, alphabeta.Deepening[Any]] = {}

    def grow(self, work: int, stop: Callable[[], bool]) -> bool:
        """Ponder ``work`` positions more at most, never past the cap (fewer if ``stop()``;
        alpha-beta: a level's work at most, :attr:`least` at least to be of use, and a tree's
        last playout may pass them); False once pondering is done (the cap reached, or
        alpha-beta's answers each found a win or loss)."""
        if self.spent >= self.cap:
            return False
        work = min(work, self.cap - self.spent)
        if self.tree is not None:
            scan = self.profile.scan_cost[self.level - 1]
            self.spent += mcts.grow(self.tree, work, self.rng, stop, scan)[1]
            return self.spent < self.cap
        self.spent += self._deepen(min(work, self.budget), stop)
        return self.spent < self.cap and (self.replies is None or self._next() is not None)

    def _deepen(self, work: int, stop: Callable[[], bool]) -> int:
        """Alpha-beta: rank the players' replies (:attr:`replies`), then deepen the answer to
        the one whose answer has had least (the likeliest first: they take turns) by ``work``
        positions at most; the work done."""
        if self.replies is None:
            ranked, made = alphabeta.likeliest(
                self.state, WIDER * self.budget, self.rng, stop, self.selective, self.profile.mobility, work
            )
            if ranked is None:  # stopped: looked at again next slice
                return made
            first = [self.expected] if self.expected is not None else []
            answerable = filter(self._answerable, dict.fromkeys(first + ranked))
            others = round((1 - FIRST) * TIMES[self.level - 1])
            self.replies = list(islice(answerable, 1 + others))
            return made
        move = self._next()
        if move is None:
            return 0
        answer = self.answers.get(move)
        if answer is None:
            answer = self.answers[move] = self._deepening(self.state.apply(move))
        # a slice that ends inside an iteration: the next goes on where it stopped
        return answer.deepen(work, stop, abandon=True)

    def _answerable(self, move: Any) -> bool:
        """Whether the players' ``move`` leaves the computer to move (not over, not theirs again)."""
        after = self.state.apply(move)
        return after.outcome() is None and after.to_move != self.state.to_move

    def _deepening(self, state: GameState[Any]) -> alphabeta.Deepening[Any]:
        wide = WIDER * self.budget
        return alphabeta.Deepening(state, wide, self.rng, self.selective, self.profile.mobility, keep=True)

    def _next(self) -> Any:
        """The reply whose answer pondering deepens next (None: every answer is done): the
        first (expected) until its answer has :data:`FIRST` of the cap, then the one whose
        answer has had least."""
        open_ = [m for m in self.replies or () if not (m in self.answers and self.answers[m].done)]
        nodes = {m: self.answers[m].run.nodes if m in self.answers else 0 for m in open_}
        first = self.replies[0] if self.replies else None
        if first in nodes and nodes[first] < FIRST * self.cap:  # still open, short of its share
            return first
        return min(open_, key=nodes.__getitem__, default=None)

    def kept(self, state: GameState[Any], move: Any) -> bool:
        """Whether pondering answered the players' ``move`` (reaching ``state``): a hit, which
        :meth:`reply` answers from what it kept."""
        if self.tree is not None:
            child = self.tree.children.get(move)
            return child is not None and child.state == state
        return move in self.answers and self.answers[move].state == state

    def reply(
        self, state: GameState[Any], move: Any, seed: int, stop: Callable[[], bool] | None = None
    ) -> SearchChoice:
        """The computer's move at ``state``, reached by the players' ``move`` from the kept
        position: what pondering kept searched on with the level's budget when it can, else the
        level's search (``stop``: the caller's, as for ``choose``). ``pondered`` says what the
        answer had from pondering (a tree's visits, alpha-beta's nodes)."""
        if not self.kept(state, move):
            return choose(state, self.level, seed, stop, self.work)
        if self.tree is not None:
            kept = self.tree.children[move]
            visits = kept.visits
            choice = choose(state, self.level, seed, stop, self.work, tree=kept)
            return replace(choice, pondered=visits)
        deep, before = self.answers[move], self.answers[move].run.nodes
        made = deep.deepen(self.budget, stop or (lambda: False))
        kind = alphabeta.COUNTS
        return SearchChoice(deep.move, self.level, kind, made, made, reply=deep.reply(), pondered=before)


def start(
    state: GameState[Any], choice: SearchChoice, level: int, seed: int, work: int | None = None
) -> Ponder | None:
    """Pondering over the players' turn after the computer plays ``choice`` at ``state``
    (None where there is none: the game ends, or the computer moves again); ``work``: its
    budget a move when not the level's."""
    after = state.apply(choice.move)
    if after.outcome() is not None or after.to_move in (None, state.to_move):
        return None
    tree = choice.tree.children.get(choice.move) if choice.tree is not None else None
    return Ponder(after, level, seed, tree, choice.reply, work)
