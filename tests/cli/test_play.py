"""``reedboard play``: the referee contract of issue 2, checked with Antipalos (in process with
io.StringIO and through the installed command)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.cli.play import play

SEVEN = "F2*; *G7; B4*; *D2; H8*; *A1; L12*"
#: 12 placements on 4×4 (supply 6) without a win: Phase Two follows.
FULL_4X4 = "A4*; B4*; *C2; *A1; B2*; D3*; *C3; B3*; *D2; *A2; *D1; *D4"
BLACK_WINS = "B2*; *A4; C3*; *B3; A1*; *C2; *D4; *D1"
REEDBOARD = Path(sys.executable).with_name("reedboard")


def referee(*moves: str, **options) -> tuple[int, list[str], list[str]]:
    out, err = io.StringIO(), io.StringIO()
    options.setdefault("moves", "; ".join(moves) if moves else None)
    status = play("antipalos", out=out, err=err, **options)
    return status, out.getvalue().splitlines(), err.getvalue().splitlines()


def test_json_summary_of_a_sample_game():
    status, out, err = referee(SEVEN, as_json=True)
    assert status == 0 and err == [] and len(out) == 1
    assert json.loads(out[0]) == {
        "game": "antipalos",
        "ply": 7,
        "to_move": "black",
        "phase": 1,
        "legal_moves": 274,
        "winner": None,
        "result": None,
        "score": None,
        "chain": [],
    }
    assert list(json.loads(out[0])) == [
        "game",
        "ply",
        "to_move",
        "phase",
        "legal_moves",
        "winner",
        "result",
        "score",
        "chain",
    ]


def test_json_of_a_won_game():
    status, out, _ = referee(BLACK_WINS, as_json=True, size=4)
    assert status == 0
    assert json.loads(out[-1]) == {
        "game": "antipalos",
        "ply": 8,
        "to_move": None,
        "phase": 1,
        "legal_moves": 0,
        "winner": "black",
        "result": "connection",
        "score": 5,
        "chain": ["*D1", "*C2", "*B3", "*A4"],
    }


def test_legal_lists_sorted_canonical_notations():
    status, out, _ = referee("A1*; *C3; B2*; A3*; C1*; *B3; *A2", as_json=True, legal=True, size=3)
    summary = json.loads(out[0])
    assert status == 0 and summary["phase"] == 1 and summary["legal_moves"] == 4
    assert summary["legal"] == ["*B1", "*C2", "B1*", "C2*"]
    status, out, _ = referee(FULL_4X4, as_json=True, legal=True, size=4)
    summary = json.loads(out[0])
    assert summary["phase"] == 2 and len(summary["legal"]) == summary["legal_moves"] == 54
    assert summary["legal"] == sorted(summary["legal"]) and "A4* - *A4" in summary["legal"]


def test_trace_prints_every_position():
    status, out, _ = referee("F2*; *G7; B4*", trace=True)
    assert status == 0
    assert [json.loads(line) for line in out] == [
        {"ply": 0, "move": None, "to_move": "white", "legal_moves": 288, "winner": None},
        {"ply": 1, "move": "F2*", "to_move": "black", "legal_moves": 286, "winner": None},
        {"ply": 2, "move": "*G7", "to_move": "white", "legal_moves": 284, "winner": None},
        {"ply": 3, "move": "B4*", "to_move": "black", "legal_moves": 282, "winner": None},
    ]


@pytest.mark.parametrize("mode", [{"as_json": True}, {"trace": True}])
def test_illegal_move_reports_index_and_move(mode):
    status, out, err = referee("F2*; *G7;  *F2 ; B4*", **mode)
    assert status == 1
    assert json.loads(out[-1]) == {"error": "F2 already holds a Trirod", "ply": 2, "move": "*F2"}
    assert err == ["reedboard play: move 3 (*F2): F2 already holds a Trirod"]
    if mode.get("trace"):
        assert [json.loads(line)["ply"] for line in out[:-1]] == [0, 1, 2]


def test_unreadable_move():
    status, out, err = referee("F2*; F2", as_json=True)
    assert status == 1 and len(err) == 1
    assert json.loads(out[-1]) == {
        "error": "Cannot read 'F2': one '*' before or after",
        "ply": 1,
        "move": "F2",
    }


def test_moves_after_the_win_are_refused():
    status, out, _ = referee(BLACK_WINS + "; A2*", as_json=True, size=4)
    assert status == 1 and json.loads(out[-1])["error"] == "The game is over"


def test_moves_file(tmp_path):
    record = tmp_path / "game.txt"
    record.write_text("F2*\n*G7\n\nB4*; *D2\n", encoding="utf-8")
    status, out, _ = referee(moves_file=str(record), moves="H8*", as_json=True)
    assert status == 0 and json.loads(out[0])["ply"] == 5
    status, _, err = referee(moves_file=str(tmp_path / "missing.txt"))
    assert status == 2 and "cannot read moves file" in err[0]


@pytest.mark.parametrize("move", ["A4* - C1*", "A4*-C1*", "  a4 *  -  c1*  "])
def test_phase_two_moves_with_or_without_spaces(move):
    status, out, _ = referee(FULL_4X4, move, as_json=True, size=4)
    summary = json.loads(out[0])
    assert status == 0 and summary["ply"] == 13 and summary["to_move"] == "black"
    assert summary["phase"] == 2


def test_readable_diagram_without_json():
    status, out, err = referee("B2*; *A4", size=4)
    assert status == 0 and err == []
    assert out[:5] == [
        "     A  B  C  D",
        " 4  b\\  .  .  .  4",
        " 3   .  .  .  .  3",
        " 2   . w/  .  .  2",
        " 1   .  .  .  .  1",
    ]
    assert "Move 3, phase 1: white to move, 28 legal moves." in out
    assert "In hand: White 5 · Black 5" in out


def test_readable_result_without_json():
    status, out, _ = referee(BLACK_WINS, size=4)
    assert status == 0
    assert "Black wins by connection after 8 moves." in out
    assert "Match-play score: 5" in out and "Chain: *D1 *C2 *B3 *A4" in out


@pytest.mark.parametrize(
    "options, message",
    [({"size": 2}, "antipalos has no size 2"), ({"variant": "solo"}, "no variant 'solo'")],
)
def test_bad_options_exit_2(options, message):
    status, out, err = referee(**options)
    assert status == 2 and out == [] and len(err) == 1 and message in err[0]


def test_variants_through_the_referee():
    status, out, _ = referee("A1*; C1*; E1*", as_json=True, variant="cut-throat-4")
    assert json.loads(out[0])["to_move"] == "blue"
    status, out, _ = referee("A1*; C1*", variant="team")
    assert "Player A2 to move" in out


def test_the_installed_command():
    done = subprocess.run(
        [str(REEDBOARD), "play", "antipalos", "--json", "--moves", SEVEN],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["legal_moves"] == 274
    bad = subprocess.run(
        [str(REEDBOARD), "play", "antipalos", "--size", "30"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    message = "reedboard play: antipalos has no size 30 (sizes: 12, 14, 16, 18, 20; any of 3..26 also works)"
    assert bad.stderr.strip() == message
    illegal = subprocess.run(
        [str(REEDBOARD), "play", "antipalos", "--trace", "--moves", "F2*; F2*"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert illegal.returncode == 1 and len(illegal.stderr.splitlines()) == 1
    assert json.loads(illegal.stdout.splitlines()[-1]) == {
        "error": "F2 already holds a Trirod",
        "ply": 1,
        "move": "F2*",
    }
