"""Board graphs: nodes indexed 0..n-1, neighbour tuples, flood fill and union-find.

>>> g = Graph.from_edges(["a", "b", "c", "d"], [("a", "b"), ("b", "c")])
>>> sorted(g.labels[i] for i in g.flood([0], {0, 1, 2, 3}))
['a', 'b', 'c']
>>> uf = UnionFind(4); _ = uf.union(0, 1); uf.find(1) == uf.find(0), uf.find(2) == uf.find(0)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Container, Iterable, Sequence


@dataclass(frozen=True)
class Graph:
    """An undirected graph over labelled nodes."""

    labels: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]

    @classmethod
    def from_edges(cls, labels: Sequence[str], edges: Iterable[tuple[str, str]]) -> "Graph":
        index = {label: i for i, label in enumerate(labels)}
        adj: list[set[int]] = [set() for _ in labels]
        for a, b in edges:
            adj[index[a]].add(index[b])
            adj[index[b]].add(index[a])
        return cls(tuple(labels), tuple(tuple(sorted(s)) for s in adj))

    def flood(self, start: Iterable[int], allowed: Container[int]) -> set[int]:
        """All nodes reachable from ``start`` through ``allowed`` nodes (start nodes included
        only when allowed)."""
        seen = {s for s in start if s in allowed}
        stack = list(seen)
        neighbours = self.neighbours
        while stack:
            for m in neighbours[stack.pop()]:
                if m not in seen and m in allowed:
                    seen.add(m)
                    stack.append(m)
        return seen

    def path(self, start: int, goal: int, allowed: Container[int]) -> list[int] | None:
        """A shortest path from ``start`` to ``goal`` through ``allowed`` nodes, or None."""
        if start not in allowed or goal not in allowed:
            return None
        parent = {start: start}
        frontier = [start]
        while frontier:
            nxt = []
            for n in frontier:
                if n == goal:
                    out = [n]
                    while out[-1] != start:
                        out.append(parent[out[-1]])
                    return out[::-1]
                for m in self.neighbours[n]:
                    if m not in parent and m in allowed:
                        parent[m] = n
                        nxt.append(m)
            frontier = nxt
        return None


class UnionFind:
    """Disjoint sets over 0..n-1 with path halving and union by size."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))
        self.size = [1] * n

    def find(self, a: int) -> int:
        parent = self.parent
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def copy(self) -> "UnionFind":
        """An independent copy (for immutable states that extend their parent's sets).

        >>> uf = UnionFind(3); twin = uf.copy(); _ = twin.union(0, 2)
        >>> uf.find(2), twin.find(2)
        (2, 0)
        """
        twin = UnionFind.__new__(UnionFind)
        twin.parent = self.parent[:]
        twin.size = self.size[:]
        return twin

    def union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        if self.size[ra] < self.size[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.size[ra] += self.size[rb]
        return ra
