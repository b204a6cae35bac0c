"""Reading a command from another place (the page, the broker, the café dashboard): one JSON
object, the kind of command it names, its fields typed and none unknown, checked before anything
happens, and made one of the board's commands (``firmware_host.actions.commands``). A bad one is
a :class:`CommandError` whose ``str()`` is one line to show (and nothing changes); the page's
commands (``firmware_host.net.web.commands``) and the broker's (``firmware_host.net.mqtt.commands``)
read through it, with the readers here for the board's commands they share (a new game, a take
back, a house rule) and readers of their own for the rest.

>>> message = '{"type": "new_game", "game": "antipalos", "computer": "second"}'
>>> new = read(load(message), "type", {"new_game": read_new_game}, ())
>>> new.game, new.size, new.computer, new.control
('antipalos', 12, 'second', None)
>>> load("[" * 3000)
Traceback (most recent call last):
...
firmware_host.actions.reading.CommandError: not a command (nested too deeply)
>>> read({"type": "reboot"}, "type", {"new_game": read_new_game}, ())
Traceback (most recent call last):
...
firmware_host.actions.reading.CommandError: unknown message type 'reboot' (one of new_game)
"""

from __future__ import annotations

import json
from typing import Any, Callable, Collection

from engines import GAME_NAMES, game_info, new_game
from engines.core import OptionError
from firmware_host.actions.commands import (
    CLOCK_ACTIONS,
    SEATS,
    HouseRule,
    NewGame,
    SetClock,
    SetNames,
    TableRound,
    TakeBack,
    names_problem,
)
from firmware_host.actions.inbound import TooLarge, Unreadable, loads

#: The most time an arbiter adds or removes at once (seconds): ten hours.
MOST_ADJUST = 36_000
#: The most sides a game has (a clock each).
MOST_SIDES = 4


class CommandError(ValueError):
    """A command that is not taken as sent; ``str()`` is one line."""


def load(text: str | bytes) -> dict[str, Any]:
    """The JSON object in a message (read within bounds: ``firmware_host.actions.inbound``)."""
    try:
        obj = loads(text)
    except TooLarge as exc:
        raise CommandError(f"not a command ({exc})") from None
    except Unreadable:
        raise CommandError("not a JSON message") from None
    if not isinstance(obj, dict):
        raise CommandError("expected a JSON object")
    return obj


def read(obj: dict[str, Any], key: str, readers: dict[str, Callable], sites: Collection[str]):
    """The command ``obj`` names in field ``key``, read by ``readers[name](Fields, sites)``
    (the café network's commands use ``command`` and readers of their own)."""
    kind = obj.get(key)
    reader = readers.get(kind) if isinstance(kind, str) else None
    if reader is None or not isinstance(kind, str):
        what = "message type" if key == "type" else key
        raise CommandError(f"unknown {what} {kind!r} (one of {', '.join(readers)})")
    return reader(Fields(obj, kind, key), sites)


class Fields:
    """Typed access to a message's fields; unknown fields are an error."""

    def __init__(self, obj: dict[str, Any], kind: str, key: str = "type") -> None:
        self.obj, self.kind = obj, kind
        self.used = {key}

    def get(self, name: str, kinds: tuple[type, ...], optional: bool = False) -> Any:
        self.used.add(name)
        if name not in self.obj:
            if optional:
                return None
            raise CommandError(f"{self.kind}: missing {name!r}")
        value = self.obj[name]
        if value is None and optional:
            return None
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            raise CommandError(f"{self.kind}: bad {name!r} ({json.dumps(value)[:40]})")
        return value

    def site(self, name: str, sites: Collection[str]) -> str:
        label = self.get(name, (str,))
        if label not in sites:
            raise CommandError(f"no site {label[:40]!r} on this board")
        return label

    def done(self) -> None:
        extra = sorted(set(self.obj) - self.used)
        if extra:
            raise CommandError(f"{self.kind}: unexpected field {extra[0][:40]!r}")


def read_new_game(f: Fields, _: Collection[str]) -> NewGame:
    name = f.get("game", (str,))
    size = f.get("size", (int,), optional=True)
    variant = f.get("variant", (str,), optional=True)
    computer = f.get("computer", (str,), optional=True)
    level = f.get("level", (int,), optional=True)
    control, delay = read_control(f)
    f.done()
    if name not in GAME_NAMES:
        raise CommandError(f"no game {name[:40]!r} (one of {', '.join(GAME_NAMES)})")
    if computer is not None and computer not in SEATS:
        raise CommandError(f"{f.kind}: 'computer' must be first, second or null")
    if level is not None and not 1 <= level <= 5:
        raise CommandError(f"{f.kind}: 'level' must be 1 to 5")
    try:
        size, variant = game_info(name).check_options(size, variant or None)
    except OptionError as exc:
        raise CommandError(str(exc)) from None
    return NewGame(name, size, variant, computer=computer, level=level, control=control, delay=delay)


