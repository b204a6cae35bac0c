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

import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from engines.core import FollowUp, GameState, IllegalMove, Realisation


@dataclass(frozen=True)
class Candidate:
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


def candidates(state: GameState, board: frozenset[str]) -> list[Candidate]:
    """Legal moves whose own-hand change (plus any sensed follow-ups done) leaves ``board``;
    one entry per distinct move."""
    expected = state.occupied()
    found: dict[str, Candidate] = {}
    for move, real, done in state.moves_for_change(expected - board, board - expected):
        found.setdefault(state.notation(move), Candidate(move, real, done))
    return list(found.values())


def offered(state: GameState) -> list[Candidate]:
    """Moves with no hand change at all that wait for a pick (offered as soon as a turn
    begins), e.g. a turn that only moves an unsensed pawn."""
    return [c for c in candidates(state, state.occupied()) if c.pick is not None]


def pick_sites(cands: Iterable[Candidate]) -> frozenset[str]:
    """The union of the sites the candidates' next picks choose among."""
    out: set[str] = set()
    for c in cands:
        out |= c.pick or frozenset()
    return frozenset(out)


def choose(cands: Sequence[Candidate], site: str) -> list[Candidate]:
    """The candidates a tap on ``site`` selects (those picking exactly it, if any), with the
    pick marked done."""
    hits = [c for c in cands if c.pick is not None and site in c.pick]
    exact = [c for c in hits if c.pick == {site}]
    return [Candidate(c.move, c.real, c.done + 1) for c in exact or hits]


def lifting(
    state: GameState, board: frozenset[str], targets: Callable[[str], frozenset[str]] | None = None
) -> bool:
    """True when ``board`` is the position with only pieces the side to move may move lifted:
    a move in progress, not a mistake. ``targets``: ``state.targets`` or a cache of it."""
    expected = state.occupied()
    lifted = expected - board
    targets = targets or state.targets
    return bool(lifted) and board <= expected and all(targets(s) for s in lifted)


def complete(
    state: GameState, board: frozenset[str], targets: Callable[[str], frozenset[str]]
) -> bool:
    """True when ``board`` can be judged without the full settle time: it shows exactly one
    legal move, needing no pick, and the moved piece cannot still be on its way: no other
    target of the sites it left lies next to where it stands and further from where it came
    (a placing from the hand has no way to go). ``targets``: ``state.targets`` or a cache.

    >>> from engines import new_game
    >>> state = new_game("antipalos", 12)
    >>> complete(state, frozenset({"B4*"}), state.targets), complete(state, frozenset(), state.targets)
    (True, False)
    """
    expected = state.occupied()
    left, now = expected - board, board - expected
    if not now:  # only lifted: a move in progress (a move that only empties waits in full)
        return False
    found = candidates(state, board)
    if len(found) != 1 or found[0].pick is not None:
        return False
    others = frozenset().union(*map(targets, left)) - now
    return not (others and _further_on(state, left, now, others))


def _further_on(state: GameState, left: frozenset[str], now: frozenset[str],
                others: frozenset[str]) -> bool:
    """True when one of ``others`` lies next to a site of ``now`` (within 1.5 times the
    distance from that site to its nearest other site) and further from ``left``: the way on."""
    places = {s.label: (s.x, s.y) for s in state.sites()}
    fx, fy = _centre(places, left)
    for label in now:
        x, y = places[label]
        gone = math.hypot(x - fx, y - fy)
        far = {other: math.hypot(ox - x, oy - y) for other, (ox, oy) in places.items()}
        step = min((d for d in far.values() if d > 1e-9), default=0.0)
        for site in others & far.keys():
            sx, sy = places[site]
            if far[site] <= 1.5 * step and math.hypot(sx - fx, sy - fy) > gone + 1e-9:
                return True
    return False


def _centre(places: dict[str, tuple[float, float]], sites: frozenset[str]) -> tuple[float, float]:
    points = [places[s] for s in sites]
    return (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))


def earlier(boards: Sequence[frozenset[str]], board: frozenset[str]) -> int | None:
    """The index of the most recent of ``boards`` (all but the last, the current position)
    equal to ``board``, or None."""
    for index in range(len(boards) - 2, -1, -1):
        if boards[index] == board:
            return index
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


def attempt_reason(state: GameState, emptied: frozenset[str], filled: frozenset[str]) -> str | None:
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
