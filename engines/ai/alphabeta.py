"""Alpha-beta (negamax) with iterative deepening on the game's evaluation.

Scores are from the side to move's point of view: ``GameState.evaluate`` (by default its
material minus the strongest opponent's; Antipalos: connection distances), with a bonus for
its mobility (the profile's ``mobility`` per move searched) one ply above the leaves. A game where a side
may move twice in a row (Anti-Grid's capture chains) is handled by negating only when the side
changes.
Children are made one at a time, the previous iteration's best move and the killer moves (those
that refuted a sibling) first, so cut-offs save the work of making the rest. An iteration the
budget cuts short still counts for the root moves it finished: the previous best is searched
first, so a move that beat it is better at the new depth (in the capture games levels 3 to 5
mostly finish two plies; levels 4 and 5 differ in how many root moves get a third). A
selective search (level 5) looks only at the moves the game finds worth searching
(``GameState.search_moves``: Antipalos), and so deeper.
"""

from __future__ import annotations

import random
from typing import Callable, Generic, Iterable, Iterator

from engines.ai.mcts import candidate_moves
from engines.ai.profile import SearchProfile, profile_of
from engines.ai.threats import to_front
from engines.core import DRAW, Draw, GameState, IllegalMove
from engines.core.state import M, side_to_move

COUNTS = "nodes"
WIN = 1_000_000.0
#: Most moves a node considers (drawn at random beyond: Antipalos Phase Two has thousands).
WIDTH = 300
#: Deepest iteration (a safety bound; budgets stop far earlier).
MAX_DEPTH = 12
#: Moves a node drawing its moves draws first (then twice as many, and so on).
FIRST_BATCH = 8


class OutOfBudget(Exception):
    """The search spent its budget inside an iteration."""


