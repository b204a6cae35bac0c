"""Notation helpers shared by the games.

>>> split_moves(" B4* ; *C3\\n\\nA1*-B2* ")
['B4*', '*C3', 'A1*-B2*']
>>> column_letter(0), column_letter(19), column_index("T")
('A', 'T', 19)
"""

from __future__ import annotations

import re

_SEPARATORS = re.compile(r"[;\n]")


def split_moves(text: str) -> list[str]:
    """Moves separated by ';' or newlines, surrounding spaces dropped, empty items skipped."""
    return [part.strip() for part in _SEPARATORS.split(text) if part.strip()]


def column_letter(c: int) -> str:
    """Column index 0.. as a letter A.. (at most 26 columns)."""
    return chr(ord("A") + c)


def column_index(letter: str) -> int:
    return ord(letter.upper()) - ord("A")
