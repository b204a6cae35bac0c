"""What the simulator page may ask, checked before anything happens.

Every websocket message is a JSON object with a ``type``; :func:`parse` turns a valid one into
a small command value and anything else into :class:`CommandError` with a one-line message the
page shows (and nothing changes).

>>> parse('{"type": "toggle", "site": "a1"}', {"a1"})
SiteChange(site='a1', action='toggle')
>>> parse('{"type": "button", "button": "menu", "long": true}', {"a1"})
Press(button='menu', long=True)
>>> parse("[" * 3000, {"a1"})
Traceback (most recent call last):
...
firmware_host.net.web.commands.CommandError: not a command (nested too deeply)
>>> parse('{"type": "toggle", "site": "z9"}', {"a1"})
Traceback (most recent call last):
...
firmware_host.net.web.commands.CommandError: no site 'z9' on this board
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Collection

from engines import GAME_NAMES, game_info
from engines.core import OptionError
from firmware_host.board.game import Game
from firmware_host.board.playable import SEATS, NewGame
from hardware.base import BUTTONS

#: How the board can be set at once: to what the game expects now, or emptied.
SETUPS = ("expected", "empty")


class CommandError(ValueError):
    """A message the page should not have sent; ``str()`` is one line."""


@dataclass(frozen=True)
class SiteChange:
    """Put a piece on ``site`` (place), take it off (lift), or whichever applies (toggle)."""

    site: str
    action: str


@dataclass(frozen=True)
class Drag:
    """Move the piece on ``source`` to ``target`` (slid across the sites between, with noise)."""

    source: str
    target: str


@dataclass(frozen=True)
class Press:
    button: str
    long: bool = False


@dataclass(frozen=True)
class SetUp:
    board: str


@dataclass(frozen=True)
class TakeBack:
    """Take back, as the menu's Take back does."""


@dataclass(frozen=True)
class Brightness:
    """The LEDs' brightness, 0.05 to 1."""

    level: float


@dataclass(frozen=True)
class HouseRule:
    """A house rule of ``game`` for its next new game: option ``name`` set to ``value``."""

    game: str
    name: str
    value: bool | int | str


@dataclass(frozen=True)
class SetNoise:
    on: bool


Command = SiteChange | Drag | Press | NewGame | SetUp | SetNoise | TakeBack | Brightness | HouseRule


def parse(text: str | bytes, sites: Collection[str]) -> Command:
    """The command in a websocket message; ``sites`` are the current board's labels."""
    return read(load(text), "type", _READERS, sites)


def load(text: str | bytes) -> dict[str, Any]:
    """The JSON object in a message."""
    try:
        obj = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise CommandError("not a JSON message") from None
    except RecursionError:
        raise CommandError("not a command (nested too deeply)") from None
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


def _site_change(action: str):
    def read(f: Fields, sites: Collection[str]) -> SiteChange:
        site = f.site("site", sites)
        f.done()
        return SiteChange(site, action)

    return read


def _drag(f: Fields, sites: Collection[str]) -> Drag:
    source, target = f.site("from", sites), f.site("to", sites)
    f.done()
    if source == target:
        raise CommandError("drag: 'from' and 'to' are the same site")
    return Drag(source, target)


def _press(f: Fields, _: Collection[str]) -> Press:
    button = f.get("button", (str,))
    long = f.get("long", (bool,), optional=True) or False
    f.done()
    if button not in BUTTONS:
        raise CommandError(f"no button {button[:20]!r} (one of {', '.join(BUTTONS)})")
    return Press(button, long)


def read_new_game(f: Fields, _: Collection[str]) -> NewGame:
    name = f.get("game", (str,))
    size = f.get("size", (int,), optional=True)
    variant = f.get("variant", (str,), optional=True)
    computer = f.get("computer", (str,), optional=True)
    level = f.get("level", (int,), optional=True)
    f.done()
    if name not in GAME_NAMES:
        raise CommandError(f"no game {name[:40]!r} (one of {', '.join(GAME_NAMES)})")
    if computer is not None and computer not in SEATS:
        raise CommandError(f"{f.kind}: 'computer' must be first, second or null")
    if level is not None and not 1 <= level <= 5:
        raise CommandError(f"{f.kind}: 'level' must be 1 to 5")
    try:
        return NewGame(Game.of(name, size, variant or None), computer, level)
    except OptionError as exc:
        raise CommandError(str(exc)) from None


def _set_up(f: Fields, _: Collection[str]) -> SetUp:
    board = f.get("board", (str,))
    f.done()
    if board not in SETUPS:
        raise CommandError(f"setup: 'board' must be one of {', '.join(SETUPS)}")
    return SetUp(board)


def _take_back(f: Fields, _: Collection[str]) -> TakeBack:
    f.done()
    return TakeBack()


def _brightness(f: Fields, _: Collection[str]) -> Brightness:
    level = f.get("level", (int, float))
    f.done()
    if not 0.05 <= level <= 1:
        raise CommandError("brightness: 'level' must be 0.05 to 1")
    return Brightness(float(level))


def _house_rule(f: Fields, _: Collection[str]) -> HouseRule:
    """A house rule the game has, with a value it takes."""
    name, option, value = f.get("game", (str,)), f.get("name", (str,)), f.get("value", (bool, int, str))
    f.done()
    if name not in GAME_NAMES:
        raise CommandError(f"no game {name[:40]!r} (one of {', '.join(GAME_NAMES)})")
    options = {o.name: o for o in game_info(name).options}
    if option not in options:
        raise CommandError(f"{name} has no house rule {option[:40]!r}"
                           f" (its rules: {', '.join(options) or 'none'})")
    try:
        return HouseRule(name, option, options[option].read(value))
    except OptionError as exc:
        raise CommandError(str(exc)) from None


def _noise(f: Fields, _: Collection[str]) -> SetNoise:
    on = f.get("on", (bool,))
    f.done()
    return SetNoise(on)


_READERS = {
    "toggle": _site_change("toggle"),
    "place": _site_change("place"),
    "lift": _site_change("lift"),
    "drag": _drag,
    "button": _press,
    "new_game": read_new_game,
    "setup": _set_up,
    "noise": _noise,
    "takeback": _take_back,
    "brightness": _brightness,
    "rules": _house_rule,
}
