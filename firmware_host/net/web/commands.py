"""What the simulator page may ask, checked before anything happens.

Every websocket message is a JSON object with a ``type``; :func:`parse` turns a valid one into
a small command value and anything else into :class:`CommandError` with a one-line message the
page shows (and nothing changes). What any input may ask (a new game, a take back, the
brightness, a house rule) is the board's own command (``firmware_host.actions.commands``); what
only the page does (moving pieces, setting the board up, noise, pressing a button) is defined
here.

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

from typing import Collection, NamedTuple

from firmware_host.actions.commands import HouseRule, NewGame, SetBrightness, SetNames, TakeBack
from firmware_host.actions.reading import (
    CommandError,
    Fields,
    load,
    read,
    read_house_rule,
    read_new_game,
    read_players,
    read_take_back,
)
from hardware.base import BUTTONS

#: How the board can be set at once: to what the game expects now, or emptied.
SETUPS = ("expected", "empty")


class SiteChange(NamedTuple):
    """Put a piece on ``site`` (place), take it off (lift), or whichever applies (toggle)."""

    site: str
    action: str


class Drag(NamedTuple):
    """Move the piece on ``source`` to ``target`` (slid across the sites between, with noise)."""

    source: str
    target: str


class Press(NamedTuple):
    button: str
    long: bool = False


class SetUp(NamedTuple):
    board: str


class SetNoise(NamedTuple):
    on: bool


#: What the page may send: its own commands, and the board's (``actions.commands``) it may ask.
PageCommand = (
    SiteChange | Drag | Press | SetUp | SetNoise | NewGame | TakeBack | SetBrightness | HouseRule | SetNames
)


def parse(text: str | bytes, sites: Collection[str]) -> PageCommand:
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


def _brightness(f: Fields, _: Collection[str]) -> SetBrightness:
    level = f.get("level", (int, float))
    f.done()
    if not 0.05 <= level <= 1:
        raise CommandError("brightness: 'level' must be 0.05 to 1")
    return SetBrightness(float(level))


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
    "takeback": read_take_back,
    "brightness": _brightness,
    "rules": read_house_rule,
    "players": read_players,
}
