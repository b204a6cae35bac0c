"""What a league is made of: an event, the seats of its game, a pairing and its result.

A pairing seats its players in seat order (a board's ``players``); its result is each seat's
points: 1 for a win, 0.5 each for a draw in a game of two, 1 to every seat of the winning side.

>>> event = Event("Thursday", "antipalos", 5, "cut-throat-3", format="pods")
>>> event.seats, event.side_of(2)
(3, 'red')
>>> read_result("1/2-1/2", ("Anna", "Ben"), Event("E", "anti-grid", 6))
(0.5, 0.5)
>>> read_result("Ben", ("Anna", "Ben", "Cleo"), event)
(0.0, 1.0, 0.0)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engines import GAME_NAMES, game_info, new_game
from engines.core import OptionError
from firmware_host.i18n import _, ngettext
from firmware_host.store.timecontrol import ControlError, TimeControl

#: The event formats: Swiss and round robin for games of two seats, pods for more.
FORMATS = ("swiss", "round-robin", "pods")
#: The tie-breaks, by the names an event lists them with.
TIEBREAKS = ("buchholz", "sonneborn-berger", "direct-encounter")
#: The tie-breaks an event gets when it names none (FIDE's usual order for each format).
DEFAULT_TIEBREAKS = {
    "swiss": ("buchholz", "sonneborn-berger", "direct-encounter"),
    "round-robin": ("direct-encounter", "sonneborn-berger"),
    "pods": ("buchholz",),
}
#: Results of a game of two in words (besides the winner's name): each seat's points.
TWO_SEAT_RESULTS = {
    "1-0": (1.0, 0.0),
    "0-1": (0.0, 1.0),
    "1/2-1/2": (0.5, 0.5),
    "½-½": (0.5, 0.5),
    "draw": (0.5, 0.5),
    "+-": (1.0, 0.0),
    "-+": (0.0, 1.0),
    "--": (0.0, 0.0),
}
#: The results that were not played over the board (forfeits: not rated, not an encounter).
FORFEITS = ("+-", "-+", "--")
#: A player's name: 1 to 24 printable characters, as a board's seat takes it.
NAME = re.compile(r"[^\x00-\x1f\x7f]{1,24}")


class LeagueError(ValueError):
    """A league action refused; ``str()`` is one line for the user."""


@dataclass(frozen=True)
class Event:
    """An event: its game (size, variant), clock (``control``, docs/config.md's notation),
    format, number of rounds and tie-breaks, in the order they break ties."""

    name: str
    game: str
    size: int | None = None
    variant: str | None = None
    control: str | None = None
    format: str = "swiss"
    rounds: int = 3
    tiebreaks: tuple[str, ...] = ()
    #: The side each seat plays (the game's), and how many sides there are.
    seat_sides: tuple[str, ...] = field(default=(), compare=False)
    sides: int = field(default=0, compare=False)

    @property
    def seats(self) -> int:
        return len(self.seat_sides)

    def __post_init__(self) -> None:
        state = self._game()
        object.__setattr__(self, "seat_sides", state.seat_sides)
        object.__setattr__(self, "sides", len(state.sides))
        if self.format not in FORMATS:
            raise LeagueError(
                _("--format: {got} is none of {known}").format(
                    got=repr(self.format), known=", ".join(FORMATS)
                )
            )
        if (self.format == "pods") != (self.seats > 2):
            want = "pods" if self.seats > 2 else _("swiss or round-robin")
            raise LeagueError(
                ngettext(
                    "--format: a game of {n} seat is played in {want}",
                    "--format: a game of {n} seats is played in {want}",
                    self.seats,
                ).format(n=self.seats, want=want)
            )
        if not 1 <= self.rounds <= 99:
            raise LeagueError(_("--rounds: must be 1 to 99 (got {n})").format(n=self.rounds))
        for name in self.tiebreaks:
            if name not in TIEBREAKS:
                raise LeagueError(
                    _("--tiebreaks: {got} is none of {known}").format(
                        got=repr(name), known=", ".join(TIEBREAKS)
                    )
                )
        if not self.tiebreaks:
            object.__setattr__(self, "tiebreaks", DEFAULT_TIEBREAKS[self.format])

    def _game(self) -> Any:
        """The event's game set up (its size named when it is the default: ratings are kept
        by size), its clock checked; LeagueError naming the option otherwise."""
        if self.game not in GAME_NAMES:
            raise LeagueError(
                _("--game: no game {got} (one of {known})").format(
                    got=repr(self.game), known=", ".join(GAME_NAMES)
                )
            )
        try:
            state = new_game(self.game, self.size, self.variant)
        except (OptionError, ValueError, TypeError) as exc:
            raise LeagueError(f"--size/--variant: {exc}") from None
        if self.size is None:
            object.__setattr__(self, "size", game_info(self.game).default_size)
        if self.control not in (None, "-"):
            try:
                TimeControl.parse(self.control, "")
            except ControlError as exc:
                raise LeagueError(f"--control: {exc}") from None
        return state

    def side_of(self, seat: int) -> str:
        """The side a seat plays."""
        return self.seat_sides[seat]


@dataclass(frozen=True)
class Pairing:
    """One table of a round: its players in seat order (one alone: a bye), and each seat's
    points once there is a result; ``forfeit``: the result was not played over the board."""

    round: int
    table: int
    names: tuple[str, ...]
    points: tuple[float, ...] | None = None
    forfeit: bool = False
    board: str | None = None

    @property
    def bye(self) -> bool:
        return len(self.names) == 1

    def opponents(self, name: str) -> tuple[str, ...]:
        """Who ``name`` played here (none after a bye or a forfeit)."""
        if self.bye or self.forfeit or name not in self.names:
            return ()
        return tuple(n for n in self.names if n != name)


def read_result(text: str, names: tuple[str, ...], event: Event) -> tuple[float, ...]:
    """Each seat's points for ``text``: 1-0, 0-1, 1/2-1/2 (draw), +- and -+ (forfeits), or the
    winner's name (a team: any of its players); LeagueError otherwise."""
    key = text.strip().lower()
    if len(names) == 2 and key in TWO_SEAT_RESULTS:
        return TWO_SEAT_RESULTS[key]
    if key == "draw":
        return tuple(1 / event.sides for _seat in names)
    winners = [i for i, n in enumerate(names) if n.lower() == key]
    if not winners:
        words = "1-0, 0-1, 1/2-1/2, +-, -+, " if len(names) == 2 else ""
        raise LeagueError(
            _("result {got}: give {results}draw or a player of the table ({names})").format(
                got=repr(text), results=words, names=", ".join(names)
            )
        )
    side = event.side_of(winners[0])
    return tuple(1.0 if event.side_of(i) == side else 0.0 for i in range(len(names)))


