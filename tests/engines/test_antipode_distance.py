"""The connection distance the Antipode search evaluates with agrees with a cheapest path
found the slow way (Dijkstra over the cells: own tokens free, any other cell one)."""

from __future__ import annotations

import heapq
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import new_game
from engines.antipode.board import CORNER_PAIRS, GRAPH
from engines.antipode.distance import distances


def slow_distance(own: int) -> int:
    best = len(GRAPH.neighbours)
    for a, b in CORNER_PAIRS:
        cost = lambda n: 0 if own >> n & 1 else 1  # noqa: E731
        seen, todo = {a: cost(a)}, [(cost(a), a)]
        while todo:
            d, n = heapq.heappop(todo)
            if n == b:
                best = min(best, d)
                break
            if d > seen[n]:
                continue
            for m in GRAPH.neighbours[n]:
                if d + cost(m) < seen.get(m, best + 1):
                    seen[m] = d + cost(m)
                    heapq.heappush(todo, (d + cost(m), m))
    return best


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 80), st.integers(0, 10**6))
def test_distance_is_the_cheapest_connection(turns, seed):
    rng, state = random.Random(seed), new_game("antipode")
    for _ in range(turns):
        if state.outcome() is not None:
            break
        state = state.apply(state.random_move(rng))
    blue, red = state.blue, state.tokens & ~state.blue
    assert distances(blue, red) == (slow_distance(blue), slow_distance(red))


def test_a_won_connection_is_at_distance_0():
    state = new_game("antipode")
    rng = random.Random(4)
    while state.outcome() is None or state.outcome().result != "connection":
        state = new_game("antipode") if state.outcome() else state.apply(state.random_move(rng))
    winner = state.outcome().winner
    blue, red = distances(state.blue, state.tokens & ~state.blue)
    assert (blue if winner == "blue" else red) == 0
