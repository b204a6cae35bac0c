"""A move in progress and its pending steps: what each step kind is lit with, how it is worded,
and how the sensors see it done. Nothing here knows a game; the steps come from the physical
contract (``engines/core/contract.py``).

Step kinds (:data:`STEPS`): ``remove`` and ``twin`` are seen as sites emptying / filling; a
``flip`` is seen as each lit token lifted and set back (:class:`Touches`), or on boards with
polarity sensors as the faces the game expects; a ``pick`` is a tap on one of its sites.

>>> STEPS["flip"].words(2)
'Flip the 2 lit tokens'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from engines.core import FollowUp, GameState, Realisation
from firmware_host import recognise
from firmware_host.recognise import Candidate
from hardware.base import Led

# What the LEDs show. "Take this off" is red, "put one here" is amber or blue.
LIGHTS = {
    "target": Led((0, 255, 0), "steady"),
    "remove": Led((255, 0, 0), "fast"),
    "twin": Led((0, 80, 255), "slow"),
    "pick": Led((255, 160, 0), "slow"),
    "picked": Led((255, 160, 0), "fast"),
    "flip": Led((0, 255, 255), "slow"),
    "marker": Led((160, 0, 255), "steady"),
    "empty": Led((255, 0, 255), "slow"),
    "fill": Led((0, 255, 0), "pulse"),
    "missing": Led((255, 120, 0), "pulse"),
    "extra": Led((255, 0, 0), "fast"),
    "win": Led((255, 255, 255), "pulse"),
    "hint": Led((255, 255, 0), "slow"),
}


@dataclass(frozen=True)
class StepKind:
    """How a step kind is lit and worded (for one site, for ``n`` sites)."""

    light: str
    one: str
    several: str

    def words(self, n: int) -> str:
        return self.one if n == 1 else self.several.format(n=n)


STEPS = {
    "remove": StepKind("remove", "Remove the lit piece", "Remove the {n} lit pieces"),
    "twin": StepKind("twin", "Place the twin on the lit site", "Place the twins on the {n} lit sites"),
    "flip": StepKind("flip", "Flip the lit token", "Flip the {n} lit tokens"),
    "pick": StepKind("pick", "Tap the lit site", "Tap one of the {n} lit sites"),
    "carry": StepKind("empty", "Move the unseen piece off the lit site",
                      "Move the unseen pieces off the lit sites"),
}


def words(step: FollowUp, n: int) -> str:
    """What the players are asked to do for ``step`` with ``n`` sites left."""
    return step.prompt or STEPS[step.action].words(n)


@dataclass
class Touches:
    """Lift-and-replace tracking: a site is done once it was seen lifted, then set back on a
    settled board (a token brushing its switch mid-flip is not yet set back).

    >>> t = Touches(frozenset({"a1", "b1"}))
    >>> t.see(frozenset({"b1"})), t.see(frozenset({"a1", "b1"})), sorted(t.left)
    (False, False, ['a1', 'b1'])
    >>> t.see(frozenset({"a1", "b1"}), settled=True), sorted(t.left)
    (True, ['b1'])
    """

    sites: frozenset[str]
    lifted: set[str] = field(default_factory=set)
    done: set[str] = field(default_factory=set)

    def see(self, board: frozenset[str], settled: bool = False) -> bool:
        """Take a debounced board (``settled``: the board has settled); True when a site
        became done."""
        before = len(self.done)
        for site in self.sites - self.done:
            if site not in board:
                self.lifted.add(site)
            elif site in self.lifted and settled:
                self.done.add(site)
        return len(self.done) > before

    @property
    def left(self) -> frozenset[str]:
        return self.sites - self.done


def taps_in(toggles: dict[str, float], changed: frozenset[str], now: float, tap_ms: float) -> frozenset[str]:
    """Sites set back within ``tap_ms`` of being lifted (or lifted again after a placing);
    ``toggles`` holds when each site last changed and is updated.

    >>> toggles = {}
    >>> taps_in(toggles, frozenset({"a1"}), 0, 1500), taps_in(toggles, frozenset({"a1"}), 300, 1500)
    (frozenset(), frozenset({'a1'}))
    """
    taps = set()
    for site in changed:
        began = toggles.pop(site, None)
        if began is not None and now - began <= tap_ms:
            taps.add(site)
        else:
            toggles[site] = now
    return frozenset(taps)


def undo_steps(played: GameState, back: GameState) -> tuple[FollowUp, ...]:
    """What a takeback from ``played`` to ``back`` must undo that no occupancy shows: the
    tokens to turn back (faces that differ on sites both positions hold) and the unseen pieces
    to carry back (:meth:`GameState.markers`).

    >>> from engines import new_game
    >>> back = new_game("antipode"); played = back.play(str(back.legal_moves()[0]))
    >>> [(s.action, sorted(s.sites), s.prompt) for s in undo_steps(played, back)]
    [('flip', ['a1'], ''), ('carry', ['a1'], 'Blue pawn: a1 back to e1')]
    """
    was, now = played.faces(), back.faces()
    turned = frozenset(site for site, face in now.items() if was.get(site, face) != face)
    steps = [FollowUp("flip", turned)] if turned else []
    stood = {side: site for site, side in played.markers().items()}
    for site, side in back.markers().items():
        if stood.get(side, site) != site:
            steps.append(FollowUp("carry", frozenset({stood[side]}),
                                  f"{side.capitalize()} {back.UNSEEN}: {stood[side]} back to {site}"))
    return tuple(steps)


def touches_for(step: FollowUp | None) -> Touches | None:
    """The lift tracking a step needs (flips only)."""
    return Touches(step.sites) if step is not None and step.action == "flip" else None


@dataclass
class Turn:
    """An accepted move whose follow-ups are running: ``step`` of them are done; ``touches``
    tracks the current flip."""

    cand: Candidate
    before: frozenset[str]
    step: int
    side: str | None = None
    announced: int = -1
    touches: Touches | None = None

    @property
    def steps(self) -> tuple[FollowUp, ...]:
        return self.cand.real.follow_ups

    @property
    def current(self) -> FollowUp | None:
        return self.steps[self.step] if self.step < len(self.steps) else None

    def board(self, step: int | None = None) -> frozenset[str]:
        """The occupancy once ``step`` (default: the done) follow-ups are done."""
        return self.cand.real.board_after(self.before, self.step if step is None else step)

    def sensed_run(self) -> range:
        """The steps the sensors alone can carry the turn to from here."""
        end = self.step
        while end < len(self.steps) and self.steps[end].sensed:
            end += 1
        return range(self.step, end + 1)

    def only_unsensed_left(self) -> bool:
        """True when no remaining step changes what the sensors see (flips, picks)."""
        return all(not s.sensed for s in self.steps[self.step :])

    def last_flip(self) -> bool:
        """True when the current step is the move's last flip (polarity checks final faces)."""
        return all(s.action != "flip" for s in self.steps[self.step + 1 :])

    def left(self, board: frozenset[str]) -> frozenset[str]:
        """The sites the current step still needs: for a sensed step those the board does not
        show done yet (FollowUp.apply says what done is), for a flip those not yet lifted."""
        step = self.current
        if step is None:
            return frozenset()
        if step.sensed:
            return step.apply(board) ^ board
        touches = self.touches
        return touches.left if touches is not None and touches.sites == step.sites else step.sites

    def step_done(self, board: frozenset[str], faces_shown: Callable[[frozenset[str]], bool] | None) -> bool:
        """True when the current step is done; ``faces_shown``: a polarity board's face check,
        which decides the move's last flip."""
        step = self.current
        if step.sensed:
            return not self.left(board)
        if faces_shown is not None and self.last_flip():
            return faces_shown(step.sites)
        return self.announced == self.step and not self.left(board)

    def announce(self) -> bool:
        """Start tracking the current step; True the first time for it."""
        if self.announced == self.step:
            return False
        self.announced = self.step
        self.touches = touches_for(self.current)
        return True


