"""The café network under load: N simulated boards (default 200) on one Mosquitto, with the
dashboard (``reedboard cafe``, its archive in SQLite) open in Debian's Chromium.

Each board is the real daemon code in this process: a controller on a simulated board
(``Daemon.step``), its ``NetBoard`` observer and its own paho client. As the real loop does, a
board is stepped at 50 Hz while something happens on it (a piece placed, the board settling)
and, settled, only every ``IDLE_WAIT`` (the real loop sleeps until woken). The boards place
pieces in rounds (Antipalos 5, staggered over the round). Printed:

- move -> tile: from the board's ``move`` event to the page showing that ply on the board's
  tile (the page's ``data-ply-at``, same clock), p50 / p99 / max, and beside it the broker's
  own round trip in the same run (a client in a process of its own publishing to itself every
  50 ms: the floor any message pays);
- the same time split where each part ends, each read as it happens: move -> the broker's
  subscriber (that client notes when each state reaches it), -> the page (the websocket
  message that brought the ply: ``data-ply-got``) -> the tile (drawn: ``data-ply-at``);
- CPU of the broker and of the dashboard process, idle (all boards connected, nobody playing:
  the baseline) and while half, then all the boards play; the cost of one more playing board
  is the difference over the extra boards;
- the dashboard's memory (RSS) and the size of one state message;
- the page's frames while all the boards play (the time between two animation frames: 16.7 ms
  when the page keeps up; a tile drawn slowly shows as longer frames), p50 / p99 / max, and the
  page opened afresh: the seconds until every tile has its board drawn;
- the archive's insert of a finished game (``Archive.store``: SQLite, and PostgreSQL when
  Debian's is installed), p50 / p99 over 300 games, beside a bare ``INSERT`` of the same row.

Usage: .venv/bin/python -m bench.cafe [--boards N] [--rounds R] [--quick]
The last line is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from bench.daemon import cpu_ticks, rss_mb
from bench.timing import percentile
from engines import new_game
from firmware_host.cli.daemon import IDLE_WAIT, Daemon, open_hardware
from firmware_host.net.cafe.archive import Archive, read_record
from firmware_host.net.mqtt.board import attach
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config, Mqtt, Timing
from firmware_host.store.storage import Storage
from testbed.broker import Broker
from testbed.tools import free_port

SCAN_HZ = 50
ROUND_S = 1.6
CHROMIUM = "/usr/bin/chromium"
#: Worker processes start afresh (this process runs Playwright's threads: no fork).
PROCESSES = multiprocessing.get_context("spawn")
#: A board is stepped at SCAN_HZ for this long after anything happened on it.
ACTIVE_S = 1.0


class Boards:
    """Daemons ``first`` .. ``first + count - 1`` on the broker at ``port``, stepped together on
    the wall clock."""

    def __init__(self, first: int, count: int, port: int) -> None:
        self.daemons, self.nets = [], []
        self.log = open(os.devnull, "w")
        self.moved: dict[tuple[str, int], float] = {}  # (board, ply) -> wall time of the event
        self.active_until: list[float] = []  # per board: step at SCAN_HZ until then
        self.stepped: list[float] = []  # per board: when it was last stepped
        for i in range(count):
            board = board_name(first + i)
            # Games in memory: paho waits on its sockets with select(), which takes no descriptor
            # above 1023, and three SQLite files a board would pass that before 120 boards.
            config = replace(Config(), game="antipalos", size=5, storage=":memory:",
                             timing=Timing(scan_hz=SCAN_HZ),
                             mqtt=Mqtt(host="127.0.0.1", port=port, board=board)).simulated()
            controller = open_controller(config, Storage(config.storage), configured_game(config))
            daemon = Daemon(controller, open_hardware(config, controller.layout.sensor_channels),
                            SCAN_HZ, log=self.log)
            daemon.observers.append(self._recorder(i, board))
            self.nets.append(attach(daemon, config))
            self.daemons.append(daemon)
            self.active_until.append(0.0)
            self.stepped.append(0.0)
        self.start = time.monotonic()

    def _recorder(self, index: int, board: str):
        def record(now, controller, events) -> None:
            if events:
                self.active_until[index] = time.monotonic() + ACTIVE_S
            if any(e["event"] == "move" for e in events):
                self.moved[board, len(controller.moves)] = time.time()
        return record

    def run(self, seconds: float, placing: dict[int, list[tuple[float, str]]] | None = None) -> None:
        """Step every board for ``seconds``; ``placing``: board index -> [(at s, site)]."""
        placing = {i: list(p) for i, p in (placing or {}).items()}
        begin = tick = time.monotonic()
        while tick - begin < seconds:
            for i, daemon in enumerate(self.daemons):
                todo = placing.get(i)
                while todo and todo[0][0] <= tick - begin:
                    _, site = todo.pop(0)
                    daemon.hardware.scanner.place(daemon.controller.layout.sensor[site])
                    self.active_until[i] = tick + ACTIVE_S
                if tick < self.active_until[i] or tick - self.stepped[i] >= IDLE_WAIT:
                    self.stepped[i] = tick
                    daemon.step((tick - self.start) * 1000)
            tick += 1 / SCAN_HZ
            time.sleep(max(0.0, tick - time.monotonic()))

    def stop(self) -> None:
        for net, daemon in zip(self.nets, self.daemons):
            net.stop(timeout=0.2)
            daemon.close()
        self.log.close()


def board_name(index: int) -> str:
    return f"table-{index:03d}"


def serve_boards(first: int, count: int, port: int, conn) -> None:
    """A worker process: boards ``first`` .. on the broker, run as the parent asks (``run``:
    seconds and placements by board index; ``plies``; ``stop``); each answer on ``conn``."""
    boards = Boards(first, count, port)
    while True:
        what, arg = conn.recv()
        if what == "run":
            seconds, placing = arg
            boards.run(seconds, {i - first: p for i, p in placing.items()})
            conn.send(None)
        elif what == "plies":
            conn.send({first + i: len(d.controller.moves) for i, d in enumerate(boards.daemons)})
        elif what == "stop":
            conn.send((boards.moved, len(boards.nets[0].sent_state)))
            boards.stop()
            return


class Workers:
    """``count`` boards in ``processes`` worker processes (a café's boards are each on a Pi of
    their own: one process's threads for all 200 would measure the bench's own queue), run
    together."""

    def __init__(self, count: int, port: int, processes: int) -> None:
        share = -(-count // processes)
        self.pipes, self.procs = [], []
        for first in range(0, count, share):
            parent, child = PROCESSES.Pipe()
            proc = PROCESSES.Process(target=serve_boards,
                                           args=(first, min(share, count - first), port, child))
            proc.start()
            self.pipes.append(parent)
            self.procs.append(proc)
        self.moved: dict[tuple[str, int], float] = {}
        self.state_bytes = 0

    @property
    def pids(self) -> list[int]:
        return [proc.pid for proc in self.procs]

    def run(self, seconds: float, placing: dict[int, list[tuple[float, str]]] | None = None) -> None:
        for pipe in self.pipes:
            pipe.send(("run", (seconds, placing or {})))
        for pipe in self.pipes:
            pipe.recv()

    def plies(self) -> dict[int, int]:
        out = {}
        for pipe in self.pipes:
            pipe.send(("plies", None))
            out.update(pipe.recv())
        return out

    def stop(self) -> None:
        for pipe in self.pipes:
            pipe.send(("stop", None))
            moved, self.state_bytes = pipe.recv()
            self.moved.update(moved)
        for proc in self.procs:
            proc.join(10)


def placements(seed: int, count: int) -> list[str]:
    """``count`` placements of Antipalos 5 that end no game."""
    rng = random.Random(seed)
    while True:
        state, sites = new_game("antipalos", 5), []
        for _ in range(count):
            moves = [m for m in state.legal_moves()
                     if all(not r.follow_ups and not r.emptied and len(r.filled) == 1
                            for r in state.realisations(m))]
            move = rng.choice(moves)
            sites.append(next(iter(state.realisations(move)[0].filled)))
            state = state.apply(move)
            if state.outcome():
                break
        else:
            return sites


def game_moves(seed: int, count: int) -> list[str]:
    """``count`` moves of an Antipalos 5 game that does not end before them, as records write."""
    rng = random.Random(seed)
    while True:
        state, moves = new_game("antipalos", 5), []
        while len(moves) < count and not state.outcome():
            move = rng.choice(list(state.legal_moves()))
            moves.append(state.notation(move))
            state = state.apply(move)
        if len(moves) == count:
            return moves


def observe(port: int, stop, results) -> None:
    """In a process of its own (free of the boards' threads): publish to itself every 50 ms
    (the broker's round trip, ms) and note when each board's state shows a new ply (wall
    time, s). Puts (round trips, {(board, ply): time}) on ``results`` once ``stop`` is set."""
    trips, arrived, sent = [], {}, {}

    def on_message(client, userdata, message) -> None:
        now = time.perf_counter()
        if message.topic == "bench/ping":
            trips.append((now - sent.pop(message.payload, now)) * 1000)
            return
        try:
            ply = json.loads(message.payload)["ply"]
        except (ValueError, KeyError, TypeError):
            return
        arrived.setdefault((message.topic.split("/")[1], ply), time.time())

    client = paho.Client(CallbackAPIVersion.VERSION2)
    client.on_message = on_message
    client.connect("127.0.0.1", port)
    client.subscribe([("bench/ping", 0), ("reedboard/+/state", 0)])
    client.loop_start()
    n = 0
    while not stop.wait(0.05):
        n += 1
        sent[str(n).encode()] = time.perf_counter()
        client.publish("bench/ping", str(n), qos=0)
    client.loop_stop()
    client.disconnect()
    results.put((trips[40:], arrived))  # the first 2 s: the boards connecting


def archive_inserts(archive: Archive, count: int = 300) -> list[float]:
    """Milliseconds to keep each of ``count`` finished games (a 40-move Antipalos 5 game)."""
    moves = game_moves(7, 40)
    game = read_record(json.dumps({
        "id": 1, "game": "antipalos", "size": 5, "variant": "two", "started": "2026-11-27T18:00:00Z",
        "finished": "2026-11-27T18:30:00Z", "result": "abandoned", "winner": None,
        "moves": moves}).encode())
    times = []
    for n in range(count):
        began = time.perf_counter()
        archive.store(f"table-{n % 50:02d}", {**game, "id": n + 1, "key": f"{n + 1}-x"})
        times.append((time.perf_counter() - began) * 1000)
    return times


def bare_inserts(path: str, count: int = 300) -> list[float]:
    """The baseline: a bare sqlite3 INSERT of a row that size, same pragmas (WAL, NORMAL)."""
    import sqlite3

    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)")
    times = []
    for n in range(count):
        began = time.perf_counter()
        db.execute("INSERT INTO t VALUES (?, ?)", (str(n), "x" * 900))
        times.append((time.perf_counter() - began) * 1000)
    db.close()
    return times


def archive_figures(folder: Path) -> dict[str, float]:
    """p50 / p99 ms of the archive's insert in SQLite (and PostgreSQL if it can be started)."""
    out = {}
    sqlite = archive_inserts(Archive.open(None, str(folder / "bench-archive")))
    bare = bare_inserts(str(folder / "bare.db"))
    out.update(archive_sqlite_p50_ms=percentile(sqlite, 0.5),
               archive_sqlite_p99_ms=percentile(sqlite, 0.99),
               bare_sqlite_insert_p50_ms=percentile(bare, 0.5),
               bare_sqlite_insert_p99_ms=percentile(bare, 0.99))
    try:
        from testbed.postgres import Postgres

        server = Postgres(fsync=True).start()
    except BaseException as exc:  # noqa: BLE001 - no PostgreSQL here: SQLite only
        print(f"PostgreSQL not measured ({type(exc).__name__})", file=sys.stderr)
        return out
    try:
        pg = archive_inserts(Archive.open(server.database()))
        out.update(archive_postgres_p50_ms=percentile(pg, 0.5), archive_postgres_p99_ms=percentile(pg, 0.99))
    finally:
        server.remove()
    return out


class Cpu:
    """CPU seconds of some processes between two readings."""

    def __init__(self, **pids: list[int]) -> None:
        self.pids = pids
        self.mark()

    def _ticks(self) -> dict[str, int]:
        return {k: sum(map(cpu_ticks, pids)) for k, pids in self.pids.items()}

    def mark(self) -> None:
        self.at, self.ticks = time.monotonic(), self._ticks()

    def percent(self) -> dict[str, float]:
        """CPU % of one core of each group since the last mark (and mark again)."""
        hz, elapsed = os.sysconf("SC_CLK_TCK"), time.monotonic() - self.at
        now = self._ticks()
        used = {k: (now[k] - self.ticks[k]) / hz for k in self.pids}
        self.mark()
        return {k: 100 * v / elapsed for k, v in used.items()}


def play_rounds(boards: Workers, page, active: int, rounds: int,
                sites: list[str]) -> dict[tuple[str, int], tuple[float, float]]:
    """Each of the first ``active`` boards places its next piece once per round; (board, ply)
    -> when the page received that ply and when its tile showed it (the page's ms since the
    epoch), read in the round."""
    shown_at = {}
    for _ in range(rounds):
        now = boards.plies()
        plies = {i: now[i] + 1 for i in range(active)}
        at = {i: [(ROUND_S * 0.7 * i / active, sites[ply - 1])] for i, ply in plies.items()}
        boards.run(ROUND_S, at)
        deadline = time.monotonic() + 5
        while True:
            shown = _tiles(page)
            late = [i for i, ply in plies.items() if shown.get(board_name(i), (0, 0, 0))[0] < ply]
            if not late or time.monotonic() > deadline:
                break
            boards.run(0.1)
        for i, ply in plies.items():
            board = board_name(i)
            if shown.get(board, (0, 0, 0))[0] == ply:
                shown_at[board, ply] = shown[board][1:]
        print(f"round: {len(plies) - len(late)} of {len(plies)} tiles updated", file=sys.stderr,
              flush=True)
    return shown_at


def open_again(page, count: int) -> float:
    """Seconds from opening the page again to every one of ``count`` tiles drawn."""
    began = time.perf_counter()
    page.reload()
    page.wait_for_function("(n) => document.querySelectorAll('article.tile[data-drawn]:not("
                           "[data-drawn=\"\"])').length >= n", arg=count, timeout=60_000)
    return time.perf_counter() - began


#: Records the time between the page's animation frames in ``benchFrames``.
FRAMES_JS = """() => {
  window.benchFrames = [];
  let last = 0;
  const tick = (t) => { if (last) benchFrames.push(t - last); last = t; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
}"""


def _number(text: str | None) -> float:
    """A tile's data attribute as a number; 0 when unset (a board that said nothing yet).

    >>> _number("12"), _number(None), _number("undefined")
    (12.0, 0.0, 0.0)
    """
    try:
        return float(text or 0)
    except ValueError:
        return 0.0


def _tiles(page) -> dict[str, tuple[float, float, float]]:
    """Board -> (the ply its tile shows, when the page received it, when it showed it)."""
    return {t["board"]: (_number(t["ply"]), _number(t["got"]), _number(t["at"]))
            for t in page.evaluate("[...document.querySelectorAll('article.tile')].map((e) => "
                                   "({board: e.dataset.board, ply: e.dataset.ply, "
                                   "got: e.dataset.plyGot, at: e.dataset.plyAt}))")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=6, help="moves per board in each phase")
    parser.add_argument("--quick", action="store_true", help="10 boards, 2 rounds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=4, help="worker processes for the boards")
    args = parser.parse_args()
    count, rounds = (10, 2) if args.quick else (args.boards, args.rounds)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        folder = Path(tmp)
        broker = Broker(folder, "set_tcp_nodelay true\n").start()
        web_port = free_port()
        journal = folder / "cafe.log"  # the dashboard's stderr: a pipe nobody read would stall it
        cafe = subprocess.Popen(
            [sys.executable, "-m", "firmware_host.cli.main", "cafe", "--mqtt", f"127.0.0.1:{broker.port}",
             "--port", str(web_port), "--state", str(folder / "cafe")], stderr=journal.open("w"))
        while "dashboard is at" not in journal.read_text():
            time.sleep(0.05)
        boards = Workers(count, broker.port, args.processes)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        stop, results = PROCESSES.Event(), PROCESSES.Queue()
        observer = PROCESSES.Process(target=observe, args=(broker.port, stop, results))
        observer.start()
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            page.goto(f"http://127.0.0.1:{web_port}/")
            boards.run(3.0)  # all connected, the page has every tile
            deadline = time.monotonic() + 30
            while len(_tiles(page)) < count and time.monotonic() < deadline:
                boards.run(0.5)
            assert len(_tiles(page)) == count, f"{len(_tiles(page))} tiles of {count}"
            cpu = Cpu(broker=[broker.proc.pid], dashboard=[cafe.pid], boards=boards.pids)
            boards.run(5.0)
            idle = cpu.percent()
            sites = placements(args.seed, 2 * rounds)
            half = count // 2
            lat_half = play_rounds(boards, page, half, rounds, sites)
            busy_half = cpu.percent()
            page.evaluate(FRAMES_JS)
            lat_all = play_rounds(boards, page, count, rounds, sites)
            frames = page.evaluate("() => benchFrames")
            opened = open_again(page, count)
            busy_all = cpu.percent()
            rss = rss_mb(cafe.pid)
        finally:
            stop.set()
            trips, arrived = results.get(timeout=10)
            observer.join(5)
            browser.close()
            boards.stop()
            cafe.terminate()
            cafe.wait(5)
            broker.stop()
        said = journal.read_text().splitlines()[1:]
        if said:
            print(f"the dashboard said {len(said)} lines, the first: {said[0]}", file=sys.stderr)
        archive = archive_figures(folder)
    state_bytes = boards.state_bytes
    shown = {k: v for k, v in {**lat_half, **lat_all}.items() if k in boards.moved and k in arrived}
    # Each split where it ends: the broker's subscriber, the page's websocket, the tile (ms).
    latencies = [at - boards.moved[k] * 1000 for k, (_, at) in shown.items()]
    to_broker = [(arrived[k] - boards.moved[k]) * 1000 for k in shown]
    to_page = [got - arrived[k] * 1000 for k, (got, _) in shown.items()]
    to_tile = [at - got for got, at in shown.values()]
    per_board = {k: (busy_all[k] - busy_half[k]) / (count - half) for k in ("broker", "dashboard")}
    figures = {
        "boards": count, "moves_timed": len(latencies),
        "move_to_tile_p50_ms": round(percentile(latencies, 0.5), 1),
        "move_to_tile_p99_ms": round(percentile(latencies, 0.99), 1),
        "move_to_tile_max_ms": round(max(latencies, default=0.0), 1),
        "move_to_broker_p50_ms": round(percentile(to_broker, 0.5), 1),
        "move_to_broker_p99_ms": round(percentile(to_broker, 0.99), 1),
        "broker_to_page_p50_ms": round(percentile(to_page, 0.5), 1),
        "broker_to_page_p99_ms": round(percentile(to_page, 0.99), 1),
        "page_to_tile_p50_ms": round(percentile(to_tile, 0.5), 1),
        "page_to_tile_p99_ms": round(percentile(to_tile, 0.99), 1),
        "broker_round_trip_p50_ms": round(percentile(trips, 0.5), 2),
        "broker_round_trip_p99_ms": round(percentile(trips, 0.99), 2),
        "cpu_idle_pct": {k: round(v, 2) for k, v in idle.items()},
        "cpu_half_playing_pct": {k: round(v, 2) for k, v in busy_half.items()},
        "cpu_all_playing_pct": {k: round(v, 2) for k, v in busy_all.items()},
        "cpu_per_extra_playing_board_pct": {k: round(v, 3) for k, v in per_board.items()},
        "dashboard_rss_mb": round(rss, 1), "state_message_bytes": state_bytes,
        **{f"page_frame_{name}_ms": round(percentile(frames, q), 1)
           for name, q in (("p50", 0.5), ("p99", 0.99), ("max", 1.0))},
        "page_opened_s": round(opened, 2),
        **{k: round(v, 3) for k, v in archive.items()},
    }
    print(f"{count} boards ({args.processes} processes) on one Mosquitto, the dashboard open in Chromium; "
          f"{len(latencies)} moves timed (one per board and round, a round every {ROUND_S} s)")
    print(f"move -> tile:  p50 {figures['move_to_tile_p50_ms']} ms   p99 "
          f"{figures['move_to_tile_p99_ms']} ms   max {figures['move_to_tile_max_ms']} ms (goal p99 <= 100)"
          f"   broker round trip (baseline): p50 {figures['broker_round_trip_p50_ms']} ms   p99 "
          f"{figures['broker_round_trip_p99_ms']} ms")
    for name, key in (("move -> the broker's subscriber (the boards' side)", "move_to_broker"),
                      ("the broker -> the page (the dashboard and its websocket)", "broker_to_page"),
                      ("the page -> the tile drawn", "page_to_tile")):
        print(f"  {name:<58} p50 {figures[key + '_p50_ms']} ms   p99 {figures[key + '_p99_ms']} ms")
    print(f"{'CPU % of one core':<28}{'idle (baseline)':>16}{f'{half} playing':>14}{f'{count} playing':>14}"
          f"{'per extra board':>17}")
    for k in ("broker", "dashboard", "boards"):
        extra = f"{per_board[k]:>17.3f}" if k in per_board else f"{'(the bench)':>17}"
        print(f"{k:<28}{idle[k]:>16.2f}{busy_half[k]:>14.2f}{busy_all[k]:>14.2f}{extra}")
    print(f"dashboard memory (RSS) {rss:.0f} MB; one state message {state_bytes} bytes")
    print(f"the page's frames while {count} play: p50 {figures['page_frame_p50_ms']} ms   p99 "
          f"{figures['page_frame_p99_ms']} ms   max {figures['page_frame_max_ms']} ms (60 Hz: 16.7);"
          f" opened afresh, every board drawn in {figures['page_opened_s']} s")
    print("archive insert of a finished game (40 moves), ms (goal p99 <= 5):")
    for name, key in (("SQLite archive", "archive_sqlite"), ("bare sqlite3 INSERT (baseline)",
                                                            "bare_sqlite_insert"),
                      ("PostgreSQL archive", "archive_postgres")):
        if f"{key}_p50_ms" in archive:
            print(f"  {name:<32} p50 {archive[key + '_p50_ms']:.3f}   p99 {archive[key + '_p99_ms']:.3f}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
