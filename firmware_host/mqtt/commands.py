"""Commands a board takes from the broker, checked as the simulator page's messages are
(``firmware_host.web.commands``): a bad one gets a one-line reason and changes nothing.

``{"command": "new_game", "game": G, "size": N, "variant": V}`` (without ``game``: the current
game again), ``{"command": "takeback"}``, ``{"command": "brightness", "value": 0..1}``. Any
command may carry an ``"id"`` (a string or number) that the reply repeats.

>>> parse('{"command": "brightness", "value": 0.25}')
(SetBrightness(level=0.25), None)
>>> parse('{"command": "takeback", "id": 7}')
(TakeBack(), 7)
>>> parse('{"command": "new_game"}')
(Again(), None)
>>> parse('{"command": "brightness", "value": 3}')
Traceback (most recent call last):
...
firmware_host.web.commands.CommandError: brightness: 'value' must be from 0 to 1 (got 3)
>>> parse('{"command": "reboot"}')
Traceback (most recent call last):
...
firmware_host.web.commands.CommandError: unknown command 'reboot' (one of new_game, takeback, brightness)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Collection

from firmware_host.menu import SetBrightness, TakeBack
from firmware_host.web.commands import CommandError, Fields, NewGame, load, read, read_new_game

#: The longest command the board reads (a longer one is refused unread).
MAX_COMMAND = 4096


@dataclass(frozen=True)
class Again:
    """A new game of the game being played."""


Command = NewGame | TakeBack | SetBrightness | Again


def parse(text: str | bytes) -> tuple[Command, Any]:
    """The command in a message and its ``id`` (None when it has none)."""
    if len(text) > MAX_COMMAND:
        raise CommandError(f"a command is at most {MAX_COMMAND} bytes")
    obj = load(text)
    ident = obj.pop("id", None)
    if ident is not None and (isinstance(ident, bool) or not isinstance(ident, (str, int))):
        raise CommandError("'id' must be a string or a number")
    return read(obj, "command", _READERS, ()), ident


def _new_game(f: Fields, sites: Collection[str]) -> NewGame | Again:
    if "game" not in f.obj:
        f.done()
        return Again()
    return read_new_game(f, sites)


def _takeback(f: Fields, _: Collection[str]) -> TakeBack:
    f.done()
    return TakeBack()


def _brightness(f: Fields, _: Collection[str]) -> SetBrightness:
    value = f.get("value", (int, float))
    f.done()
    if not 0 <= value <= 1:
        raise CommandError(f"brightness: 'value' must be from 0 to 1 (got {value:g})")
    return SetBrightness(float(value))


_READERS = {"new_game": _new_game, "takeback": _takeback, "brightness": _brightness}