def read_control(f: Fields) -> tuple[str | None, str]:
    """A new game's ``control`` (None: as it is) and ``delay``, as text: whether they read as
    the config's ``[clock]`` is the board's to say (``firmware_host.board.playable``).

    >>> read_control(Fields({"control": "300+3", "delay": "bronstein:2"}, "new_game"))
    ('300+3', 'bronstein:2')
    """
    return f.get("control", (str,), optional=True), f.get("delay", (str,), optional=True) or ""


def read_clock(f: Fields, _: Collection[str]) -> SetClock:
    """An arbiter's correction: ``{"action": "pause"|"resume"|"adjust", "side": 0 (a seat's
    number, a seat or a side's name), "seconds": 30}``.

    >>> read_clock(Fields({"action": "adjust", "side": 1, "seconds": -30}, "clock"), ())
    SetClock(action='adjust', side=1, seconds=-30.0)
    """
    action = f.get("action", (str,))
    side = f.get("side", (int, str), optional=True)
    seconds = f.get("seconds", (int, float), optional=True)
    f.done()
    if action not in CLOCK_ACTIONS:
        raise CommandError(f"{f.kind}: 'action' must be one of {', '.join(CLOCK_ACTIONS)}")
    if action != "adjust":
        return SetClock(action)
    if side is None or seconds is None:
        raise CommandError(f"{f.kind}: adjust needs 'side' and 'seconds'")
    if isinstance(side, int) and not 0 <= side < MOST_SIDES:
        raise CommandError(f"{f.kind}: 'side' must be a number from 0 to {MOST_SIDES - 1}, a seat or a side")
    if not abs(seconds) <= MOST_ADJUST:
        raise CommandError(f"{f.kind}: 'seconds' must be from -{MOST_ADJUST} to {MOST_ADJUST}")
    return SetClock(action, side if isinstance(side, int) else side[:40], float(seconds))


def read_take_back(f: Fields, _: Collection[str]) -> TakeBack:
    f.done()
    return TakeBack()


def read_house_rule(f: Fields, _: Collection[str]) -> HouseRule:
    """A house rule the game has, with a value it takes."""
    name, option, value = f.get("game", (str,)), f.get("name", (str,)), f.get("value", (bool, int, str))
    f.done()
    if name not in GAME_NAMES:
        raise CommandError(f"no game {name[:40]!r} (one of {', '.join(GAME_NAMES)})")
    options = {o.name: o for o in game_info(name).options}
    if option not in options:
        raise CommandError(
            f"{name} has no house rule {option[:40]!r} (its rules: {', '.join(options) or 'none'})"
        )
    try:
        return HouseRule(name, option, options[option].read(value))
    except OptionError as exc:
        raise CommandError(str(exc)) from None


def read_names(f: Fields, key: str = "names") -> tuple[str, ...]:
    """A name per seat, in seat order (each 1 to 24 printable characters)."""
    names = f.get(key, (list,))
    if (why := names_problem(names)) is not None:
        raise CommandError(f"{f.kind}: {why}")
    return tuple(names)


def read_players(f: Fields, _: Collection[str]) -> SetNames:
    """``{"players", "names": ["Anna", "Ben"]}``: who sits at the seats (``[]``: nobody named)."""
    names = read_names(f)
    f.done()
    return SetNames(names)


def read_table(f: Fields, sites: Collection[str]) -> TableRound:
    """A league round at this table: its number, the players, the game and its clock, the
    event and round; as many names as the game has seats."""
    table, names = f.get("table", (int,)), read_names(f)
    event, round_ = f.get("event", (str,)), f.get("round", (int,))
    if not 1 <= table <= 999 or not 1 <= round_ <= 999:
        raise CommandError(f"{f.kind}: 'table' and 'round' must be 1 to 999")
    if not 1 <= len(event) <= 80 or not event.isprintable():
        raise CommandError(f"{f.kind}: 'event' must be 1 to 80 printable characters")
    new = read_new_game(f, sites)  # its control as sent: the place that reads it checks it
    control = None if new.control is None or new.control.strip() == "-" else new.control.strip()
    seats = len(new_game(new.game, new.size, new.variant).seat_sides)  # Team play: 4 seats, 2 sides
    if len(names) != seats:
        raise CommandError(f"{f.kind}: {len(names)} names for a game of {seats} seats")
    return TableRound(table, names, new, control, event, round_)