@dataclass
class Sync:
    """The board differs from the game: what the players were told at the settle. ``aim``:
    the board of a legal move that fewer changes reach (a piece knocked off while moving),
    else None (the position itself).

    >>> Sync(frozenset({"c1"}), frozenset(), aim=frozenset({"c1", "c2"})).words()
    'Put c1 back'
    >>> Sync(frozenset({"c1"}), frozenset({"d4", "e5"})).words()
    'Board differs: put back 1, take off 2'
    """

    missing: frozenset[str]
    extra: frozenset[str]
    reason: str | None = None
    aim: frozenset[str] | None = None

    def words(self) -> str:
        """The engine's reason, the pieces to fix to reach ``aim``, else how many to put back
        and take off."""
        if self.reason:
            return self.reason
        if self.aim is not None:
            parts = [f"put {', '.join(sorted(self.missing))} back"] if self.missing else []
            parts += [f"take {', '.join(sorted(self.extra))} off"] if self.extra else []
            text = ", ".join(parts)
            return text[0].upper() + text[1:]
        parts = [f"put back {len(self.missing)}"] if self.missing else []
        parts += [f"take off {len(self.extra)}"] if self.extra else []
        return "Board differs: " + ", ".join(parts)


@dataclass
class Choice:
    """Several moves explain the board. Steps they all share before the pick (flips) run first;
    then a tap on a pick site or the buttons choose."""

    cands: list[Candidate]
    board: frozenset[str]
    highlight: int = 0
    touches: Touches | None = None
    #: Taps count once the board has settled since the shared step ended (a token's bounce as it
    #: is set back is no tap).
    armed: bool = True

    def __post_init__(self) -> None:
        self.touches = touches_for(self.shared)

    @property
    def shared(self) -> FollowUp | None:
        """The next step when every candidate has the same one and it is a flip."""
        steps = {c.next_step for c in self.cands}
        if len(steps) != 1:
            return None
        (step,) = steps
        return step if step is not None and step.action == "flip" else None

    def advance(self) -> None:
        """The shared step is done."""
        self.cands = [Candidate(c.move, c.real, c.done + 1) for c in self.cands]
        self.touches = touches_for(self.shared)
        self.armed = False

    @property
    def sites(self) -> frozenset[str]:
        """The sites lit now: the shared step's or the picks'."""
        shared = self.shared
        return shared.sites if shared is not None else recognise.pick_sites(self.cands)

    @property
    def action(self) -> str:
        shared = self.shared
        return shared.action if shared is not None else "pick"

    def lights(self) -> dict[str, str]:
        """Site -> light kind: the shared flip's tokens left, else the picks (the shown one fast)."""
        if self.touches is not None:
            return dict.fromkeys(self.touches.left, "flip")
        lit = dict.fromkeys(self.sites, "pick")
        lit.update(dict.fromkeys(self.cands[self.highlight].pick or (), "picked"))
        return lit

    def instruction(self, notation: Callable[[object], str]) -> str:
        if self.touches is not None:
            return STEPS["flip"].words(len(self.touches.left))
        cand = self.cands[self.highlight]
        step = cand.next_step
        prompt = step.prompt if step is not None and step.prompt else "Tap a lit site"
        return f"{prompt}, or BACK/OK: {notation(cand.move)}"