class Search(Generic[M]):
    """One search: the node count, the best move per position and the killer moves per depth."""

    def __init__(
        self,
        budget: int,
        rng: random.Random,
        stop: Callable[[], bool],
        selective: bool = False,
        *,
        mobility: float,
        abandon: bool = False,
    ) -> None:
        self.budget, self.rng, self.stop, self.selective = budget, rng, stop, selective
        self.mobility, self.abandon = mobility, abandon
        self.width = min(WIDTH, max(20, budget // 4))  # a small budget looks at fewer moves
        self.nodes = 0
        self.limited = False  # the first iteration always finishes: it is the fallback
        self.best: dict[GameState[M], M | None] = {}
        self.killers: dict[int, M] = {}
        self.root: GameState[M] | None = None
        self.found: M | None = None  # the best root move so far in the current iteration
        #: Set (pondering): per position (and depth) on the path of the search under way, its
        #: moves in the order they came and the values of those it finished, so an iteration cut
        #: short and started again goes on where it stopped (:class:`Replay`).
        self.orders: dict[tuple[GameState[M], int], Replay[M]] | None = None

    def ordered(self, state: GameState[M], depth: int) -> tuple[Iterable[M], int]:
        """The moves to search at ``state``, its best and the killer first, and how many a
        leaf's mobility counts; where there are more than a node lists, drawn as they are
        wanted (:meth:`drawn`)."""
        best, killer = self.best.get(state), self.killers.get(depth)
        if not self.selective and state.legal_count() > self.width:
            return self.drawn(state, best, killer), self.width
        moves = self.searched(state)
        if best is not None and best not in moves:  # its own best move, even if not drawn
            moves.append(best)
        for first in (killer, best):
            moves = to_front(moves, first)
        return moves, len(moves)

    def replayed(self, state: GameState[M], depth: int, alpha: float, beta: float) -> Replay[M]:
        """:meth:`ordered`, kept while ``state`` is searched: started again after a cut, the
        moves in the order they came, and the values of those it finished (an iteration started
        again meets its path's positions with the same windows; another window, none)."""
        assert self.orders is not None
        kept = self.orders.get((state, depth))
        if kept is None:
            kept = self.orders[state, depth] = Replay(*self.ordered(state, depth))
        if kept.window != (alpha, beta):  # reached again another way: values of its own
            kept.window, kept.values = (alpha, beta), []
        return kept

    def drawn(self, state: GameState[M], best: M | None, killer: M | None) -> Iterator[M]:
        """Its best move and the killer (where legal), then moves drawn at random in growing
        batches, ``width`` draws in all, repeats skipped: a node cut off after its first
        moves draws no more (Antipalos's nodes draw from hundreds or thousands)."""
        seen: set[M] = set()
        for first in (best, killer):
            if first is not None and first not in seen and (first == best or _legal(state, first)):
                seen.add(first)
                yield first
        drawn, batch = 0, FIRST_BATCH
        while drawn < self.width:
            batch = min(batch, self.width - drawn)
            for move in state.random_moves(self.rng, batch):
                if move not in seen:
                    seen.add(move)
                    yield move
            drawn, batch = drawn + batch, 2 * batch

    def searched(self, state: GameState[M]) -> list[M]:
        """The moves to search here: at a selective level those the game finds worth it (the
        choice costs about a position made), else :func:`~engines.ai.mcts.candidate_moves`."""
        if self.selective:
            moves = state.search_moves(self.rng, self.width)
            if moves is not None:
                self.nodes += 1
                return moves
        return candidate_moves(state, self.rng, self.width)

    def child(self, state: GameState[M], move: M) -> GameState[M]:
        self.nodes += 1
        if self.nodes & 31 == 0 and (self.limited or self.abandon) and self.stop():
            raise OutOfBudget
        if self.limited and self.nodes > self.budget:
            raise OutOfBudget
        return state.apply(move)

    def negamax(self, state: GameState[M], depth: int, alpha: float, beta: float) -> float:
        """The value of ``state`` (unfinished) for its side to move, searched ``depth`` plies."""
        side, came = side_to_move(state), None
        if self.orders is None:
            moves, count = self.ordered(state, depth)
        else:
            moves = came = self.replayed(state, depth, alpha, beta)
            count = came.count
        best_value, best_move = -2 * WIN, None
        for index, move in enumerate(moves):
            if came is not None and index < len(came.values):  # found before the iteration's cut
                value = came.values[index]
            else:
                value = self.value(state, move, side, depth, alpha, beta, count)
                if came is not None:
                    came.values.append(value)
            if value > best_value:
                best_value, best_move = value, move
                if state is self.root:
                    self.found = move
            alpha = max(alpha, value)
            if alpha >= beta:
                self.killers[depth] = move
                break
        self.best[state] = best_move
        if self.orders is not None:  # finished: its value is its parent's to keep
            del self.orders[state, depth]
        return best_value

    def value(
        self, state: GameState[M], move: M, side: str, depth: int, alpha: float, beta: float, count: int
    ) -> float:
        """The value of ``move`` at ``state`` for ``side`` (to move there), searched ``depth``
        plies with this window (``count``: the moves a leaf's mobility counts)."""
        child = self.child(state, move)
        outcome = child.outcome()
        if outcome is not None:
            return final(outcome.winner, side, depth)
        if depth == 1:
            return child.evaluate(side) + self.mobility * count
        if child.to_move == side:
            return self.negamax(child, depth - 1, alpha, beta)
        return -self.negamax(child, depth - 1, -beta, -alpha)


class Replay(Generic[M]):
    """A position's moves in the order they first came, however often they are gone through
    (a generator's drawn moves too, drawn once), and the values the first of them had with
    the ``window`` it was searched with."""

    def __init__(self, moves: Iterable[M], count: int) -> None:
        self.count, self.came, self.rest = count, list[M](), iter(moves)
        self.window: tuple[float, float] | None = None
        self.values: list[float] = []

    def __iter__(self) -> Iterator[M]:
        index = 0
        while index < len(self.came) or self._more():
            yield self.came[index]
            index += 1

    def _more(self) -> bool:
        """Whether one more move came (drawn from the rest)."""
        for move in self.rest:
            self.came.append(move)
            return True
        return False


def likeliest(
    state: GameState[M],
    budget: int,
    rng: random.Random,
    stop: Callable[[], bool],
    selective: bool,
    mobility: float,
    most: int,
) -> tuple[list[M] | None, int]:
    """The moves a search with ``budget`` looks at in ``state`` (unfinished), best first for
    the side to move at one ply (the first iteration's look): the moves a player is likeliest
    to play (None if ``stop()`` or ``most`` positions made ended the look first); and the
    positions made."""
    run: Search[M] = Search(budget, rng, stop, selective, mobility=mobility, abandon=True)
    run.limited, run.budget = True, most - 1  # the node that finds it spent is counted
    side, scored = side_to_move(state), []
    moves, _ = run.ordered(state, 1)
    try:
        for move in moves:
            child = run.child(state, move)
            outcome = child.outcome()
            scored.append(
                (final(outcome.winner, side, 1) if outcome is not None else child.evaluate(side), move)
            )
    except OutOfBudget:
        return None, run.nodes
    scored.sort(key=lambda pair: pair[0], reverse=True)  # stable: ties keep the drawn order
    return [move for _, move in scored], run.nodes


def _legal(state: GameState[M], move: M) -> bool:
    try:
        state.check(move)
    except IllegalMove:
        return False
    return True


def final(winner: str | Draw, side: str, depth: int) -> float:
    """A finished game's value for ``side``; sooner wins (more depth left) score higher."""
    if winner == DRAW:
        return 0.0
    return WIN + depth if winner == side else -WIN - depth


class Deepening(Generic[M]):
    """Iterative deepening at ``state`` that can go on where it stopped: :func:`search` runs
    one to its budget; pondering (``ponder.py``) deepens one over the players' turn and again
    with the level's budget once they play the move it answers. An iteration cut short counts
    for the root moves it finished. With ``keep`` (pondering) it goes on where it stopped when
    started again: each position of its path takes its moves in the order they came, and those
    it finished give the values they had, unsearched (:class:`Replay`), so the search cut in
    slices is the search in one go, less the few positions of the path made again."""

    def __init__(
        self,
        state: GameState[M],
        budget: int,
        rng: random.Random,
        selective: bool,
        mobility: float,
        keep: bool = False,
    ) -> None:
        self.state = state
        #: ``budget`` sets how many moves a node looks at (a small budget looks at fewer).
        self.run: Search[M] = Search(budget, rng, _never, selective, mobility=mobility)
        self.run.root = state
        if keep:  # pondering: an iteration cut short goes on where it stopped
            self.run.orders = {}
        self.depth = 0  # the deepest iteration finished
        self.move: M | None = None  # the best move so far
        self.done = False  # a win or loss found (or the deepest iteration): deeper tells nothing

    def deepen(self, budget: int, stop: Callable[[], bool], abandon: bool = False) -> int:
        """Iterations deeper until about ``budget`` more nodes are made, or ``stop()``; the
        nodes made. The first iteration always finishes unless ``abandon`` (pondering), when
        ``stop`` or the budget may end it too (and :attr:`move` stays None), and no more than
        ``budget`` nodes are made."""
        run, began = self.run, self.run.nodes
        # pondering: the node that finds the budget spent is counted, so one fewer before it
        run.budget, run.stop, run.abandon = began + budget - abandon, stop, abandon
        while not self.done:
            depth = self.depth + 1
            run.limited, run.found = depth > 1 or abandon, None
            try:
                value = run.negamax(self.state, depth, -2 * WIN, 2 * WIN)
            except OutOfBudget:
                if run.found is not None and self.move is not None:  # searched first, and beaten
                    self.move = run.best[self.state] = run.found
                break
            self.depth, self.move = depth, run.best[self.state]
            self.done = abs(value) >= WIN or depth == MAX_DEPTH
        return run.nodes - began

    def reply(self) -> M | None:
        """The opponent's best reply to :attr:`move` as the search found it (None: it looked
        no deeper, or the move ends the game or moves the same side again)."""
        assert self.move is not None
        after = self.state.apply(self.move)
        return self.run.best.get(after) if after.to_move not in (None, self.state.to_move) else None


def _never() -> bool:
    return False


def search(
    state: GameState[M],
    budget: int,
    rng: random.Random,
    stop: Callable[[], bool],
    selective: bool = False,
    profile: SearchProfile | None = None,
) -> tuple[M, int, int, M | None]:
    """(move, nodes, positions made, reply): the best move of the deepest iteration, counting
    the root moves a cut-short one finished (``selective``: on the moves the game finds worth
    searching; ``profile``: the game's own unless given), and the opponent's best reply to it
    as the search found it (:meth:`Deepening.reply`)."""
    if state.legal_count() == 1:  # counted, not listed: Antipalos lists thousands
        return state.legal_moves()[0], 0, 0, None
    mobility = (profile or profile_of(state)).mobility
    deep = Deepening(state, budget, rng, selective, mobility)
    made = deep.deepen(budget, stop)
    assert deep.move is not None  # the first iteration searched at least one move
    return deep.move, made, made, deep.reply()
