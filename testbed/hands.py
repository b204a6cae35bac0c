"""Hands that make board changes as players do, with noise: the changes of a move lifted and
placed in a random order (sometimes slid across other sites, sometimes held in the hand a
while), tokens turned over (lifted and set back), taps, hands hovering over empty sites and
neighbours bumped. Actions come in *segments*, timed from the segment's start; the player waits
for the board to settle after each segment (a real player waits for the lights).

>>> import random
>>> hand = Hand(random.Random(1), ["a1", "b1", "c1"], frozenset())
>>> seg = Segment()
>>> sorted(hand.change(seg, frozenset({"a1"}), frozenset({"b1"}), frozenset({"a1", "c1"})))
['b1', 'c1']
>>> [(a.kind, a.sites) for a in seg.actions]
[('lift', ('a1',)), ('place', ('b1',))]
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterable

from engines.core import FollowUp

#: Noise kinds a hand may add besides contact bounce (the simulated board's).
NOISE = ("slide", "hover", "bump", "pause")


@dataclass(frozen=True)
class Action:
    """At ``dt`` seconds into its segment: place | lift a site, slide along sites, hover over a
    site for ``length`` seconds, or press a button."""

    dt: float
    kind: str
    sites: tuple[str, ...] = ()
    length: float = 0.0
    button: str = ""


@dataclass
class Segment:
    """Actions made without waiting; the board settles after the last one."""

    actions: list[Action] = field(default_factory=list)
    t: float = 0.0  # the hand's clock within the segment

    def add(self, kind: str, *sites: str, gap: float = 0.0, **kw) -> None:
        self.t += gap
        self.actions.append(Action(self.t, kind, sites, **kw))

    @property
    def end(self) -> float:
        return max((a.dt + a.length for a in self.actions), default=0.0)


def do(action: Action, board) -> None:
    """Make ``action`` on ``board`` (anything with place, lift, hover, slide and press by site,
    e.g. :class:`testbed.board_under_test.BoardUnderTest`)."""
    if action.kind == "place":
        board.place(action.sites[0])
    elif action.kind == "lift":
        board.lift(action.sites[0])
    elif action.kind == "hover":
        board.hover(action.sites[0], action.length)
    elif action.kind == "slide":
        board.slide(action.sites, action.length / (len(action.sites) - 1))
    elif action.kind == "press":
        board.press(action.button)


class Hand:
    """A player's hand over ``sites`` with the noise ``kinds`` (from :data:`NOISE`), drawing
    from ``rng``."""

    def __init__(self, rng: random.Random, sites: Iterable[str], kinds: frozenset[str]) -> None:
        self.rng = rng
        self.sites = tuple(sites)
        self.kinds = kinds

    def change(self, seg: Segment, emptied, filled, board: frozenset[str]) -> frozenset[str]:
        """Lift ``emptied`` and place ``filled`` (one piece may be slid, a lifted piece may be
        held a while); the board after."""
        rng = self.rng
        lifts, places = sorted(emptied), sorted(filled)
        rng.shuffle(lifts)
        rng.shuffle(places)
        if "slide" in self.kinds and len(lifts) == len(places) == 1 and rng.random() < 0.6:
            via = rng.sample(self.sites, rng.randint(1, 3))
            path = (lifts[0], *[s for s in via if s not in (lifts[0], places[0])], places[0])
            step = rng.uniform(0.02, 0.06)
            seg.add("slide", *path, gap=rng.uniform(0.05, 0.3), length=step * (len(path) - 1))
            seg.t += step * len(path)
            return (board - emptied) | filled
        for site in lifts:
            seg.add("lift", site, gap=rng.uniform(0.03, 0.25))
        if lifts and "pause" in self.kinds and rng.random() < 0.3:
            seg.t += rng.uniform(0.4, 1.5)  # the piece held in the hand while the player thinks
        for site in places:
            seg.add("place", site, gap=rng.uniform(0.03, 0.25))
        return (board - emptied) | filled

    def step(self, seg: Segment, step: FollowUp, board: frozenset[str]) -> frozenset[str]:
        """A sensed follow-up (remove: lift its sites; twin: place them); the board after."""
        kind = "lift" if step.action == "remove" else "place"
        for site in sorted(step.sites):
            seg.add(kind, site, gap=self.rng.uniform(0.05, 0.25))
        return step.apply(board)

    def flip(self, seg: Segment, sites: Iterable[str], hold: tuple[float, float] = (0.1, 0.9)) -> None:
        """Each token lifted, turned over and set back (held ``hold`` seconds), in any order."""
        order = sorted(sites)
        self.rng.shuffle(order)
        for site in order:
            seg.add("lift", site, gap=self.rng.uniform(0.05, 0.3))
            seg.add("place", site, gap=self.rng.uniform(*hold))

    def tap(
        self, seg: Segment, site: str, board: frozenset[str], hold: tuple[float, float] = (0.08, 0.8)
    ) -> None:
        """Lift and set back a piece on ``site`` (or place and lift one on an empty site), held
        ``hold`` seconds."""
        first, second = ("lift", "place") if site in board else ("place", "lift")
        seg.add(first, site, gap=self.rng.uniform(0.1, 0.4))
        seg.add(second, site, gap=self.rng.uniform(*hold))

    def noise(self, seg: Segment, start: float, board, before, touched) -> None:
        """Hovers over empty sites and bumps of untouched pieces (lifted and falling back at
        once) while the hand moves, from ``start`` to the segment's end; never a piece the
        segment already moves (a token in the other hand cannot be bumped)."""
        rng = self.rng
        touched = set(touched).union(*(action.sites for action in seg.actions))
        end = max(seg.t, start + 0.1)
        if "hover" in self.kinds:
            empty = [s for s in self.sites if s not in board and s not in before and s not in touched]
            for site in rng.sample(empty, min(len(empty), rng.randint(0, 4))):
                hover = Action(rng.uniform(start, end), "hover", (site,), rng.uniform(0.005, 0.08))
                seg.actions.append(hover)
        if "bump" in self.kinds:
            still = sorted((board & before) - touched)
            for site in rng.sample(still, min(len(still), rng.randint(0, 2))):
                t = rng.uniform(start, end)
                back = t + rng.uniform(0.01, 0.15)
                seg.actions += [Action(t, "lift", (site,)), Action(back, "place", (site,))]
        seg.actions.sort(key=lambda a: a.dt)
