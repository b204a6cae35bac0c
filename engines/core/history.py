"""Position history for repetition rules, as a persistent (shared, never mutated) chain.

>>> h = History().push("a").push("b").push("a")
>>> h.count("a"), h.count("b"), h.count("c")
(2, 1, 0)
>>> History().push("a").count("a")
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable


@dataclass(frozen=True)
class History:
    """Keys of earlier positions, newest first. ``push`` returns a new history."""

    key: Hashable = None
    parent: "History | None" = None
    size: int = 0

    def push(self, key: Hashable) -> "History":
        return History(key, self, self.size + 1)

    def count(self, key: Hashable) -> int:
        n, node = 0, self
        while node is not None and node.size:
            if node.key == key:
                n += 1
            node = node.parent
        return n

    def __hash__(self) -> int:
        return hash((self.key, self.size))

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, History) and self.size == other.size and self.keys() == other.keys()
        )

    def keys(self) -> tuple:
        """All keys, newest first."""
        out, node = [], self
        while node is not None and node.size:
            out.append(node.key)
            node = node.parent
        return tuple(out)
