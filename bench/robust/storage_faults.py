"""Storage faults × actions: the daemon loop (stepped on a virtual clock over the simulated
board, its games in a real SQLite file) meets a fault just before an action, runs on with it,
then the fault ends. Faults: another connection holding the write lock, a full database
(``PRAGMA max_page_count``: a real SQLITE_FULL), writes to the games table refused by SQLite's
authorizer. Actions: a move, a takeback (on the board), a new game (the page's picker), a game
end, a match game's end. Figures per run: the daemon kept running, acknowledged moves lost (the
file must hold every ``move`` event not taken back), a write failed (a takeback on a full file
does not: deleting needs no new page; nor does a new game's short row) and was said once,
saved again once mended, and the longest wall-clock step while the file was locked (the
baseline: the longest step with no fault),
and how long one write takes to fail on a locked file (median, max of 20).

    .venv/bin/python -m bench.robust.storage_faults [--quick] [--repeat N]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sqlite3
import tempfile
import time

from bench.robust.common import report
from firmware_host.board.game import Game
from firmware_host.runtime.loop import Daemon, Hardware
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config, Timing
from firmware_host.store.storage import Storage
from hardware.sim import SimBoard

WIN = ["A1*", "A3*", "B2*", "C1*", "C3*"]  # Antipalos 3: white connects


class Rig:
    def __init__(self, path: str, match: int = 0) -> None:
        config = Config(
            game="antipalos",
            size=3,
            match=match,
            storage=path,
            timing=Timing(settle_ms=100, debounce_scans=2),
        )
        self.path = path
        self.storage = Storage(path)
        self.controller = open_controller(config, self.storage, configured_game(config))
        self.sim = SimBoard(64)
        self.log = io.StringIO()
        self.daemon = Daemon(
            self.controller,
            Hardware(self.sim, self.sim.leds, self.sim.display, self.sim.buttons),
            100,
            log=self.log,
        )
        self.t, self.longest = 0.0, 0.0
        self.alive = True
        self.wait(200)

    def wait(self, ms: float) -> None:
        for _ in range(int(ms // 10)):
            self.t += 10
            began = time.perf_counter()
            try:
                self.daemon.step(self.t)
            except Exception:  # noqa: BLE001 - the figure: did it end the daemon?
                self.alive = False
                raise
            self.longest = max(self.longest, time.perf_counter() - began)

    def put(self, site: str, on: bool = True) -> None:
        channel = self.controller.layout.sensor[site]
        self.sim.place(channel) if on else self.sim.lift(channel)
        self.wait(300)

    def acknowledged(self) -> list[str]:
        """The moves the players were shown and not taken back, in order."""
        moves = []
        for event in map(json.loads, self.log.getvalue().splitlines()):
            if event["event"] == "move":
                moves.append(event["move"])
            elif event["event"] == "takeback":
                moves.pop()
            elif event["event"] == "new_game":
                moves = []
        return moves


def locked(rig: Rig):
    other = sqlite3.connect(rig.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    return lambda: (other.execute("ROLLBACK"), other.close())


#: The ids (and plies) of the rows that fill a full database: after every real one, where the
#: daemon's next game and move go, so that those find no room either.
FILLER = 1 << 40


def full(rig: Rig):
    """The database may not grow (``max_page_count``) and the pages where the daemon's next
    move and game go are full: a real SQLITE_FULL for them. Mended: room again, the filling
    rows gone."""
    db, game, when = rig.storage._db, rig.controller.game_id, "2026-01-01T00:00:00Z"
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    fillers = (  # rows like the daemon's next ones (its game's moves, games), then smaller
        ("INSERT INTO moves VALUES (?, ?, 'A1* - B2*', ?)", lambda n: (game, FILLER + n, when)),
        (
            "INSERT INTO games (id, game, started, finished) VALUES (?, 'x', ?, 'x')",
            lambda n: (FILLER + n, when),
        ),
        ("INSERT INTO moves VALUES (?, ?, '', '')", lambda n: (game, FILLER + n)),
    )
    count = 0
    for sql, args in fillers:
        with contextlib.suppress(sqlite3.Error):  # full (or its game not in the file yet)
            while True:
                with db:
                    db.execute(sql, args(count))
                count += 1

    def mend() -> None:
        db.execute("PRAGMA max_page_count = 1000000")
        with db:
            db.execute("DELETE FROM moves WHERE ply >= ?", (FILLER,))
            db.execute("DELETE FROM games WHERE id >= ?", (FILLER,))

    return mend


def refused(rig: Rig):
    db = rig.storage._db
    writes = (sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE)
    db.set_authorizer(
        lambda action, table, *_: (
            sqlite3.SQLITE_DENY if action in writes and table in ("games", "moves") else sqlite3.SQLITE_OK
        )
    )
    return lambda: db.set_authorizer(None)


FAULTS = {"locked": locked, "full": full, "refused": refused}


def act(rig: Rig, action: str, fault) -> None:
    """Play up to ``action``, break the file, do it, run on 3 s, mend the file, run on 2 s."""
    before = {"move": 1, "takeback": 2, "new_game": 2, "game_end": 4, "match_end": 4}[action]
    for site in WIN[:before]:
        rig.put(site)
    mend = fault(rig)
    if action in ("move", "game_end", "match_end"):
        rig.put(WIN[before])
    elif action == "takeback":
        rig.put(WIN[before - 1], False)
    else:
        rig.controller.new_game(Game.of("antipalos", 3))
        for site in WIN[:before]:
            rig.put(site, False)
    rig.wait(3000)
    mend()
    rig.wait(2000)


def run_one(fault: str, action: str) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "games.db")
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rig = Rig(path, match=6 if action == "match_end" else 0)
            baseline = rig.longest
            rig.longest = 0.0
            try:
                act(rig, action, FAULTS[fault])
            except Exception as exc:  # noqa: BLE001
                return {"alive": False, "error": f"{type(exc).__name__}: {exc}"}
        stored = Storage(path).games()
        game = [g for g in stored if g.finished is None or g.id == rig.controller.game_id]
        kept = list(game[-1].moves) if game else []
        said = err.getvalue()
        return {
            "alive": rig.alive,
            "lost": len(set(rig.acknowledged()) - set(kept)),
            "failed": "cannot save the games" in said,
            "said_once": said.count("cannot save the games") == 1,
            "saved_again": "can be saved again" in said,
            "pending_left": len(rig.storage.pending),
            "longest_ms": rig.longest * 1000,
            "baseline_ms": baseline * 1000,
        }


def locked_write_ms(tries: int = 20) -> tuple[float, float]:
    """How long a move's write takes to fail while another connection holds the lock (the
    daemon's busy timeout at 100 Hz), median and max."""
    import statistics

    from firmware_host.store.storage import StorageError

    with tempfile.TemporaryDirectory() as folder:
        rig = Rig(os.path.join(folder, "games.db"))
        mend = locked(rig)
        times = []
        for ply in range(1, tries + 1):
            began = time.perf_counter()
            with contextlib.suppress(StorageError):
                rig.storage.add_move(rig.controller.game_id, ply, "A1*")
            times.append((time.perf_counter() - began) * 1000)
        mend()
    return round(statistics.median(times), 1), round(max(times), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=None)
    args = parser.parse_args()
    repeat = args.repeat or (1 if args.quick else 5)
    actions = ["move", "takeback", "new_game", "game_end", "match_end"]
    results, rows = [], []
    for fault in FAULTS:
        for action in actions:
            runs = [run_one(fault, action) for _ in range(repeat)]
            results += runs
            worst = max(r.get("longest_ms", 0) for r in runs)
            rows.append(
                (
                    f"{fault} × {action}",
                    f"alive {sum(r['alive'] for r in runs)}/{repeat}, lost "
                    f"{sum(r.get('lost', 0) for r in runs)}, a write failed "
                    f"{sum(r.get('failed', False) for r in runs)}/{repeat}, said once "
                    f"{sum(r.get('said_once', False) for r in runs)}/{repeat}, longest step "
                    f"{worst:.1f} ms",
                )
            )
    locked_runs = results[: len(actions) * repeat]
    median_ms, max_ms = locked_write_ms()
    figures = {
        "runs": len(results),
        "daemon_ended": sum(not r["alive"] for r in results),
        "acknowledged_lost": sum(r.get("lost", 0) for r in results),
        "write_failed": sum(r.get("failed", False) for r in results),
        "said_once": sum(r.get("said_once", False) for r in results),
        "saved_again": sum(r.get("saved_again", False) for r in results),
        "writes_left_pending": sum(r.get("pending_left", 0) for r in results),
        "locked_longest_step_ms": round(max(r.get("longest_ms", 0) for r in locked_runs), 1),
        "baseline_longest_step_ms": round(max(r.get("baseline_ms", 0) for r in results), 1),
        "locked_write_median_ms": median_ms,
        "locked_write_max_ms": max_ms,
    }
    report("storage faults × actions", rows + list(figures.items()), figures)


if __name__ == "__main__":
    main()
