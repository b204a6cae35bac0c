"""The connection distance the Antipalos search evaluates with agrees with a shortest path
found the slow way (Dijkstra over the vertices), on random positions of every size."""

from __future__ import annotations

import heapq
import random

from hypothesis import given, settings, strategies as st

from engines import new_game
from engines.antipalos.distance import FAR, distances


def slow_distance(cells: tuple[int, ...], size: int, side: int) -> int:
    """Fewest Trirods joining West-East or South-North: own diagonals cost 0, empty squares 1."""
    edges: dict[tuple[int, int], list[tuple[tuple[int, int], int]]] = {}
    for sq, code in enumerate(cells):
        r, c = divmod(sq, size)
        for diag, (a, b) in enumerate((((c, r), (c + 1, r + 1)), ((c, r + 1), (c + 1, r)))):
            cost = 1 if code == 0 else 0 if code == 2 * side + diag + 1 else None
            if cost is not None:
                edges.setdefault(a, []).append((b, cost))
                edges.setdefault(b, []).append((a, cost))
    best = FAR
    for axis in (0, 1):
        todo = [(0, v) for v in ((x, y) for x in range(size + 1) for y in range(size + 1))
                if v[axis] == 0]
        seen: dict[tuple[int, int], int] = {v: 0 for _, v in todo}
        while todo:
            cost, vertex = heapq.heappop(todo)
            if vertex[axis] == size:
                best = min(best, cost)
                break
            if cost > seen[vertex]:
                continue
            for other, step in edges.get(vertex, ()):
                if cost + step < seen.get(other, FAR):
                    seen[other] = cost + step
                    heapq.heappush(todo, (cost + step, other))
    return best


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([3, 4, 5, 8, 12]), st.integers(0, 400), st.integers(0, 10**6))
def test_distance_is_the_shortest_connection(size, plies, seed):
    rng, state = random.Random(seed), new_game("antipalos", size=size)
    for _ in range(plies):
        if state.outcome() is not None:
            break
        state = state.apply(state.random_move(rng))
    found = distances(state.cells, size, (0, 1))
    assert found == tuple(slow_distance(state.cells, size, side) for side in (0, 1))


def test_a_won_connection_is_at_distance_0_and_a_walled_off_side_is_far():
    state = new_game("antipalos", size=3)
    for move in ("A1*", "*A3", "B2*", "*B3", "C3*"):
        state = state.apply(state.parse_move(move))
    assert state.outcome().winner == "white" and distances(state.cells, 3, (0,)) == (0,)
    walled = (3,) * 9  # every square holds black's /: white cannot place anywhere
    assert distances(walled, 3, (0, 1)) == (FAR, 0)
