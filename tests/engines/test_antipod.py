"""Antipod (docs/games/antipod.md, "Rulings"): the sphere, set-up, both wins, notation, twins
and the referee."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines import new_game
from engines.antipod import AntipodState, Place, new, sphere_of
from engines.antipod.state import BLACK, EMPTY, WHITE
from engines.core import FollowUp, IllegalMove, OptionError
from firmware_host.cli import play as referee

REEDBOARD = Path(sys.executable).with_name("reedboard")

# The second picture of the pbmserv help ("a game won by Black"), rows as printed there.
PBMSERV_WIN = """
      a    o o . x . o   / 9         o o . x . o   / 20
     b    x . . o . . .   / 10      x . o o o . .   / 21
    c    x . . . . o o .   / 11    x . . x x x . .   / 22
   d    o x x . . . x . o   /     o x . x o o x o o   /
  e    o . . x o . . . . .       o o x x o x x o . .
 f    o o . x o x x . . . o     o . o x o x . o x . o
  g    . o o x o . x x x x       . x o . o o o o x x
   h    x x x x o o o x o         x o o . . . x o o
    i    o . . x o x o x           o . . . . x x x
     j    . . x . o o x             . . . . x o x
      k    o . x x o o               o . x x o o
"""


# ------------------------------------------------------------------------------ helpers
def reachable(state: AntipodState, allowed: set[int]) -> bool:
    """Brute force: do the centres meet through ``allowed`` points (plain BFS)?"""
    sphere = state.sphere
    start, goal = sphere.centres
    seen, todo = {start}, [start]
    while todo:
        p = todo.pop()
        for q in sphere.graph.neighbours[p]:
            if q in allowed and q not in seen:
                seen.add(q)
                todo.append(q)
    return goal in seen


def points(state: AntipodState, *colours: int) -> set[int]:
    return {p for p, v in enumerate(state.board) if v in colours}


def brute_flags(state: AntipodState) -> tuple[bool, bool]:
    """(Black chain joins the centres, no black-or-empty path joins them), by search."""
    return reachable(state, points(state, BLACK)), not reachable(state, points(state, BLACK, EMPTY))


def index(state: AntipodState, name: str) -> int:
    return state.sphere.names[name]


def label(state: AntipodState, p: int) -> str:
    return state.sphere.graph.labels[p]


def play_all(state: AntipodState, moves: list[str]) -> AntipodState:
    for move in moves:
        state = state.play(move)
    return state


def with_stones(r: int, white=(), black=()) -> AntipodState:
    """The set-up of radius ``r`` plus stones on the given points (no turn order)."""
    board = bytearray(new(r).board)
    for p in white:
        board[p] = WHITE
    for p in black:
        board[p] = BLACK
    return AntipodState(r, bytes(board))


def check_minimal_ring(state: AntipodState, ring: tuple[str, ...]) -> None:
    """The ring is White, cuts the centres apart alone, and lifting any one stone reconnects."""
    stones = {index(state, name) for name in ring}
    assert stones <= points(state, WHITE)
    everything = set(range(len(state.board)))
    assert not reachable(state, everything - stones)
    for p in stones:
        assert reachable(state, everything - stones | {p}), label(state, p)


def check_chain(state: AntipodState, chain: tuple[str, ...]) -> None:
    path = [index(state, name) for name in chain]
    assert (path[0], path[-1]) == state.sphere.centres
    assert all(state.board[p] == BLACK for p in path)
    assert all(b in state.sphere.graph.neighbours[a] for a, b in zip(path, path[1:]))


# ---------------------------------------------------------------------------- the sphere
@pytest.mark.parametrize("r", range(4, 11))
def test_point_counts_and_degrees(r):
    sphere = sphere_of(r)
    graph = sphere.graph
    points_ = len(graph.labels)
    assert points_ == 2 * (3 * r * r - 3 * r + 1) - 6 * (r - 1)
    degrees = Counter(len(n) for n in graph.neighbours)
    assert degrees == {4: 6, 6: points_ - 6}
    assert {len(graph.neighbours[p]) for p in sphere.corners} == {4}
    assert len(sphere.sites) == 2 * (3 * r * r - 3 * r + 1)
    assert sum(len(names) == 2 for names in sphere.site_names) == 6 * (r - 1)


@pytest.mark.parametrize("r", [4, 6, 10])
def test_the_sphere_is_a_triangulated_sphere(r):
    sphere = sphere_of(r)
    edges = Counter(frozenset(pair) for a, b, c in sphere.faces for pair in ((a, b), (b, c), (a, c)))
    assert set(edges.values()) == {2}  # every edge between exactly two triangles
    graph_edges = {frozenset((p, q)) for p, ns in enumerate(sphere.graph.neighbours) for q in ns}
    assert set(edges) == graph_edges
    assert len(sphere.graph.labels) - len(edges) + len(sphere.faces) == 2  # Euler


def test_radius_6_names():
    sphere = sphere_of(6)
    assert len(sphere.graph.labels) == 152
    assert {label(new(6), p) for p in sphere.corners} == {"a1", "a6", "f1", "f11", "k6", "k11"}
    assert [label(new(6), p) for p in sphere.centres] == ["f6", "f17"]
    # an edge point's neighbours come from both boards; a corner has 4
    assert sorted(label(new(6), q) for q in sphere.graph.neighbours[sphere.names["a3"]]) == [
        "a2",
        "a4",
        "b14",
        "b15",
        "b3",
        "b4",
    ]
    assert sphere.names["a14"] == sphere.names["a3"] and sphere.names["f22"] == sphere.names["f11"]


def test_setup():
    for r in (4, 6, 10):
        s = new(r)
        assert points(s, BLACK) == set(s.sphere.centres)
        assert points(s, WHITE) == set(s.sphere.corners)
        assert (s.to_move, s.ply, s.outcome()) == ("white", 0, None)
        assert s.legal_count() == len(s.board) - 8 == len(s.legal_moves())


def test_options():
    assert new_game("antipod").radius == 6
    assert new_game("antipod", 10).radius == 10
    for size in (3, 11):
        with pytest.raises(OptionError):
            new_game("antipod", size)
    with pytest.raises(OptionError):
        new_game("antipod", 6, "team")


def test_turns_alternate_white_first():
    s = new(4).play("a2")
    assert (s.to_move, s.board[index(s, "a2")]) == ("black", WHITE)
    s = s.play("b9")  # right-board interior point
    assert (s.to_move, s.ply, s.board[index(s, "b9")]) == ("white", 2, BLACK)


# ------------------------------------------------------------------------------ the wins
def test_pbmserv_example_is_a_black_win():
    s = AntipodState.from_diagram(PBMSERV_WIN)
    assert (s.radius, s.ply) == (6, 88)
    outcome = s.outcome()
    assert (outcome.winner, outcome.result, outcome.score) == ("black", "connection", None)
    check_chain(s, outcome.sites)
    names = set(outcome.sites)
    assert names & {"c1", "k9", "i11"} and names & {"i21", "d13", "c16"}  # both boards
    assert s.to_move is None and s.legal_count() == 0 and s.legal_moves() == ()
    with pytest.raises(IllegalMove, match="over"):
        s.play("b2")


def test_pbmserv_example_replayed_move_by_move():
    """Played stone by stone (White first), the incremental check also finds Black's win."""
    final = AntipodState.from_diagram(PBMSERV_WIN)
    setup = new(6)
    white = [label(final, p) for p in points(final, WHITE) - points(setup, WHITE)]
    black = [label(final, p) for p in points(final, BLACK) - points(setup, BLACK)]
    state = setup
    for w, b in zip(white, black):
        state = state.play(w)
        assert state.outcome() is None  # White cannot ring: the final position has no ring
        state = state.play(b)
        if state.outcome():
            break
    assert state.outcome().winner == "black" and state.ply <= 88


