"""The player robot's bench (bench/robot.py) stopped the ways a long run is stopped: Ctrl-C
(SIGINT), ``kill`` or ``timeout`` (SIGTERM), a closed terminal (SIGHUP). It removes its folder of
SQLite files (in /dev/shm: memory nobody else frees) and reports the episodes it finished."""

import glob
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from bench import robot
from firmware_host.store.storage import Storage

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _databases(pid: int) -> list[str]:
    """The SQLite files of process ``pid``'s one-board episodes, wherever its folder is."""
    return glob.glob(f"/dev/shm/robot-*/robot-{pid}-*.db") + glob.glob(f"/tmp/robot-*/robot-{pid}-*.db")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stopped_robot_bench_leaves_no_folder_and_reports(tmp_path, signum):
    bench = subprocess.Popen(
        [sys.executable, "-m", "bench.robot", "--turns", "100000", "--game", "antipod"]
        + ["--failures", str(tmp_path / "failures")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(600):  # until its first episode's board is in its folder
            if _databases(bench.pid) or bench.poll() is not None:
                break
            time.sleep(0.1)
        (database,) = _databases(bench.pid)
        bench.send_signal(signum)
        out, err = bench.communicate(timeout=60)
    finally:
        if bench.poll() is None:
            bench.kill()
            bench.wait()
    assert not os.path.exists(os.path.dirname(database)), err
    figures = json.loads(out.strip().splitlines()[-1])
    assert figures["stopped_by"] == signal.Signals(signum).name
    assert figures["turns"] == sum(figures["turns_by_game"].values()) + figures["violations"]
    assert "Traceback" not in err


def test_a_signal_inside_a_write_lets_the_write_end_and_the_bench_report(tmp_path, capsys, monkeypatch):
    """SIGTERM arriving while a move is being saved (sent from inside the write here): the
    write ends whole and the bench stops between two turns, reporting (it raised inside the
    write before, wherever the main thread was)."""
    add_move, saved = Storage.add_move, []

    def signalled(self, *args) -> None:
        if not saved:
            os.kill(os.getpid(), signal.SIGTERM)
        add_move(self, *args)
        saved.append(args)

    monkeypatch.setattr(Storage, "add_move", signalled)
    monkeypatch.setattr(robot, "STOP", robot.Stop())
    handlers = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        status = robot.main(["--turns", "400", "--game", "antipod", "--failures", str(tmp_path / "failures")])
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert status == 0 and len(saved) == 1  # the first move's write ended, and no other began
    assert figures["stopped_by"] == "SIGTERM" and figures["violations"] == 0


@pytest.mark.parametrize(
    "given, said",
    [
        (
            ["--game", "antigrid"],
            "no game 'antigrid' (--game): all, anti-grid, antipalos, antipod, antipode, phalanx",
        ),
        (["--kinds", "hold,wobble"], "no noise kind 'wobble' (--kinds): slide, hover"),
        (["--paired", "--mix", "move,players"], "no intention 'players' (--mix): correct, knock, move"),
    ],
)
def test_a_name_the_robot_bench_does_not_know_is_said_in_one_line_and_plays_nothing(tmp_path, given, said):
    bench = subprocess.run(
        [sys.executable, "-m", "bench.robot", "--turns", "40", "--failures", str(tmp_path / "failures")]
        + given,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bench.returncode == 2
    assert bench.stdout == ""
    assert bench.stderr.startswith(f"robot: {said}") and bench.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_paired_boards_on_games_of_more_sides_only_is_said_in_one_line_and_plays_nothing(
    tmp_path, monkeypatch, capsys
):
    """``--paired`` on a game with no variant of two sides (the games' list cut to Cut-throat
    Antipalos here: every game of the list has one): no episode to deal out."""
    monkeypatch.setattr(robot, "GAMES", [("antipalos", 3, "cut-throat-3"), ("antipalos", 3, "cut-throat-4")])
    failures = tmp_path / "failures"
    status = robot.main(["--game", "antipalos", "--paired", "--turns", "40", "--failures", str(failures)])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err == "robot: no game of two sides to pair in 'antipalos' (--paired): none\n", err
    assert not failures.exists()
