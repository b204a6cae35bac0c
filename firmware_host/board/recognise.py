"""What a settled board means, asked of the engine through the physical contract only.

Sites are labels; a board is the frozenset of occupied labels. Nothing here knows a game.

>>> from engines import new_game
>>> state = new_game("antipalos", 12)
>>> [str(c.move) for c in candidates(state, frozenset({"B4*"}))]
['B4*']
>>> attempt_reason(state.play("B4*"), frozenset(), frozenset({"*B4"}))
'B4 already holds a Trirod'
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Callable, NamedTuple, Sequence

from engines.core import FollowUp, GameState, IllegalMove, Realisation


class Candidate(NamedTuple):
    """A legal move explaining the board: its realisation and how many follow-ups are done."""

    move: Any
    real: Realisation
    done: int = 0

    @property
    def next_step(self) -> FollowUp | None:
        steps = self.real.follow_ups
        return steps[self.done] if self.done < len(steps) else None

    @property
    def pick(self) -> frozenset[str] | None:
        """The sites of the pick this move waits for next, or None."""
        step = self.next_step
        return step.sites if step is not None and step.action == "pick" else None


def candidates(state: GameState[Any], board: frozenset[str]) -> list[Candidate]:
    """Legal moves whose own-hand change (plus any sensed follow-ups done) leaves ``board``;
    one entry per distinct move."""
    expected = state.occupied()
    found: dict[str, Candidate] = {}
    for move, real, done in state.moves_for_change(expected - board, board - expected):
        found.setdefault(state.notation(move), Candidate(move, real, done))
    return list(found.values())


def offered(state: GameState[Any]) -> list[Candidate]:
    """Moves with no hand change at all that wait for a pick (offered as soon as a turn
    begins), e.g. a turn that only moves an unsensed pawn."""
    return [c for c in candidates(state, state.occupied()) if c.pick is not None]


def choose(cands: Sequence[Candidate], site: str) -> list[Candidate]:
    """The candidates a tap on ``site`` selects (those picking exactly it, if any), with the
    pick marked done."""
    hits = [c for c in cands if c.pick is not None and site in c.pick]
    exact = [c for c in hits if c.pick == frozenset({site})]
    return [Candidate(c.move, c.real, c.done + 1) for c in exact or hits]


Captures = tuple[tuple[frozenset[str], frozenset[str]], ...]


def lifting(
    state: GameState[Any],
    board: frozenset[str],
    targets: Callable[[str], frozenset[str]] | None = None,
    captures: Callable[[], Captures] = tuple,
) -> bool:
    """True when ``board`` is the position with only pieces the side to move may move lifted
    (and, beside them, pieces a move of theirs captures, taken off first by the other hand:
    ``captures`` gives the moves as :func:`captures` does, asked only then): a move in
    progress, not a mistake. ``targets``: ``state.targets`` or a cache of it.

    >>> from engines import new_game
    >>> state = new_game("anti-grid", 6).play("a9-c9").play("l2-e2")
    >>> board = state.occupied() - {"a3", "e2"}  # a3 lifted, with the pawn it takes on e3
    >>> lifting(state, board), lifting(state, board, captures=lambda: captures(state))
    (False, True)
    """
    expected = state.occupied()
    lifted = expected - board
    targets = targets or state.targets
    movers = frozenset(s for s in lifted if targets(s))
    taken = lifted - movers
    if not movers or not board <= expected:
        return False
    return not taken or any(emptied & movers and taken <= removed for emptied, removed in captures())


def captures(state: GameState[Any]) -> Captures:
    """The legal moves that take pieces off: (the sites each empties, the sites it removes).

    >>> from engines import new_game
    >>> captures(new_game("anti-grid", 6).play("a9-c9").play("l2-e2"))
    ((frozenset({'a3'}), frozenset({'e2'})),)
    """
    return tuple((emptied, removed) for _, emptied, removed in state.taking_moves())


def touchable(state: GameState[Any]) -> frozenset[str]:
    """The sites a legal move of ``state`` asks to turn over or tap (Antipode's tokens): a
    token lifted from one before the move shows may be a flip or a tap under way.

    >>> from engines import new_game
    >>> sorted(touchable(new_game("antipode")))[:3], touchable(new_game("antipalos", 3))
    (['a1', 'b1', 'c1'], frozenset())
    """
    out: set[str] = set()
    for move in state.legal_moves():
        for real in state.realisations(move):
            out.update(*(s.sites for s in real.follow_ups if s.action in ("flip", "pick")))
    return frozenset(out)


def complete(state: GameState[Any], board: frozenset[str]) -> bool:
    """True when ``board`` can be judged without the full settle time: it shows exactly one
    legal move that puts a piece down (or the removal that is the whole turn), or several
    whose steps the players are still to make (Antipode's landings: a choice is offered, its
    flips lit). A piece that only paused on its way is corrected when it moves on (the
    controller's correction of the last move); a choice is dropped.

    >>> from engines import new_game
    >>> state = new_game("antipalos", 12)
    >>> complete(state, frozenset({"B4*"})), complete(state, frozenset())
    (True, False)
    >>> start = new_game("antipode")
    >>> complete(start, start.occupied() | {"b1"})  # b1:a1 or b1:b1, their flips to come
    True
    """
    if board <= state.occupied() and state.due() is None:  # only lifted: a move in progress
        return False
    cands = candidates(state, board)
    return len(cands) == 1 or (len(cands) > 1 and all(c.next_step is not None for c in cands))


def landing(state: GameState[Any], board: frozenset[str]) -> bool:
    """True when ``board`` shows a piece lifted from a site and set down on the one site where
    it can land (``targets``): nothing else can be meant (a hand hovering there would carry the
    very piece that must land there), so only its contact bounce need be waited for. Asked of a
    :func:`complete` board.

    >>> from engines import new_game
    >>> state = new_game("anti-grid", 6)
    >>> for move in ["e1-e9", "f12-f9", "a11-k11", "l2-c2"]:
    ...     state = state.play(move)
    >>> state.targets("c1"), landing(state, (state.occupied() - {"c1"}) | {"e1"})
    (frozenset({'e1'}), True)
    >>> landing(state, (state.occupied() - {"e9"}) | {"e8"})  # e9's pawn has other landings
    False
    """
    emptied, filled = state.occupied() - board, board - state.occupied()
    return len(emptied) == 1 and len(filled) == 1 and state.targets(min(emptied)) == filled


def nearest(state: GameState[Any], board: frozenset[str], limit: int = 2) -> frozenset[str] | None:
    """The board of a legal move that ``board`` reaches with fewer changes than it takes to
    get back to the position (at most ``limit``), e.g. a placement with a neighbour knocked
    off: the players are guided there rather than told to undo their move. None when there is
    none, or more than one.

    >>> from engines import new_game
    >>> state = new_game("antipalos", 5).play("B2*")
    >>> sorted(nearest(state, (state.occupied() - {"B2*"}) | {"C3*"}))  # C3* placed, B2* knocked off
    ['B2*', 'C3*']
    """
    diff = sorted(state.occupied() ^ board)
    for k in range(1, min(limit, len(diff) - 1) + 1):
        aims = {aim for sites in combinations(diff, k) if candidates(state, aim := board ^ frozenset(sites))}
        if aims:
            return aims.pop() if len(aims) == 1 else None
    return None


def attempt_texts(emptied: frozenset[str], filled: frozenset[str]) -> list[str]:
    """Notations a diff would have if it were an attempted placement or from-to move."""
    if len(filled) != 1 or len(emptied) > 1:
        return []
    (to,) = filled
    if not emptied:
        return [to]
    (src,) = emptied
    return [f"{src}-{to}", f"{src} - {to}"]


def attempt_reason(state: GameState[Any], emptied: frozenset[str], filled: frozenset[str]) -> str | None:
    """The engine's reason why the move this diff looks like is illegal, when it looks like one."""
    reason = state.refusal(emptied, filled)
    if reason:
        return reason
    for text in attempt_texts(emptied, filled):
        try:
            move = state.parse_move(text)
        except IllegalMove:
            continue
        try:
            state.check(move)
        except IllegalMove as exc:
            return exc.reason
        return None
    return None
