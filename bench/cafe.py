"""The café network under load: N simulated boards (50, then 200) on one Mosquitto, with the
dashboard (``reedboard cafe``, its archive in SQLite) open in Debian's Chromium on a café screen
(1920x1080).

Each board is the real daemon code in this process: a controller on a simulated board
(``Daemon.step``), its ``NetBoard`` observer and its own paho client. As the real loop does, a
board is stepped at 50 Hz while something happens on it (a piece placed, the board settling)
and, settled, only every ``IDLE_WAIT`` (the real loop sleeps until woken). The boards place
pieces in rounds (Antipalos 12, the size a café's boards play by default, whose 36 placements
last 18 rounds; staggered over the round), timing 12 moves a round, so the default 13 rounds of
each phase time over 300. The boards' worker processes run at a lower CPU priority (``nice``
10): a café's boards are each on a Pi of their own, and here their 200 simulated daemons
would otherwise take the two cores from the broker, the dashboard and Chromium, whose times
are what is measured; each move is still timed from when its board's step emits it. Printed
for each number of boards:

- move -> tile: from the board's ``move`` event to the page showing that ply on the board's
  tile (the page's ``data-ply-at``, set once the tile is drawn; same clock), p50 / p99 / max,
  for the tiles in view (the page draws only those), and beside it the broker's own round trip
  in the same run (a client in a process of its own publishing to itself every 50 ms: the floor
  any message pays);
- the same time split where each part ends, each read as it happens: move -> the broker's
  subscriber (that client notes when each state reaches it) -> out of the dashboard (a
  websocket client of the dashboard's feed in that process, as the page is: the server) -> the
  page's websocket handler (``data-ply-got``: the browser receiving) -> the tile drawn (the
  page's frame callback) -> that frame painted (a task the bench posts when the tile is drawn
  runs once the frame's style, layout and paint are done); the server's split over every move
  too, in view or not;
- CPU of the broker, the dashboard process and Chromium (all its processes), idle (all boards
  connected, nobody playing: the baseline) and while half, then all the boards play; the cost
  of one more playing board is the difference over the extra boards. On a shared machine the
  CPU a part uses is steadier than the time it takes;
- the dashboard's memory (RSS) and the size of one state message;
- the page's frames while all the boards play (those it asks for, drawing the tiles: from the
  frame's callback to the frame painted), p50 / p99 / max; the page scrolled to its end: the
  milliseconds until every tile then in view shows its board's latest move; the page opened
  afresh: the seconds until every tile in view is drawn; the page scrolled from its top to its
  end by the mouse wheel: how often and how long the page's main thread stalled (a 5 ms timer's
  ticks over 16 ms late); the page's tasks over 50 ms once it was fully drawn (half the boards
  playing, all, the page scrolled to its end, scrolled through): how many, the
  longest, and what the longest frame over 50 ms of each phase did (its scripts, its style,
  layout and paint);
- the archive's insert of a finished game (``Archive.store``: SQLite, and PostgreSQL when
  Debian's is installed), p50 / p99 over 300 games, beside a bare ``INSERT`` of the same row;
- the page's own cost, read in Chromium while all the boards play (bench/page_cost.py), beside
  a bare page of the same origin that only receives the same feed and parses it (the baseline):
  its message handler, its frame callback, the time from a message to the end of its frame's
  scripts and to that frame painted (p50 / p99), its script time per message and its long tasks;
  with ``--trace DIR``, Chrome's trace of each page's main thread summed by kind of work (scripts,
  style, layout, paint, GC) in CPU time, which a loaded machine inflates far less than the wall
  clock, and the same for its tasks over 50 ms (what they were);
- the load average before and after, and at the start of each wall and once all have played
  (the machine's other work shows in every time).

Usage: .venv/bin/python -m bench.cafe [--boards 50,200] [--rounds R] [--size N] [--quick]
       [--screenshot DIR] [--trace DIR]
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
from bench.page_cost import BARE_JS, BARE_PATH, COST_JS, TRACE_CATEGORIES, frame_id, trace_summary
from bench.page_cost import summary as cost_summary
from bench.timing import percentile
from engines import new_game
from firmware_host.net.cafe.archive import Archive, read_record
from firmware_host.net.mqtt.observer import attach
from firmware_host.runtime.loop import IDLE_WAIT, Daemon, open_hardware
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

    def __init__(self, first: int, count: int, port: int, size: int = 12) -> None:
        self.daemons, self.nets = [], []
        self.log = open(os.devnull, "w")
        self.moved: dict[tuple[str, int], float] = {}  # (board, ply) -> wall time of the event
        self.active_until: list[float] = []  # per board: step at SCAN_HZ until then
        self.stepped: list[float] = []  # per board: when it was last stepped
        for i in range(count):
            board = board_name(first + i)
            # Games in memory: paho waits on its sockets with select(), which takes no descriptor
            # above 1023, and three SQLite files a board would pass that before 120 boards.
            config = replace(
                Config(),
                game="antipalos",
                size=size,
                storage=":memory:",
                timing=Timing(scan_hz=SCAN_HZ),
                mqtt=Mqtt(host="127.0.0.1", port=port, board=board),
            ).simulated()
            controller = open_controller(config, Storage(config.storage), configured_game(config))
            daemon = Daemon(
                controller, open_hardware(config, controller.layout.sensor_channels), SCAN_HZ, log=self.log
            )
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


#: The boards' workers' niceness: the simulated boards yield the cores to what is measured.
NICE = 10


def serve_boards(first: int, count: int, port: int, size: int, conn) -> None:
    """A worker process at a lower priority (:data:`NICE`): boards ``first`` .. of Antipalos
    ``size`` on the broker, run as the parent asks (``run``: seconds and placements by board
    index; ``plies``; ``stop``); each answer on ``conn``."""
    os.nice(NICE)
    boards = Boards(first, count, port, size)
    while True:
        if not conn.poll(0.05):
            # Between the asks the boards' loops go on, settled, as a real board's do (a board
            # not stepped for 3 s says its hardware is not responding, flagging its tile).
            boards.run(0.1)
            continue
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

    def __init__(self, count: int, port: int, processes: int, size: int) -> None:
        share = -(-count // processes)
        self.pipes, self.procs = [], []
        for first in range(0, count, share):
            parent, child = PROCESSES.Pipe()
            proc = PROCESSES.Process(
                target=serve_boards, args=(first, min(share, count - first), port, size, child)
            )
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


def placements(seed: int, count: int, size: int = 5) -> list[str]:
    """``count`` placements of Antipalos ``size`` that end no game (each side places 3N/2).

    >>> len(placements(1, 14)), len(set(placements(1, 36, 12)))
    (14, 36)
    >>> placements(1, 15)
    Traceback (most recent call last):
    ...
    ValueError: Antipalos 5 has 14 placements, not 15: fewer rounds or a larger --size
    """
    most = 2 * (3 * size // 2)
    if count > most:
        raise ValueError(
            f"Antipalos {size} has {most} placements, not {count}: fewer rounds or a larger --size"
        )
    rng = random.Random(seed)
    while True:
        state, sites = new_game("antipalos", size), []
        for _ in range(count):
            moves = [
                m
                for m in state.legal_moves()
                if all(
                    not r.follow_ups and not r.emptied and len(r.filled) == 1 for r in state.realisations(m)
                )
            ]
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


def listen(url: str, served: dict[tuple[str, int], float], stop) -> None:
    """The dashboard's live feed at ``url`` read as a page reads it, in a thread: when each
    table's ply was first sent (wall time, s), into ``served``, until ``stop`` is set."""
    import asyncio

    import aiohttp

    async def read() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
            while not stop.is_set():
                try:
                    msg = await ws.receive(timeout=0.2)
                except asyncio.TimeoutError:
                    continue
                if msg.type != aiohttp.WSMsgType.TEXT:
                    return
                data, now = json.loads(msg.data), time.time()
                for each in data if isinstance(data, list) else [data]:  # what queued up: a list
                    if each["type"] == "table" and "ply" in each["table"]["state"]:
                        served.setdefault((each["table"]["id"], each["table"]["state"]["ply"]), now)

    asyncio.run(read())


