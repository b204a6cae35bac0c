"""The connection distance the Antipalos search evaluates with, and the squares on its cheapest
paths, agree with shortest paths found the slow way (Dijkstra over the vertices) on random
positions of every size; a Trirod off those squares changes no side's distance."""

from __future__ import annotations

import heapq
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import new_game
from engines.antipalos.distance import BOTTLENECK, FAR, WAY, contested, paths, remaining


def _edges(cells: tuple[int, ...], size: int, side: int) -> dict:
    """Vertex -> (vertex, cost, square): own diagonals cost 0, empty squares' diagonals 1."""
    edges: dict[tuple[int, int], list[tuple[tuple[int, int], int, int]]] = {}
    for sq, code in enumerate(cells):
        r, c = divmod(sq, size)
        for diag, (a, b) in enumerate((((c, r), (c + 1, r + 1)), ((c, r + 1), (c + 1, r)))):
            cost = 1 if code == 0 else 0 if code == 2 * side + diag + 1 else None
            if cost is not None:
                edges.setdefault(a, []).append((b, cost, sq))
                edges.setdefault(b, []).append((a, cost, sq))
    return edges


def _reach(edges: dict, size: int, axis: int, line: int) -> dict[tuple[int, int], int]:
    """Dijkstra: each vertex's cost from the border where coordinate ``axis`` is ``line``."""
    seen = {v: 0 for v in ((x, y) for x in range(size + 1) for y in range(size + 1)) if v[axis] == line}
    todo = [(0, v) for v in seen]
    while todo:
        cost, vertex = heapq.heappop(todo)
        if cost > seen[vertex]:
            continue
        for other, step, _ in edges.get(vertex, ()):
            if cost + step < seen.get(other, FAR):
                seen[other] = cost + step
                heapq.heappush(todo, (cost + step, other))
    return seen


def slow_paths(cells: tuple[int, ...], size: int, side: int) -> tuple[int, int]:
    """Fewest Trirods joining West-East or South-North, and the empty squares with a diagonal
    on a path of that cost (for an axis of that cost)."""
    edges = _edges(cells, size, side)
    ways = []
    for axis in (0, 1):
        start, goal = _reach(edges, size, axis, 0), _reach(edges, size, axis, size)
        cost = min((c for v, c in start.items() if v[axis] == size), default=FAR)
        ways.append((cost, start, goal))
    best = min(cost for cost, _, _ in ways)
    on = set()
    for cost, start, goal in ways:
        if cost != best or best in (0, FAR):
            continue
        for a, links in edges.items():
            for b, step, sq in links:
                if step and start.get(a, FAR) + 1 + goal.get(b, FAR) == best:
                    on.add(sq)
    return best, len(on)


def _played(size: int, plies: int, seed: int):
    rng, state = random.Random(seed), new_game("antipalos", size=size)
    for _ in range(plies):
        if state.outcome() is not None:
            break
        state = state.apply(state.random_move(rng))
    return state


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([3, 4, 5, 8, 12]), st.integers(0, 400), st.integers(0, 10**6))
def test_distance_and_squares_on_cheapest_paths_agree_with_dijkstra(size, plies, seed):
    state = _played(size, plies, seed)
    slow = tuple(slow_paths(state.cells, size, side) for side in (0, 1))
    assert paths(state.cells, size, (0, 1)) == slow


def test_a_won_connection_is_at_distance_0_and_a_walled_off_side_is_far():
    state = new_game("antipalos", size=3)
    for move in ("A1*", "*A3", "B2*", "*B3", "C3*"):
        state = state.apply(state.parse_move(move))
    assert state.outcome().winner == "white" and paths(state.cells, 3, (0,)) == ((0, 0),)
    walled = (3,) * 9  # every square holds black's /: white cannot place anywhere
    assert paths(walled, 3, (0, 1)) == ((FAR, 0), (0, 0))


def test_a_connection_one_square_away_through_that_square_only_is_weighed_further():
    state = new_game("antipalos", size=3)
    for move in ("A1*", "*A3", "C3*", "*C1"):  # B2 joins either side's pair, its own way
        state = state.apply(state.parse_move(move))
    assert paths(state.cells, 3, (0, 1)) == ((1, 1), (1, 1))
    assert remaining(1, 1) == 1 + BOTTLENECK - WAY and remaining(1, 6) < remaining(1, 2) < 1
    assert state.evaluate("white") == 0.0  # alike for both
    elsewhere = state.apply(state.parse_move("A2*"))  # white plays elsewhere: black takes it
    assert elsewhere.apply(elsewhere.parse_move("*B2")).outcome().winner == "black"


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([3, 4, 5, 8]), st.integers(0, 400), st.integers(0, 10**6))
def test_a_trirod_off_every_cheapest_path_changes_no_distance(size, plies, seed):
    state = _played(size, plies, seed)
    before = [cost for cost, _ in paths(state.cells, size, (0, 1))]
    on = set(contested(state.cells, size, (0, 1)))
    assert on <= set(state.empty_squares())
    for sq in set(state.empty_squares()) - on:
        for code in (1, 2, 3, 4):  # either side's Trirod, either way
            cells = state.cells[:sq] + (code,) + state.cells[sq + 1 :]
            assert [cost for cost, _ in paths(cells, size, (0, 1))] == before


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([3, 4, 8, 12]), st.integers(0, 400), st.integers(0, 10**6), st.integers(1, 300))
def test_the_moves_worth_searching_are_legal_and_bring_a_trirod_to_a_contested_square(
    size, plies, seed, width
):
    state = _played(size, plies, seed)
    moves = state.search_moves(random.Random(seed), width)
    if state.outcome() is not None:
        assert moves is None
        return
    on = set(contested(state.cells, size, (0, 1)))
    if not on:
        assert moves is None
        return
    assert 0 < len(moves) <= width and len(set(moves)) == len(moves)
    geo = state.setup.geo
    for move in moves:
        state.check(move)
        turned = getattr(move, "src", None) == move.to.turned
        assert turned or geo.site_of(move.to) >> 1 in on
