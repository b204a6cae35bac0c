"""Phalanx (docs/games/phalanx.md, "Rulings"): set-up, shapes and resting places, moves, phalanx captures, the
self-phalanx removal, points and house rules, notation, the physical contract and the referee."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines import new_game
from engines.core import IllegalMove, Result
from engines.phalanx import Move, Removal, make_piece, new, position
from engines.phalanx.board import NAMES, SHAPES, TABLES
from firmware_host.cli import play as referee

ROOT = Path(__file__).resolve().parents[2]
FILES = "abcdefgh"


def pos(*pieces: str, to_move: str = "green"):
    """A position from "side kind anchor" strings."""
    return position([tuple(piece.split()) for piece in pieces], to_move=to_move)


# ------------------------------------------------------------------------------ set-up
def test_setup_has_fifteen_pieces_a_side_without_overlap():
    s = new()
    assert s.to_move == "green" and s.sides == ("green", "red")
    for side in (0, 1):
        kinds = sorted(p.kind for p in s.pieces if p.side == side)
        assert kinds == ["Archer"] * 4 + ["Auxiliary"] * 8 + ["Hoplite"] * 2 + ["Syntagma"]
    sites = [site for p in s.pieces for site in p.sites]
    assert len(sites) == len(set(sites)) == len(s.occupied()) == 48
    masks = [p.rest.mask for p in s.pieces]
    assert sum(masks) == s._mask  # disjoint quarter masks add up to their union


def test_setup_matches_the_rulings():
    s = new()
    green = {site for p in s.pieces if p.side == 0 for site in p.sites}
    rank1 = {f"{f}1{h}" for n, f in enumerate(FILES) for h in ("nw ne se sw".split()[n % 2 :: 2])}
    assert green == rank1 | {"c2ne", "c2sw", "d2nw", "d2se", "e2ne", "e2sw", "f2nw", "f2se"}
    assert s.piece_on("c2sw").kind == "Hoplite" and s.piece_on("c1nw") == s.piece_on("c2sw")
    assert s.piece_on("f2se") == s.piece_on("f1ne")
    assert s.piece_on("d2se").kind == "Syntagma" and s.piece_on("d2se").sites == {"d2se", "e2sw"}
    assert s.piece_on("e7nw").sites == {"d7ne", "e7nw"}  # Red's Syntagma, apex down
    assert s.piece_on("f7ne").sites == {"f7ne", "f8nw", "f8se"}  # Red's turned Hoplites
    assert s.piece_on("c7nw").sites == {"c7nw", "c8ne", "c8sw"}
    auxiliaries = {p.anchor for p in s.pieces if p.kind == "Auxiliary" and p.side == 0}
    assert auxiliaries == {"d1sw", "d1ne", "e1nw", "e1se", "c2ne", "d2nw", "e2ne", "f2nw"}
    assert s.points() == {"green": 130, "red": 130}


# ------------------------------------------------------------------ shapes and resting places
# Green's outlines as polygons (square units), written from the rulings (docs/games/phalanx.md)
# and independent of the engine's cell tables; Red's are the same turned 180 degrees.
OUTLINES = {
    "auxiliary-nw": ((0, 0), (1, 1), (0, 1)),
    "auxiliary-se": ((0, 0), (1, 0), (1, 1)),
    "auxiliary-ne": ((0, 1), (1, 1), (1, 0)),
    "auxiliary-sw": ((0, 0), (1, 0), (0, 1)),
    "archer": ((0, 0), (1, 0), (1, 1), (0, 1)),
    "hoplite-left": ((0, 0), (1, 0), (1, 1), (0, 2)),
    "hoplite-right": ((0, 0), (1, 0), (1, 2), (0, 1)),
    "syntagma": ((0, 0), (2, 0), (1, 1)),
}


def _turn(outline):
    return tuple((-x, -y) for x, y in outline)


def _lines_match(outline, dx, dy) -> bool:
    """Every outline edge runs along the board's lines: grid lines, or square diagonals of the
    right kind ('/' where file + rank is even)."""
    pts = [(x + dx, y + dy) for x, y in outline]
    if not all(0 <= x <= 8 and 0 <= y <= 8 for x, y in pts):
        return False
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]):
        if x0 == x1 or y0 == y1:
            continue  # grid lines at integer translations
        n = abs(x1 - x0)
        sx, sy = (x1 - x0) // n, (y1 - y0) // n
        for k in range(n):
            x, y = x0 + k * sx, y0 + k * sy
            f, r = min(x, x + sx), min(y, y + sy)
            rising = sx == sy
            if rising != ((f + r) % 2 == 0):
                return False
    return True


def _resting(outline) -> set[tuple[int, int]]:
    """Lower-left corners of the bounding box at every resting place."""
    left, low = min(x for x, _ in outline), min(y for _, y in outline)
    return {
        (dx + left, dy + low) for dx in range(-8, 9) for dy in range(-8, 9) if _lines_match(outline, dx, dy)
    }


def _outline(index: int):
    shape = SHAPES[index]
    outline = OUTLINES[shape.name]
    return _turn(outline) if shape.side == 1 else outline


@pytest.mark.parametrize("index", range(len(SHAPES)))
def test_resting_places_match_an_independent_outline_check(index):
    expected = _resting(_outline(index))
    counts = {"Auxiliary": 32, "Archer": 64, "Hoplite": 28, "Syntagma": 28}
    assert len(expected) == counts[SHAPES[index].kind]
    assert {(o % 8, o // 8) for o in TABLES[index].rests} == expected


@pytest.mark.parametrize("index", range(len(SHAPES)))
def test_a_lone_piece_reaches_every_resting_place_along_its_eight_lines(index):
    rests = _resting(_outline(index))
    side = "red" if SHAPES[index].side == 1 else "green"
    kind = "auxiliary" if SHAPES[index].kind == "Auxiliary" else SHAPES[index].name
    for o, rest in TABLES[index].rests.items():
        s = pos(f"{side} {kind} {NAMES[rest.anchor]}", to_move=side)
        f, r = o % 8, o // 8
        expected = sum(
            (f + k * a, r + k * b) in rests
            for a in (-1, 0, 1)
            for b in (-1, 0, 1)
            if (a, b) != (0, 0)
            for k in range(1, 8)
        )
        assert s.legal_count() == expected


def test_hand_counted_moves_on_an_empty_board():
    assert pos("green archer d4se").legal_count() == 27
    assert pos("green auxiliary a1nw").legal_count() == 13  # c1 e1 g1, a3 a5 a7, b2..h8
    assert pos("green syntagma a1se").legal_count() == 12  # c1 e1 g1, a3 a5 a7, b2..g7


def test_pieces_never_rotate():
    aux = pos("green auxiliary a1nw")
    assert all(m.to.endswith("nw") for m in aux.legal_moves())
    with pytest.raises(ValueError):
        make_piece("green", "syntagma", "d7ne")  # Red's orientation only


# ------------------------------------------------------------------------------ moves
def test_a_move_is_blocked_part_way():
    s = pos("green archer a1se", "red auxiliary a3se")
    with pytest.raises(IllegalMove, match="The way is blocked"):
        s.play("a1se-a5se")
    with pytest.raises(IllegalMove, match="Target is occupied"):
        s.play("a1se-a3se")
    assert s.play("a1se-a2sw").piece_on("a2ne").kind == "Archer"


def test_a_step_between_resting_places_is_checked_too():
    # The nw Auxiliary on a1 going to c1 passes b1 (a '\' square) as an nw-shaped step: it
    # overlaps either half there.
    for blocker in ("b1ne", "b1sw"):
        s = pos("green auxiliary a1nw", f"red auxiliary {blocker}")
        assert "a1nw-c1nw" not in {str(m) for m in s.legal_moves()}
        with pytest.raises(IllegalMove, match="blocked"):
            s.play("a1nw-c1nw")
    clear = pos("green auxiliary a1nw", "red auxiliary c1se")
    assert str(clear.play("a1nw-c1nw").piece_on("c1nw").anchor) == "c1nw"


def test_moves_only_in_eight_directions_and_to_resting_places():
    s = pos("green archer a1se", "green syntagma d2se")
    with pytest.raises(IllegalMove, match="Not a straight line"):
        s.play("a1se-b3sw")
    with pytest.raises(IllegalMove, match="Syntagma can't go to d6nw"):
        s.play("d2se-d6nw")
    with pytest.raises(IllegalMove, match="Syntagma can't go to e2sw"):
        s.play("d2se-e2sw")  # a triangle of no destination


# ------------------------------------------------------------------------------ captures
def test_capture_on_two_sides():
    s = pos("green archer c4sw", "red archer d4se", "green archer d1sw", "red archer h8se")
    move = s.parse_move("d1sw-d3sw")
    (real,) = s.realisations(move)
    assert real.follow_ups[0].action == "remove" and real.follow_ups[0].sites == {"d4nw", "d4se"}
    after = s.play(move)
    assert after.piece_on("d4se") is None and after.taken == (1, 0) and after.quiet == 0
    one_side = pos("red archer d4se", "green archer d1sw", "red archer h8se")
    assert one_side.play("d1sw-d3sw").piece_on("d4se") is not None


def test_a_side_bordered_by_two_different_enemy_pieces():
    # Green's left Hoplite c3+c4sw: its left side (two units) borders b3ne and b4se.
    base = ["green hoplite-left c3se", "red archer c1se", "green archer h1sw"]
    s = pos(*base, "red archer b3sw", "red auxiliary b4se", to_move="red")
    after = s.play("c1se-c2sw")  # the Archer borders the bottom side
    assert after.piece_on("c3se") is None and after.taken == (0, 1)
    half = pos(*base, "red archer b3sw", to_move="red")
    assert half.play("c1se-c2sw").piece_on("c3se") is not None


def test_the_board_edge_does_not_count():
    s = pos("red archer a4sw", "green archer c4sw", "green archer h1sw")
    assert s.play("c4sw-b4se").piece_on("a4sw") is not None  # edge + one enemy side
    corner = pos("red archer a1se", "green archer b1sw", "green archer c2sw")
    assert corner.play("c2sw-a2sw").piece_on("a1se") is None  # right + top bordered
    # Red's Syntagma with its base on the top edge falls to its two slanted sides.
    top = pos("red syntagma c8ne", "green auxiliary c8sw", "green auxiliary f8se", "red archer a1se")
    assert top.piece_on("c8ne").sites == {"c8ne", "d8nw"}
    assert top.play("f8se-d8se").piece_on("c8ne") is None


def test_a_double_phalanx_removes_both_and_saves_the_mover():
    s = pos(
        "red archer c4sw",
        "red archer e4sw",
        "green archer c3se",
        "green archer e3se",
        "green archer d1sw",
        "red archer h8se",
    )
    move = s.parse_move("d1sw-d4se")
    (real,) = s.realisations(move)
    assert real.follow_ups[0].sites == {"c4ne", "c4sw", "e4ne", "e4sw"}
    after = s.play(move)
    assert after.taken == (2, 0) and not after.pending  # captures removed before the self-check
    assert after.piece_on("d4se").side == 0 and after.to_move == "red"


def test_a_self_phalanx_is_removed_on_the_opponents_turn():
    s = pos("red archer c4sw", "red archer e4sw", "green archer d1sw", "green archer h1sw")
    after = s.play("d1sw-d4se")
    assert after.to_move == "red" and [p.anchor for p in after.pending] == ["d4se"]
    assert [str(m) for m in after.legal_moves()] == ["xd4se"]
    assert "d4se" in after.occupied()  # still on the board until removed
    with pytest.raises(IllegalMove, match="First remove d4se"):
        after.play("c4sw-c5se")
    with pytest.raises(IllegalMove, match="Must remove d4se"):
        after.play("xh1sw")
    (real,) = after.realisations(after.parse_move("x"))
    assert real.emptied == {"d4nw", "d4se"} and not real.filled and not real.follow_ups
    assert after.moves_for_change(real.emptied, frozenset()) == [(Removal(("d4se",)), real, 0)]
    done = after.play("X D4SE")
    assert done.taken == (0, 1) and done.to_move == "green" and done.piece_on("d4se") is None
    with pytest.raises(IllegalMove, match="Nothing to remove"):
        done.play("x")


def test_fourteen_captures_win():
    s = pos("red archer d4se", "green archer c4sw", "green archer d1sw", "red archer h8se")
    s = replace(s, taken=(13, 0))
    won = s.play("d1sw-d3sw")
    assert won.outcome().winner == "green" and won.outcome().result == "captures"
    assert won.to_move is None and won.legal_moves() == ()
    with pytest.raises(IllegalMove, match="The game is over"):
        won.play("d3sw-d2se")


# ------------------------------------------------------------------------ points, house rules
def shuffle(state, moves, times):
    for _ in range(times):
        for move in moves:
            state = state.play(move)
    return state


def test_points_count():
    s = pos(
        "green syntagma a1se",
        "green hoplite-left a3se",
        "red archer h8se",
        "red auxiliary h6nw",
        "red auxiliary g6sw",
    )
    assert s.points() == {"green": 35, "red": 20}
    assert s.by_points(Result.TIME).winner == "green"
    assert new().by_points(Result.TIME).winner == "draw"


def test_third_repetition_is_decided_by_points():
    s = pos("green archer a1se", "green auxiliary c1se", "red archer h8se")
    moves = ["a1se-a2sw", "h8se-h7sw", "a2sw-a1se", "h7sw-h8se"]
    twice = shuffle(s, moves, 1)
    assert twice.outcome() is None
    thrice = shuffle(twice, moves, 1)
    assert thrice.outcome().winner == "green" and thrice.outcome().result == "repetition"
    no_rep = replace(s, rules=replace(s.rules, repetition=False))
    assert shuffle(no_rep, moves, 5).outcome() is None


def test_two_hundred_quiet_plies_are_decided_by_points():
    s = new(repetition=False)
    moves = ["a1se-a2sw", "h8se-h7sw", "a2sw-a1se", "h7sw-h8se"]
    s = shuffle(s, moves, 49)
    s = s.play(moves[0]).play(moves[1]).play(moves[2])
    assert s.ply == 199 and s.outcome() is None
    s = s.play(moves[3])
    assert s.outcome().winner == "draw" and s.outcome().result == "no-captures"
    assert shuffle(new(repetition=False, quiet_plies=None), moves, 60).outcome() is None


def test_no_legal_move_is_decided_by_points():
    s = pos(
        "green auxiliary a1nw", "red auxiliary a1se", "red archer a2sw", "red archer b2se", "red archer b1sw"
    )
    assert s.outcome().result == "no-moves" and s.outcome().winner == "red"


# ------------------------------------------------------------------------------ notation
def test_notation_is_tolerant_and_round_trips():
    s = new()
    assert s.parse_move(" A1SE -  a3se ") == Move("a1se", "a3se")
    assert s.parse_move("a1nw\u2013a3se") == Move("a1se", "a3se")  # any triangle, en dash
    assert s.parse_move("a1se-a3nw") == Move("a1se", "a3se")  # the only destination covering a3nw
    for move in s.legal_moves():
        assert s.parse_move(str(move)) == move
    assert str(Removal(("d4se", "e4sw"))) == "xd4se,e4sw"


def test_a_removal_of_several_pieces_round_trips():
    s = pos("green archer e4sw", "green auxiliary d4se", "red archer h8se", to_move="red")
    s = replace(s, pending=tuple(p for p in s.pieces if p.side == 0))
    (due,) = s.legal_moves()
    assert str(due) == "xd4se,e4sw" == str(s.parse_move(str(due)))
    assert s.parse_move(" X E4NE + D4SE ") == due == s.parse_move("x")
    assert s.play("xe4sw,d4se").pieces == tuple(p for p in s.pieces if p.side == 1)


@pytest.mark.parametrize(
    "text, reason",
    [
        ("zz", "Cannot read 'zz'"),
        ("a1-a4", "Cannot read 'a1-a4': name triangles, like a1se-a3se"),
        ("a1se a3se", "Cannot read 'a1se a3se'"),
        ("d4ne-d5ne", "d4 has no ne half"),
        ("a3se-a4sw", "No piece on a3se"),
        ("h8se-h6se", "h8se is red's"),
        ("a1se-a1se", "It is already there"),
    ],
)
def test_notation_errors(text, reason):
    with pytest.raises(IllegalMove) as err:
        new().play(text)
    assert err.value.reason == reason


def test_a_move_must_name_the_anchor():
    with pytest.raises(IllegalMove, match="Name it by a1se"):
        new().play(Move("a1nw", "a3se"))


# ------------------------------------------------------------------------ physical contract
def test_sites_are_the_128_triangles():
    sites = new().sites()
    assert len(sites) == 128 and len({s.label for s in sites}) == 128
    for site in sites:
        (ax, ay), (bx, by), (cx, cy) = site.shape
        assert abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) == 1  # area 1/2
        assert (site.x, site.y) == ((ax + bx + cx) / 3, (ay + by + cy) / 3)


def test_realisation_and_targets_of_a_lifted_piece():
    s = new()
    (real,) = s.realisations(s.parse_move("c1se-b2se"))
    assert real.emptied == {"c1nw", "c1se", "c2sw"} and real.filled == {"b2nw", "b2se", "b3sw"}
    assert s.targets("c2sw") == {"b2nw", "b2se", "b3sw", "a3nw", "a3se", "a4sw"}
    assert s.targets("h8se") == frozenset()  # Red's piece on Green's turn
    assert s.targets("a4sw") == frozenset()
    found = s.moves_for_change(real.emptied, real.filled)
    assert [str(m) for m, _, _ in found] == ["c1se-b2se"]
    assert s.moves_for_change(frozenset({"c1nw"}), frozenset()) == []


def test_a_capture_is_recognised_before_and_after_the_removal():
    s = pos("green archer c4sw", "red archer d4se", "green archer d1sw", "red archer h8se")
    (real,) = s.realisations(s.parse_move("d1sw-d3sw"))
    assert [d for _, _, d in s.moves_for_change(real.emptied, real.filled)] == [0]
    gone = real.emptied | {"d4nw", "d4se"}
    assert [d for _, _, d in s.moves_for_change(gone, real.filled)] == [1]


# ------------------------------------------------------------------------------ properties
def _random_game(picks):
    state, seen = new(), []
    for pick in picks:
        moves = state.legal_moves()
        if not moves:
            break
        seen.append((state, moves[pick % len(moves)]))
        state = state.apply(moves[pick % len(moves)])
    return seen, state


def _check_step(state, move):
    """Every per-move rule and contract property; returns the next state."""
    before = (hash(state), state.occupied(), state.pieces, state.taken)
    after = state.play(str(move))
    assert (hash(state), state.occupied(), state.pieces, state.taken) == before  # no mutation
    covered = [t for p in after.pieces for t in p.rest.triangles]
    assert len(covered) == len(set(covered))  # pieces never overlap
    mask = 0
    for p in after.pieces:
        assert not mask & p.rest.mask
        mask |= p.rest.mask
    assert len(after.pieces) <= len(state.pieces)  # the number of pieces only falls
    assert sum(after.taken) - sum(state.taken) == len(state.pieces) - len(after.pieces)
    assert state.parse_move(str(move)) == move
    (real,) = state.realisations(move)
    assert real.board_after(state.occupied(), len(real.follow_ups)) == after.occupied()
    assert [m for m, _, _ in state.moves_for_change(real.emptied, real.filled)] == [move]
    if isinstance(move, Move):
        assert real.filled <= state.targets(move.frm)
    return after


@given(st.lists(st.integers(min_value=0, max_value=10**6), max_size=200))
def test_random_games_keep_every_rule(picks):
    seen, _ = _random_game(picks)
    for state, move in seen:
        _check_step(state, move)


def test_whole_random_games_capture_self_phalanx_and_end():
    rng = random.Random(6)
    kinds = set()
    for _ in range(2):
        state = new()
        while state.outcome() is None:
            move = rng.choice(state.legal_moves())
            after = _check_step(state, move)
            kinds.add(
                "removal"
                if isinstance(move, Removal)
                else "capture"
                if len(after.pieces) < len(state.pieces)
                else "move"
            )
            state = after
        assert state.outcome().result in ("captures", "no-captures", "repetition", "no-moves")
    assert kinds == {"move", "capture", "removal"}


@given(
    st.lists(st.integers(min_value=0, max_value=10**6), max_size=40), st.integers(0, 127), st.integers(0, 127)
)
def test_check_agrees_with_the_generated_moves(picks, a, b):
    _, state = _random_game(picks)
    if state.outcome() or state.pending:
        return
    legal = {str(m) for m in state.legal_moves()}
    move = Move(NAMES[a], NAMES[b])
    try:
        state.check(move)
        assert str(move) in legal
    except IllegalMove:
        assert str(move) not in legal


# ------------------------------------------------------------------------------ referee
KEYS = ["game", "ply", "to_move", "phase", "legal_moves", "winner", "result", "score", "chain"]


def test_referee_json():
    out, err = io.StringIO(), io.StringIO()
    moves = "a1se-a2sw; h8se-h7sw"
    assert referee.play("phalanx", moves=moves, as_json=True, out=out, err=err) == 0
    summary = json.loads(out.getvalue())
    after = new_game("phalanx").play("a1se-a2sw").play("h8se-h7sw")
    assert list(summary) == KEYS
    assert summary == {
        "game": "phalanx",
        "ply": 2,
        "to_move": "green",
        "phase": None,
        "legal_moves": after.legal_count(),
        "winner": None,
        "result": None,
        "score": None,
        "chain": [],
    }


def test_referee_stops_at_an_illegal_move():
    out, err = io.StringIO(), io.StringIO()
    moves = "a1se-a2sw; a2sw-a3se"
    assert referee.play("phalanx", moves=moves, as_json=True, out=out, err=err) == 1
    assert json.loads(out.getvalue().splitlines()[-1]) == {
        "error": "a2sw is green's",
        "ply": 1,
        "move": "a2sw-a3se",
    }
    assert "move 2" in err.getvalue()


def test_referee_text_and_legal_list():
    out = io.StringIO()
    assert referee.play("phalanx", legal=True, out=out, err=io.StringIO()) == 0
    text = out.getvalue()
    assert "A/A A\\A H/H" in text and "green to move, 88 legal moves" in text
    out = io.StringIO()
    referee.play("phalanx", legal=True, as_json=True, out=out, err=io.StringIO())
    legal = json.loads(out.getvalue())["legal"]
    assert len(legal) == 88 and legal == sorted(legal) and "a1se-a2sw" in legal


def test_reedboard_play_phalanx_subprocess():
    exe = Path(sys.executable).with_name("reedboard")
    done = subprocess.run(
        [str(exe), "play", "phalanx", "--json", "--moves", "A1SE-A2SW"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["to_move"] == "red"
    bad = subprocess.run(
        [str(exe), "play", "phalanx", "--json", "--moves", "a1se-b3sw"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert bad.returncode == 1
    assert json.loads(bad.stdout.splitlines()[-1]) == {
        "error": "Not a straight line",
        "ply": 0,
        "move": "a1se-b3sw",
    }
    assert bad.stderr.strip() == "reedboard play: move 1 (a1se-b3sw): Not a straight line"


@given(st.integers(0, 10_000))
def test_every_whole_piece_moved_where_it_may_not_go_is_refused_with_a_reason(seed):
    """A piece of several triangles changes several sites; the engine still says why."""
    rng, state = random.Random(seed), new()
    for _ in range(rng.randint(0, 10)):
        if state.outcome():
            break
        state = state.apply(rng.choice(state.legal_moves()))
    occupied = state.occupied()
    legal = {frozenset(r.filled) for m in state.legal_moves() for r in state.realisations(m)}
    for piece in (p for p in state.pieces if p.side == state.turn and not state.pending):
        for rest in TABLES[piece.shape].rests.values():
            new_sites = frozenset(NAMES[t] for t in rest.triangles)
            if new_sites & (occupied - piece.sites) or new_sites == piece.sites:
                continue
            emptied, filled = piece.sites - new_sites, new_sites - piece.sites
            if filled in legal:
                continue
            assert state.refusal(emptied, filled) in ("Not a straight line", "The way is blocked")
