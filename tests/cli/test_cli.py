"""The `reedboard` command itself: the games list, usage errors, a closed pipe."""

import random
import subprocess
import sys

import pytest

from engines import GAME_NAMES, game_info, new_game
from firmware_host.cli.main import main


def test_games_lists_every_game_with_its_options(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for name in GAME_NAMES:
        info = game_info(name)
        assert f"{name}: {info.title}" in out
        if len(info.variants) > 1:
            assert f"default {info.default_variant}" in out
        assert info.notation and f"  moves: {info.notation}" in out
    assert "match play: to 6, 9, 15 points" in out


@pytest.mark.parametrize("argv", [["chess"], ["play", "chess"], ["play"]])
def test_usage_errors_exit_2_without_a_traceback(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "usage: reedboard" in err and "Traceback" not in err


def test_a_closed_pipe_is_not_an_error():
    # `true` never reads: by the time reedboard writes, the pipe is closed.
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {sys.executable} -m firmware_host.cli.main games | true"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == ""


def test_bare_reedboard_prints_help_and_version_is_known(capsys):
    assert main([]) == 0
    assert "usage: reedboard" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.startswith("reedboard ")


@pytest.mark.parametrize(
    "argv, usage, message",
    [
        (["play", "antigrid"], "usage: reedboard play", "unknown game 'antigrid': did you mean anti-grid?"),
        (
            ["play", "antipalos", "--varient", "x"],
            "usage: reedboard play",
            "unrecognized arguments: --varient x",
        ),
        (["layout", "antipod", "--sise", "4"], "usage: reedboard layout", "unrecognized arguments"),
    ],
)
def test_a_subcommands_errors_show_its_own_usage(argv, usage, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and usage in err and message in err


def test_game_names_in_any_case_and_options_a_game_does_not_take(capsys):
    assert main(["play", "ANTIPALOS", "--moves", "A1*", "--json"]) == 0
    assert '"ply": 1' in capsys.readouterr().out
    assert main(["play", "antipode", "--size", "5"]) == 2
    assert capsys.readouterr().err == "reedboard play: antipode is played on one board: it takes no --size\n"
    assert main(["play", "anti-grid", "--option", "first=blue", "--json"]) == 0
    assert '"to_move": "blue"' in capsys.readouterr().out
    assert main(["play", "anti-grid", "--option", "first"]) == 2
    assert "--option takes NAME=VALUE, not 'first'" in capsys.readouterr().err


def test_play_help_shows_examples_and_every_games_notation(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    assert "examples:" in out
    for name in GAME_NAMES:
        assert f"  {name:<10} {game_info(name).notation}" in out


def test_ai_prints_a_legal_move_and_its_measurements(capsys):
    import json

    assert main(["ai", "antipod", "--size", "4", "--moves", "c3", "--level", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["level"] == 1 and report["playouts"] >= 0 and report["time"] >= 0
    assert report["loose"] in (True, False)
    after_c3 = new_game("antipod", size=4).play("c3")
    assert report["move"] in {after_c3.notation(m) for m in after_c3.legal_moves()}
    assert main(["ai", "anti-grid", "--level", "1"]) == 0
    start = new_game("anti-grid")
    assert capsys.readouterr().out.strip() in {start.notation(m) for m in start.legal_moves()}


def test_ai_refuses_an_illegal_record_and_a_finished_game_with_exit_1(capsys):
    import json

    assert main(["ai", "phalanx", "--moves", "zz", "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"error": "Cannot read 'zz'", "ply": 0, "move": "zz"}
    assert "Traceback" not in captured.err
    state, rng, record = new_game("antipod", size=4), random.Random(2), []
    while state.outcome() is None:
        move = state.random_move(rng)
        record.append(state.notation(move))
        state = state.apply(move)
    assert main(["ai", "antipod", "--size", "4", "--moves", "; ".join(record), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"] == "The game is over"