def test_black_connection_through_the_equator():
    s = new(6)
    white = points(s, WHITE)
    path = s.sphere.graph.path(*s.sphere.centres, set(range(len(s.board))) - white)
    blacks = [label(s, p) for p in path[1:-1]]
    fillers = ["k7", "j6", "h4", "c18", "b17", "k21", "b16", "d20", "h18", "i16"][: len(blacks)]
    for w, b in zip(fillers, blacks):
        assert s.outcome() is None
        s = s.play(w).play(b)
    assert (s.outcome().winner, s.outcome().result) == ("black", "connection")
    assert s.outcome().sites == tuple(label(s, p) for p in path)
    check_chain(s, s.outcome().sites)


def test_ring_around_one_centre():
    s = new(6)
    ring = [label(s, q) for q in s.sphere.graph.neighbours[s.sphere.centres[0]]]
    fillers = ["a14", "k20", "c18", "h21", "j19"]
    for w, b in zip(ring, fillers + [None]):
        s = s.play(w)
        if b:
            assert s.outcome() is None
            s = s.play(b)
    assert (s.outcome().winner, s.outcome().result) == ("white", "ring")
    assert sorted(s.outcome().sites) == sorted(ring)


def test_ring_across_the_equator():
    """White encloses the left board's interior plus the bottom edge: the ring runs along the
    upper equator and through the right board's row j, named from both boards on input."""
    s = new(6)
    sphere = s.sphere
    region = {p for p, names in enumerate(sphere.site_names) if p < 91 and len(names) == 1}
    region |= {sphere.names[f"k{c}"] for c in range(6, 12)}
    fence = {q for p in region for q in sphere.graph.neighbours[p]} - region
    names = [sphere.site_names[p][-1] for p in sorted(fence - points(s, WHITE))]  # right names
    assert any(len(sphere.site_names[p]) == 2 for p in fence)  # edge points
    assert any(p >= 91 for p in fence)  # right-board interior points
    fillers = [label(s, p) for p in sorted(region - points(s, BLACK))]
    for w, b in zip(names, fillers):
        assert s.outcome() is None
        s = s.play(w)
        if w != names[-1]:
            assert s.outcome() is None
            s = s.play(b)
    outcome = s.outcome()
    assert (outcome.winner, outcome.result) == ("white", "ring")
    ring = {index(s, name) for name in outcome.sites}
    assert ring <= fence and any(p >= 91 for p in ring) and any(p in ring for p in sphere.corners)
    check_minimal_ring(s, outcome.sites)


