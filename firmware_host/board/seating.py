"""Who sits at the board's seats (:class:`Seating`): the players' names, a name per seat in
the order of the game's sides, and, for a league round, the table, event and round and the
players still to press OK before the game starts (until each seat's player has, nothing on
the board counts and no clock runs).

>>> table = Seating.table(("Anna", "Ben"), League("Thursday league", 2, 3))
>>> table.title(), table.asked()
('Table 3: Anna – Ben', 'Anna: press OK')
>>> table = table.pressed(); table.asked()
'Ben: press OK'
>>> table.pressed().waiting, table.pressed().league
(False, League(event='Thursday league', round=2, table=3))
>>> Seating(("Anna", "Ben")).name_of("black", ("white", "black"))
'Ben'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Sequence

from firmware_host.actions.commands import names_problem
from firmware_host.i18n import _
from firmware_host.store.players import League, players_text, read_players
from firmware_host.store.storage import StoredGame


@dataclass(frozen=True)
class Seating:
    """``names``: a name per seat (``()``: nobody named); ``league``: the round the game is
    played for; ``ready``: the seat whose player is to press OK next (None: the game counts)."""

    names: tuple[str, ...] = ()
    league: League | None = None
    ready: int | None = None
    #: The seat whose players sit at a paired board (they press OK there; None: none).
    remote: int | None = field(default=None, compare=False, repr=False)

    @classmethod
    def table(cls, names: Sequence[str], league: League) -> Seating:
        """A league round's seating: each seat's player to press OK, the first seat's first."""
        return cls(tuple(names), league, 0 if names else None)

    @classmethod
    def stored(cls, record: StoredGame, names: Sequence[str] = ()) -> Seating:
        """The seating a stored game was begun with (a league game not yet begun asks for the
        OKs again); ``names`` when it kept none."""
        league = League.read(record.league)
        kept = read_players(record.players) or tuple(names)
        waiting = league is not None and not record.moves and record.finished is None
        return cls(kept, league, 0 if waiting and kept else None)

    @property
    def waiting(self) -> bool:
        """True while a seat's player is still to press OK."""
        return self.ready is not None

    def pressed(self) -> Seating:
        """The seat whose turn it was pressed OK: the next seat's turn, or the game begins."""
        if self.ready is None:
            return self
        after = self.ready + 1
        return replace(self, ready=after if after < len(self.names) else None)

    def seated(self, names: Sequence[str]) -> Seating:
        """Other players at the same seats (the league round, if any, goes on)."""
        return replace(self, names=tuple(names), ready=None if not names else self.ready)

    def casual(self) -> Seating:
        """The same players, no league round (a game begun at the board)."""
        return Seating(self.names)

    def name_of(self, side: str | None, seat_sides: Sequence[str]) -> str | None:
        """The name of the player at ``side``'s seat, given the side each seat plays (a team:
        its players' names joined, "Anna/Cleo"); None: not named.

        >>> Seating(("Anna", "Ben", "Cleo", "Dan")).name_of("white", ("white", "black") * 2)
        'Anna/Cleo'
        """
        named = [n for n, s in zip(self.names, seat_sides) if s == side]
        return "/".join(named) if side is not None and named else None

    def title(self) -> str | None:
        """The table and who plays at it: "Table 3: Anna – Ben" (None: no league round)."""
        if self.league is None:
            return None
        return _("Table {table}: {names}").format(table=self.league.table, names=" – ".join(self.names))

    def asked(self) -> str | None:
        """Who is to press OK now: "Anna: press OK" ("Ben: OK at the other board" when Ben sits
        at a paired board; None: nobody).

        >>> Seating.table(("Anna", "Ben"), League("E", 1, 1)).pressed().away(1).asked()
        'Ben: OK at the other board'
        """
        if self.ready is None:
            return None
        said = _("{name}: OK at the other board") if self.ready == self.remote else _("{name}: press OK")
        return said.format(name=self.names[self.ready])

    def away(self, seat: int | None) -> Seating:
        """The same seating, seat ``seat``'s players at a paired board (None: none): made once
        per seating and seat (a paired board's snapshot asks at every scan).

        >>> table = Seating.table(("Anna", "Ben"), League("E", 1, 1))
        >>> table.away(1) is table.away(1), table.away(1).remote, table.away(None) is table
        (True, 1, True)
        """
        return self if seat == self.remote else _away(self, seat)

    def kept(self) -> tuple[str | None, str | None]:
        """The players and the league as a games file keeps them (JSON)."""
        league = None if self.league is None else json.dumps(self.league.json())
        return players_text(self.names), league

    def state(self) -> dict[str, Any]:
        """What the board's state message says of it: ``players`` and ``league``."""
        return {
            "players": list(self.names),
            "league": None if self.league is None else self.league.json(),
            "ready": self.asked(),
        }

    def shared(self) -> dict[str, Any]:
        """What a paired board's moves message says of it: ``players``, ``league``, ``ready``."""
        return {
            "players": list(self.names),
            "league": None if self.league is None else self.league.json(),
            "ready": self.ready,
        }

    def same_table(self, other: Seating) -> bool:
        """The same players for the same league round (whatever OKs were pressed)."""
        return (self.names, self.league) == (other.names, other.league)

    @property
    def pressed_count(self) -> int:
        """How many seats' players have pressed OK (all of them once the game counts)."""
        return len(self.names) if self.ready is None else self.ready


