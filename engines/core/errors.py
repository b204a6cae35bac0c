"""What an engine raises for a move it cannot read, a move the rules do not allow here, and a
game, size, variant or option it does not offer. Each ``reason`` is short enough for the OLED.

A move that cannot be read at all is an :class:`InvalidMove`; one that reads but is not
allowed is an :class:`IllegalMove` (python-chess tells them apart the same way). An
InvalidMove is also an IllegalMove, so a caller that refuses both alike catches IllegalMove:

>>> try:
...     raise InvalidMove("Cannot read 'zz'")
... except IllegalMove as refused:
...     print(type(refused).__name__, refused.reason)
InvalidMove Cannot read 'zz'
"""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move the rules do not allow here (or, as :class:`InvalidMove`, cannot read);
    ``reason`` fits a 128x64 OLED."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidMove(IllegalMove):
    """Text that names no move of the game: not its notation, or a square, cell or point the
    board does not have. A subclass of :class:`IllegalMove` because every caller that refuses
    a move refuses an unreadable one too; one that only reads notation catches this alone."""


class OptionError(ValueError):
    """A game, size, variant or option a game does not offer."""
