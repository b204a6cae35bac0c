"""The garbage collector while ``reedboard run`` starts (cli/starting.py): held until READY,
then as it was, with what the start made set aside; as it was too when the start fails."""

from __future__ import annotations

import gc
import subprocess
import sys

from firmware_host.cli.main import main
from testbed.tools import sim_config

#: Run as ``reedboard run``: prints the collector's first threshold while the daemon started,
#: after READY, and how many objects READY set aside; then ends.
_AT_READY = """
import gc, os, sys
from firmware_host.cli import starting
release = starting.release
def released(freeze=True):
    held = gc.get_threshold()[0]
    release(freeze)
    print(held, gc.get_threshold()[0], gc.get_freeze_count(), flush=True)
    os._exit(0)
starting.release = released
from firmware_host.cli.main import main
main()
"""


def test_the_collector_waits_for_ready_then_runs_as_before(tmp_path):
    config = sim_config(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", _AT_READY, "run", "--sim", "--config", str(config)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    held, after, kept = map(int, done.stdout.split())
    assert (held, after) == (100_000, gc.get_threshold()[0])
    assert kept > 10_000  # the modules, classes and game the start made


def test_a_start_that_fails_leaves_the_collector_as_it_was(tmp_path, capsys):
    before = gc.get_threshold()
    assert main(["run", "--config", str(tmp_path / "missing.toml")]) == 2
    assert "missing.toml" in capsys.readouterr().err
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
