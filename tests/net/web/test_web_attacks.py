"""The simulator page's server under attack, on a real socket: DNS rebinding (a Host that is not
this server), floods of commands, idle and half-sent connections, malformed requests."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import socket
import time
from typing import Callable

import aiohttp
import pytest

from firmware_host.actions.limits import BURST
from firmware_host.net import web
from firmware_host.net.web import base, bridge, server
from firmware_host.net.web.guard import host_allowed
from firmware_host.store.config import Timing
from hardware.sim import SimBoard
from testbed.tools import run_async, wait_until


@pytest.fixture
def served():
    simulator = web.start(SimBoard(16), Timing(), "127.0.0.1", 0, out=open(os.devnull, "w"))
    yield simulator
    simulator.stop()


def get(port: int, path: str, host: str, **headers: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path, headers={"Host": host, **headers})
        return conn.getresponse().status
    finally:
        conn.close()


@pytest.mark.parametrize("path", ["/", "/replay.jsonl", "/ws", "/ws/watch", "/static/app.js"])
def test_a_rebound_name_is_refused_on_every_route(served, path):
    port = served.server.port
    upgrade = (
        {
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        }
        if path.startswith("/ws")
        else {}
    )
    for evil in (
        f"evil.test:{port}",
        "evil.test",
        f"127.0.0.1.evil.test:{port}",
        "",
        f"[::1].evil.test:{port}",
        "[::1]:x",
    ):
        assert get(port, path, evil, **upgrade) == 421
    origin = {"Origin": f"http://evil.test:{port}"}
    assert get(port, path, f"evil.test:{port}", **origin, **upgrade) == 421
    for good in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost"):
        assert get(port, path, good, **upgrade) in (101, 200)


def test_hosts_a_server_answers_to():
    assert host_allowed("[::1]:8080", "127.0.0.1") and host_allowed("LOCALHOST.", "::1")
    assert host_allowed("board.lan:8080", "board.lan")
    assert not host_allowed("board.lan.evil.test", "board.lan")
    assert host_allowed("10.1.2.3:8080", "0.0.0.0") and not host_allowed("evil.test", "::")
    assert not host_allowed("10.1.2.3:8080", "127.0.0.1")


# ----------------------------------------------------------------------------- floods
#: Called with the count of messages a flood sent so far; True ends the sending.
Probe = Callable[[int], bool]
#: Whether the replies read so far are all a test waits for.
Enough = Callable[[list[dict]], bool]


def errors(replies: list[dict]) -> list[str]:
    """The error replies' words, in order."""
    return [r["error"] for r in replies if r["type"] == "error"]


def watch_loop(served) -> list[list[dict]]:
    """The events of each step the loop makes from now on (one list a step)."""
    steps: list[list[dict]] = []
    served.daemon.observers.append(lambda _, __, stepped: steps.append(list(stepped)))
    return steps


async def _flood(
    url: str, messages: list[str], seconds: float, until: Probe | None, enough: Enough | None
) -> list[dict]:
    """Send ``messages`` as fast as the socket takes them (connecting again when the server
    drops a page that does not read), or until ``until(sent)`` holds, then read the replies
    for ``seconds`` (less once ``enough(replies)`` holds)."""
    replies, left = [], list(reversed(messages))
    async with aiohttp.ClientSession() as session:
        while left:
            async with session.ws_connect(url) as ws:
                try:
                    while left:
                        await ws.send_str(left[-1])
                        left.pop()
                        if until is not None and until(len(messages) - len(left)):
                            left.clear()
                except aiohttp.ClientConnectionResetError:
                    continue
                end = time.monotonic() + seconds
                while (wait := end - time.monotonic()) > 0 and not (enough and enough(replies)):
                    try:
                        msg = await ws.receive(timeout=wait)
                    except asyncio.TimeoutError:
                        break
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        break
                    replies.append(json.loads(msg.data))
    return replies


def flood(
    served,
    messages: list[str],
    seconds: float = 1.5,
    until: Probe | None = None,
    enough: Enough | None = None,
) -> list[dict]:
    url = served.url.replace("http", "ws") + "ws"
    return run_async(_flood(url, messages, seconds, until, enough), timeout=300)


