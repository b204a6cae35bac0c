"""What a board can be asked to do, whoever asks: one value per command, the same from the menu,
the simulator page and the café network's broker. The menu makes them (``firmware_host.ui.menu``),
the page's and the broker's readers make them from messages (``firmware_host.actions.reading``),
:class:`~firmware_host.board.playable.Playable` says which a board refuses from elsewhere, and
:meth:`Controller.command <firmware_host.board.controller.Controller.command>` carries each out,
in one place.

What only one input can ask (the page's piece moves and noise, a button press) stays with
that input (``firmware_host.net.web.commands``). A paired board asks nothing: what it and this
board agreed (a new game with its house rules, a takeback to a move) comes as the opponent's
intents (``firmware_host.board.opponent``).

Commands with fields are ``NamedTuple`` values, as the judge's decisions are
(``firmware_host/board/decisions.py`` says why); those without are :class:`Marker` values.

>>> NewGame("antipalos", 12, "two")
NewGame(game='antipalos', size=12, variant='two', match=0, computer=None, level=None, control=None, delay='')
>>> NewGame("antipalos", 12, "two", computer="second", level=3).players()
SetPlayers(computer='black', level=3)
>>> NewGame("antipalos", 12, "two").players() is None
True
"""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

import engines


class Marker:
    """A value with no field, only its kind: equal to every other of its kind, as a dataclass
    without fields is, but defined at import as cheaply as any class (an empty ``NamedTuple``
    would be false, and equal to any other empty one).

    >>> class Ping(Marker): ...
    >>> Ping() == Ping(), Ping() == TakeBack(), len({Ping(), Ping()}), Ping()
    (True, False, 1, Ping())
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) or NotImplemented

    def __hash__(self) -> int:
        return hash(type(self))

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}()"


#: The seats every game has, in the order of its sides: the first side and the second. A new
#: game asked from elsewhere names the computer's seat so; a paired board names the other
#: board's so in its config (``[opponent] side``).
SEATS = ("first", "second")


def seat(name: str, sides: Sequence[str]) -> int | None:
    """The seat (an index into a game's ``sides``) ``name`` names: a seat word's, or a side's
    own; None when it is neither.

    >>> seat("second", ("green", "red")), seat("black", ("white", "black")), seat("black", ("red", "blue"))
    (1, 1, None)
    """
    if name in SEATS:
        return SEATS.index(name)
    return list(sides).index(name) if name in sides else None


def side_named(name: str | None, sides: Sequence[str]) -> str:
    """The side of a game with ``sides`` that ``name`` (a seat word or a side) names; the last
    side for None or a side the game lacks.

    >>> side_named("first", ("green", "red")), side_named("black", ("red", "blue"))
    ('green', 'blue')
    """
    index = None if name is None else seat(name, sides)
    return sides[-1] if index is None or index >= len(sides) else sides[index]


class SetPlayers(NamedTuple):
    """Who plays: ``computer`` the side the computer plays (None: all at the table), at
    ``level`` (1..5); a new game starts."""

    computer: str | None
    level: int


class NewGame(NamedTuple):
    """A new game of ``game`` (its name), ``size`` and ``variant``; ``match``: the points a
    match goes to (0: single games). ``computer``: the seat the computer takes (one of
    :data:`SEATS`; None: everybody at the table) at ``level``; both None: who plays stays as
    it is (the menu's new games). ``control``: the time control from now on, in PGN's
    TimeControl notation (``"300+3"``; ``"-"``: no clock; None: as it is) with ``delay``
    (``"bronstein:2"``, ``"simple:3"``; ``""``: none)."""

    game: str
    size: int | None
    variant: str
    match: int = 0
    computer: str | None = None
    level: int | None = None
    control: str | None = None
    delay: str = ""

    def players(self) -> SetPlayers | None:
        """Who plays the new game (None: as before)."""
        if self.level is None and self.computer is None:
            return None
        sides = engines.new_game(self.game, self.size, self.variant).sides
        side = None if self.computer is None else side_named(self.computer, sides)
        return SetPlayers(side, self.level or 1)


#: What an arbiter does to the game clocks.
CLOCK_ACTIONS = ("pause", "resume", "adjust")


class SetClock(NamedTuple):
    """An arbiter's correction to the game clocks: ``action`` one of :data:`CLOCK_ACTIONS`;
    ``adjust`` gives the clock of ``side`` (a side's number from 0, a seat, or a side's name)
    ``seconds`` more (less when negative)."""

    action: str
    side: int | str | None = None
    seconds: float = 0.0

    def side_in(self, sides: Sequence[str]) -> str | None:
        """The side of ``sides`` this names (None: none of them).

        >>> [SetClock("adjust", s).side_in(("white", "black")) for s in (1, "first", "black", 2, "red")]
        ['black', 'white', 'black', None, None]
        """
        index = (
            self.side if isinstance(self.side, int) else None if self.side is None else seat(self.side, sides)
        )
        return sides[index] if index is not None and index < len(sides) else None


class Again(NamedTuple):
    """A new game of the game being played (the broker's ``new_game`` naming no game), with
    ``control`` and ``delay`` as :class:`NewGame`'s."""

    control: str | None = None
    delay: str = ""


class TakeBack(Marker):
    """Take back the last move, as the menu's Take back does (the opponent may be asked)."""


class SetBrightness(NamedTuple):
    """The LEDs' brightness, 0 to 1."""

    level: float


class HouseRule(NamedTuple):
    """A house rule of ``game`` for its next new game: option ``name`` set to ``value``."""

    game: str
    name: str
    value: bool | int | str


#: The longest name, in characters.
NAME_MAX = 24
#: The most seats a game has (Cut-throat Antipalos has four).
SEATS_MAX = 4


def name_problem(name: Any) -> str | None:
    """What is wrong with ``name`` as a player's name, None when nothing.

    >>> name_problem("Anna"), name_problem("x" * 25), name_problem("A\\tB")
    (None, 'is longer than 24 characters', 'has a character that is not printable')
    """
    if not isinstance(name, str):
        return "is not text"
    if not name.strip():
        return "is empty"
    if len(name) > NAME_MAX:
        return f"is longer than {NAME_MAX} characters"
    if not name.isprintable():
        return "has a character that is not printable"
    return None


def names_problem(names: Sequence[Any]) -> str | None:
    """What is wrong with ``names`` as one name per seat, None when nothing."""
    if len(names) > SEATS_MAX:
        return f"{len(names)} names: a game has at most {SEATS_MAX} seats"
    for n, name in enumerate(names, 1):
        if (why := name_problem(name)) is not None:
            return f"name {n} {why} (a name is 1 to {NAME_MAX} printable characters)"
    return None


class SetNames(NamedTuple):
    """Who sits at the seats: a name per seat, in seat order (``()``: nobody named). The game
    goes on; its record names them from now on."""

    names: tuple[str, ...]


class Roster(NamedTuple):
    """The café's players (their names), for the menu to offer at the seats."""

    names: tuple[str, ...]


class TableRound(NamedTuple):
    """A league round at this table: ``new`` set up with the players ``names`` (a name per
    seat) and the time ``control`` (the ``[clock]`` notation; None: no clock), for ``event``'s
    ``round`` at table ``table``; it starts once each seat's player has pressed OK."""

    table: int
    names: tuple[str, ...]
    new: NewGame
    control: str | None
    event: str
    round: int


class ShowIP(Marker):
    """Show the board's address for a while."""


class ShowToday(Marker):
    """Show today's games for a while."""


class PowerOff(Marker):
    """Power the board off (the daemon runs the configured command)."""


#: Everything a board can be asked to do, whoever asks (the menu, the page, the broker).
Command = (
    NewGame
    | Again
    | TakeBack
    | SetBrightness
    | HouseRule
    | SetPlayers
    | SetClock
    | SetNames
    | Roster
    | TableRound
    | ShowIP
    | ShowToday
    | PowerOff
)
