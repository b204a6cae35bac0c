"""Two daemons, one database: pairs of ``reedboard run --sim`` on the same SQLite file, the
second started after the first is scanning, or both at the same instant (a race for the lock).
Figures: runs in which both ran (must be 0), second daemons that exited 2 with the one line
naming the file and the first's PID, ``reedboard export`` reading while a daemon runs, and the
time a refused second daemon took to exit.

    .venv/bin/python -m bench.robust.two_daemons [--quick] [--runs N]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time

from bench.robust.common import report
from bench.robust.power_cuts import free_port

REEDBOARD = [sys.executable, "-m", "firmware_host.cli.main"]


def start(config: str) -> subprocess.Popen:
    return subprocess.Popen(
        [*REEDBOARD, "run", "--sim", "--config", config],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def runs(proc: subprocess.Popen) -> bool:
    """Whether ``proc`` got to run: its loop began (its first event on stdout), rather than it
    ended (stdout closed) - however long a loaded machine takes to get there."""
    return bool(proc.stdout.readline())


def stop(proc: subprocess.Popen) -> str:
    """``proc`` stopped (SIGTERM) if it still runs; its stderr."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    proc.wait(30)
    return proc.stderr.read()


def one(folder: str, race: bool) -> dict:
    db = os.path.join(folder, "games.db")
    config = os.path.join(folder, f"config-{time.monotonic_ns()}.toml")
    with open(config, "w") as fp:
        fp.write(f'game = "antipalos"\nsize = 3\nstorage = "{db}"\n[web]\nport = {free_port()}\n')
    first = start(config)
    first_ran = None if race else runs(first)  # the second starts once the first is scanning
    began = time.perf_counter()
    second = start(config)
    second_ran = runs(second)
    exit_s = time.perf_counter() - began
    if first_ran is None:
        first_ran = runs(first)
    export = subprocess.run(
        [*REEDBOARD, "export", "--config", config], capture_output=True, text=True, timeout=30
    )
    ran = [p for p, did in ((first, first_ran), (second, second_ran)) if did]
    stop(first)
    second_err = stop(second)
    loser = second if first in ran else first
    line = (second_err if loser is second else "").strip().splitlines()
    named = line == [
        f"reedboard run: {db} is in use by another reedboard run (PID {first.pid}); one daemon per database"
    ]
    return {
        "both_ran": len(ran) == 2,
        "one_ran": len(ran) == 1,
        "named": named or race,
        "export_read": export.returncode == 0 and "[Game" in export.stdout,
        "exit_s": exit_s if not race else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int, default=None)
    args = parser.parse_args()
    runs = args.runs or (3 if args.quick else 20)
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for i in range(runs):
            results.append((i % 2 == 1, one(folder, race=i % 2 == 1)))
    after = [r for race, r in results if not race]
    races = [r for race, r in results if race]
    figures = {
        "runs": runs,
        "both_ran": sum(r["both_ran"] for _, r in results),
        "exactly_one_ran": sum(r["one_ran"] for _, r in results),
        "second_refused_naming_pid": sum(r["named"] for r in after),
        "sequential": len(after),
        "races": len(races),
        "export_read_while_running": sum(r["export_read"] for _, r in results),
        "refused_exit_max_s": round(max((r["exit_s"] for r in after), default=0), 2),
    }
    report("two daemons on one database", list(figures.items()), figures)


if __name__ == "__main__":
    main()
