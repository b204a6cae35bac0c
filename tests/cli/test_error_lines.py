"""A config's mistakes as a user meets them, from a real `reedboard` process: one line naming
the command, the config file and the key."""

import subprocess

import pytest

from testbed.tools import REEDBOARD, write_config

#: A scanner too small for Phalanx's 128 switches, and the key that sizes it.
TOO_SMALL = [
    ("mcp23017", "addresses = [0x20, 0x21, 0x22, 0x23]", "addresses"),
    ("74hc165", "registers = 8", "registers"),
    ("gpio-matrix", "rows = [5, 6, 12, 13]\ncolumns = [16, 19, 20, 21]", "rows"),
    ("serial", 'port = "/dev/ttyACM0"\nchannels = 64', "channels"),
]


def reedboard(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*REEDBOARD, *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("backend", "keys", "key"), TOO_SMALL)
def test_a_scanner_too_small_for_the_board_names_the_file_and_key(tmp_path, backend, keys, key):
    config = write_config(tmp_path, f'[sensors]\nbackend = "{backend}"\n{keys}', web=False)
    done = reedboard("plan", "phalanx", "--parts", "--config", str(config))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"reedboard plan: {config}: [sensors] {key}: "), done.stderr
    assert "128 sensor channels" in done.stderr
    assert len(done.stderr.splitlines()) == 1


COMMANDS = [
    ("doctor", "reedboard doctor"),
    ("run --sim", "reedboard run"),
    ("setup", "reedboard setup"),
    ("plan phalanx --parts", "reedboard plan"),
    ("firmware flash", "reedboard firmware flash"),
    ("export", "reedboard export"),
    ("replay /dev/null", "reedboard replay"),
    ("cafe", "reedboard cafe"),
    ("league standings", "reedboard league"),
]


@pytest.mark.parametrize(("command", "prefix"), COMMANDS)
def test_a_bad_config_is_reported_by_the_command_that_read_it(tmp_path, command, prefix):
    config = write_config(tmp_path, "[timing]\nsettle_ms = 'fast'", web=False)
    done = reedboard(*command.split(), "--config", str(config))
    assert done.returncode == 2
    assert done.stderr == f"{prefix}: {config}: [timing] settle_ms must be an integer (got 'fast')\n"