def test_a_flood_of_new_games_is_refused_and_never_holds_the_loop(serve, monkeypatch):
    """A page sends new games as fast as it can: the board starts the first while the flood
    still comes in (before, one step stood 57 s starting every game it asked for), and refuses
    the others."""
    monkeypatch.setattr(server, "NEW_GAME_SECONDS", 3600)  # one new game in this test
    served = serve("anti-grid")
    steps, answered = watch_loop(served), []

    def started(sent: int) -> bool:
        """Once the game began, the flood goes on past a page's burst: there are others to
        refuse even when a loaded machine's sender fell behind the loop."""
        if not answered and any(e["event"] == "new_game" for step in steps for e in step):
            answered.append(sent)
        return bool(answered) and sent > answered[0] + 2 * BURST

    game = json.dumps({"type": "new_game", "game": "anti-grid"})
    replies = flood(served, [game] * 100_000, until=started)
    assert answered  # before the flood's last message
    refused = errors(replies)
    assert sum(e["event"] == "new_game" for step in steps for e in step) == 1
    assert any("one new game every 3600 s" in e for e in refused)
    assert any("too many messages" in e for e in refused)


def test_one_busy_site_never_holds_the_others_up(serve):
    served = serve("antipalos", 5)
    hub = served.page.board.hub
    assert wait_until(lambda: hub.labels)  # the loop's first step
    labels = sorted(hub.labels)
    busy, other = labels[0], labels[-1]
    toggles = [json.dumps({"type": "toggle", "site": busy})] * 90
    flood(served, [*toggles, json.dumps({"type": "place", "site": other})], seconds=0.5)
    # Applied long before the 90 changes of the busy site (5 s), which are still spaced out.
    assert wait_until(lambda: other in hub.current()["pieces"])
    assert served.page.board.spacing.waiting


def test_deep_json_and_malformed_requests_get_one_line_each(serve, capfd):
    served = serve()
    replies = flood(
        served, ["[" * 4000, '{"a":[' * 600], seconds=30, enough=lambda got: len(errors(got)) >= 2
    )
    assert errors(replies) == [
        "not a command (nested too deeply)",
        "not a command (nested too deeply)",
    ]
    port = int(served.url.rsplit(":", 1)[1].strip("/"))
    for junk in (
        b"GARBAGE\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: localhost\r\n" + b"X: y\r\n" * 300 + b"\r\n",
        b"GET /\x00 HTTP/9.9\r\n\r\n",
    ):
        with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
            conn.sendall(junk)
            assert re.match(rb"HTTP/1\.[01] 4\d\d ", conn.recv(100))
    err = capfd.readouterr().err
    assert "Traceback" not in err and len(err.splitlines()) <= 3


def test_idle_and_excess_connections_are_closed(monkeypatch):
    monkeypatch.setattr(base, "IDLE_SECONDS", 0.5)
    simulator = web.start(SimBoard(16), Timing(), "127.0.0.1", 0, out=open(os.devnull, "w"))
    port = simulator.server.port
    conns = []
    try:
        for _ in range(base.MAX_CONNECTIONS + 36):
            conn = socket.create_connection(("127.0.0.1", port), timeout=3)
            conn.sendall(b"GET / HTTP/1.1\r\nHost: local")  # never finished (slowloris)
            conns.append(conn)
        time.sleep(0.2)
        refused = sum(c.recv(100).startswith(b"HTTP/1.1 503") for c in conns[-36:])
        assert refused == 36
        time.sleep(1.0)  # past the idle time: every half-sent request is dropped
        assert sum(c.recv(100) == b"" for c in conns[: base.MAX_CONNECTIONS]) == base.MAX_CONNECTIONS
        assert get(port, "/", f"127.0.0.1:{port}") == 200  # the page is served again
    finally:
        for conn in conns:
            conn.close()
        simulator.stop()


def test_the_recording_stops_growing_when_full(monkeypatch):
    monkeypatch.setattr(bridge, "MAX_RECORDED", 3)
    rec = bridge.Recorder()
    rec.restart(0, {"name": "g"}, True, [])
    for t in range(10):
        rec.now = t * 100
        rec.add(rec.now, button="ok")
    lines = rec.text().splitlines()
    assert len(lines) == 1 + 3 + 1 and json.loads(lines[-1]) == {"t": 300}
