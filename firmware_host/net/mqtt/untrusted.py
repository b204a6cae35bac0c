"""Reading what another machine publishes: anything on the broker may come from a board that is
broken, out of date or in an attacker's hands. A check is a function that returns the value it
accepts (maybe normalised) or raises :class:`Bad` with a one-line reason; :func:`read` decodes a
payload and applies one. Nothing here trusts a type, a size or a number it has not checked.

>>> STATE = record({"ply": whole(0, 1000), "moves": items(text(40), 1000),
...                 "to_move": optional(text(20))})
>>> read(b'{"ply": 2, "moves": ["a1", "b2"], "junk": 1}', STATE)
{'ply': 2, 'moves': ['a1', 'b2'], 'to_move': None}
>>> read(b'{"ply": 2, "moves": 5}', STATE)
Traceback (most recent call last):
...
firmware_host.net.mqtt.untrusted.Bad: moves: expected a list (got 5)
>>> read(b'{"ply": true, "moves": []}', STATE)
Traceback (most recent call last):
...
firmware_host.net.mqtt.untrusted.Bad: ply: expected a whole number from 0 to 1000 (got true)
>>> board_id("table-7"), board_id("#") is None, board_id("+") is None
('table-7', True, True)
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Callable

from firmware_host.actions.inbound import Unreadable, loads
from firmware_host.store.config import is_board_id

Check = Callable[[Any], Any]

#: The largest message read at all (a long game's state is some kilobytes).
MAX_PAYLOAD = 256 * 1024


class Bad(ValueError):
    """A message that is not what it should be; ``str()`` is one line."""


def shown(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def read(payload: bytes, check: Check, most: int = MAX_PAYLOAD) -> Any:
    """The JSON in ``payload`` as ``check`` accepts it; Bad otherwise."""
    if len(payload) > most:
        raise Bad(f"too long ({len(payload)} bytes, at most {most})")
    try:
        value = loads(payload, most)
    except Unreadable as exc:
        raise Bad(str(exc)) from None
    return check(value)


def whole(low: int, high: int) -> Check:
    """A whole number from ``low`` to ``high`` (not a boolean)."""

    def check(value: Any) -> int:
        if type(value) is not int or not low <= value <= high:
            raise Bad(f"expected a whole number from {low} to {high} (got {shown(value)})")
        return value

    return check


def number(low: float, high: float) -> Check:
    """A finite number from ``low`` to ``high`` (not a boolean), as a float."""

    def check(value: Any) -> float:
        if type(value) not in (int, float) or not math.isfinite(value) or not low <= value <= high:
            raise Bad(f"expected a number from {low:g} to {high:g} (got {shown(value)})")
        return float(value)

    return check


#: A control character (C0 or DEL), which no text from outside may hold.
_CONTROL = re.compile("[\x00-\x1f\x7f]")


def text(most: int, pattern: str | None = None) -> Check:
    r"""A string of at most ``most`` characters (matching ``pattern`` when given), without
    control characters.

    >>> text(8)("B2* B3*")
    'B2* B3*'
    >>> text(8)("B2*\x7f")
    Traceback (most recent call last):
    ...
    firmware_host.net.mqtt.untrusted.Bad: unexpected text "B2*\u007f"
    """
    shape = re.compile(pattern) if pattern else None

    def check(value: Any) -> str:
        if not isinstance(value, str) or len(value) > most:
            raise Bad(f"expected text of at most {most} characters (got {shown(value)})")
        if _CONTROL.search(value) or (shape and not shape.fullmatch(value)):
            raise Bad(f"unexpected text {shown(value)}")
        return value

    return check


def one_of(*values: Any) -> Check:
    def check(value: Any) -> Any:
        if not any(type(value) is type(v) and value == v for v in values):
            raise Bad(f"expected one of {', '.join(map(shown, values))} (got {shown(value)})")
        return value

    return check


def optional(inner: Check) -> Check:
    """None, or what ``inner`` accepts."""
    return lambda value: None if value is None else inner(value)


def items(inner: Check, most: int) -> Check:
    """A list of at most ``most`` items, each as ``inner`` accepts it."""

    def check(value: Any) -> list:
        if not isinstance(value, list):
            raise Bad(f"expected a list (got {shown(value)})")
        if len(value) > most:
            raise Bad(f"expected at most {most} items (got {len(value)})")
        out = []
        for i, item in enumerate(value):
            try:
                out.append(inner(item))
            except Bad as exc:
                raise Bad(f"item {i}: {exc}") from None
        return out

    return check


def mapping(key: Check, inner: Check, most: int) -> Check:
    """An object of at most ``most`` entries, keys and values checked."""

    def check(value: Any) -> dict:
        if not isinstance(value, dict) or len(value) > most:
            raise Bad(f"expected an object of at most {most} entries (got {shown(value)})")
        return {key(k): inner(v) for k, v in value.items()}

    return check


def record(fields: dict[str, Check], required: tuple[str, ...] = ()) -> Check:
    """An object with these ``fields`` (each checked; a missing one is None, or Bad when
    ``required``); fields it does not know are left out."""

    def check(value: Any) -> dict:
        if not isinstance(value, dict):
            raise Bad(f"expected an object (got {shown(value)})")
        out = {}
        for name, inner in fields.items():
            if name not in value and name in required:
                raise Bad(f"missing {name!r}")
            try:
                out[name] = inner(value.get(name))
            except Bad as exc:
                raise Bad(f"{name}: {exc}") from None
        return out

    return check


def ident(value: Any) -> Any:
    """A command's ``id``: None, text of at most 64 characters or a whole number (JSON-safe)."""
    if (
        value is None
        or isinstance(value, str)
        and len(value) <= 64
        or (type(value) is int and abs(value) <= 2**53)
    ):
        return value
    raise Bad(f"expected an id: text of at most 64 characters or a whole number (got {shown(value)})")


def board_id(text: Any) -> str | None:
    """``text`` when it is a board id as the config allows one (one topic level: a-z, 0-9,
    '-', '_'; no wildcard; ``is_board_id``), else None."""
    return text if is_board_id(text) else None
