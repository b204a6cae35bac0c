"""How long the computer's worker process takes to start, by start method, beside a bare
``python -c pass`` measured in the same run; and whether it starts at all while a thread reads
stdin from a pipe (the daemon's simulated board does).

    bench/worker_start.py [--quick]

For each method (``forkserver``, the daemon's; ``spawn``; ``fork``) a fresh process of this
script makes a :class:`~firmware_host.board.worker.Worker` preloading what the computer's search
imports (``firmware_host.board.opponent`` and the five games) and times:

- ``submit``: how long :meth:`Worker.submit` keeps the caller (the scan loop);
- ``first``: from the first job's submit to its answer (a job that imports the search's
  modules, as the first search does): the process start, for ``forkserver`` the server's own
  start too;
- ``again``: the same job replacing a running one (its process is ended and a fresh one
  answers): the cost of each later start, the same as a restart after a crash without its
  backoff.

Then each method once more with a thread blocked reading stdin from a pipe: ``fork`` copies the
daemon while that thread holds stdin's lock, and the child, which closes stdin as it starts,
waits for that lock forever (the "computer never answers with stdin a pipe" report). A Pi
Zero 2 W runs Python some 15-25 times slower than the machines these figures come from.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
METHODS = ("forkserver", "spawn", "fork")
PRELOAD = "firmware_host.board.opponent"
#: How long a job may take before it counts as never answered.
HANG_SECONDS = 5.0


def one_method(method: str, repeat: int) -> dict:
    """Run in a fresh process: the figures of ``method``."""
    from engines import MODULES
    from firmware_host.board.worker import Worker

    modules = (PRELOAD, *MODULES.values())
    imports = "import " + ", ".join(modules)
    worker = Worker("computer", preload=modules, method=method)
    try:
        began = time.perf_counter()
        job = worker.submit(exec, imports)
        submit = time.perf_counter() - began
        job.wait(60)
        first = time.perf_counter() - began
        again = []
        for _ in range(repeat):
            worker.submit(time.sleep, 60)
            while worker.pid is None or worker.failure is not None:
                time.sleep(0.001)
            time.sleep(0.05)  # the sleep is under way
            began = time.perf_counter()
            worker.submit(exec, imports).wait(60)
            again.append(time.perf_counter() - began)
    finally:
        worker.close()
    return {
        "submit_ms": submit * 1e3,
        "first_ms": first * 1e3,
        "again_ms": statistics.median(again) * 1e3,
        "again_max_ms": max(again) * 1e3,
    }


def with_stdin_reader(method: str) -> bool:
    """Run in a fresh process whose stdin is a pipe nobody writes: True if a job is answered
    while a thread waits reading stdin."""
    from firmware_host.board.worker import Worker

    threading.Thread(target=sys.stdin.readline, daemon=True).start()
    time.sleep(0.1)  # the reader holds stdin's lock now
    worker = Worker("computer", method=method)
    answered = worker.submit(abs, -1).wait(HANG_SECONDS)
    if not answered:  # a child stuck on the lock: end it, then this process at once
        os.kill(worker.pid, 9) if worker.pid else None
        os._exit(3)
    worker.close()
    return answered


def in_fresh_process(*args: str) -> tuple[int, str]:
    """Exit status and output of this script run with ``args``, its stdin a pipe kept open
    (and empty) until it ends."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bench.worker_start", *args],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    out = proc.stdout.read()
    status = proc.wait(120)
    proc.stdin.close()
    return status, out


def bare(code: str, repeat: int) -> float:
    """Median ms of ``python -c code`` (a fresh interpreter)."""
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--child", nargs=2, metavar=("WHAT", "METHOD"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    repeat = 3 if args.quick else 10
    if args.child:
        what, method = args.child
        result = one_method(method, repeat) if what == "start" else with_stdin_reader(method)
        print(json.dumps(result))
        return
    from engines import MODULES

    figures = {
        "python_c_pass_ms": round(bare("pass", repeat), 1),
        "python_imports_ms": round(bare(f"import {PRELOAD}, " + ", ".join(MODULES.values()), repeat), 1),
    }
    print("worker start, by method (ms; a Pi Zero 2 W: 15-25 times these)")
    print(
        f"  bare python -c pass {figures['python_c_pass_ms']:7.1f}   "
        f"with the search's imports {figures['python_imports_ms']:7.1f}"
    )
    print(
        f"  {'method':<11} {'submit':>7} {'first':>7} {'again':>7} {'again max':>9}  "
        "answers while stdin is read"
    )
    for method in METHODS:
        start = json.loads(in_fresh_process("--child", "start", method)[1])
        answers = in_fresh_process("--child", "stdin", method)[0] == 0
        figures.update({f"{method}_{key}": round(value, 2) for key, value in start.items()})
        figures[f"{method}_answers_with_stdin_pipe"] = answers
        print(
            f"  {method:<11} {start['submit_ms']:7.2f} {start['first_ms']:7.1f} "
            f"{start['again_ms']:7.1f} {start['again_max_ms']:9.1f}  "
            f"{'yes' if answers else f'no (not in {HANG_SECONDS:g} s)'}"
        )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
