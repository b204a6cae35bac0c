"""The daemon and the CLI in real subprocesses: run --sim (SIGKILL mid-game and resume from the
SQLite file; SIGTERM), replay, export."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
from pathlib import Path

import pytest

from firmware_host.store.storage import Storage
from testbed.running import Running
from testbed.streams import STREAMS
from testbed.tools import REEDBOARD, sim_config


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """A config with its own games file (and its own port for the simulator page)."""
    return sim_config(tmp_path)


def test_sigkill_mid_game_then_resume_from_the_sqlite_file(config: Path, tmp_path: Path):
    first = Running(config)
    first.wait_for("display")
    first.send(site="B2*", on=True)
    assert first.wait_for("move")["move"] == "B2*"
    first.send(site="C3*", on=True)
    assert first.wait_for("move")["move"] == "C3*"
    first.stop(signal.SIGKILL)
    assert Storage(str(tmp_path / "games.db")).unfinished().moves == ("B2*", "C3*")

    second = Running(config)
    shown = second.wait_for("display")
    assert shown["lines"][:2] == ["Antipalos 5", "White to move"]
    second.send(site="A1*", on=True)
    assert second.wait_for("move") | {"t": 0} == {"t": 0, "event": "move", "move": "A1*", "side": "white"}
    assert second.stop() == 0
    games = Storage(str(tmp_path / "games.db")).games()
    assert len(games) == 1 and games[0].moves == ("B2*", "C3*", "A1*")


def test_sigterm_ends_the_daemon_cleanly_with_its_game_saved(config: Path, tmp_path: Path):
    running = Running(config)
    running.wait_for("display")
    assert running.said("simulated board is running")
    running.send(site="B2*", on=True)
    assert running.wait_for("move")["move"] == "B2*"
    assert running.stop() == 0
    assert "Traceback" not in running.stderr()
    assert Storage(str(tmp_path / "games.db")).unfinished().moves == ("B2*",)  # played on next time


def test_replay_cli_end_to_end():
    done = subprocess.run(
        [
            *REEDBOARD,
            "replay",
            str(STREAMS / "antipalos_illegal.jsonl"),
            "--game",
            "antipalos",
            "--size",
            "3",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert all("t" in e and "event" in e for e in lines[:-1])
    assert lines[-1]["event"] == "end" and lines[-1]["moves"] == ["B2*", "A1*"]
    referee = subprocess.run(
        [*REEDBOARD, "play", "antipalos", "--size", "3", "--moves", "B2*; A1*", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert lines[-1]["position"] == json.loads(referee.stdout)


@pytest.mark.parametrize(
    "text, where",
    [
        ('{"t": 1}\n{"t": 2, "site": "Z9*", "on": true}\n', "line 2: unknown site"),
        ('{"t": 1}\n\n{"t": 0}\n', "line 3: time goes back"),
        ('{"setup": "start"}\n{"t": 5, "button": "start"}\n', "line 2: unknown button"),
        ('{"t": 1}\n{"setup": "empty"}\n', "line 2: setup is only allowed"),
        ("{oops\n", "line 1: not JSON"),
        ('{"t": 1, "site": "A1*"}\n', "line 1: unexpected keys"),
    ],
)
def test_replay_malformed_line_exits_2_naming_it(tmp_path: Path, text: str, where: str):
    events = tmp_path / "bad.jsonl"
    events.write_text(text)
    done = subprocess.run(
        [*REEDBOARD, "replay", str(events), "--game", "antipalos"], capture_output=True, text=True
    )
    assert done.returncode == 2 and done.stdout == ""
    assert where in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_export_both_views_and_unknown_game(config: Path, tmp_path: Path):
    db = Storage(str(tmp_path / "games.db"))
    first = db.start("antipalos", 5, "two")
    for ply, move in enumerate(["A1*", "E5*", "*B2"], 1):
        db.add_move(first, ply, move)
    db.finish(first, "white wins by connection")
    second = db.start("anti-grid", 6, "plain")
    db.add_move(second, 1, "a9-c9")
    db.close()

    def export(*args):
        return subprocess.run(
            [*REEDBOARD, "export", "--config", str(config), *args], capture_output=True, text=True
        )

    both = export()
    assert both.returncode == 0
    assert '[Result "white wins by connection"]' in both.stdout and "1. A1*; E5*\n2. *B2" in both.stdout
    assert '[Game "anti-grid"]' in both.stdout and '[Result "running"]' in both.stdout
    black = export("--game-id", str(first), "--view", "black")
    assert black.returncode == 0 and "1. E5*; A1*\n2. *D4" in black.stdout
    assert '[View "black"]' in black.stdout
    assert export("--game-id", "99").returncode == 2
    no_views = export("--view", "black")  # Anti-Grid has no views: written as is, with a note
    assert no_views.returncode == 0 and "1. E5*; A1*\n2. *D4" in no_views.stdout
    assert '[Note "anti-grid names moves one way only: --view does not apply"]' in no_views.stdout
    assert "1. a9-c9" in no_views.stdout


def test_a_taken_port_is_said_with_the_fix(config: Path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*REEDBOARD, "run", "--sim", "--config", str(config), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
        )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"cannot serve the page on 127.0.0.1:{port}" in done.stderr
    assert f"try --port {port + 1}" in done.stderr
