"""The board's words in a language for the length of a test: :func:`speaking`."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from firmware_host import i18n


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Speak ``code`` inside the block, the language spoken before after it (also on failure).

    >>> with speaking("fr"):
    ...     i18n._("New game")
    'Nouvelle partie'
    >>> i18n._("New game")
    'New game'
    """
    before = i18n.current()
    i18n.use(code)
    try:
        yield
    finally:
        i18n.use(before)
