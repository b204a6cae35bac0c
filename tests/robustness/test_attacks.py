"""Short runs of the attack scripts: bench/robust/storage_faults.py, two_daemons.py and
rebinding.py (bench/robust/web_flood.py's attacks are tests/net/web/test_web_attacks.py)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def figures(script: str, *args: str) -> dict:
    """Run ``bench.robust.<script>`` from the repository's root; the JSON of its last line."""
    done = subprocess.run(
        [sys.executable, "-m", f"bench.robust.{script}", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_storage_faults_never_end_the_daemon_nor_lose_a_move():
    got = figures("storage_faults", "--quick")
    assert got["daemon_ended"] == 0 and got["acknowledged_lost"] == 0
    # on a full file a takeback (a delete) and a new game's short row need no new page
    assert got["said_once"] == got["write_failed"] == got["saved_again"] >= got["runs"] - 2
    assert got["writes_left_pending"] == 0


@pytest.mark.slow  # the quick run has tests/store/test_one_daemon.py
def test_two_daemons_never_share_a_database():
    got = figures("two_daemons", "--runs", "2")
    assert got["both_ran"] == 0 and got["exactly_one_ran"] == 2
    assert got["second_refused_naming_pid"] == got["sequential"] == 1
    assert got["export_read_while_running"] == 2


def test_a_rebound_name_is_never_answered():
    got = figures("rebinding", "--quick")
    assert got["attacker_answered"] == 0 and got["attacker_requests"] > 300
    assert got["loopback_refused"] == 0
