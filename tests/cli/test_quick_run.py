"""``reedboard run`` read without argparse (the start to READY): the same arguments as the full
parser reads, or none at all and the full parser answers (its help and its errors)."""

from __future__ import annotations

import pytest

from firmware_host.cli.daemon_cli import RUN_VALUES, quick_run
from firmware_host.cli.main import main
from firmware_host.cli.parser import build_parser, parse

READ = [
    ["run"],
    ["run", "--sim"],
    ["run", "--config", "/etc/reedboard/config.toml"],
    ["run", "--sim", "--config=board.toml", "--host", "0.0.0.0", "--port", "8081", "--token", "s3cret"],
    ["run", "--token-file", "token", "--port=+80"],
    ["run", "--config=-odd.toml", "--port= 12 "],
    ["run", "--port", "70000"],  # in range or not: the command's own check says so
]
LEFT_TO_ARGPARSE = [
    ["run", "--help"],
    ["run", "-h"],
    ["run", "--conf", "board.toml"],  # argparse's abbreviation
    ["run", "--config"],
    ["run", "--config", "--sim"],
    ["run", "--port", "-5"],
    ["run", "--port", "eighty"],
    ["run", "--sim=yes"],
    ["run", "--sim", "--sim"],
    ["run", "--token", "a", "--token-file", "b"],
    ["run", "extra"],
    ["--version"],
    ["games"],
    [],
]


@pytest.mark.parametrize("argv", READ, ids=" ".join)
def test_a_plain_run_is_read_as_the_full_parser_reads_it(argv):
    quick = quick_run(argv)
    assert quick is not None
    full = vars(parse(build_parser("run"), argv))
    del full["version"]  # the top-level --version's place, which nothing reads
    assert vars(quick) == full


@pytest.mark.parametrize("argv", LEFT_TO_ARGPARSE, ids=" ".join)
def test_anything_else_is_left_to_the_full_parser(argv):
    assert quick_run(argv) is None


def test_it_knows_every_option_of_run():
    run = build_parser("run")._subparsers._group_actions[0].choices["run"]
    options = {name for action in run._actions for name in action.option_strings}
    assert options == {"-h", "--help", "--sim", *RUN_VALUES}


def test_mistakes_still_get_the_full_parsers_message(capsys):
    with pytest.raises(SystemExit) as ended:
        main(["run", "--port", "eighty"])
    assert ended.value.code == 2
    assert "reedboard run: error: argument --port: invalid int value: 'eighty'" in capsys.readouterr().err
