"""Power cuts: ``reedboard run --sim`` (a real process, its games in an SQLite file) plays a
scripted game fed on stdin, is killed with SIGKILL at a random moment, is started again and
plays the rest. A move is *lost* when its ``move`` event was printed (acknowledged) but it is not
in the database after the kill; a game *fails to resume* when the restarted daemon does not carry
the stored game on to the script's end. Figures: moves lost, games that failed to resume (both
must be 0), acknowledged moves at the kill, start-up time to READY.

    .venv/bin/python -m bench.robust.power_cuts [--quick] [--runs N] [--seed S] [--jobs J]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from bench.robust.common import ROOT, report
from engines import new_game
from firmware_host.store.storage import Storage
from testbed.tools import free_port

GAME, SIZE, PLIES = "anti-grid", 6, 10
REEDBOARD = [sys.executable, "-m", "firmware_host.cli.main", "run", "--sim"]
CONFIG = """game = "{game}"
size = {size}
storage = "{db}"
[timing]
settle_ms = 100
debounce_scans = 2
[web]
port = {port}
"""


def script(seed: int) -> list[list[tuple[str, bool]]]:
    """A random legal game: per move, the site changes that make it (hand, then follow-ups)."""
    rng = random.Random(seed)
    state = new_game(GAME, SIZE, None)
    moves = []
    while len(moves) < PLIES and state.outcome() is None:
        move = rng.choice(state.legal_moves())
        real = state.realisations(move)[0]
        changes = [(s, False) for s in sorted(real.emptied)] + [(s, True) for s in sorted(real.filled)]
        for step in real.follow_ups:
            changes += [(s, step.action == "twin") for s in sorted(step.sites)]
        moves.append((state.notation(move), changes))
        state = state.apply(move)
    return moves


class Daemon:
    """One ``reedboard run --sim`` process: stdin lines in, move events out, READY timed."""

    def __init__(self, config: str, directory: str) -> None:
        self.moves: list[str] = []
        self.gone = False
        self.lock = threading.Condition()
        sock_path = os.path.join(directory, "notify")
        if os.path.exists(sock_path):
            os.unlink(sock_path)
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(sock_path)
        self.notify.settimeout(30)
        env = {**os.environ, "NOTIFY_SOCKET": sock_path, "PYTHONPATH": ROOT}
        began = time.perf_counter()
        self.proc = subprocess.Popen(
            [*REEDBOARD, "--config", config],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=open(os.path.join(directory, "stderr"), "a"),
            text=True,
            env=env,
            cwd=ROOT,
        )
        self.ready_s = self._await_ready(began)
        threading.Thread(target=self._read, daemon=True).start()

    def _await_ready(self, began: float) -> float | None:
        try:
            while b"READY=1" not in self.notify.recv(4096):
                pass
        except OSError:
            return None
        finally:
            self.notify.close()
        return time.perf_counter() - began

    def _read(self) -> None:
        for line in self.proc.stdout:
            event = json.loads(line)
            if event.get("event") == "move":
                with self.lock:
                    self.moves.append(event["move"])
                    self.lock.notify_all()
        with self.lock:
            self.gone = True
            self.lock.notify_all()

    def send(self, site: str, on: bool) -> None:
        self.proc.stdin.write(json.dumps({"site": site, "on": on}) + "\n")
        self.proc.stdin.flush()

    def wait_moves(self, n: int, timeout: float = 5.0) -> bool:
        with self.lock:
            self.lock.wait_for(lambda: len(self.moves) >= n or self.gone, timeout)
            return len(self.moves) >= n

    def acknowledged(self) -> list[str]:
        with self.lock:
            return list(self.moves)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        self.proc.send_signal(sig)
        self.proc.wait(timeout=10)


def play(daemon: Daemon, moves, start: int, stop: threading.Event | None = None) -> None:
    """Make moves ``start``... on the board, each once the previous one was acknowledged."""
    for index in range(start, len(moves)):
        for site, on in moves[index][1]:
            if stop is not None and stop.is_set():
                return
            try:
                daemon.send(site, on)
            except (BrokenPipeError, ValueError, OSError):
                return  # the process is gone
            time.sleep(0.02)
        if not daemon.wait_moves(index - start + 1):
            return
        time.sleep(0.15)  # the follow-ups settle


@dataclass
class Outcome:
    acknowledged: int
    stored: int
    lost: int
    resumed: bool
    ready_s: list[float]


def stored_moves(db: str) -> list[str]:
    storage = Storage(db)
    try:
        record = storage.unfinished()
        return list(record.moves) if record else []
    finally:
        storage.close()


def one_run(seed: int) -> Outcome:
    rng = random.Random(seed)
    moves = script(seed)
    names = [m for m, _ in moves]
    with tempfile.TemporaryDirectory() as directory:
        db = os.path.join(directory, "games.db")
        config = os.path.join(directory, "config.toml")
        with open(config, "w", encoding="utf-8") as fp:
            fp.write(CONFIG.format(game=GAME, size=SIZE, db=db, port=free_port()))
        first = Daemon(config, directory)
        stop = threading.Event()
        player = threading.Thread(target=play, args=(first, moves, 0, stop))
        player.start()
        time.sleep(rng.uniform(0.0, 0.35 * len(moves)))
        first.kill()
        acked = first.acknowledged()
        stop.set()
        player.join()
        stored = stored_moves(db)
        lost = sum(1 for i, m in enumerate(acked) if i >= len(stored) or stored[i] != m)
        ready = [first.ready_s]
        resumed = stored == names[: len(stored)]
        if resumed:
            second = Daemon(config, directory)
            ready.append(second.ready_s)
            play(second, moves, len(stored))
            second.kill(signal.SIGTERM)
            resumed = second.acknowledged() == names[len(stored) :] and stored_moves_all(db) == names
    return Outcome(len(acked), len(stored), lost, resumed, [r for r in ready if r is not None])


def stored_moves_all(db: str) -> list[str]:
    """The moves of the (only) game in the file, finished or not."""
    storage = Storage(db)
    try:
        games = storage.games()
        return list(games[-1].moves) if len(games) == 1 else []
    finally:
        storage.close()


def run(runs: int, seed: int, jobs: int) -> dict:
    began = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        outcomes = list(pool.map(one_run, [seed * 1000 + i for i in range(runs)]))
    ready = sorted(r for o in outcomes for r in o.ready_s)
    return {
        "bench": "robust_power_cuts",
        "runs": runs,
        "game": f"{GAME} {SIZE}, {PLIES} plies",
        "moves_acknowledged_at_kill": sum(o.acknowledged for o in outcomes),
        "moves_stored_at_kill": sum(o.stored for o in outcomes),
        "moves_lost": sum(o.lost for o in outcomes),
        "failed_to_resume": sum(not o.resumed for o in outcomes),
        "kills_before_first_move": sum(o.acknowledged == 0 for o in outcomes),
        "ready_p50_s": round(ready[len(ready) // 2], 3) if ready else None,
        "ready_max_s": round(ready[-1], 3) if ready else None,
        "seconds": round(time.perf_counter() - began, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 runs")
    parser.add_argument("--runs", type=int, help="runs (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=3, help="daemons at once")
    args = parser.parse_args(argv)
    runs = args.runs or (10 if args.quick else 100)
    figures = run(runs, args.seed, args.jobs)
    rows = [(k.replace("_", " "), v) for k, v in figures.items() if k != "bench"]
    report(f"Power cuts: {runs} SIGKILLs of reedboard run --sim, seed {args.seed}", rows, figures)
    return 1 if figures["moves_lost"] or figures["failed_to_resume"] else 0


if __name__ == "__main__":
    sys.exit(main())
