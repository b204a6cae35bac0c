"""A persistent tally of position keys for repetition rules: O(1) push, a cheap count.

A Tally is the first ``len`` keys of a log shared by the states of one line of play; the log
keeps, for each key, the increasing indices where it occurs. Pushing onto the newest Tally of a
log appends to it. Pushing onto an older one (a takeback, or a search trying several moves from
one state) starts a branch: a new log that holds only the keys after that Tally and counts the
ones before in its parent. A search's branches are as deep as it looks, so a count walks a few
logs; a line with more than :data:`MAX_DEPTH` of them is copied flat once. A Tally never changes
once made. Not for pushes from several threads at once.

>>> t = Tally().push("a").push("b").push("a")
>>> t.count("a"), t.count("b"), t.count("c"), len(t)
(2, 1, 0, 3)
>>> branch = t.push("b")
>>> other = t.push("c")  # t is not the newest any more: this starts a branch after t's keys
>>> branch.count("b"), other.count("b"), other.keys()
(2, 1, ('a', 'b', 'a', 'c'))
>>> t.count("a"), t == Tally().push("a").push("b").push("a")
(2, True)
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Hashable

#: Branch logs a count may walk through before a branch is copied flat instead.
MAX_DEPTH = 32


class _Log:
    """Keys ``base``, ``base + 1``, ... of a line whose first ``base`` keys are ``parent``'s,
    and for each key the increasing indices (from the line's start) where it was pushed here."""

    __slots__ = ("parent", "base", "depth", "keys", "where")

    def __init__(self, parent: _Log | None = None, base: int = 0) -> None:
        self.parent, self.base = parent, base
        self.depth: int = parent.depth + 1 if parent else 0
        self.keys: list[Hashable] = []
        self.where: dict[Hashable, list[int]] = {}

    @property
    def end(self) -> int:
        return self.base + len(self.keys)

    def append(self, key: Hashable) -> None:
        self.where.setdefault(key, []).append(self.end)
        self.keys.append(key)

    def count(self, key: Hashable, size: int) -> int:
        """How many of the line's first ``size`` keys (at least ``base``) are ``key``."""
        here = bisect_left(self.where.get(key, ()), size)
        return here + (self.parent.count(key, self.base) if self.parent else 0)

    def prefix(self, size: int) -> list[Hashable]:
        """The line's first ``size`` keys (at least ``base``)."""
        before = self.parent.prefix(self.base) if self.parent else []
        return before + self.keys[: size - self.base]

    def branch(self, size: int) -> _Log:
        """A log going on from the first ``size`` keys: a branch, or a flat copy when deep."""
        if self.depth < MAX_DEPTH:
            return _Log(self, size)
        flat = _Log()
        for key in self.prefix(size):
            flat.append(key)
        return flat


class Tally:
    """The first ``len(self)`` keys of a shared log. Immutable; ``push`` returns a new Tally."""

    __slots__ = ("_log", "_size")

    def __init__(self, _log: _Log | None = None, _size: int = 0) -> None:
        self._log = _log if _log is not None else _Log()
        self._size = _size

    def push(self, key: Hashable) -> "Tally":
        log = self._log
        if log.end != self._size:
            log = log.branch(self._size)
        log.append(key)
        return Tally(log, self._size + 1)

    def count(self, key: Hashable) -> int:
        """How many times ``key`` was pushed on the way to this Tally."""
        return self._log.count(key, self._size)

    def keys(self) -> tuple[Hashable, ...]:
        """All keys, oldest first."""
        return tuple(self._log.prefix(self._size))

    def __len__(self) -> int:
        return self._size

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, Tally) and len(self) == len(other) and self.keys() == other.keys()
        )

    def __hash__(self) -> int:
        log = self._log  # a Tally's last key is always in its own log
        return hash((self._size, log.keys[self._size - 1 - log.base] if self._size else None))

    def __repr__(self) -> str:
        return f"Tally({len(self)} keys)"
