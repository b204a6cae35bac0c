"""One daemon per database: a second ``reedboard run`` on the same file exits 2 with one line
naming the file and the process holding it; ``reedboard export`` still reads meanwhile."""

from __future__ import annotations

import signal
import subprocess

from testbed.running import Running
from testbed.tools import REEDBOARD, free_port


def test_a_second_daemon_on_the_same_database_exits_2_naming_the_holder(tmp_path):
    db = tmp_path / "games.db"
    config = tmp_path / "config.toml"
    config.write_text(f'game = "antipalos"\nsize = 3\nstorage = "{db}"\n[web]\nport = {free_port()}\n')
    first = Running(config)
    try:
        first.wait_for("display")  # scanning: the game is stored
        second = subprocess.run(
            [*REEDBOARD, "run", "--sim", "--config", str(config)],
            capture_output=True,
            text=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
        )
        assert second.returncode == 2 and second.stdout == ""
        assert second.stderr.splitlines() == [
            f"reedboard run: {db} is in use by another reedboard run (PID {first.proc.pid}); "
            "one daemon per database"
        ]
        export = subprocess.run(
            [*REEDBOARD, "export", "--config", str(config)], capture_output=True, text=True, timeout=30
        )
        assert export.returncode == 0 and '[Result "running"]' in export.stdout
        doctor = subprocess.run(
            [*REEDBOARD, "doctor", "--config", str(config)], capture_output=True, text=True, timeout=60
        )
        assert f"; reedboard run (PID {first.proc.pid}) uses it" in doctor.stdout
    finally:
        assert first.stop() == 0
    again = Running(config)
    try:
        assert again.wait_for("display")  # the lock went with the first daemon
    finally:
        again.stop(signal.SIGKILL)