@dataclass
class Pending:
    """A move chosen elsewhere (a computer, a remote board) that the players carry out: the
    sites to empty and to fill are lit, ``say`` is shown, and only a board that shows it counts.

    >>> from engines.core import Realisation
    >>> p = Pending(None, "B2*", Realisation(frozenset(), frozenset({"B2*"})), "Computer plays B2*")
    >>> p.done(frozenset(), frozenset({"B2*"})), p.done(frozenset(), frozenset())
    (0, None)
    >>> p.stray(frozenset(), frozenset({"A1*"}))
    (frozenset(), frozenset({'A1*'}))
    """

    move: object
    text: str
    real: Realisation
    say: str

    def done(self, before: frozenset[str], board: frozenset[str]) -> int | None:
        """How many sensed follow-ups are done when ``board`` shows the move (None: it does not)."""
        return self.real.reaches(before, board)

    def lights(self, board: frozenset[str]) -> dict[str, str]:
        """Site -> light kind: the sites still to empty and to fill."""
        return {**dict.fromkeys(self.real.emptied & board, "empty"),
                **dict.fromkeys(self.real.filled - board, "fill")}

    def stray(self, before: frozenset[str], board: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
        """(missing, extra): the changes that are no part of the move (both empty: in progress)."""
        after = self.real.board_after(before)
        return (before & after) - board, board - (before | after)
