"""Web floods against the simulator page: the real daemon loop (a thread, 100 Hz, an SQLite
file) serving the page on loopback, attacked through real sockets. Figures: messages a second
the attacker got through, the longest loop step during each flood (beside the longest step of
the same loop left alone: the baseline), new games applied, how long one site's command (from
a second page) waited behind 500 toggles of another, connections refused past the cap, open
file descriptors, log lines and tracebacks for malformed requests.

    .venv/bin/python -m bench.robust.web_flood [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import socket
import threading
import time
from contextlib import redirect_stderr
from dataclasses import replace

import aiohttp

from bench.robust.common import report
from firmware_host.net import web
from firmware_host.net.web import base
from firmware_host.runtime.loop import Daemon, open_hardware
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config, Timing
from firmware_host.store.storage import Storage


class Loop:
    """``reedboard run --sim`` in a thread, with the gaps between its steps recorded."""

    def __init__(self, folder: str) -> None:
        self.config = replace(
            Config(),
            game="antipalos",
            size=5,
            timing=Timing(settle_ms=150),
            storage=os.path.join(folder, "games.db"),
        ).simulated()
        self.ready = threading.Event()
        self.gaps: list[float] = []
        self.events: list[dict] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        self.ready.wait(10)

    def _run(self) -> None:
        controller = open_controller(self.config, Storage(self.config.storage), configured_game(self.config))
        hardware = open_hardware(self.config, controller.layout.sensor_channels)
        self.daemon = Daemon(controller, hardware, 100, log=open(os.devnull, "w"))
        self.page = web.start(hardware.sim, self.config.timing, "127.0.0.1", 0, out=open(os.devnull, "w"))
        self.daemon.observers += [self.page.sync, self._observe]
        self.url = self.page.server.url
        self.port = self.page.server.port
        self._last = time.perf_counter()
        self.ready.set()
        try:
            self.daemon.run()
        finally:
            self.page.stop()
            self.daemon.close()

    def _observe(self, _, __, events) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self._last)
        self._last = now
        self.events.extend(events)

    def window(self) -> None:
        self.gaps.clear()
        self.events.clear()

    def longest_step_ms(self) -> float:
        """The longest time between two steps beyond the 10 ms period."""
        return round(max(0.0, max(self.gaps, default=0.0) - 0.010) * 1000, 1)

    def stop(self) -> None:
        self.daemon.stop.set()
        self.thread.join(10)


async def send_all(url: str, messages: list[str]) -> tuple[int, float]:
    """Send every message (reconnecting when the server drops a page that does not read);
    how many were sent, in how many seconds."""
    left, began = list(reversed(messages)), time.perf_counter()
    async with aiohttp.ClientSession() as session:
        while left:
            async with session.ws_connect(url) as ws:
                try:
                    while left:
                        await ws.send_str(left[-1])
                        left.pop()
                except aiohttp.ClientConnectionResetError:
                    continue
    return len(messages), time.perf_counter() - began


def flood(loop: Loop, messages: list[str], settle: float = 1.0) -> dict:
    loop.window()
    sent, seconds = asyncio.run(send_all(loop.url.replace("http", "ws") + "ws", messages))
    time.sleep(settle)
    return {"sent": sent, "per_s": round(sent / seconds), "longest_step_ms": loop.longest_step_ms()}


def busy_site(loop: Loop, toggles: int) -> float:
    """Seconds until a command for one site, sent from a second page, lands while ``toggles``
    of another site sent by a first page wait (as many as its rate allows)."""
    hub = loop.page.board.hub
    labels = sorted(hub.labels)
    busy, other = labels[0], labels[-1]
    url = loop.url.replace("http", "ws") + "ws"
    asyncio.run(send_all(url, [json.dumps({"type": "toggle", "site": busy})] * toggles))
    began = time.perf_counter()
    asyncio.run(send_all(url, [json.dumps({"type": "place", "site": other})]))
    while other not in hub.current().get("pieces", ()) and time.perf_counter() - began < 60:
        time.sleep(0.002)
    return time.perf_counter() - began


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def slowloris(loop: Loop, connections: int) -> dict:
    """``connections`` half-sent requests held open; then is the page served?"""
    conns, refused = [], 0
    fds_before = open_fds()
    for _ in range(connections):
        try:
            conn = socket.create_connection(("127.0.0.1", loop.port), timeout=2)
            conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ")
            conns.append(conn)
        except OSError:
            refused += 1
    time.sleep(0.5)
    for conn in conns:
        conn.setblocking(False)
        try:
            refused += conn.recv(64).startswith(b"HTTP/1.1 503")
        except BlockingIOError:
            pass
    fds_during = open_fds() - len(conns)  # the server's own, without the attacker's
    page_during = _page_ok(loop.port)
    began = time.perf_counter()
    idle = base.IDLE_SECONDS
    time.sleep(idle + 1)
    closed = 0
    for conn in conns:
        try:
            closed += conn.recv(64) == b""
        except (BlockingIOError, ConnectionResetError):
            pass
        conn.close()
    return {
        "held": connections,
        "refused_503": refused,
        "closed_by_idle_timeout": closed,
        "server_fds_before": fds_before,
        "server_fds_during": fds_during,
        "page_served_during": page_during,
        "page_served_after": _page_ok(loop.port),
        "idle_close_s": round(time.perf_counter() - began, 1),
    }


def _page_ok(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=3) as conn:
            conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return conn.recv(12).endswith(b"200")
    except OSError:
        return False


def malformed(loop: Loop, count: int) -> int:
    for i in range(count):
        with socket.create_connection(("127.0.0.1", loop.port), timeout=3) as conn:
            junk = [
                b"GARBAGE\r\n\r\n",
                b"GET /\x00 HTTP/9.9\r\n\r\n",
                b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X: y\r\n" * 300 + b"\r\n",
            ]
            conn.sendall(junk[i % 3])
            conn.recv(64)
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    import tempfile

    stderr = io.StringIO()
    with tempfile.TemporaryDirectory() as folder, redirect_stderr(stderr):
        loop = Loop(folder)
        loop.window()
        time.sleep(2)
        baseline = loop.longest_step_ms()
        game = json.dumps({"type": "new_game", "game": "antipalos", "size": 5})
        new_games = flood(loop, [game] * (10_000 // scale))
        new_games["applied"] = sum(e["event"] == "new_game" for e in loop.events)
        toggles = [json.dumps({"type": "toggle", "site": s}) for s in sorted(loop.page.board.hub.labels)]
        presses = [json.dumps({"type": "button", "button": "back"})]
        mixed = flood(loop, (toggles * 200 + presses * 5000)[: 30_000 // scale], settle=3)
        waited = busy_site(loop, 500 // scale)
        time.sleep(500 // scale * 0.06 + 1)  # the busy site's changes play out
        loris = slowloris(loop, 1100 // scale)
        bad = malformed(loop, 1000 // scale)
        loop.stop()
    said = stderr.getvalue()
    figures = {
        "baseline_longest_step_ms": baseline,
        "new_game_flood_sent": new_games["sent"],
        "new_game_flood_per_s": new_games["per_s"],
        "new_game_flood_longest_step_ms": new_games["longest_step_ms"],
        "new_games_applied": new_games["applied"],
        "mixed_flood_sent": mixed["sent"],
        "mixed_flood_per_s": mixed["per_s"],
        "mixed_flood_longest_step_ms": mixed["longest_step_ms"],
        "other_site_waited_ms": round(waited * 1000),
        **{f"slowloris_{k}": v for k, v in loris.items()},
        "malformed_requests": bad,
        "log_lines": len(said.splitlines()),
        "tracebacks": said.count("Traceback"),
    }
    report("web flood (loopback, the daemon loop at 100 Hz)", list(figures.items()), figures)


if __name__ == "__main__":
    main()
