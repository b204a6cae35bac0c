"""The pieces to make for a game at a pitch: their kinds, counts, sizes and magnets, from the
engine's piece sets (``state.piece_sets()``) and where the plan puts each site's switch; and
whether a magnet comes near enough to another site's switch to close it.

>>> import engines
>>> state = engines.new_game("antipalos", 12, None)
>>> plan = BoardPlan(state.sites(), pitch=30)
>>> [p.line() for p in pieces(state.piece_sets(), plan, {s.label: s for s in state.sites()})]
... # doctest: +NORMALIZE_WHITESPACE
['18 x trirod, white and black (36 in all): a rod 40 mm long, 2 magnets each,
  a quarter of its length from either end (it lies either way round)']
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engines.core.contract import Site
from engines.core.drawing import PieceSet
from firmware_host.plan.board import OFF_CENTRE, BoardPlan
from hardware.wiring import MAGNET_REACH

#: How much smaller than its sites' outline a piece is cut, on every side (mm).
CLEARANCE = 1.0


@dataclass(frozen=True)
class Pieces:
    """One line of the pieces to make."""

    kind: str
    count: int
    sides: tuple[str, ...]
    size: str
    magnets: int
    where: str
    note: str

    @property
    def total(self) -> int:
        return self.count * len(self.sides)

    def line(self) -> str:
        sides = " and ".join(self.sides)
        magnets = (
            f"{self.magnets} magnet{'s' if self.magnets > 1 else ''} each, {self.where}"
            if self.magnets
            else f"no magnet ({self.where})"
        )
        note = f"; {self.note}" if self.note else ""
        return f"{self.count} x {self.kind}, {sides} ({self.total} in all): {self.size}, {magnets}{note}"


def pieces(sets: tuple[PieceSet, ...], plan: BoardPlan, sites: dict[str, Site]) -> list[Pieces]:
    """The pieces of ``sets`` as made for ``plan``'s board."""
    made = []
    for s in sets:
        covered = [sites[label] for label in s.sites]
        magnets = sum(len(plan.magnets(label)) for label in s.sites) if s.sensed else 0
        made.append(
            Pieces(
                s.kind,
                s.count,
                s.sides,
                size_text(covered, plan.pitch),
                magnets,
                _where(covered, plan) if s.sensed else "no switch reads it",
                s.note,
            )
        )
    return made


def magnets(made: list[Pieces]) -> int:
    """How many magnets the pieces take."""
    return sum(p.total * p.magnets for p in made)


def size_text(covered: list[Site], pitch: float) -> str:
    """A piece's size at ``pitch``: a rod's length, a round piece's diameter, or the box its
    outline fits in.

    >>> size_text([Site("a1", 0, 0, ((0, 0), (1, 1)))], 20)
    'a rod 26 mm long'
    >>> size_text([Site("a1", 0, 0, ((0, 0), (1, 0), (1, 1), (0, 1)))], 20)
    'cut to its site, 18 x 18 mm'
    """
    shapes = [s.shape for s in covered if s.shape]
    if len(shapes) == 1 and len(shapes[0]) == 2:
        return f"a rod {math.dist(*shapes[0]) * pitch - 2 * CLEARANCE:.0f} mm long"
    if not shapes:
        return f"round, {0.8 * pitch:.0f} mm across at most"
    xs = [x for shape in shapes for x, _ in shape]
    ys = [y for shape in shapes for _, y in shape]
    w, h = ((max(v) - min(v)) * pitch - 2 * CLEARANCE for v in (xs, ys))
    if len(shapes) == 1 and len(shapes[0]) >= 6:
        return f"round, {min(w, h):.0f} mm across"
    what = "its site" if len(shapes) == 1 else f"its {len(shapes)} sites"
    return f"cut to {what}, {w:.0f} x {h:.0f} mm"


def _where(covered: list[Site], plan: BoardPlan) -> str:
    if len(covered) == 1 and plan.off_centre(covered[0].label):
        return (
            f"a {'quarter' if OFF_CENTRE == 0.25 else f'{OFF_CENTRE:g}'} of its length from "
            "either end (it lies either way round)"
        )
    if len(covered) == 1:
        return "in its middle, over the switch"
    return "one over each of its sites' switch marks (the 1:1 plan)"


@dataclass(frozen=True)
class Clearance:
    """How near a magnet comes to another site's switch at a pitch, and the smallest pitch at
    which it stays farther than the switch's reach."""

    distance: float
    magnet_site: str
    switch_site: str
    reach: float
    safe_pitch: float

    @property
    def safe(self) -> bool:
        return self.distance > self.reach

    def line(self, pitch: float) -> str:
        where = (
            f"a magnet of a piece on {self.magnet_site} is {self.distance:.1f} mm from "
            f"{self.switch_site}'s switch"
        )
        if self.safe:
            return f"at pitch {pitch:g} mm {where}: farther than a switch's reach ({self.reach:g} mm)"
        return (
            f"WARNING: at pitch {pitch:g} mm {where}, within a switch's reach "
            f"({self.reach:g} mm): it may close that switch, or keep it closed; "
            f"use a pitch of {self.safe_pitch:g} mm or more"
        )


def clearance(plan: BoardPlan, reach: float = MAGNET_REACH) -> Clearance:
    """How near a magnet comes to another site's switch on ``plan``'s board.

    >>> import engines
    >>> c = clearance(BoardPlan(engines.new_game("phalanx", None, None).sites(), 20))
    >>> c.safe, c.safe_pitch
    (False, 28.0)
    """
    distance, magnet_site, switch_site = plan.closest_magnet()
    # Every distance on the sheet grows with the pitch (the margin does not enter it).
    per_mm = distance / plan.pitch
    safe_pitch = math.floor(reach / per_mm * 2 + 1) / 2
    return Clearance(distance, magnet_site, switch_site, reach, safe_pitch)