def test_ring_stones_exclude_stray_white_stones():
    stray = ("f5", "e5", "e6", "f7", "g7", "g6", "b2", "k20")
    s = with_stones(6, white=[index(new(6), name) for name in stray])
    assert s.outcome().winner == "white"
    assert sorted(s.outcome().sites) == ["e5", "e6", "f5", "f7", "g6", "g7"]


# ------------------------------------------------------------------------------ notation
def test_parsing_both_names_of_an_edge_point():
    s = new(6)
    for text in ("a3", "a14", "A14", " a3+ ", "a14+", "A3+"):
        assert s.parse_move(text) == Place("a3")
    # Ruling 5: '+' marks an edge point in records, after its name and only there
    for bad, reason in [
        ("f5+", "f5 is not an edge point: only edge points carry '+'"),
        ("+a3", "Cannot read '+a3' ('+' goes after an edge point's name: a3+)"),
        ("a+3", "Cannot read 'a+3' ('+' goes after an edge point's name: a3+)"),
        ("a3++", "Cannot read 'a3++' ('+' goes after an edge point's name: a3+)"),
    ]:
        with pytest.raises(IllegalMove) as info:
            s.parse_move(bad)
        assert info.value.reason == reason
    assert s.record_notation(Place("a3")) == "a3+" and s.record_notation(Place("f5")) == "f5"
    assert str(s.parse_move("f14")) == "f14" and str(s.parse_move("k22")) == "k11"
    assert s.play("a14").board == s.play("a3").board


