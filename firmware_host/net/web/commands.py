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
firmware_host.actions.reading.CommandError: not a command (nested too deeply)
>>> parse('{"type": "toggle", "site": "z9"}', {"a1"})
Traceback (most recent call last):
...
firmware_host.actions.reading.CommandError: no site 'z9' on this board
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection

from engines import GAME_NAMES, game_info
from engines.core import OptionError
from firmware_host.actions.reading import CommandError, Fields, load, read, read_new_game
from firmware_host.board.playable import NewGame
from hardware.base import BUTTONS

#: How the board can be set at once: to what the game expects now, or emptied.
SETUPS = ("expected", "empty")


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