def read_shared(value: Any) -> Seating:
    """The seating in another board's message (:meth:`Shared.told`: its stamp, which the
    reader checks, and :meth:`Seating.shared`); ValueError saying why it does not read.

    >>> read_shared({"stamp": "", "players": ["Anna", "Ben"], "league": None, "ready": None})
    Seating(names=('Anna', 'Ben'), league=None, ready=None)
    >>> read_shared({"stamp": "", "players": ["Anna"], "league": None, "ready": 3})
    Traceback (most recent call last):
    ...
    ValueError: 'ready' must be a seat (0 to 0) or null
    """
    if not isinstance(value, dict) or set(value) != {"stamp", "players", "league", "ready"}:
        raise ValueError("expected stamp, players, league and ready")
    names = value["players"]
    if not isinstance(names, list) or names_problem(names) is not None:
        raise ValueError("'players' must be a name per seat")
    league = League.read(value["league"])
    if value["league"] is not None and league is None:
        raise ValueError("'league' must be an event, a round and a table")
    ready = value["ready"]
    if ready is not None and (type(ready) is not int or not 0 <= ready < len(names)):
        raise ValueError(f"'ready' must be a seat (0 to {len(names) - 1}) or null")
    return Seating(tuple(names), league, ready)


@dataclass
class Shared:
    """The seating two paired boards share: the players and league table set on either board
    (a ``table`` or ``players`` command, the menu) are the other's too, each stamped when set
    (nanoseconds and the board's id, as a game's token: the later one wins); an OK pressed at
    one board for its seat counts at both.

    >>> home, friend = Shared("home"), Shared("friend")
    >>> table = Seating.table(("Anna", "Ben"), League("Thursday", 1, 3))
    >>> said = home.told(table, 1764050000000000000)
    >>> said["stamp"], said["ready"]
    ('01764050000000000000:home', 0)
    >>> friend.heard(Seating(), said["stamp"], read_shared({**said, "ready": 1})).asked()
    'Ben: press OK'
    >>> friend.heard(Seating(), said["stamp"], table) is None  # nothing new
    True
    """

    board: str
    stamp: str = ""
    known: Seating = field(default_factory=Seating)

    def told(self, here: Seating, now_ns: int) -> dict[str, Any] | None:
        """The seating as this board's message carries it (None: none set on either board);
        players or a table set here since it was last told are stamped anew, an OK pressed
        here keeps the stamp."""
        if here != self.known:
            if not here.same_table(self.known):
                self.stamp = f"{now_ns:020d}:{self.board}"
            self.known = here
        return {"stamp": self.stamp, **here.shared()} if self.stamp else None

    def heard(self, here: Seating, stamp: str, theirs: Seating) -> Seating | None:
        """The seating to take from the other board's message: its own if set there after
        this board's, or this table with more of its seats' OKs pressed; None: none."""
        if stamp > self.stamp:  # set there later (the same as here's: its stamp is taken)
            self.stamp, self.known = stamp, theirs
            return None if theirs == here else theirs
        if stamp == self.stamp and theirs.same_table(here) and theirs.pressed_count > here.pressed_count:
            self.known = theirs
            return theirs
        return None


@lru_cache(maxsize=8)
def _away(seating: Seating, seat: int | None) -> Seating:
    return replace(seating, remote=seat)
