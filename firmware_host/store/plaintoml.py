"""The plain TOML a board's config is written in, read without ``tomllib`` (whose regular
expressions and ``datetime`` cost a start some 5 ms here, docs/performance.md).

Plain: ``[table]`` headers and ``key = value`` lines with bare keys, the values strings without
escapes, decimal integers and floats, booleans and one-line arrays of them, and comments. Any
other document, valid or not, is declined (None) and read by ``tomllib``, so that what is read
and every error message are ``tomllib``'s own.

>>> parse('game = "antipalos"  # the game\\n[web]\\nport = 8080\\nhosts = ["a", \\'b\\']\\n')
{'game': 'antipalos', 'web': {'port': 8080, 'hosts': ['a', 'b']}}
>>> parse("when = 1979-05-27") is None
True
"""

from __future__ import annotations

from typing import Any

_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_DIGITS = frozenset("0123456789")
#: What ends a number or a boolean.
_ENDS = (" ", "\t", ",", "]", "#")


def parse(text: str) -> dict[str, Any] | None:
    """The document ``text`` if it is plain TOML (what ``tomllib.loads`` reads), else None."""
    root: dict[str, Any] = {}
    table = root
    for line in text.split("\n"):
        if not line.replace("\t", " ").isprintable():  # control characters, a lone \r
            return None
        line = line.strip(" \t")
        if not line or line[0] == "#":
            continue
        if line[0] == "[":
            name, closed, rest = line[1:].partition("]")
            if not closed or not _bare(name) or name in root or not _blank(rest):
                return None
            table = root[name] = {}
            continue
        key, equals, rest = line.partition("=")
        key = key.rstrip(" \t")
        if not equals or not _bare(key) or key in table:
            return None
        value, rest = _value(rest.lstrip(" \t"))
        if value is None or not _blank(rest):
            return None
        table[key] = value
    return root


def _bare(key: str) -> bool:
    return bool(key) and _BARE.issuperset(key)


def _blank(rest: str) -> bool:
    """Nothing but blanks and a comment."""
    rest = rest.lstrip(" \t")
    return not rest or rest[0] == "#"


def _value(text: str) -> tuple[Any, str]:
    """The plain value ``text`` starts with and what follows it; None when it is not one."""
    if text[:1] in ('"', "'"):
        end = text.find(text[0], 1)
        body = text[1:end]
        if end < 0 or (text[0] == '"' and "\\" in body):
            return None, ""
        return body, text[end + 1 :]
    if text[:1] == "[":
        return _array(text[1:])
    cut = min((at for at in map(text.find, _ENDS) if at >= 0), default=len(text))
    return _scalar(text[:cut]), text[cut:]


def _array(text: str) -> tuple[list[Any] | None, str]:
    """A one-line array's items, ``text`` following its ``[``, and what follows its ``]``."""
    items: list[Any] = []
    while True:
        text = text.lstrip(" \t")
        if text[:1] == "]":
            return items, text[1:]
        if text[:1] == "[":  # nested arrays are tomllib's (however deep)
            return None, ""
        item, text = _value(text)
        if item is None:
            return None, ""
        items.append(item)
        text = text.lstrip(" \t")
        if text[:1] == ",":
            text = text[1:]
        elif text[:1] != "]":
            return None, ""


def _scalar(token: str) -> bool | int | float | None:
    """A boolean, a decimal integer or a float with a fraction; None for anything else."""
    if token in ("true", "false"):
        return token == "true"
    whole, point, fraction = token.removeprefix("-").partition(".")
    if not _DIGITS.issuperset(whole) or not whole or (whole[0] == "0" and len(whole) > 1):
        return None
    if not point:
        return int(token)
    if not fraction or not _DIGITS.issuperset(fraction):
        return None
    return float(token)
