"""The café network under load: N simulated boards (default 50) on one Mosquitto, with the
dashboard (``reedboard cafe``) open in Debian's Chromium.

Each board is the real daemon code in this process: a controller on a simulated board stepped
at 50 Hz (``Daemon.step``), its ``NetBoard`` observer and its own paho client. The boards place
pieces in rounds (Antipalos 5, staggered over a second). Printed:

- move -> tile: from the board's ``move`` event to the page showing that ply on the board's
  tile (the page's ``data-ply-at``, same clock), p50 / p99 / max;
- CPU of the broker and of the dashboard process, idle (all boards connected, nobody playing:
  the baseline) and while half, then all the boards play; the cost of one more playing board
  is the difference over the extra boards;
- the dashboard's memory and the size of one state message.

Usage: .venv/bin/python bench/cafe.py [--boards N] [--rounds R] [--quick]
The last line is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from daemon import _cpu_ticks, _rss_mb  # noqa: E402  (bench/daemon.py)
from timing import percentile  # noqa: E402

from engines import new_game  # noqa: E402
from firmware_host.config import Config, Mqtt, Timing  # noqa: E402
from firmware_host.daemon import Daemon, open_hardware  # noqa: E402
from firmware_host.mqtt.board import attach  # noqa: E402
from firmware_host.session import configured_game, open_controller  # noqa: E402
from firmware_host.storage import Storage  # noqa: E402
from tests.mqtt.mqtt_tools import Broker  # noqa: E402
from tests.tools import free_port  # noqa: E402

SCAN_HZ = 50
ROUND_S = 1.6
CHROMIUM = "/usr/bin/chromium"


class Boards:
    """``count`` daemons on the broker at ``port``, stepped together on the wall clock."""

    def __init__(self, count: int, port: int, folder: Path) -> None:
        self.daemons, self.nets = [], []
        self.moved: dict[tuple[str, int], float] = {}  # (board, ply) -> wall time of the event
        for i in range(count):
            board = f"table-{i:02d}"
            config = replace(Config(), game="antipalos", size=5, storage=str(folder / f"{board}.db"),
                             timing=Timing(scan_hz=SCAN_HZ),
                             mqtt=Mqtt(host="127.0.0.1", port=port, board=board)).simulated()
            controller = open_controller(config, Storage(config.storage), configured_game(config))
            daemon = Daemon(controller, open_hardware(config, controller.layout.sensor_channels),
                            SCAN_HZ, log=open(os.devnull, "w"))
            daemon.observers.append(self._recorder(board))
            self.nets.append(attach(daemon, config))
            self.daemons.append(daemon)
        self.start = time.monotonic()

    def _recorder(self, board: str):
        def record(now, controller, events) -> None:
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
                daemon.step((tick - self.start) * 1000)
            tick += 1 / SCAN_HZ
            time.sleep(max(0.0, tick - time.monotonic()))

    def stop(self) -> None:
        for net, daemon in zip(self.nets, self.daemons):
            net.stop(timeout=0.2)
            daemon.close()


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


class Cpu:
    """CPU seconds of some processes between two readings."""

    def __init__(self, **pids: int) -> None:
        self.pids = pids
        self.mark()

    def mark(self) -> None:
        self.at, self.ticks = time.monotonic(), {k: _cpu_ticks(p) for k, p in self.pids.items()}

    def percent(self) -> dict[str, float]:
        """CPU % of one core of each since the last mark (and mark again)."""
        hz, elapsed = os.sysconf("SC_CLK_TCK"), time.monotonic() - self.at
        used = {k: (_cpu_ticks(p) - self.ticks[k]) / hz for k, p in self.pids.items()}
        self.mark()
        return {k: 100 * v / elapsed for k, v in used.items()}


def play_rounds(boards: Boards, page, active: int, rounds: int, sites: list[str]) -> list[float]:
    """Each of the first ``active`` boards places its next piece once per round; the
    latencies (ms) from each move event to its tile showing that ply."""
    latencies = []
    for _ in range(rounds):
        plies = {i: len(boards.daemons[i].controller.moves) + 1 for i in range(active)}
        at = {i: [(ROUND_S * 0.7 * i / active, sites[ply - 1])] for i, ply in plies.items()}
        boards.run(ROUND_S, at)
        deadline = time.monotonic() + 5
        while True:
            shown = _tiles(page)
            late = [i for i, ply in plies.items() if shown.get(f"table-{i:02d}", (0, 0))[0] < ply]
            if not late or time.monotonic() > deadline:
                break
            boards.run(0.1)
        for i, ply in plies.items():
            board = f"table-{i:02d}"
            if (board, ply) in boards.moved and shown.get(board, (0, 0))[0] == ply:
                latencies.append(shown[board][1] - boards.moved[board, ply] * 1000)
        print(f"round: {len(plies) - len(late)} of {len(plies)} tiles updated", file=sys.stderr,
              flush=True)
    return latencies


def _tiles(page) -> dict[str, tuple[int, float]]:
    return {t["board"]: (int(t["ply"] or 0), float(t["at"] or 0)) for t in page.evaluate(
        "[...document.querySelectorAll('article.tile')].map((e) => "
        "({board: e.dataset.board, ply: e.dataset.ply, at: e.dataset.plyAt}))")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=6, help="moves per board in each phase")
    parser.add_argument("--quick", action="store_true", help="10 boards, 2 rounds")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    count, rounds = (10, 2) if args.quick else (args.boards, args.rounds)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        folder = Path(tmp)
        broker = Broker(folder).start()
        web_port = free_port()
        cafe = subprocess.Popen(
            [sys.executable, "-m", "firmware_host.cli", "cafe", "--mqtt", f"127.0.0.1:{broker.port}",
             "--port", str(web_port)], stderr=subprocess.PIPE, text=True)
        cafe.stderr.readline()
        boards = Boards(count, broker.port, folder)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            page.goto(f"http://127.0.0.1:{web_port}/")
            boards.run(3.0)  # all connected, the page has every tile
            assert len(_tiles(page)) == count, f"{len(_tiles(page))} tiles of {count}"
            cpu = Cpu(broker=broker.proc.pid, dashboard=cafe.pid, boards=os.getpid())
            boards.run(5.0)
            idle = cpu.percent()
            sites = placements(args.seed, 2 * rounds)
            half = count // 2
            lat_half = play_rounds(boards, page, half, rounds, sites)
            busy_half = cpu.percent()
            lat_all = play_rounds(boards, page, count, rounds, sites)
            busy_all = cpu.percent()
            rss = _rss_mb(cafe.pid)
        finally:
            browser.close()
            boards.stop()
            cafe.terminate()
            cafe.wait(5)
            broker.stop()
    state_bytes = len(boards.nets[0]._sent)
    latencies = lat_half + lat_all
    per_board = {k: (busy_all[k] - busy_half[k]) / (count - half) for k in ("broker", "dashboard")}
    figures = {
        "boards": count, "moves_timed": len(latencies),
        "move_to_tile_p50_ms": round(percentile(latencies, 0.5), 1),
        "move_to_tile_p99_ms": round(percentile(latencies, 0.99), 1),
        "move_to_tile_max_ms": round(max(latencies, default=0.0), 1),
        "cpu_idle_pct": {k: round(v, 2) for k, v in idle.items()},
        "cpu_half_playing_pct": {k: round(v, 2) for k, v in busy_half.items()},
        "cpu_all_playing_pct": {k: round(v, 2) for k, v in busy_all.items()},
        "cpu_per_extra_playing_board_pct": {k: round(v, 3) for k, v in per_board.items()},
        "dashboard_rss_mb": round(rss, 1), "state_message_bytes": state_bytes,
    }
    print(f"{count} boards on one Mosquitto, the dashboard open in Chromium; "
          f"{len(latencies)} moves timed (one per board and round, a round every {ROUND_S} s)")
    print(f"move -> tile:  p50 {figures['move_to_tile_p50_ms']} ms   p99 "
          f"{figures['move_to_tile_p99_ms']} ms   max {figures['move_to_tile_max_ms']} ms (goal p99 <= 200)")
    print(f"{'CPU % of one core':<28}{'idle (baseline)':>16}{f'{half} playing':>14}{f'{count} playing':>14}"
          f"{'per extra board':>17}")
    for k in ("broker", "dashboard", "boards"):
        extra = f"{per_board[k]:>17.3f}" if k in per_board else f"{'(this process)':>17}"
        print(f"{k:<28}{idle[k]:>16.2f}{busy_half[k]:>14.2f}{busy_all[k]:>14.2f}{extra}")
    print(f"dashboard memory {rss:.0f} MB; one state message {state_bytes} bytes")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
