"""The `reedboard` command itself: the games list, usage errors, a closed pipe."""

import subprocess
import sys

import pytest

from engines import GAME_NAMES, game_info
from firmware_host.cli import main


def test_games_lists_every_game_with_its_options(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for name in GAME_NAMES:
        info = game_info(name)
        assert f"{name}: {info.title}" in out
        if len(info.variants) > 1:
            assert f"default {info.default_variant}" in out
    assert "match play: to 6, 9, 15 points" in out


@pytest.mark.parametrize("argv", [[], ["chess"], ["play", "chess"], ["play"]])
def test_usage_errors_exit_2_without_a_traceback(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "usage: reedboard" in err and "Traceback" not in err


def test_a_closed_pipe_is_not_an_error():
    # `true` never reads: by the time reedboard writes, the pipe is closed.
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {sys.executable} -m firmware_host.cli games | true"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0 and done.stderr == ""