def observe(port: int, web_port: int, stop, results) -> None:
    """In a process of its own (free of the boards' threads): publish to itself every 50 ms
    (the broker's round trip, ms), note when each board's state shows a new ply (wall time,
    s) and when the dashboard's feed sends it (a websocket client as the page is). Puts (round
    trips, {(board, ply): time at the broker's subscriber}, {(board, ply): time out of the
    dashboard}) on ``results`` once ``stop`` is set."""
    import threading

    trips, arrived, sent, served = [], {}, {}, {}
    feed = threading.Thread(target=listen, args=(f"http://127.0.0.1:{web_port}/ws", served, stop))
    feed.start()

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
    feed.join(5)
    results.put((trips[40:], arrived, served))  # the first 2 s: the boards connecting


def archive_inserts(archive: Archive, count: int = 300) -> list[float]:
    """Milliseconds to keep each of ``count`` finished games (a 40-move Antipalos 5 game)."""
    moves = game_moves(7, 40)
    game = read_record(
        json.dumps(
            {
                "id": 1,
                "game": "antipalos",
                "size": 5,
                "variant": "two",
                "started": "2026-11-27T18:00:00Z",
                "finished": "2026-11-27T18:30:00Z",
                "result": "abandoned",
                "winner": None,
                "moves": moves,
            }
        ).encode()
    )
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
    out.update(
        archive_sqlite_p50_ms=percentile(sqlite, 0.5),
        archive_sqlite_p99_ms=percentile(sqlite, 0.99),
        bare_sqlite_insert_p50_ms=percentile(bare, 0.5),
        bare_sqlite_insert_p99_ms=percentile(bare, 0.99),
    )
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