def table_command(event: Event, pairing: Pairing, tag: str) -> dict:
    """The ``table`` command that seats a pairing's players at its board and sets up the
    event's game; ``tag`` makes its id unique (a board acts on an id once).

    >>> table_command(Event("Thu", "anti-grid", 6, control="300+3"), Pairing(2, 3, ("Anna", "Ben")), "x1")
    ... # doctest: +NORMALIZE_WHITESPACE
    {'command': 'table', 'table': 3, 'names': ['Anna', 'Ben'], 'game': 'anti-grid', 'size': 6,
     'variant': None, 'control': '300+3', 'event': 'Thu', 'round': 2, 'id': 'league-2-3-x1'}
    """
    return {
        "command": "table",
        "table": pairing.table,
        "names": list(pairing.names),
        "game": event.game,
        "size": event.size,
        "variant": event.variant,
        "control": event.control,
        "event": event.name,
        "round": pairing.round,
        "id": f"league-{pairing.round}-{pairing.table}-{tag}"[:64],
    }


def check_name(name: str) -> str:
    """``name`` stripped if it is a player's name; LeagueError otherwise.

    >>> check_name(" Anna ")
    'Anna'
    """
    name = name.strip()
    if not NAME.fullmatch(name):
        raise LeagueError(
            _("a player's name is 1 to 24 printable characters (got {got})").format(got=repr(name[:30]))
        )
    return name
