"""Notation helpers shared by the games.

>>> split_moves(" B4* ; *C3\\n\\nA1*-B2* ")
['B4*', '*C3', 'A1*-B2*']
>>> read_record('[Game "antipalos"]\\n[Size "4"]\\n\\n1. A1*; *D4\\n2. B2*')
({'Game': 'antipalos', 'Size': '4'}, ['A1*', '*D4', 'B2*'])
>>> column_letter(0), column_letter(19), column_index("T")
('A', 'T', 19)
"""

from __future__ import annotations

import re

# Patterns compiled when first used (``re`` keeps them): a board's start reads no record.
_SEPARATORS = r"[;\n]"
_TAG = r'^\s*\[(\w+)\s+"([^"]*)"\]\s*$'
_NUMBER = r"^\s*\d+\.(?!\d)\s*"
_COMMENT = r"\{[^}]*\}"


def split_moves(text: str) -> list[str]:
    """Moves separated by ';' or newlines, surrounding spaces dropped, empty items skipped."""
    return [part.strip() for part in re.split(_SEPARATORS, text) if part.strip()]


def read_record(text: str) -> tuple[dict[str, str], list[str]]:
    """A game record as ``reedboard export`` writes it: ``[Tag "value"]`` lines, then moves
    separated by ';' or newlines, each line optionally numbered (``1. A1*; *D4``), comments in
    braces left out (``{[%clk 0:04:58]}``). Plain move lists read the same way. Returns (tags,
    moves).

    >>> read_record("1. A1* {[%clk 0:04:58]}; *D4 {[%clk 0:04:59]}")
    ({}, ['A1*', '*D4'])
    """
    tags: dict[str, str] = {}
    body = []
    for line in text.splitlines():
        tag = re.match(_TAG, line)
        if tag:
            tags[tag[1]] = tag[2]
        else:
            body.append(re.sub(_COMMENT, "", re.sub(_NUMBER, "", line)))
    return tags, split_moves("\n".join(body))


def column_letter(c: int) -> str:
    """Column index 0.. as a letter A.. (at most 26 columns)."""
    return chr(ord("A") + c)


def column_index(letter: str) -> int:
    return ord(letter.upper()) - ord("A")
