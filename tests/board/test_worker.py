"""The supervised worker (firmware_host/board/worker.py) with real processes from the fork server:
a job is answered without the caller waiting, a worker killed by PID (as the OOM killer does)
is said, started again after a backoff and redoes its job, a job replaced while it runs ends
its process (unless it yields: pondering keeps its process and what it kept), a job that raises
is said and tried again, and a closed worker leaves no process behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from firmware_host.board import worker as worker_module
from firmware_host.board.worker import Worker, interrupted
from testbed.tools import inject, wait_until


@pytest.fixture
def worker(monkeypatch):
    monkeypatch.setattr(worker_module, "BACKOFF", (0.05, 0.2))
    news = []
    made = Worker("computer", on_news=lambda: news.append(made.failure))
    made.news = news
    yield made
    made.close()


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting to be reaped counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as fp:
            return fp.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


def sleep_said(started: str, seconds: float) -> None:
    """A job that says it is under way (the file ``started``), then sleeps ``seconds``."""
    with open(f"{started}.new", "w") as fp:
        fp.write(str(os.getpid()))
    os.replace(f"{started}.new", started)
    time.sleep(seconds)


def under_way(worker: Worker, started) -> int:
    """The PID of ``worker``'s process once its job says it is under way (a process started
    may still be getting ready: a job replaced before it was sent never runs there)."""
    assert wait_until(started.exists, 30)
    pid = int(started.read_text())
    assert worker.pid == pid
    return pid


def test_a_job_is_answered_and_the_caller_never_waits(worker):
    job = worker.submit(time.sleep, 0.3)
    assert not job.done()  # submit returned while the process was still starting
    assert job.wait(30) and job.result() is None and worker.failure is None
    again = worker.submit(sum, [1, 2, 3])
    assert again.wait(10) and again.result() == 6


def test_a_worker_killed_mid_job_is_said_started_again_and_redoes_the_job(worker, tmp_path):
    started = tmp_path / "started"
    job = worker.submit(sleep_said, str(started), 0.5)
    first = under_way(worker, started)
    started.unlink()
    os.kill(first, signal.SIGKILL)
    assert wait_until(lambda: worker.failure is not None)
    assert worker.failure == ("its process was killed by SIGKILL; it is started again and redoes its job")
    assert not job.done()
    assert job.wait(30)  # redone in a new process
    assert started.exists() and int(started.read_text()) != first
    assert worker.failure is None and worker.failures == 1
    assert worker.pid != first and not alive(first)
    assert worker.news.count(worker.news[0]) == 1  # the failure was news once, then the answer


def test_an_idle_worker_that_is_killed_is_started_again(worker):
    assert worker.submit(abs, -1).wait(30)
    first = worker.pid
    os.kill(first, signal.SIGKILL)
    assert wait_until(lambda: worker.failure is not None)
    assert wait_until(lambda: worker.failure is None and worker.pid not in (None, first))
    assert worker.submit(abs, -2).wait(10)


def test_a_replaced_job_ends_its_process_and_the_new_one_is_answered(worker, tmp_path):
    started = tmp_path / "started"
    old = worker.submit(sleep_said, str(started), 30)
    busy = under_way(worker, started)
    new = worker.submit(sum, [4, 5])
    assert new.wait(10) and new.result() == 9
    assert not old.done() and not alive(busy)
    assert worker.failure is None and worker.failures == 0  # not a failure


#: In the worker process: what a yielding job kept there.
KEPT: list[str] = []


def keep_until_interrupted(value: str, started: str) -> str:
    """A yielding job (as the computer's pondering): keeps ``value``, says so in the file
    ``started``, works until asked to stop."""
    KEPT.append(value)
    with open(started, "w") as fp:
        fp.write(value)
    while not interrupted():
        time.sleep(0.01)
    return "stopped"


def kept() -> list[str]:
    return list(KEPT)


def test_a_yielding_job_stops_for_the_next_which_finds_what_it_kept_in_the_same_process(worker, tmp_path):
    started = tmp_path / "started"
    background = worker.submit(keep_until_interrupted, "tree", str(started), yields=True)
    assert wait_until(started.exists, 30)  # it is under way
    busy = worker.pid
    answer = worker.submit(kept)
    assert answer.wait(10) and answer.result() == ["tree"]
    assert worker.pid == busy and alive(busy) and not background.done()
    assert worker.failure is None and worker.failures == 0
    assert not interrupted()  # outside a worker it never is


def test_a_yielding_job_that_does_not_stop_has_its_process_ended(worker, monkeypatch, tmp_path):
    monkeypatch.setattr(worker_module, "GRACE", 0.2)
    started = tmp_path / "started"
    worker.submit(sleep_said, str(started), 30, yields=True)
    busy = under_way(worker, started)
    new = worker.submit(sum, [1, 2])
    assert new.wait(10) and new.result() == 3
    assert not alive(busy) and worker.failures == 0


def test_a_job_that_raises_is_said_and_tried_again_with_a_growing_backoff(worker):
    job = worker.submit(int, "x")
    assert wait_until(lambda: worker.failures >= 3)  # 0.05 s, 0.1 s, 0.2 s apart
    assert worker.failure == (
        "it failed (ValueError: invalid literal for int() with base 10: 'x'); it is tried again"
    )
    assert not job.done()
    fixed = worker.submit(int, "7")
    assert fixed.wait(10) and fixed.result() == 7 and worker.failure is None


def test_its_supervising_thread_dying_is_said_and_the_job_still_answered(worker):
    job = worker.submit(time.sleep, 0.3)
    assert wait_until(lambda: worker.pid is not None, 30)
    driver = worker._driver
    assert inject(driver)
    worker._poke()  # it gets the exception once it wakes
    driver.join(5)
    assert worker.check() == "its supervising thread ended (ThreadDeath)"
    assert job.wait(30) and worker.failure is None


def test_close_leaves_no_process_behind(worker):
    worker.submit(time.sleep, 30)
    assert wait_until(lambda: worker.pid is not None, 30)
    pid = worker.pid
    worker.close()
    assert not alive(pid) and worker.pid is None
    with pytest.raises(RuntimeError, match="closed"):
        worker.submit(abs, 1)


OWNER = """
import sys, time
from firmware_host.board.worker import Worker, interrupted
if __name__ == "__main__":
    worker = Worker("computer")
    worker.submit(time.sleep, 60)
    while worker.pid is None:
        time.sleep(0.01)
    print(worker.pid, flush=True)
    time.sleep(60)
"""


def test_a_worker_whose_owner_is_killed_mid_job_ends_itself(tmp_path):
    script = tmp_path / "owner.py"
    script.write_text(OWNER)
    owner = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=os.getcwd()
    )
    try:
        pid = int(owner.stdout.readline())
        time.sleep(0.2)  # the sleep is under way
        assert alive(pid)
        owner.kill()  # nobody will close it: the fork server goes, then the worker sees it
        owner.wait()
        assert wait_until(lambda: not alive(pid), 3)
    finally:
        owner.kill()
        owner.wait()
