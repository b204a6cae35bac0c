"""Commands a board takes from the broker, checked as the simulator page's messages are
(both read through ``firmware_host.actions.reading`` into the board's commands,
``firmware_host.actions.commands``): a bad one gets a one-line reason and changes nothing.

``{"command": "new_game", "game": G, "size": N, "variant": V}`` (without ``game``: the current
game again; ``{"command": "new_game", "title": T}`` names one by its title in the board's
``titles``, as Home Assistant's select sends), ``{"command": "takeback"}``,
``{"command": "brightness", "value": 0..1}``, ``{"command": "clock", "action":
"pause"|"resume"|"adjust", "side": 0, "seconds": 30}`` (an arbiter's correction),
``{"command": "players", "names": ["Anna", "Ben"]}`` (who sits at each seat; ``[]``: nobody
named), ``{"command": "table", "table": 3, "names": [...], "game": G, "size": N, "variant": V,
"control": "300+3", "event": E, "round": R}`` (a league round: the game set up with those
players and clock, begun when each has pressed OK). A new game
may name its time control (``"control": "300+3"``, ``"-"`` no clock, and ``"delay":
"bronstein:2"``). Any command may carry an ``"id"`` (a string of at
most 64 characters or a whole number) that the reply repeats, a refusal's too (:class:`Refused`
keeps it). A command is acted on once: one whose id was taken lately is not taken again
(:class:`Recent`), nor is one the broker kept (published with retain) and sends again at every
connection.

>>> parse('{"command": "brightness", "value": 0.25}')
(SetBrightness(level=0.25), None)
>>> parse('{"command": "takeback", "id": 7}')
(TakeBack(), 7)
>>> parse('{"command": "new_game"}')
(Again(control=None, delay=''), None)
>>> parse('{"command": "new_game", "control": "300+3", "delay": "bronstein:2"}')
(Again(control='300+3', delay='bronstein:2'), None)
>>> parse('{"command": "clock", "action": "adjust", "side": 0, "seconds": 30}')
(SetClock(action='adjust', side=0, seconds=30.0), None)
>>> parse('{"command": "new_game", "title": "Antipalos 5"}',  # doctest: +ELLIPSIS
... {"Antipalos 5": NewGame("antipalos", 5, "two")})
(NewGame(game='antipalos', size=5, ..., control=None, delay=''), None)
>>> parse('{"command": "brightness", "value": 3, "id": "b"}')
Traceback (most recent call last):
...
firmware_host.net.mqtt.commands.Refused: brightness: 'value' must be from 0 to 1 (got 3)
>>> parse('{"command": "reboot"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
firmware_host.net.mqtt.commands.Refused: unknown command 'reboot' (one of new_game, takeback, ...)
"""

from __future__ import annotations

import time
from collections import OrderedDict
from functools import partial
from typing import Any, Callable, Collection, Mapping

from firmware_host.actions.commands import (
    Again,
    NewGame,
    SetBrightness,
    SetClock,
    SetNames,
    TableRound,
    TakeBack,
)
from firmware_host.actions.reading import (
    CommandError,
    Fields,
    load,
    read,
    read_clock,
    read_control,
    read_new_game,
    read_players,
    read_table,
    read_take_back,
)
from firmware_host.store.timecontrol import control_refusal

#: The longest command the board reads (a longer one is refused unread).
MAX_COMMAND = 4096
#: The longest string ``id`` a reply repeats, and the largest whole number (JSON's safe ones).
MAX_ID_TEXT, MAX_ID_NUMBER = 64, 2**53
#: How long (seconds), and for how many commands at most, a taken command's id is remembered.
RECENT_SECONDS, RECENT_IDS = 600.0, 256


class Refused(CommandError):
    """A command the board will not take; ``ident``: its ``id`` (None when it has none or a
    bad one), for the reply."""

    def __init__(self, message: str, ident: Any = None) -> None:
        super().__init__(message)
        self.ident = ident


#: What the broker may send: the board's commands (``actions.commands``) a café may ask.
BrokerCommand = NewGame | TakeBack | SetBrightness | Again | SetClock | SetNames | TableRound


def parse(text: str | bytes, titles: Mapping[str, NewGame] | None = None) -> tuple[BrokerCommand, Any]:
    """The command in a message and its ``id`` (None when it has none); :class:`Refused`,
    with the id, for a bad one. ``titles``: the new games a title names (none: a title is
    refused)."""
    if len(text) > MAX_COMMAND:
        raise Refused(f"a command is at most {MAX_COMMAND} bytes")
    try:
        obj = load(text)
    except CommandError as exc:
        raise Refused(str(exc)) from None
    ident = obj.pop("id", None)
    if not _good_id(ident):
        raise Refused(f"'id' must be a string of at most {MAX_ID_TEXT} characters or a whole number")
    try:
        readers: dict[str, Callable[..., Any]] = {
            "new_game": partial(_new_game, titles=titles or {}),
            **_READERS,
        }
        return read(obj, "command", readers, ()), ident
    except CommandError as exc:
        raise Refused(str(exc), ident) from None


class Recent:
    """The ids of the commands taken lately: the last ``most``, none older than ``seconds``.

    >>> recent = Recent()
    >>> recent.add("lamp-1"); "lamp-1" in recent, "lamp-2" in recent, None in recent
    (True, False, False)
    """

    def __init__(
        self,
        seconds: float = RECENT_SECONDS,
        most: int = RECENT_IDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seconds, self.most, self.clock = seconds, most, clock
        self._taken: OrderedDict[Any, float] = OrderedDict()  # id -> when, oldest first

    def __contains__(self, ident: Any) -> bool:
        self._forget()
        return ident is not None and ident in self._taken

    def add(self, ident: Any) -> None:
        """Remember ``ident`` as taken now (None, no id, is never remembered)."""
        if ident is not None:
            self._taken[ident] = self.clock()
            self._taken.move_to_end(ident)
            self._forget()

    def _forget(self) -> None:
        old = self.clock() - self.seconds
        while self._taken and (len(self._taken) > self.most or next(iter(self._taken.values())) < old):
            self._taken.popitem(last=False)


def _good_id(ident: Any) -> bool:
    if ident is None or isinstance(ident, str) and len(ident) <= MAX_ID_TEXT:
        return True
    return type(ident) is int and abs(ident) <= MAX_ID_NUMBER


def _new_game(f: Fields, sites: Collection[str], titles: Mapping[str, NewGame]) -> NewGame | Again:
    if "title" in f.obj:
        title = f.get("title", (str,))
        f.done()
        if title not in titles:
            raise CommandError(f"new_game: this board plays no game titled {title[:40]!r}")
        return titles[title]
    if "game" not in f.obj:
        control, delay = read_control(f)
        f.done()
        return Again(control, delay)
    return read_new_game(f, sites)


def _brightness(f: Fields, _: Collection[str]) -> SetBrightness:
    value = f.get("value", (int, float))
    f.done()
    if not 0 <= value <= 1:
        raise CommandError(f"brightness: 'value' must be from 0 to 1 (got {value:g})")
    return SetBrightness(float(value))


def _table(f: Fields, sites: Collection[str]) -> TableRound:
    """A league round at this table, its time control read as the ``[clock]`` reads one."""
    table = read_table(f, sites)
    if why := control_refusal("table", table.control):
        raise CommandError(why)
    return table


#: The readers of the commands besides new_game (whose reader knows the board's titles).
_READERS = {
    "takeback": read_take_back,
    "brightness": _brightness,
    "clock": read_clock,
    "players": read_players,
    "table": _table,
}