def browser_pids() -> list[int]:
    """The Chromium processes under this one (the browser Playwright started, its renderer...)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(stat.parent.name))
    found, todo = [], [os.getpid()]
    while todo:
        for child in children.get(todo.pop(), []):
            todo.append(child)
            try:
                if b"chromium" in Path(f"/proc/{child}/cmdline").read_bytes():
                    found.append(child)
            except OSError:
                continue
    return found


def _ticks(pid: int) -> int:
    """A process's CPU ticks; 0 once it is gone."""
    try:
        return cpu_ticks(pid)
    except OSError:
        return 0


class Cpu:
    """CPU seconds of some processes between two readings."""

    def __init__(self, **pids: list[int]) -> None:
        self.pids = pids
        self.mark()

    def _ticks(self) -> dict[str, int]:
        return {k: sum(map(_ticks, pids)) for k, pids in self.pids.items()}

    def mark(self) -> None:
        self.at, self.ticks = time.monotonic(), self._ticks()

    def percent(self) -> dict[str, float]:
        """CPU % of one core of each group since the last mark (and mark again)."""
        hz, elapsed = os.sysconf("SC_CLK_TCK"), time.monotonic() - self.at
        now = self._ticks()
        used = {k: (now[k] - self.ticks[k]) / hz for k in self.pids}
        self.mark()
        return {k: 100 * v / elapsed for k, v in used.items()}


def play_rounds(
    boards: Workers, page, active: int, rounds: int, sites: list[str]
) -> dict[tuple[str, int], tuple[float, float, float]]:
    """Each of the first ``active`` boards places its next piece once per round; (board, ply)
    -> when the page received that ply, when its tile drew it and when that was painted (the
    page's ms since the epoch; painted 0 when it was not yet), read in the round, for the tiles
    in view (the page draws only those)."""
    shown_at = {}
    for _ in range(rounds):
        now = boards.plies()
        plies = {i: now[i] + 1 for i in range(active)}
        at = {i: [(ROUND_S * 0.7 * i / active, sites[ply - 1])] for i, ply in plies.items()}
        boards.run(ROUND_S, at)
        deadline = time.monotonic() + 5
        while True:
            shown = _tiles(page)
            timed = {i: ply for i, ply in plies.items() if shown.get(board_name(i), NONE)[3]}
            late = [
                i for i, ply in timed.items() if shown[board_name(i)][0] < ply or not shown[board_name(i)][4]
            ]
            if not late or time.monotonic() > deadline:
                break
            boards.run(0.1)
        for i, ply in timed.items():
            board = board_name(i)
            if shown[board][0] == ply:
                shown_at[board, ply] = (*shown[board][1:3], shown[board][4])
        print(
            f"round: {len(timed) - len(late)} of the {len(timed)} tiles in view updated "
            f"({len(plies)} boards moved)",
            file=sys.stderr,
            flush=True,
        )
    return shown_at


#: Which tiles are on the screen, as an IntersectionObserver of the bench's own tells it (asking
#: each tile's box would make the browser lay out the tiles it skips, far from the screen):
#: ``benchSeen()`` -> board -> on the screen, as last reported for every tile (null until then,
#: and again after a scroll), and a new report asked. The observer watches only until it has
#: reported: one watching 200 tiles for good checks them all in every frame the page draws. And
#: when each tile's ply was painted: a tile's ``data-ply-at`` written (in the page's frame) posts
#: a task, which runs once that frame's style, layout and paint are done (``benchPainted``: board
#: -> [ply, ms since the epoch]).
SEEN_JS = """(() => {
  let seen = null, asking = false, scrolls = 0;
  addEventListener('scroll', () => { scrolls += 1; seen = null; }, {passive: true});
  window.benchSeen = () => {
    const tiles = document.querySelectorAll('article.tile');
    if (asking || !tiles.length) return seen;
    asking = true;
    const found = new Map(), since = scrolls;
    const watch = new IntersectionObserver((entries) => {
      for (const e of entries) found.set(e.target.dataset.board, e.isIntersecting);
      if (found.size < tiles.length) return;
      watch.disconnect();
      asking = false;
      if (since === scrolls) seen = found;
    });
    for (const tile of tiles) watch.observe(tile);
    return seen;
  };
  const painted = window.benchPainted = {};
  const after = new MessageChannel();
  let drawn = [];
  after.port1.onmessage = () => {
    const now = Date.now();
    for (const [board, ply] of drawn) painted[board] = [ply, now];
    drawn = [];
  };
  new MutationObserver((records) => {
    if (!drawn.length) after.port2.postMessage(0);
    for (const r of records) drawn.push([r.target.dataset.board, Number(r.target.dataset.ply)]);
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-ply-at']});
})()"""

#: True when every tile on the screen shows the ply its board is at (board -> ply).
IN_VIEW_SHOWN_JS = """(plies) => {
  const seen = benchSeen();
  if (!seen) return false;
  return [...document.querySelectorAll('article.tile')].every((e) => !seen.get(e.dataset.board)
    || (e.dataset.drawn && Number(e.dataset.ply) === plies[e.dataset.board]));
}"""


