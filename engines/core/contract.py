"""The physical contract between an engine and the daemon.

A *site* is one place on the physical board with one sensor and one LED. The daemon knows a game
only through these values: which sites exist, which should be occupied, what a move changes by the
player's own hand (a :class:`Realisation`) and what the rules require afterwards (its
:class:`FollowUp` steps).

>>> r = Realisation(emptied=frozenset({"c3"}), filled=frozenset({"e3"}),
...                 follow_ups=(FollowUp("remove", frozenset({"d3"})),))
>>> sorted(r.board_after(frozenset({"c3", "d3"})))
['d3', 'e3']
>>> sorted(r.board_after(frozenset({"c3", "d3"}), done=1))
['e3']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple, get_args

#: Follow-up actions. ``remove`` and ``twin`` are checked by the sensors (sites must empty / fill);
#: ``pick`` chooses one of the sites (a tap on the board or the buttons) and tells apart moves
#: whose hand changes are equal; ``flip`` turns tokens over: the sensors see each token lifted
#: and set back (boards that sense polarity also check the faces, :meth:`GameState.faces`); OK
#: stands in for a flip made without lifting. ``carry`` moves a piece the sensors cannot see
#: (:meth:`GameState.markers`) off the lit site to where the markers show it (a takeback's pawn
#: going back); OK confirms it.
Action = Literal["remove", "twin", "pick", "flip", "carry"]
ACTIONS: tuple[Action, ...] = get_args(Action)


class Site(NamedTuple):
    """A physical site: its label (the game's notation for it) and where to draw it.

    ``x``/``y`` is the centre in board units (y grows upwards); ``shape`` optionally gives the
    outline (a polygon) or, with two points, the segment of the piece the site holds.
    """

    label: str
    x: float
    y: float
    shape: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True)
class FollowUp:
    """One step the rules require after a move: ``action`` (see :data:`ACTIONS`) on ``sites``;
    ``prompt``: the game's own words for it, if the daemon's generic ones would not do."""

    action: Action
    sites: frozenset[str]
    prompt: str = ""

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise ValueError(f"unknown follow-up action {self.action!r}")

    @property
    def sensed(self) -> bool:
        """True when the occupancy it leaves tells that the step is done (a flip leaves the
        occupancy as it was: it is tracked by its lifts instead)."""
        return self.action in ("remove", "twin")

    def apply(self, board: frozenset[str]) -> frozenset[str]:
        """The occupancy after this step (unchanged for steps that occupancy cannot show)."""
        if self.action == "remove":
            return board - self.sites
        if self.action == "twin":
            return board | self.sites
        return board


class Realisation(NamedTuple):
    """One way a move is made on the board: what the player's own hand empties and fills,
    then the follow-up steps in order."""

    emptied: frozenset[str]
    filled: frozenset[str]
    follow_ups: tuple[FollowUp, ...] = ()

    def board_after(self, board: frozenset[str], done: int = 0) -> frozenset[str]:
        """Occupancy after the hand change and the first ``done`` follow-up steps."""
        board = (board - self.emptied) | self.filled
        for step in self.follow_ups[:done]:
            board = step.apply(board)
        return board

    def reaches(self, board: frozenset[str], sensed: frozenset[str]) -> int | None:
        """How many follow-ups, all sensed, lead from ``board`` to ``sensed`` (None: no count
        does).

        >>> r = Realisation(frozenset(), frozenset({"a1"}), (FollowUp("twin", frozenset({"a12"})),))
        >>> r.reaches(frozenset(), frozenset({"a1"})), r.reaches(frozenset(), frozenset({"a1", "a12"}))
        (0, 1)
        >>> r.reaches(frozenset(), frozenset({"b2"})) is None
        True
        """
        for done in range(self.sensed_prefix() + 1):
            if self.board_after(board, done) == sensed:
                return done
        return None

    def sensed_prefix(self) -> int:
        """How many leading follow-ups the sensors can check (a pick or flip stops the run)."""
        n = 0
        for step in self.follow_ups:
            if not step.sensed:
                break
            n += 1
        return n
