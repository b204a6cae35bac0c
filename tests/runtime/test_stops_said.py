"""Every stop of ``reedboard run`` is said: a stdout whose reader went away is a failure (so
systemd's ``Restart=on-failure`` starts the daemon again) with a journal line, and moves held
in memory while the games file cannot be written are saved to a file beside it at a normal
stop, its path said, never lost without a word."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import subprocess
from pathlib import Path

from testbed.running import Running
from testbed.stopping import HANG_SECONDS, stop
from testbed.tools import REEDBOARD, immutable, sim_config


def test_a_stdout_whose_reader_went_away_is_a_failure_said_in_the_journal(tmp_path: Path):
    journal = tmp_path / "journal.txt"
    with journal.open("w") as stderr:  # a pipe of its own for stdout alone: the one read here
        board = subprocess.Popen(
            [*REEDBOARD, "run", "--sim", "--config", str(sim_config(tmp_path))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
    try:
        while json.loads(board.stdout.readline())["event"] != "display":
            pass  # the first scan is shown
        board.stdout.close()  # the reader goes away (a pipe's other end, a journal restarted)
        board.stdin.write(json.dumps({"site": "B2*", "on": True}) + "\n")  # no reader for its events
        board.stdin.flush()
        status = board.wait(HANG_SECONDS)
        assert status == 1, f"ended with {status}: {journal.read_text()}"
    finally:
        stop(board, signal.SIGKILL)  # whatever failed, no daemon is left running
    said = journal.read_text()
    assert "cannot write the events to stdout" in said and "stopping with a failure" in said
    assert "Traceback" not in said and "Exception ignored" not in said


def test_moves_held_in_memory_are_saved_beside_the_games_file_at_a_stop(tmp_path: Path):
    db, config = tmp_path / "games.db", sim_config(tmp_path)
    sqlite3.connect(db).close()
    immutable(db)  # the games file cannot be written: the game goes on from memory
    try:
        board = Running(config)
        board.wait_for("display")
        for site in ("B2*", "C3*"):
            board.send(site=site, on=True)
            assert board.wait_for("move")["move"] == site
        assert board.stop() == 0
    finally:
        immutable(db, on=False)
    said = board.stderr()
    found = re.search(r"the 2 moves kept in memory \(\d+ writes in all\) are saved in (\S+) ", said)
    assert found, said
    kept = Path(found.group(1))
    assert kept.parent == tmp_path and kept.name.startswith("games.db.unsaved-")
    with sqlite3.connect(kept) as copy:
        moves = copy.execute("SELECT notation FROM moves ORDER BY ply").fetchall()
    assert moves == [("B2*",), ("C3*",)]
