"""The simulator page's server under attack, on a real socket: DNS rebinding (a Host that is not
this server), floods of commands, idle and half-sent connections, malformed requests."""

from __future__ import annotations

import http.client
import os

import pytest

from firmware_host import web
from firmware_host.config import Timing
from firmware_host.web.server import host_allowed
from hardware.sim import SimBoard


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
    upgrade = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="} if path.startswith("/ws") else {}
    for evil in (f"evil.test:{port}", "evil.test", f"127.0.0.1.evil.test:{port}", ""):
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