@pytest.mark.parametrize(
    "text, reason",
    [
        ("a7", "a7 is off the board"),
        ("a18", "a18 is off the board"),
        ("l1", "l1 is off the board"),
        ("xyz", "Cannot read 'xyz'"),
        ("", "Cannot read ''"),
        ("f6", "f6 is already taken"),
        ("a12", "a1 is already taken"),
        ("k22", "k11 is already taken"),
    ],
)
def test_bad_moves_are_refused_clearly(text, reason):
    s = new(6)
    with pytest.raises(IllegalMove) as exc:
        s.play(text)
    assert exc.value.reason == reason


def test_diagram_round_trip():
    s = new(6)
    for move in ("a3", "f14", "k20", "e5"):
        s = s.play(move)
    assert AntipodState.from_diagram(s.diagram()) == s
    assert "a  " in s.diagram() and s.status_lines() == ["White 8 Black 4", "140 empty points"]


def test_unreachable_diagrams_are_refused():
    with pytest.raises(ValueError, match="differs"):
        AntipodState.from_diagram(PBMSERV_WIN.replace("o o . x . o   / 9", "o . . x . o   / 9"))
    with pytest.raises(ValueError, match="reachable"):
        two_white_moves = with_stones(4, white=[index(new(4), "b2"), index(new(4), "c3")])
        AntipodState.from_diagram(two_white_moves.diagram())


# ------------------------------------------------------------------ the physical contract
def test_twin_sites():
    s = new(6)
    labels = [site.label for site in s.sites()]
    assert len(labels) == len(set(labels)) == 182 and {"a1", "a12", "f6", "f17"} <= set(labels)
    left, right = s.realisations(Place("a3"))
    assert (left.filled, left.follow_ups) == ({"a3"}, (FollowUp("twin", frozenset({"a14"})),))
    assert (right.filled, right.follow_ups) == ({"a14"}, (FollowUp("twin", frozenset({"a3"})),))
    (inner,) = s.realisations(Place("f14"))
    assert (inner.emptied, inner.filled, inner.follow_ups) == (frozenset(), {"f14"}, ())
    assert {"a1", "a12", "f6", "f17"} <= s.occupied() and len(s.occupied()) == 2 + 12
    assert s.play("a3").occupied() - s.occupied() == {"a3", "a14"}


def test_moves_for_change_and_targets():
    s = new(6)
    left, right = s.realisations(Place("a3"))
    assert s.moves_for_change(frozenset(), frozenset({"a3"})) == [(Place("a3"), left, 0)]
    assert s.moves_for_change(frozenset(), frozenset({"a14"})) == [(Place("a3"), right, 0)]
    both = s.moves_for_change(frozenset(), frozenset({"a3", "a14"}))
    assert both == [(Place("a3"), left, 1), (Place("a3"), right, 1)]
    assert s.moves_for_change(frozenset(), frozenset({"f14"})) == [
        (Place("f14"), s.realisations(Place("f14"))[0], 0)
    ]
    assert s.moves_for_change(frozenset(), frozenset({"f14", "f15"})) == []
    assert s.moves_for_change(frozenset({"f6"}), frozenset({"f7"})) == []
    assert s.moves_for_change(frozenset(), frozenset({"nowhere"})) == []
    assert s.targets("f6") == frozenset()


def test_sites_are_drawn_side_by_side():
    s = new(6)
    xy = {site.label: (site.x, site.y) for site in s.sites()}
    assert xy["f6"][1] == xy["f17"][1] and xy["f17"][0] - xy["f6"][0] == 12
    assert all(len(site.shape) == 6 for site in s.sites())


# ----------------------------------------------------------------------------- referee
def run_referee(*moves: str, size: int = 6, **flags) -> tuple[int, list[dict], str]:
    out, err = io.StringIO(), io.StringIO()
    code = referee.play("antipod", size=size, moves="; ".join(moves), out=out, err=err, **flags)
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def test_referee_json():
    code, (summary,), _ = run_referee("a14", "f14", as_json=True, legal=True)
    assert code == 0
    assert summary == {
        "game": "antipod",
        "ply": 2,
        "to_move": "white",
        "phase": None,
        "legal_moves": 142,
        "winner": None,
        "result": None,
        "score": None,
        "chain": [],
        "legal": summary["legal"],
    }
    assert len(summary["legal"]) == 142
    assert "a3" not in summary["legal"] and "a4" in summary["legal"]