#: The page's tasks over 50 ms since it was opened (the browser keeps them for an observer).
OPENING_TASKS_JS = """() => new Promise((done) => {
  new PerformanceObserver((list) => done(list.getEntries().map((e) => e.duration)))
    .observe({ type: "longtask", buffered: true });
  setTimeout(() => done([]), 500);
})"""


def open_again(page, plies: dict[str, int]) -> tuple[float, float]:
    """Seconds from opening the page again to every tile in view drawn, with its board's ply,
    and the longest of the page's tasks meanwhile in milliseconds (building the tiles from the
    first message)."""
    began = time.perf_counter()
    page.reload()
    page.wait_for_function(IN_VIEW_SHOWN_JS, arg=plies, timeout=60_000, polling="raf")
    opened = time.perf_counter() - began
    return opened, max(page.evaluate(OPENING_TASKS_JS), default=0.0)


def scrolled(page, plies: dict[str, int]) -> float:
    """Milliseconds from scrolling to the page's end to every tile then in view drawn with its
    board's ply (tiles that were out of view while their boards played)."""
    page.evaluate(  # two frames on, the bench's observer has told which tiles are then in view
        "() => new Promise((done) => { window.benchScrolled = performance.now(); "
        "scrollTo(0, document.documentElement.scrollHeight); "
        "requestAnimationFrame(() => requestAnimationFrame(done)); })"
    )
    page.wait_for_function(IN_VIEW_SHOWN_JS, arg=plies, timeout=30_000, polling="raf")
    return page.evaluate("() => performance.now() - benchScrolled")


#: The page's stalls: a timer every 5 ms notes how late each tick came (the task or frame that
#: held the page's main thread meanwhile, or the machine not giving it a core), ``benchStalls()``
#: -> the lateness of every tick over 16 ms since ``benchStallsStart()``, in ms.
STALLS_JS = """(() => {
  let late = [], last = 0, timer = 0;
  window.benchStallsStart = () => {
    late = [];
    last = performance.now();
    clearInterval(timer);
    timer = setInterval(() => {
      const now = performance.now();
      if (now - last - 5 > 16) late.push(now - last - 5);
      last = now;
    }, 5);
  };
  window.benchStalls = () => {
    clearInterval(timer);
    return late;
  };
})()"""

#: Pixels a turn of the mouse wheel scrolls the wall by, and the seconds between two turns.
WHEEL_PX, WHEEL_S = 400, 0.12


def scrolled_through(page, boards) -> list[float]:
    """The page scrolled from its top to its end by the mouse wheel, as the owner scrolls it
    (the boards stepped, settled, between the wheel's turns): the page's stalls meanwhile
    (STALLS_JS), ms."""
    page.evaluate("() => scrollTo(0, 0)")
    boards.run(1.0)
    page.mouse.move(960, 600)
    page.evaluate("() => benchStallsStart()")
    at, still = -1.0, 0
    while still < 10:  # the end (the wall's height changes as its tiles are drawn)
        page.mouse.wheel(0, WHEEL_PX)
        boards.run(WHEEL_S)
        now = page.evaluate("() => scrollY")
        still = still + 1 if now == at else 0
        at = now
    boards.run(1.0)
    return page.evaluate("() => benchStalls()")


def _number(text: str | None) -> float:
    """A tile's data attribute as a number; 0 when unset (a board that said nothing yet).

    >>> _number("12"), _number(None), _number("undefined")
    (12.0, 0.0, 0.0)
    """
    try:
        return float(text or 0)
    except ValueError:
        return 0.0


#: A board the page has no tile of.
NONE = (0.0, 0.0, 0.0, False, 0.0)


def _tiles(page) -> dict[str, tuple[float, float, float, bool, float]]:
    """Board -> (the ply its tile shows, when the page received it, when it drew it, whether
    the tile is in view, when that ply was painted: 0 until it was)."""
    return {
        t["board"]: (
            _number(t["ply"]),
            _number(t["got"]),
            _number(t["at"]),
            t["seen"],
            t["painted"][1] if t["painted"] and t["painted"][0] == _number(t["ply"]) else 0.0,
        )
        for t in page.evaluate(
            "(() => { const seen = benchSeen(); "
            "return [...document.querySelectorAll('article.tile')].map((e) => ({"
            "board: e.dataset.board, ply: e.dataset.ply, got: e.dataset.plyGot, at: e.dataset.plyAt, "
            "seen: Boolean(seen && seen.get(e.dataset.board)), "
            "painted: benchPainted[e.dataset.board] || null})); })()"
        )
    }


