"""Anti-Grid (docs/games/anti-grid.md, "Rulings"): geometry, moves, blockades, captures, wins,
chain variant, contract."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from engines import new_game
from engines.antigrid import OK, QUIET_LIMIT, AntiGridState, Move, new
from engines.antigrid.board import (
    BLUE,
    RED,
    SHARED,
    grid,
    parse_point,
    point_kind,
    point_name,
)
from engines.core import FollowUp, IllegalMove, OptionError, Outcome
from firmware_host.cli.play import play


def pos(red: str, blue: str, **kw) -> AntiGridState:
    """An n=6 position from space-separated point names."""
    return AntiGridState.position(kw.pop("n", 6), red.split(), blue.split(), **kw)


def names(points) -> set[str]:
    return {point_name(p) for p in points}


def moves_of(state: AntiGridState) -> set[str]:
    return {str(m) for m in state.legal_moves()}


# ------------------------------------------------------------------ geometry
@pytest.mark.parametrize("n, points", [(6, 122), (8, 226)])
def test_point_counts(n, points):
    g = grid(n)
    kinds = [g.kind[p] for p in g.points]
    assert len(g.points) == points == len(new(n).sites())
    assert kinds.count(SHARED) == 2 * (n - 1) ** 2
    assert kinds.count(RED) == kinds.count(BLUE) == n * n


@pytest.mark.parametrize("n", [6, 8])
def test_set_up(n):
    state = new(n)
    g = state.grid
    assert len(state.pawns(RED)) == len(state.pawns(BLUE)) == 2 * n - 1
    assert all(0 in (p % 16, p // 16) and g.kind[p] == RED for p in state.pawns(RED))
    top = 2 * n - 1
    assert all(top in (p % 16, p // 16) and g.kind[p] == BLUE for p in state.pawns(BLUE))
    assert state.to_move == "red" and state.sides == ("red", "blue")


@pytest.mark.parametrize("n", [6, 8])
@pytest.mark.parametrize("colour", [RED, BLUE])
def test_never_flankable_points_are_start_points_and_far_corner(n, colour):
    g = grid(n)
    expected = set(new(n).pawns(colour)) | {g.far_corner(colour)}
    assert g.never_flankable(colour) == expected
    assert names([g.far_corner(colour)]) == (
        {f"{'k' if n == 6 else 'o'}{2 * n - 1}"} if colour == RED else {"b2"}
    )


def test_lines_and_their_points():
    g = grid(6)
    assert names(g.line_points(RED, row=0)) == {"a1", "c1", "e1", "g1", "i1", "k1"}
    assert [point_name(p) for p in g.line_points(BLUE, row=1)] == [
        "b2",
        "c2",
        "d2",
        "e2",
        "f2",
        "g2",
        "h2",
        "i2",
        "j2",
        "k2",
        "l2",
    ]
    assert [point_name(p) for p in g.line_points(BLUE, column=11)][:2] == ["l2", "l4"]
    assert point_kind("c2") == "shared" and point_kind("l12") == "blue"
    with pytest.raises(ValueError):
        point_kind("zz")


def test_pawns_stand_only_on_own_or_shared_points():
    with pytest.raises(ValueError):
        pos("b2", "l12 j12")
    with pytest.raises(ValueError):
        pos("a1 c1", "a3")


# ------------------------------------------------------------------- moves
def test_moves_run_along_own_lines_through_empty_points():
    state = pos("a5 a1 c1", "l12 j12")
    assert {m for m in moves_of(state) if m.startswith("a5")} == {f"a5-{c}5" for c in "bcdefghijk"} | {
        "a5-a3",
        "a5-a7",
        "a5-a9",
        "a5-a11",
    }
    with pytest.raises(IllegalMove, match="not along a red line"):
        state.play("a5-c7")
    with pytest.raises(IllegalMove, match="not along a red line"):
        state.play("a5-b6")  # b6 is a blue point
    with pytest.raises(IllegalMove, match="a3 is in the way"):
        pos("a5 a3 c1", "l12 j12").play("a5-a1")
    with pytest.raises(IllegalMove, match="No pawn on e5"):
        state.play("e5-e7")
    with pytest.raises(IllegalMove, match="l12 is blue's pawn"):
        state.play("l12-j12")


def test_blue_moves_along_blue_lines():
    state = new(6).play("a3-b3")
    assert "l10-k10" in moves_of(state) and "l10-b10" in moves_of(state)
    assert not any(m.startswith("l12") for m in moves_of(state))
    with pytest.raises(IllegalMove, match="occupied"):
        state.play("l10-l8")


def test_blockade_stops_a_pawn_and_the_pawn_there_is_safe():
    # Blue b4 and b6 guard the shared point b5 on red's row 5.
    state = pos("a5 a1 c1", "b4 b6 l12")
    assert "a5-b5" in moves_of(state)
    assert not any(m.startswith("a5-") and m[3] > "b" and m.endswith("5") for m in moves_of(state))
    with pytest.raises(IllegalMove, match="Blockade at b5"):
        state.play("a5-c5")
    after = state.play("a5-b5")
    assert after.board[parse_point("b5")] == RED
    assert len(after.pawns(RED)) == 3 and len(after.pawns(BLUE)) == 3
    # the blockaded pawn may leave in either direction along its line
    after = after.play("l12-j12")
    assert {"b5-a5", "b5-c5", "b5-k5"} <= moves_of(after)


def test_blockade_of_blue_by_red():
    # Red c1 and c3 guard the shared point c2 on blue's row 2.
    state = pos("c1 c3 a1", "b2 l12", to_move="blue")
    assert "b2-c2" in moves_of(state)
    with pytest.raises(IllegalMove, match="Blockade at c2"):
        state.play("b2-d2")


def test_one_guard_is_no_blockade():
    state = pos("a5 a1 c1", "b4 l12")
    assert "a5-k5" in moves_of(state)


# ---------------------------------------------------------------- captures
def test_capture_along_a_red_line():
    state = pos("a3 c1 a1", "b3 l12 j12")
    real = state.realisations(state.parse_move("c1-c3"))
    after = state.play("c1-c3")
    assert after.board[parse_point("b3")] == 0 and len(after.pawns(BLUE)) == 2
    assert real[0].follow_ups == (FollowUp("remove", frozenset({"b3"})),)
    assert after.quiet == 0


def test_capture_along_a_blue_line_flanking_from_shared_points():
    state = pos("c2 e1 a1", "d2 l12 j12")
    after = state.play("e1-e2")
    assert names(after.pawns(BLUE)) == {"l12", "j12"}


def test_capture_along_a_blue_column():
    # red on shared d3 and d5 around blue d4 (blue column d)
    state = pos("d3 c5 a1", "d4 l12 j12")
    assert names(state.play("c5-d5").pawns(BLUE)) == {"l12", "j12"}


def test_blue_captures_a_red_pawn():
    state = pos("c2 a1 e1", "b2 f2 l12", to_move="blue")
    after = state.play("f2-d2")  # blue b2, red c2, blue d2 on blue row 2
    assert names(after.pawns(RED)) == {"a1", "e1"}


def test_multi_pawn_run():
    state = pos("c2 g1 a1", "d2 e2 f2 l12 j12")
    after = state.play("g1-g2")
    assert names(after.pawns(BLUE)) == {"l12", "j12"}
    (real,) = state.realisations(state.parse_move("g1-g2"))
    assert real.follow_ups[0].sites == {"d2", "e2", "f2"}


def test_run_with_a_gap_is_not_captured():
    state = pos("c2 i1 a1", "d2 e2 g2 l12 j12")
    assert len(state.play("i1-i2").pawns(BLUE)) == 5


def test_captures_in_several_directions_at_once():
    state = pos("a3 e3 c1 a1", "b3 d3 l12", to_move="red")
    after = state.play("c1-c3")
    assert names(after.pawns(BLUE)) == {"l12"}
    assert after.outcome() == Outcome("red", "captures")


def test_no_passive_capture():
    # red moves between blue b3 and d3 on its row: safe
    state = pos("c1 a1 e1", "b3 d3 l12")
    after = state.play("c1-c3")
    assert after.board[parse_point("c3")] == RED and len(after.pawns(RED)) == 3
    # red stops on shared c2 between blue b2 and d2 on blue's row (a blockade too): safe
    state = pos("c1 a1 e1", "b2 d2 l12")
    assert "c1-c3" not in moves_of(state)
    after = state.play("c1-c2")
    assert after.board[parse_point("c2")] == RED and len(after.pawns(RED)) == 3


# -------------------------------------------------------------------- wins
def test_win_by_captures():
    state = pos("a3 c1 a1", "b3 l12")
    after = state.play("c1-c3")
    assert after.outcome() == Outcome("red", "captures")
    assert after.to_move is None and after.legal_moves() == () and after.legal_count() == 0
    with pytest.raises(IllegalMove, match="over"):
        after.play("c3-e3")


def test_win_when_the_side_to_move_has_no_move():
    state = pos("c2 e2 b3 g3 a1", "b2 d2")
    before = moves_of(replace(state, mover=BLUE))  # before red closes d3: only d2 moves, up
    assert "d2-d3" in before and {m[:3] for m in before} == {"d2-"}
    after = state.play("g3-d3")
    assert len(after.pawns(BLUE)) == 2
    assert after.outcome() == Outcome("red", "no-moves")


def test_trapped_both_sides_is_a_draw():
    state = pos("a1 c1 e5", "l12 j12", quiet=QUIET_LIMIT - 1)
    after = state.play("e5-e1")
    assert after.quiet == QUIET_LIMIT
    assert after.outcome() == Outcome("draw", "trapped")


def test_trapped_side_loses():
    # blue only on its start points, red e7 can be flanked: blue loses
    state = pos("a1 c1 e5", "l12 j12", quiet=QUIET_LIMIT - 1)
    assert state.play("e5-e7").outcome() == Outcome("red", "trapped")
    # red only on its start points, blue j10 can be flanked: red loses
    state = pos("a1 c1 e5", "l12 j10", quiet=QUIET_LIMIT - 1)
    assert state.play("e5-e1").outcome() == Outcome("blue", "trapped")


def test_trapped_rule_needs_forty_quiet_plies_and_can_be_switched_off():
    state = pos("a1 c1 e5", "l12 j12", quiet=QUIET_LIMIT - 2)
    assert state.play("e5-e1").outcome() is None
    off = pos("a1 c1 e5", "l12 j12", quiet=QUIET_LIMIT - 1, trapped_rule=False)
    assert off.play("e5-e1").outcome() is None
    assert not new(6, trapped_rule=False).trapped_rule and new(6).trapped_rule


# ------------------------------------------------------------ chain variant
CHAIN = ("a3 c1 e1 g2 a1", "b3 f2 l12 j12 l10")


def test_plain_variant_passes_the_turn_after_a_capture():
    after = pos(*CHAIN).play("c1-c3")
    assert after.to_move == "blue" and not after.continuing and after.ok_move() is None


def test_chain_continues_only_with_captures():
    state = pos(*CHAIN, variant="chain").play("c1-c3")
    assert state.continuing and state.to_move == "red" and state.ok_move() is OK
    assert moves_of(state) == {"e1-e2", "ok"}
    assert state.legal_count() == 2
    with pytest.raises(IllegalMove, match="captures nothing"):
        state.play("a3-a5")
    assert "Red: capture or OK" in state.status_lines()


def test_chain_ends_with_ok():
    state = pos(*CHAIN, variant="chain").play("c1-c3")
    after = state.play("ok")
    assert after.to_move == "blue" and not after.continuing and after.ply == 2
    assert after.board == state.board
    assert state.realisations(OK)[0].emptied == frozenset()
    with pytest.raises(IllegalMove, match="OK ends only"):
        after.play("ok")


def test_chain_ends_when_the_opponent_moves():
    state = pos(*CHAIN, variant="chain").play("c1-c3")
    state.check(state.parse_move("l10-k10"))
    after = state.play("l10-k10")
    assert after.to_move == "red" and after.ply == 2 and not after.continuing
    assert after.board[parse_point("k10")] == BLUE
    # the board sees it too: a lifted blue pawn has targets, the change is recognised
    assert "k10" in state.targets("l10")
    assert "e2" in state.targets("e1") and "a5" not in state.targets("a3")
    found = state.moves_for_change(frozenset({"l10"}), frozenset({"k10"}))
    assert [str(m) for m, _, _ in found] == ["l10-k10"]


def test_chain_ends_when_no_capture_is_left():
    state = pos(*CHAIN, variant="chain").play("c1-c3").play("e1-e2")
    assert not state.continuing and state.to_move == "blue"
    assert names(state.pawns(BLUE)) == {"l12", "j12", "l10"}


def test_chain_capture_can_win():
    state = pos("a3 c1 e1 g2 a1", "b3 f2 l12", variant="chain").play("c1-c3").play("e1-e2")
    assert state.outcome() == Outcome("red", "captures")


# --------------------------------------------------------------- notation
def test_notation_with_capture_suffix():
    state = pos("a3 c1 a1", "b3 l12 j12")
    for text in ("c1-c3xb3", "C1 - C3 x B3", " c1-c3 "):
        assert state.parse_move(text) == Move(parse_point("c1"), parse_point("c3"))
    assert str(state.parse_move("c1-c3xb3")) == "c1-c3"
    # Ruling 9: a capture suffix is never required, but one given must name the captures
    for wrong, reason in [
        ("c1-c3xb3xd3", "c1-c3 captures b3, not b3 d3"),
        ("c1-c3xk11", "c1-c3 captures b3, not k11"),
        ("a3-a5xb3", "a3-a5 captures nothing, not b3"),
    ]:
        with pytest.raises(IllegalMove) as info:
            state.parse_move(wrong)
        assert info.value.reason == reason
    assert state.parse_move("OK") is OK and str(OK) == "ok"
    for bad, reason in [
        ("c1c3", "Cannot read 'c1c3'"),
        ("b1-c1", "b1 is not a point"),
        ("c1-z30", "z30 is not a point"),
        ("m1-a1", "m1 is not a point"),
    ]:
        with pytest.raises(IllegalMove) as info:
            state.parse_move(bad)
        assert info.value.reason == reason


# ------------------------------------------------------- physical contract
def test_sites_occupied_and_realisations():
    state = new(6)
    sites = {s.label: s for s in state.sites()}
    assert (sites["a1"].x, sites["a1"].y) == (0, 0) and (sites["l12"].x, sites["l12"].y) == (11, 11)
    assert len(sites["c2"].shape) == 8
    assert state.occupied() == names(state.pawns(RED) + state.pawns(BLUE))
    (real,) = state.realisations(state.parse_move("a3-e3"))
    assert real.emptied == {"a3"} and real.filled == {"e3"} and real.follow_ups == ()


def test_targets_and_moves_for_change_with_a_capture():
    state = pos("a3 c1 a1", "b3 l12 j12")
    assert state.targets("c1") == {f"c{y}" for y in range(2, 12)} | {"e1", "g1", "i1", "k1"}
    assert state.targets("a1") == frozenset() and state.targets("l12") == frozenset()
    assert state.targets("zz") == frozenset()
    before = state.moves_for_change(frozenset({"c1"}), frozenset({"c3"}))
    done = state.moves_for_change(frozenset({"c1", "b3"}), frozenset({"c3"}))
    assert [(str(m), d) for m, _, d in before] == [("c1-c3", 0)]
    assert [(str(m), d) for m, _, d in done] == [("c1-c3", 1)]
    assert state.moves_for_change(frozenset({"c1"}), frozenset({"c3", "e3"})) == []
    assert state.moves_for_change(frozenset({"c1"}), frozenset({"c2x"})) == []


def test_registry_and_diagram():
    state = new_game("anti-grid", 8, "chain")
    assert state.n == 8 and state.variant == "chain" and state.legal_count() == 196
    text = new(6).diagram().splitlines()
    assert text[0].startswith("12") and text[-2].split() == list("abcdefghijkl")
    assert text[-3] == " 1 R   R   R   R   R   R"
    assert text[-1] == "R red pawn, B blue pawn; empty: + red point, x blue point, o shared point"


# ---------------------------------------------------------------- referee
KEYS = ["game", "ply", "to_move", "phase", "legal_moves", "winner", "result", "score", "chain"]


def referee(*args: str, **kw) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = play("anti-grid", *args, out=out, err=err, **kw)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("size, legal", [(6, 100), (8, 196)])
def test_referee_json_start(size, legal):
    code, out, _ = referee(size, None, "", as_json=True)
    assert code == 0
    summary = json.loads(out)
    assert list(summary) == KEYS
    assert summary == {
        "game": "anti-grid",
        "ply": 0,
        "to_move": "red",
        "phase": None,
        "legal_moves": legal,
        "winner": None,
        "result": None,
        "score": None,
        "chain": [],
    }


CHAIN_RECORD = "a7-j7; l4-h4; k1-k8; j12-j8xk8"  # blue captures and may capture again


@pytest.mark.parametrize(
    "tail, ply, to_move, legal",
    [
        ("", 4, "blue", ["l6-j6", "ok"]),  # the chain: a capturing move or OK
        ("; ok", 5, "red", None),
        ("; a5-b5", 5, "blue", None),  # red moves: the chain ended implicitly
        ("; l6-j6xj7", 5, "red", None),  # no capture left: the turn passes
    ],
)
def test_referee_chain_variant(tail, ply, to_move, legal):
    code, out, err = referee(6, "chain", CHAIN_RECORD + tail, as_json=True, legal=True)
    assert code == 0, err
    summary = json.loads(out)
    assert (summary["ply"], summary["to_move"]) == (ply, to_move)
    assert summary["legal_moves"] == len(summary["legal"])
    if legal:
        assert summary["legal"] == legal


def test_referee_chain_refuses_a_quiet_move_of_the_capturer():
    code, out, err = referee(6, "chain", CHAIN_RECORD + "; l6-l4", as_json=True)
    assert code == 1
    assert json.loads(out) == {"error": "l6-l4 captures nothing: press OK", "ply": 4, "move": "l6-l4"}


def test_referee_illegal_move():
    code, out, err = referee(6, None, "a3-e3; l10-h10; h10-h8", as_json=True)
    assert code == 1
    assert json.loads(out.splitlines()[-1]) == {"error": "h10 is blue's pawn", "ply": 2, "move": "h10-h8"}
    assert "move 3 (h10-h8)" in err
    code, out, _ = referee(6, None, "a3-e3; nonsense", as_json=True)
    assert code == 1 and json.loads(out)["error"] == "Cannot read 'nonsense'"


def test_referee_trace_and_text():
    code, out, _ = referee(6, None, "a3-e3; l10-h10", trace=True)
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["ply"] for line in lines] == [0, 1, 2]
    assert lines[1] == {"ply": 1, "move": "a3-e3", "to_move": "blue", "legal_moves": 97, "winner": None}
    code, out, _ = referee(6, None, "a3-e3")
    assert code == 0 and "blue to move" in out and "Red 11  Blue 11" in out


@pytest.mark.parametrize("args", [["--size", "6"], ["--size", "8", "--variant", "chain"]])
def test_reedboard_play_subprocess(args):
    exe = Path(sys.executable).with_name("reedboard")
    ok = subprocess.run(
        [exe, "play", "anti-grid", *args, "--json", "--moves", "a3-e3"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ok.returncode == 0 and list(json.loads(ok.stdout)) == KEYS
    assert json.loads(ok.stdout)["to_move"] == "blue"
    bad = subprocess.run(
        [exe, "play", "anti-grid", *args, "--json", "--moves", "a3-e3; e3-e5"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 1
    assert json.loads(bad.stdout) == {"error": "e3 is red's pawn", "ply": 1, "move": "e3-e5"}


def test_options_are_checked():
    with pytest.raises(OptionError):
        new(7)
    with pytest.raises(OptionError):
        new(6, "blitz")
    assert new().n == 6 and new().variant == "plain"