def test_referee_reports_the_ring():
    s = new(6)
    ring = [label(s, q) for q in s.sphere.graph.neighbours[s.sphere.centres[0]]]
    moves = [m for pair in zip(ring, ["a14", "k20", "c18", "h21", "j19", ""]) for m in pair if m]
    code, (summary,), _ = run_referee(*moves, as_json=True)
    assert code == 0
    assert (summary["winner"], summary["result"], summary["to_move"]) == ("white", "ring", None)
    assert sorted(summary["chain"]) == sorted(ring) and summary["legal_moves"] == 0


def test_referee_illegal_move():
    code, lines, err = run_referee("a3", "a14", trace=True)
    assert code == 1
    assert [line["ply"] for line in lines[:-1]] == [0, 1]
    assert lines[-1] == {"error": "a3 is already taken", "ply": 1, "move": "a14"}
    assert "a3 is already taken" in err


def test_reedboard_play_subprocess():
    done = subprocess.run(
        [str(REEDBOARD), "play", "antipod", "--size", "4", "--moves", "a2; b9; e14+", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert (summary["ply"], summary["to_move"], summary["legal_moves"]) == (3, "black", 56 - 8 - 3)
    bad = subprocess.run(
        [str(REEDBOARD), "play", "antipod", "--size", "4", "--moves", "a2; a9", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 1
    error = {"error": "a2 is already taken", "ply": 1, "move": "a9"}
    assert json.loads(bad.stdout.splitlines()[-1]) == error
    text = subprocess.run(
        [str(REEDBOARD), "play", "antipod", "--size", "4"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert text.returncode == 0 and "white to move" in text.stdout


# ---------------------------------------------------------------------------- properties
radii = st.integers(4, 8)


@given(radii, st.randoms(use_true_random=False))
def test_full_boards_have_exactly_one_winner(r, rnd):
    start = new(r)
    board = bytes(v or rnd.choice((WHITE, BLACK)) for v in start.board)
    s = AntipodState(r, board)
    black, white = s.win_flags()
    assert black != white
    assert (black, white) == brute_flags(s)
    assert s.outcome().winner == ("black" if black else "white")
    if white:
        check_minimal_ring(s, s.outcome().sites)
    else:
        check_chain(s, s.outcome().sites)


@given(radii, st.randoms(use_true_random=False), st.floats(0.1, 0.9))
def test_partial_boards_agree_with_search(r, rnd, fill):
    start = new(r)
    board = bytes(v or (rnd.choice((WHITE, BLACK)) if rnd.random() < fill else EMPTY) for v in start.board)
    s = AntipodState(r, board)
    assert s.win_flags() == brute_flags(s)


@given(radii, st.randoms(use_true_random=False))
def test_random_games(r, rnd):
    """Incremental wins agree with search after every move; no state is ever changed."""
    s = new(r)
    while s.outcome() is None:
        before = (s.board, s.ply, hash(s))
        move = rnd.choice(s.legal_moves())
        assert s.parse_move(str(move)) == move
        t = s.play(move)
        assert (s.board, s.ply, hash(s)) == before
        assert t.legal_count() == (0 if t.outcome() else t.board.count(EMPTY))
        black, white = brute_flags(t)
        expected = "black" if black else "white" if white else None
        assert (t.outcome().winner if t.outcome() else None) == expected
        s = t


@given(radii, st.data())
def test_notation_round_trip(r, data):
    s = new(r)
    site = data.draw(st.sampled_from(s.sites())).label
    move = s.parse_move(site)
    assert site in s.sphere.site_names[index(s, str(move))]
    assert s.parse_move(str(move)) == move
    assert s.parse_move(s.record_notation(move)) == move
    edge = len(s.sphere.site_names[index(s, str(move))]) > 1
    assert s.record_notation(move) == str(move) + "+" * edge
    assert str(move) == label(s, index(s, site))