def wall(
    playwright,
    count: int,
    rounds: int,
    seed: int,
    processes: int,
    screenshot: Path | None,
    trace: Path | None = None,
    size: int = 12,
) -> dict:
    """The figures of ``count`` boards playing ``rounds`` rounds, half of them then all, the
    dashboard open in Chromium on a café screen (1920x1080); ``trace``: a folder for Chrome's trace
    while all play (the renderers' main threads summed from it)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        broker = Broker(folder, "set_tcp_nodelay true\n").start()
        web_port = free_port()
        journal = folder / "cafe.log"  # the dashboard's stderr: a pipe nobody read would stall it
        cafe = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "firmware_host.cli.main",
                "cafe",
                "--mqtt",
                f"127.0.0.1:{broker.port}",
                "--port",
                str(web_port),
                "--state",
                str(folder / "cafe"),
            ],
            stderr=journal.open("w"),
        )
        while "dashboard is at" not in journal.read_text():
            time.sleep(0.05)
        boards = Workers(count, broker.port, processes, size)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        stop, results = PROCESSES.Event(), PROCESSES.Queue()
        observer = PROCESSES.Process(target=observe, args=(broker.port, web_port, stop, results))
        observer.start()
        load = {"start": os.getloadavg()[0]}
        try:
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.on("pageerror", lambda exc: print(f"error in the page: {exc}", file=sys.stderr))
            page.add_init_script(COST_JS)
            page.add_init_script(SEEN_JS)
            page.add_init_script(STALLS_JS)
            page.goto(f"http://127.0.0.1:{web_port}/")
            bare = bare_page(browser, f"http://127.0.0.1:{web_port}")
            boards.run(3.0)  # all connected, the page has every tile
            deadline = time.monotonic() + 30
            while len(_tiles(page)) < count and time.monotonic() < deadline:
                boards.run(0.5)
            assert len(_tiles(page)) == count, f"{len(_tiles(page))} tiles of {count}"
            cpu = Cpu(
                broker=[broker.proc.pid], dashboard=[cafe.pid], browser=browser_pids(), boards=boards.pids
            )
            boards.run(3.0)
            idle = cpu.percent()
            marks = {"half playing": page.evaluate("performance.now()")}  # the page fully drawn
            sites = placements(seed, 2 * rounds, size)
            half = count // 2
            lat_half = play_rounds(boards, page, half, rounds, sites)
            busy_half = cpu.percent()
            marks["all playing"] = page.evaluate("performance.now()")
            for each in (page, bare):
                each.evaluate("() => benchCostStart()")
            if trace:
                browser.start_tracing(categories=TRACE_CATEGORIES)
            lat_all = play_rounds(boards, page, count, rounds, sites)
            traced = browser.stop_tracing() if trace else b""
            costs = {
                name: cost_summary(each.evaluate("() => benchCostStop()"))
                for name, each in (("page", page), ("bare", bare))
            }
            if trace:
                trace.mkdir(parents=True, exist_ok=True)
                (trace / f"cafe-wall-{count}.trace.json").write_bytes(traced)
                for name, each in (("page", page), ("bare", bare)):
                    costs[name]["trace"] = trace_summary(traced, frame_id(each), costs[name]["messages"])
            busy_all = cpu.percent()
            load["playing"] = os.getloadavg()[0]
            plies = {board_name(i): ply for i, ply in boards.plies().items()}
            if screenshot:
                page.screenshot(path=str(screenshot / f"cafe-wall-{count}.png"))
            marks["scrolled to the end"] = page.evaluate("performance.now()")
            scroll_ms = scrolled(page, plies)
            marks["scrolled through"] = page.evaluate("performance.now()")
            if trace:
                browser.start_tracing(categories=TRACE_CATEGORIES)
            stalls = scrolled_through(page, boards)
            if trace:
                traced = browser.stop_tracing()
                (trace / f"cafe-wall-{count}-scrolled.trace.json").write_bytes(traced)
                through = trace_summary(traced, frame_id(page), 0)
            long_after = long_tasks_after(page, marks)
            long_frames = long_frames_after(page, marks)
            opened, opening_task = open_again(page, plies)
            rss = rss_mb(cafe.pid)
        finally:
            stop.set()
            trips, arrived, served = results.get(timeout=10)
            observer.join(5)
            browser.close()
            boards.stop()
            cafe.terminate()
            cafe.wait(5)
            broker.stop()
        said = journal.read_text().splitlines()[1:]
        if said:
            print(f"the dashboard said {len(said)} lines, the first: {said[0]}", file=sys.stderr)
    moved = boards.moved
    # The server's split over every move (in view or not): the broker's subscriber -> the feed.
    passed = [k for k in moved if k in arrived and k in served]
    server = [(served[k] - arrived[k]) * 1000 for k in passed]
    # The tiles in view: each split where it ends (the broker's subscriber, the dashboard's
    # feed, the page's websocket, the tile drawn), ms.
    shown = {k: v for k, v in {**lat_half, **lat_all}.items() if k in arrived and k in served}
    splits = {
        "move_to_tile": [at - moved[k] * 1000 for k, (_, at, _) in shown.items()],
        "move_to_painted": [painted - moved[k] * 1000 for k, (*_, painted) in shown.items() if painted],
        "move_to_broker": [(arrived[k] - moved[k]) * 1000 for k in shown],
        "server": [(served[k] - arrived[k]) * 1000 for k in shown],
        "page_receives": [got - served[k] * 1000 for k, (got, *_) in shown.items()],
        "page_draws": [at - got for got, at, _ in shown.values()],
        "page_paints": [painted - at for _, at, painted in shown.values() if painted],
    }
    per_board = {k: (busy_all[k] - busy_half[k]) / (count - half) for k in ("broker", "dashboard", "browser")}
    figures = {
        "boards": count,
        "size": size,
        "boards_nice": NICE,
        "moves_timed": len(shown),
        "moves_through_server": len(passed),
        **{
            f"{name}_{q}_ms": round(percentile(v, p), 1)
            for name, v in splits.items()
            for q, p in (("p50", 0.5), ("p99", 0.99))
        },
        "move_to_tile_max_ms": round(max(splits["move_to_tile"], default=0.0), 1),
        "server_all_moves_p50_ms": round(percentile(server, 0.5), 1),
        "server_all_moves_p99_ms": round(percentile(server, 0.99), 1),
        "broker_round_trip_p50_ms": round(percentile(trips, 0.5), 2),
        "broker_round_trip_p99_ms": round(percentile(trips, 0.99), 2),
        "cpu_idle_pct": {k: round(v, 2) for k, v in idle.items()},
        "cpu_half_playing_pct": {k: round(v, 2) for k, v in busy_half.items()},
        "cpu_all_playing_pct": {k: round(v, 2) for k, v in busy_all.items()},
        "cpu_per_extra_playing_board_pct": {k: round(v, 3) for k, v in per_board.items()},
        "dashboard_rss_mb": round(rss, 1),
        "state_message_bytes": boards.state_bytes,
        **{f"page_frame_{q}_ms": costs["page"][f"painted_{q}_ms"] for q in ("p50", "p99", "max")},
        "scrolled_in_drawn_ms": round(scroll_ms, 1),
        "scrolled_through_stalls": [len(stalls), round(max(stalls, default=0.0), 1)],
        "scrolled_through_trace": through if trace else {},
        "long_tasks_after_drawn": long_after,
        "long_frames_after_drawn": long_frames,
        "page_opened_s": round(opened, 2),
        "page_opening_longest_task_ms": round(opening_task),
        "main_thread": costs,
        "load_average_1min": {k: round(v, 2) for k, v in load.items()},
    }
    print_wall(figures, processes)
    return figures


def _phases(marks: dict[str, float], items: list, at) -> dict[str, list]:
    """``items`` by phase (each begins at its mark, the page's ``performance.now()``; ``at``:
    an item's start).

    >>> _phases({"b": 10.0, "a": 0.0}, [1.0, 12.0, 15.0], float)
    {'a': [1.0], 'b': [12.0, 15.0]}
    """
    starts = sorted(marks.items(), key=lambda kv: kv[1])
    out = {}
    for i, (name, start) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else float("inf")
        out[name] = [x for x in items if start <= at(x) < end]
    return out


def long_tasks_after(page, marks: dict[str, float]) -> dict[str, list[float]]:
    """The page's tasks over 50 ms once it was fully drawn, by phase: [how many, the longest, ms]."""
    tasks = page.evaluate("(t) => benchLongSince(t)", min(marks.values()))
    return {
        name: [len(found), round(max((d for _, d in found), default=0.0), 1)]
        for name, found in _phases(marks, tasks, lambda t: t[0]).items()
    }


def long_frames_after(page, marks: dict[str, float]) -> dict[str, dict]:
    """The page's frames over 50 ms once it was fully drawn, by phase: how many, and what the
    longest did (Long Animation Frames, ms: its scripts by what called them, its frame
    callbacks, its style, layout and paint; the rest of it was waiting or the browser's own)."""
    frames = page.evaluate("(t) => benchLongFramesSince(t)", min(marks.values()))
    out = {}
    for name, found in _phases(marks, frames, lambda f: f["at"]).items():
        longest = max(found, key=lambda f: f["ms"], default=None)
        out[name] = {"count": len(found)}
        if longest:
            scripts = sorted(longest["scripts"].items(), key=lambda kv: -kv[1])
            out[name]["longest"] = {
                "ms": round(longest["ms"], 1),
                "blocking_ms": round(longest["blocking"], 1),
                "scripts_ms": {k: round(v, 1) for k, v in scripts[:3]},
                "callbacks_ms": round(longest["callbacks"], 1),
                "rendering_ms": round(longest["rendering"], 1),
            }
    return out


def bare_page(browser, origin: str):
    """The bare page (bench/page_cost.py) on the dashboard's origin, in a context of its own,
    receiving the feed."""
    bare = browser.new_context(viewport={"width": 800, "height": 600}).new_page()
    bare.add_init_script(COST_JS)
    bare.goto(origin + BARE_PATH)
    bare.evaluate(BARE_JS)
    return bare


def print_costs(f: dict) -> None:
    """The page's main thread per message beside the bare page's, while all the boards play."""
    page, bare = f["main_thread"]["page"], f["main_thread"]["bare"]
    print(
        f"the page's main thread while {f['boards']} play (Chromium, read in the page), beside a bare "
        f"page parsing the same feed (the baseline); load average (1 min) {f['load_average_1min']['start']}"
        f" at the start, {f['load_average_1min']['playing']} after all played ({os.cpu_count()} cores):"
    )
    print(f"  {'':<52}{'dashboard page':>22}{'bare page':>22}")
    for name, key in (
        ("message handler (parse, keep, ask a frame)", "handler"),
        ("frame callback (the tiles drawn)", "frame"),
        ("message -> its frame's scripts done", "toFrame"),
        ("message -> its frame painted", "toPaint"),
    ):
        cells = [f"{c[key + '_p50_ms']} / {c[key + '_p99_ms']} ms" for c in (page, bare)]
        print(f"  {name + ', p50 / p99':<52}{cells[0]:>22}{cells[1]:>22}")
    for name, key, unit in (
        ("messages / frames with script work", None, ""),
        ("script time per message", "script_per_message_ms", " ms"),
        ("main thread busy with scripts", "script_busy_pct", " %"),
        ("long tasks (> 50 ms): count / total / longest", None, ""),
    ):
        if key:
            cells = [f"{c[key]}{unit}" for c in (page, bare)]
        elif name.startswith("messages"):
            cells = [f"{c['messages']} / {c['frames']}" for c in (page, bare)]
        else:
            cells = [
                f"{c['long_tasks']} / {c['long_tasks_ms']} / {c['longest_task_ms']} ms" for c in (page, bare)
            ]
        print(f"  {name:<52}{cells[0]:>22}{cells[1]:>22}")


def print_trace(f: dict) -> None:
    """The renderers' main threads in Chrome's trace, by kind of work, page beside bare."""
    page, bare = (f["main_thread"][k].get("trace") for k in ("page", "bare"))
    if not page or not bare:
        return
    print("  Chrome's trace of each renderer's main thread while all play, CPU ms (its own clock):")
    for key, name in (
        ("busy_ms", "tasks in all"),
        ("scripts_ms", "scripts"),
        ("style_ms", "style"),
        ("layout_ms", "layout"),
        ("forced_style_layout_ms", "style and layout forced by a script"),
        ("paint_ms", "paint and commit"),
        ("gc_ms", "garbage collection"),
        ("gc_longest_ms", "  the longest collection"),
        ("busy_per_message_ms", "tasks per message"),
        ("long_tasks", "tasks over 50 ms (wall clock)"),
        ("longest_task_ms", "the longest task: wall clock"),
        ("longest_task_cpu_ms", "the longest task: CPU"),
        ("long_tasks_cpu_ms", "tasks over 50 ms: CPU in all"),
        ("long_tasks_scripts_ms", "  of which scripts"),
        ("long_tasks_style_ms", "  style"),
        ("long_tasks_layout_ms", "  layout"),
        ("long_tasks_paint_ms", "  paint, layerize and commit"),
        ("long_tasks_gc_ms", "  garbage collection"),
    ):
        print(f"    {name:<50}{page.get(key, 0):>22}{bare.get(key, 0):>22}")


def print_wall(f: dict, processes: int) -> None:
    """The figures of one wall, as a table."""
    count, half = f["boards"], f["boards"] // 2
    print(
        f"\n{count} boards of Antipalos {f['size']} ({processes} processes at nice {f['boards_nice']}: "
        f"the simulated boards yield the cores to what is measured) on one Mosquitto, the dashboard "
        f"open in Chromium (1920x1080); {f['moves_timed']} moves timed on the tiles in view (one per "
        f"board and round, a round every {ROUND_S} s)"
    )
    print(
        f"move -> tile:  p50 {f['move_to_tile_p50_ms']} ms   p99 {f['move_to_tile_p99_ms']} ms   "
        f"max {f['move_to_tile_max_ms']} ms (goal p99 <= 100)   broker round trip (baseline): "
        f"p50 {f['broker_round_trip_p50_ms']} ms   p99 {f['broker_round_trip_p99_ms']} ms"
    )
    for name, key in (
        ("move -> the broker's subscriber (the boards, the broker)", "move_to_broker"),
        ("-> out of the dashboard's feed (the server)", "server"),
        ("-> the page's websocket handler (the browser receiving)", "page_receives"),
        ("-> the tile drawn (the page's frame callback)", "page_draws"),
        ("-> that frame painted (the browser's style, layout, paint)", "page_paints"),
        ("move -> the tile painted, in all", "move_to_painted"),
    ):
        print(f"  {name:<58} p50 {f[key + '_p50_ms']} ms   p99 {f[key + '_p99_ms']} ms")
    print(
        f"  the server over all {f['moves_through_server']} moves (in view or not)"
        f"{'':<14} p50 {f['server_all_moves_p50_ms']} ms   p99 {f['server_all_moves_p99_ms']} ms"
    )
    print(
        f"{'CPU % of one core':<28}{'idle (baseline)':>16}{f'{half} playing':>14}{f'{count} playing':>14}"
        f"{'per extra board':>17}"
    )
    for k in ("broker", "dashboard", "browser", "boards"):
        per = f["cpu_per_extra_playing_board_pct"]
        extra = f"{per[k]:>17.3f}" if k in per else f"{'(the bench)':>17}"
        print(
            f"{k:<28}{f['cpu_idle_pct'][k]:>16.2f}{f['cpu_half_playing_pct'][k]:>14.2f}"
            f"{f['cpu_all_playing_pct'][k]:>14.2f}{extra}"
        )
    print(
        f"dashboard memory (RSS) {f['dashboard_rss_mb']:.0f} MB; one state message "
        f"{f['state_message_bytes']} bytes"
    )
    print(
        f"the page's frames while {count} play: p50 {f['page_frame_p50_ms']} ms   p99 "
        f"{f['page_frame_p99_ms']} ms   max {f['page_frame_max_ms']} ms (callback to painted); scrolled to "
        f"the end, the tiles then in view drawn in {f['scrolled_in_drawn_ms']} ms; opened afresh, "
        f"every tile in view drawn in {f['page_opened_s']} s "
        f"(its longest task {f['page_opening_longest_task_ms']} ms)"
    )
    n, longest = f["scrolled_through_stalls"]
    print(
        f"scrolled through from the top to the end by the wheel ({WHEEL_PX} px every {WHEEL_S} s): "
        f"the page stalled over 16 ms {n} times, the longest {longest} ms"
    )
    if through := f["scrolled_through_trace"]:
        print(
            f"  its main thread then (trace, CPU): {through['busy_ms']} ms in all, of which scripts "
            f"{through['scripts_ms']}, style {through['style_ms']}, layout {through['layout_ms']}, paint "
            f"{through['paint_ms']} ms; the heaviest task {through['heaviest_task_cpu_ms']} ms; the "
            f"longest {through['longest_task_ms']} ms of wall clock ({through['longest_task_cpu_ms']} of CPU)"
        )
    after = "; ".join(f"{name} {n}, longest {ms} ms" for name, (n, ms) in f["long_tasks_after_drawn"].items())
    print(f"the page's tasks over 50 ms once it was fully drawn (goal: none): {after}")
    for name, frames in f["long_frames_after_drawn"].items():
        if "longest" in frames:
            x = frames["longest"]
            scripts = ", ".join(f"{k} {v}" for k, v in x["scripts_ms"].items()) or "none"
            print(
                f"  frames over 50 ms, {name}: {frames['count']}; the longest {x['ms']} ms (blocking "
                f"{x['blocking_ms']}): scripts {scripts}; frame callbacks {x['callbacks_ms']}; style, "
                f"layout and paint {x['rendering_ms']} ms"
            )
    print_costs(f)
    print_trace(f)


def print_archive(archive: dict[str, float]) -> None:
    print("\narchive insert of a finished game (40 moves), ms (goal p99 <= 5):")
    for name, key in (
        ("SQLite archive", "archive_sqlite"),
        ("bare sqlite3 INSERT (baseline)", "bare_sqlite_insert"),
        ("PostgreSQL archive", "archive_postgres"),
    ):
        if f"{key}_p50_ms" in archive:
            print(f"  {name:<32} p50 {archive[key + '_p50_ms']:.3f}   p99 {archive[key + '_p99_ms']:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="50,200", help="how many boards, one wall each: 50,200")
    parser.add_argument("--rounds", type=int, default=13, help="moves per board in each phase")
    parser.add_argument("--size", type=int, default=12, help="the boards' Antipalos size (3N placements)")
    parser.add_argument("--quick", action="store_true", help="10 boards, 2 rounds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=4, help="worker processes for the boards")
    parser.add_argument("--screenshot", type=Path, help="a folder for each wall's screenshot")
    parser.add_argument("--no-archive", action="store_true", help="the walls only")
    parser.add_argument("--trace", type=Path, help="a folder for Chrome's trace of each wall (summed)")
    args = parser.parse_args()
    counts, rounds = ([10], 2) if args.quick else ([int(n) for n in args.boards.split(",")], args.rounds)
    try:
        placements(args.seed, 2 * rounds, args.size)
    except ValueError as exc:
        parser.error(str(exc))
    from playwright.sync_api import sync_playwright

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    with sync_playwright() as playwright:
        walls = [
            wall(playwright, n, rounds, args.seed, args.processes, args.screenshot, args.trace, args.size)
            for n in counts
        ]
    archive = {}
    if not args.no_archive:
        with tempfile.TemporaryDirectory() as tmp:
            archive = {k: round(v, 3) for k, v in archive_figures(Path(tmp)).items()}
        print_archive(archive)
    load = os.getloadavg()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in load)} ({os.cpu_count()} cores)")
    print(json.dumps({"walls": walls, **archive, "load_average": [round(x, 2) for x in load]}))


if __name__ == "__main__":
    main()
