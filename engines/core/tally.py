"""A persistent tally of position keys for repetition rules: O(1) push, O(log n) count.

A Tally keeps an append-only log shared by the states of one line of
play, with the indices where each key occurs. Pushing onto the newest Tally of a log appends to
it; pushing onto an older one (a takeback, or two moves tried from one state) first copies that
Tally's prefix, so a Tally never changes once made. Not for pushes from several threads at once.

>>> t = Tally().push("a").push("b").push("a")
>>> t.count("a"), t.count("b"), t.count("c"), len(t)
(2, 1, 0, 3)
>>> branch = t.push("b")
>>> other = t.push("c")  # t is not the newest any more: this copies t's keys first
>>> branch.count("b"), other.count("b"), other.keys()
(2, 1, ('a', 'b', 'a', 'c'))
>>> t.count("a"), t == Tally().push("a").push("b").push("a")
(2, True)
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Hashable


class _Log:
    """The keys pushed so far and, for each key, the increasing indices where it was pushed."""

    __slots__ = ("keys", "where")

    def __init__(self, keys: tuple = ()) -> None:
        self.keys: list = []
        self.where: dict[Hashable, list[int]] = {}
        for key in keys:
            self.append(key)

    def append(self, key: Hashable) -> None:
        self.where.setdefault(key, []).append(len(self.keys))
        self.keys.append(key)


class Tally:
    """The first ``len(self)`` keys of a shared log. Immutable; ``push`` returns a new Tally."""

    __slots__ = ("_log", "_size")

    def __init__(self, _log: _Log | None = None, _size: int = 0) -> None:
        self._log = _log if _log is not None else _Log()
        self._size = _size

    def push(self, key: Hashable) -> "Tally":
        log = self._log
        if len(log.keys) != self._size:
            log = _Log(tuple(log.keys[: self._size]))
        log.append(key)
        return Tally(log, self._size + 1)

    def count(self, key: Hashable) -> int:
        """How many times ``key`` was pushed on the way to this Tally."""
        return bisect_left(self._log.where.get(key, ()), self._size)

    def keys(self) -> tuple:
        """All keys, oldest first."""
        return tuple(self._log.keys[: self._size])

    def __len__(self) -> int:
        return self._size

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, Tally) and len(self) == len(other) and self.keys() == other.keys()
        )

    def __hash__(self) -> int:
        return hash((self._size, self._log.keys[self._size - 1] if self._size else None))

    def __repr__(self) -> str:
        return f"Tally({len(self)} keys)"
