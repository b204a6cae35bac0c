"""``reedboard run --sim`` playing the computer stops cleanly on SIGTERM (status 0, STOPPING=1
said to systemd, its game kept) and leaves no process behind, with stdin a pipe, a terminal (a
pty) or /dev/null, even while the computer's worker thinks and never answers (stopped with
SIGSTOP); and the computer answers a move sent on a stdin pipe (its worker is never a fork of
the daemon, whose stdin reader holds stdin's lock). How fast it stops is the daemon's own
business (it ends itself once closing takes ``CLOSE_SECONDS``, within systemd's
TimeoutStopSec): the tests bound it only as a guard against a hang (testbed/stopping.py)."""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import threading

import pytest

from firmware_host.store.storage import Storage
from testbed.running import Lines, send
from testbed.stopping import stop
from testbed.tools import REEDBOARD, sim_config, wait_for, wait_until


def computer_config(tmp_path, side: str, level: int) -> str:
    """Antipalos 5 against the computer playing ``side`` at ``level``."""
    return str(sim_config(tmp_path, f'[opponent]\nkind = "computer"\nside = "{side}"\nlevel = {level}'))


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (its children, theirs, ...)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fp:
                    parents[int(entry)] = int(fp.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        children = {p for p, pp in parents.items() if pp == parent}
        found |= children
        todo += children
    return found


def running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fp:
            return fp.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def worker_of(daemon: int) -> int | None:
    """The computer's worker: a grandchild of the daemon (forked by the fork server)."""
    children = descendants(daemon)
    grandchildren = set().union(*(descendants(child) for child in children)) if children else set()
    return min(grandchildren) if grandchildren else None


class Run:
    """``reedboard run --sim`` with stdin ``kind``; its stdout's events collected, its stderr
    drained meanwhile (testbed/running.py's :class:`Lines`)."""

    def __init__(self, config: str, kind: str, notify: str) -> None:
        self.master = None
        if kind == "pty":
            self.master, stdin = pty.openpty()
        else:
            stdin = subprocess.PIPE if kind == "pipe" else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [*REEDBOARD, "run", "--sim", "--config", config],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "NOTIFY_SOCKET": notify},
            start_new_session=kind == "pty",
        )
        if kind == "pty":
            os.close(stdin)
        self.events: list[dict] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.journal = Lines(self.proc.stderr)

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.events.append(json.loads(line))

    def said(self) -> str:
        """All it said on stderr (the whole of it once it has ended)."""
        return self.journal.text(drained=self.proc.poll() is not None)

    def kinds(self, kind: str) -> list[dict]:
        return [e for e in self.events if e["event"] == kind]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.master is not None:
            os.close(self.master)


@pytest.fixture
def runs():
    started: list[Run] = []
    yield lambda *args: started.append(Run(*args)) or started[-1]
    for run in started:
        run.close()


@pytest.mark.parametrize(
    "stdin",
    ["pipe", pytest.param("pty", marks=pytest.mark.slow), pytest.param("devnull", marks=pytest.mark.slow)],
)
def test_sigterm_while_the_computer_thinks_stops_cleanly_and_leaves_nothing(
    tmp_path, notify_socket, runs, stdin
):
    path, sock = notify_socket
    run = runs(computer_config(tmp_path, "white", 5), stdin, path)  # the computer moves first
    wait_for(sock, "READY=1")
    assert wait_until(lambda: worker_of(run.proc.pid) is not None, 30)
    worker = worker_of(run.proc.pid)
    os.kill(worker, signal.SIGSTOP)  # it thinks, and will never answer
    helpers = descendants(run.proc.pid)
    assert len(helpers) >= 2  # the fork server, the worker (and multiprocessing's tracker)
    assert stop(run.proc) == 0, run.said()
    assert wait_until(lambda: not any(map(running, helpers)), 30), [p for p in helpers if running(p)]
    assert "Traceback" not in run.said()
    assert wait_for(sock, "STOPPING=1")
    kept = Storage(str(tmp_path / "games.db")).unfinished()  # to be played on at the next start
    assert kept is not None and kept.game == "antipalos"


def test_the_computer_answers_a_move_sent_on_a_stdin_pipe(tmp_path, notify_socket, runs):
    path, sock = notify_socket
    run = runs(computer_config(tmp_path, "black", 1), "pipe", path)
    wait_for(sock, "READY=1")
    send(run.proc, site="C3*", on=True)
    assert wait_until(lambda: run.kinds("expect"), 20), run.events[-3:]
    assert [e["move"] for e in run.kinds("move")] == ["C3*"]
    assert stop(run.proc) == 0
    assert Storage(str(tmp_path / "games.db")).unfinished().moves[:1] == ("C3*",)


def parent_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as fp:
        return int(fp.read().rsplit(")", 1)[1].split()[1])


def test_sigterm_with_the_fork_server_stopped_after_a_worker_was_killed_stops_cleanly(
    tmp_path, notify_socket, runs
):
    """The worker killed and started again, then its fork server stopped (SIGSTOP): it never
    reports the end of the worker killed at the stop, and the interpreter's exit must not wait
    for that report."""
    path, sock = notify_socket
    run = runs(computer_config(tmp_path, "white", 5), "pipe", path)
    wait_for(sock, "READY=1")
    assert wait_until(lambda: worker_of(run.proc.pid) is not None, 30)
    first = worker_of(run.proc.pid)
    os.kill(first, signal.SIGKILL)
    assert wait_until(lambda: worker_of(run.proc.pid) not in (None, first), 30)
    server = parent_of(worker_of(run.proc.pid))
    os.kill(server, signal.SIGSTOP)
    try:
        status = stop(run.proc)
    finally:
        os.kill(server, signal.SIGCONT)
    said = run.said()
    assert status == 0 and "Traceback" not in said, said
    assert wait_for(sock, "STOPPING=1")
