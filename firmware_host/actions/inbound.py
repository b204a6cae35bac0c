"""JSON text from outside (a stdin line, a replay file's line, a page's or the broker's message),
read within bounds: its size and then its nesting depth are checked before it is parsed, so no
line, however long or deep, costs more than a bounded read or ends a reader with a traceback. A
text that is refused is a :class:`Unreadable` whose ``str()`` is one line; NaN and Infinity, which
JSON lacks, are refused too.

>>> loads('{"site": "a1", "on": true}')
{'site': 'a1', 'on': True}
>>> loads("[" * 100_000)
Traceback (most recent call last):
...
firmware_host.actions.inbound.TooLarge: nested too deeply
>>> loads("x" * 20, most=10)
Traceback (most recent call last):
...
firmware_host.actions.inbound.TooLarge: too long: more than 10 characters
>>> loads('{"value": NaN}')
Traceback (most recent call last):
...
firmware_host.actions.inbound.Unreadable: not JSON (NaN is not a number)
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any, Iterator, TextIO

#: The longest text read at all (a replay file's setup line may hold a long game's moves).
MAX_TEXT = 1024 * 1024
#: The deepest nesting read (the deepest message the product sends is some four levels).
MAX_DEPTH = 32

# A string (to its end if unclosed: each character is read once) or a bracket, which is kept.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|([\[\]{}])', re.DOTALL)


class Unreadable(ValueError):
    """Text that is not read; ``str()`` is one line."""


class TooLarge(Unreadable):
    """Text past a bound (too long, nested too deeply), refused unparsed."""


def loads(text: str | bytes, most: int = MAX_TEXT, depth: int = MAX_DEPTH) -> Any:
    """The JSON value in ``text`` (at most ``most`` characters or bytes, nested at most
    ``depth`` levels); :class:`Unreadable` otherwise."""
    if len(text) > most:
        raise TooLarge(f"too long: more than {most} characters")
    try:
        string = text.decode("utf-8") if isinstance(text, bytes) else text
    except UnicodeDecodeError:
        raise Unreadable("not UTF-8 text") from None
    if string.count("[") + string.count("{") > depth and nesting(string) > depth:  # fewer: not so deep
        raise TooLarge("nested too deeply")
    try:
        return json.loads(string, parse_constant=_no_constant)
    except RecursionError:  # within a caller's larger depth, on a thread's smaller stack
        raise TooLarge("nested too deeply") from None
    except ValueError as exc:
        raise Unreadable(f"not JSON ({str(exc).split(':')[0]})") from None


def nesting(text: str) -> int:
    """How deep the brackets of JSON ``text`` go (those inside strings do not count).

    >>> nesting('[1, {"a": ["[[["]}]'), nesting("]]]"), nesting("")
    (3, 0, 0)
    """
    steps = (1 if b in "[{" else -1 for b in _TOKENS.findall(text) if b)
    return max(accumulate(steps, initial=0))


def lines(stream: TextIO, most: int = MAX_TEXT) -> Iterator[str]:
    """The lines of ``stream``, each read only up to ``most + 1`` characters: a longer line
    comes as its first ``most + 1`` (which :func:`loads` refuses as too long), the rest of it
    skipped unread into memory."""
    while line := stream.readline(most + 1):
        yield line
        while len(line) > most and not line.endswith("\n"):
            line = stream.readline(most + 1)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")
