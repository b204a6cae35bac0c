"""The frame both web servers stand on (firmware_host/net/web/base.py), served for real on a socket:
a client that stops reading falls behind alone and is dropped, never the sender or the others;
every socket is told when the server stops, and a stop held up by a handler ends within its
bound, saying what it left; Host, headers, token and the shared files."""

from __future__ import annotations

import asyncio
import base64
import gc
import json
import os
import re
import socket
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import aiohttp
import pytest
from aiohttp import WSMsgType, web

from firmware_host.net.web.base import SHARED, WebApp, WebServer
from testbed.stopping import stop
from testbed.tools import run_async, wait_until

#: Messages pushed at a client that reads nothing: far more than the kernel's buffers hold.
PUSHED, SIZE = 400, 64 * 1024
#: What asyncio says of a task destroyed pending (a loop closed under it).
DESTROYED = "Task was destroyed but it is pending"


class Echo(WebApp):
    """A small app: ``/ws`` sends a hello, then what is pushed; answers each message."""

    name, farewell, backlog, static = "example", b"example stopped", 8, SHARED

    def routes(self, router: web.UrlDispatcher) -> None:
        router.add_get("/", self.file("board.css"))
        router.add_get("/ws", self.ws)

    async def ws(self, request: web.Request) -> web.WebSocketResponse:
        controls = self.authorised(request)
        return await self.socket(
            request,
            lambda: [{"type": "hello", "controls": controls}],
            lambda msg: {"type": "echo", "text": msg.data},
        )


@pytest.fixture
def served():
    server = WebServer(Echo(token="s3cret", host="127.0.0.1"), "127.0.0.1", 0)
    server.start()
    yield server
    server.stop()


def stalled_client(port: int) -> socket.socket:
    """A websocket client that opens and then reads nothing (a tiny receive buffer)."""
    conn = socket.socket()
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    conn.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    conn.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        head += conn.recv(1)
    assert head.startswith(b"HTTP/1.1 101")
    return conn


def frames(conn: socket.socket) -> list[tuple[int, bytes]]:
    """The (opcode, payload) of every frame ``conn`` still receives, up to the close frame or the
    connection's end (then the last is ``(-1, b"")``)."""
    conn.settimeout(10)
    buffer, out = b"", []

    def take(n: int) -> bytes:
        nonlocal buffer
        while len(buffer) < n:
            try:
                chunk = conn.recv(1 << 16)
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                raise EOFError
            buffer += chunk
        head, buffer = buffer[:n], buffer[n:]
        return head

    try:
        while not out or out[-1][0] != 8:
            opcode, length = take(2)
            length &= 0x7F
            if length >= 126:
                length = int.from_bytes(take(2 if length == 126 else 8), "big")
            out.append((opcode & 0x0F, take(length)))
    except EOFError:
        out.append((-1, b""))
    return out


def test_a_client_that_stops_reading_falls_behind_alone(served):
    slow = stalled_client(served.port)
    started, done = threading.Event(), []

    async def reader():
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(f"{served.url}ws", max_msg_size=0) as ws:
                assert (await ws.receive_json())["type"] == "hello"
                started.set()
                while len(done) < PUSHED:
                    done.append(json.loads((await ws.receive(timeout=20)).data)["n"])

    with ThreadPoolExecutor(1) as pool:
        reading = pool.submit(asyncio.run, reader())
        assert started.wait(10)
        for n in range(PUSHED):  # from this thread, as the daemon's loop pushes (never waits),
            served.pages.push({"n": n, "pad": "x" * SIZE})  # at the pace of the reading client
            if n % 4 == 3:
                assert wait_until(lambda n=n: len(done) > n, 10)
        reading.result(timeout=60)
    assert done == list(range(PUSHED))  # the reading client got every message, in order
    got = frames(slow)  # the stalled one was dropped (closed, or cut off), far short of them all
    assert got[0] == (1, b'{"type":"hello","controls":false}') and got[-1][0] in (8, -1)
    assert [json.loads(text)["n"] for _, text in got[1:-1]] == list(range(len(got) - 2))
    assert len(got) - 2 < PUSHED - served.pages.backlog


def test_every_socket_is_told_when_the_server_stops():
    """... at once, and a client that never answers (a phone asleep with the page open) does
    not hold the server up: it is cut off."""
    server = WebServer(Echo(token=None, host="127.0.0.1"), "127.0.0.1", 0)
    server.start()
    asleep = stalled_client(server.port)

    async def listen():
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(f"{server.url}ws") as ws:
                hello = await ws.receive_json()
                await ws.send_str("hi")
                echo = await ws.receive_json()
                for n in range(server.pages.backlog - 1):  # more than the asleep one's buffers hold
                    server.pages.push({"n": n, "pad": "x" * (1 << 20)})
                    await ws.receive()
                stopping = asyncio.get_running_loop().run_in_executor(None, server.stop)
                closed = await ws.receive(timeout=10)
                await stopping  # stopped without an error: nobody held it up
                return hello, echo, closed

    hello, echo, closed = run_async(listen())
    assert hello == {"type": "hello", "controls": True} and echo == {"type": "echo", "text": "hi"}
    assert closed.type == WSMsgType.CLOSE and closed.data == 1001 and closed.extra == "example stopped"
    assert frames(asleep)[-1] == (-1, b"")  # what it had not read yet, then cut off


def test_host_headers_token_and_the_shared_files(served):
    async def check():
        async with aiohttp.ClientSession() as session:
            async with session.get(served.url, headers={"Host": "evil.test"}) as refused:
                assert refused.status == 421
                assert await refused.text() == "this example answers only to its own address\n"
                assert "frame-ancestors 'none'" in refused.headers["Content-Security-Policy"]
            for path in ("shared/board.js", "static/board.css", ""):
                async with session.get(served.url + path) as got:
                    assert got.status == 200 and got.headers["X-Content-Type-Options"] == "nosniff"
            async with session.get(served.url + "shared/board.js") as script:
                assert script.content_type.endswith("/javascript")  # an ES module needs a script type
            for query, controls in (("", False), ("?token=wrong", False), ("?token=s3cret", True)):
                async with session.ws_connect(f"{served.url}ws{query}") as ws:
                    assert (await ws.receive_json())["controls"] is controls

    run_async(check())


class Batched(Echo):
    """The app sending what queued up for a client as one list (as the café's dashboard does)."""

    batch = True


def test_what_queues_up_for_a_client_goes_as_one_list_after_its_first_message():
    server = WebServer(Batched(token=None, host="127.0.0.1"), "127.0.0.1", 0)
    server.start()
    app = server.pages

    def push_three() -> None:  # in one turn of the server's loop: all queued before any is sent
        for n in range(3):
            app.fan_out({"type": "table", "n": n})

    async def read() -> list:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{server.url}ws") as ws:
            hello = json.loads((await ws.receive(timeout=5)).data)  # its queue is in place
            app.loop.call_soon_threadsafe(push_three)
            return [hello, json.loads((await ws.receive(timeout=5)).data)]

    try:
        hello, batch = run_async(read())
    finally:
        server.stop()
    assert hello["type"] == "hello"
    assert batch == [{"type": "table", "n": n} for n in range(3)]


class Stubborn(Echo):
    """An app whose ``/held`` holds the server's loop until released (a handler blocking on
    something outside it), and whose ``/stubborn`` never takes its cancellation."""

    def __init__(self) -> None:
        super().__init__(token=None, host="127.0.0.1")
        self.entered, self.release = threading.Event(), threading.Event()

    def routes(self, router: web.UrlDispatcher) -> None:
        router.add_get("/held", self.held)
        router.add_get("/stubborn", self.stubborn)

    async def held(self, request: web.Request) -> web.Response:
        self.entered.set()
        self.release.wait()
        return web.Response(text="late")

    async def stubborn(self, request: web.Request) -> web.Response:
        self.entered.set()
        while not self.release.is_set():
            try:
                await asyncio.sleep(0.05)
            except asyncio.CancelledError:
                pass
        return web.Response(text="late")


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("held", "its loop still runs (held by a handler that does not return?)"),
        ("stubborn", "task(s) that do not end left running"),
    ],
)
def test_a_stop_held_up_returns_within_its_bound_and_says_what_it_left(capsys, path, said):
    """A request's handler that never ends: the stop neither raises nor waits for it (it
    raised a TimeoutError after 5 s, or waited 5 s more for the thread), and the journal says
    what it left, its bound in tenths (the daemon gives what its closing left: 2.4998 s)."""
    pages = Stubborn()
    server = WebServer(pages, "127.0.0.1", 0)
    server.start()
    with socket.create_connection(("127.0.0.1", server.port)) as client:
        client.sendall(f"GET /{path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
        assert pages.entered.wait(10)
        try:
            server.stop(2.4998)
        finally:
            pages.release.set()
    del server, pages
    gc.collect()  # a task cut off pending was destroyed here: asyncio said so in the journal
    said_all = capsys.readouterr().err.splitlines()
    assert any(
        re.match(r"reedboard run: web: stopping took more than 2(\.5)? s: ", line) and said in line
        for line in said_all
    ), said_all
    assert not any(DESTROYED in line for line in said_all)


#: A process serving :class:`Stubborn` on a free port until SIGTERM, then stopping its server:
#: it says its port, then "entered" once a request is in the handler that never ends.
STUBBORN_PROCESS = """
import signal, sys, threading
from firmware_host.net.web.base import WebServer
from tests.net.web.test_web_base import Stubborn
stopping = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stopping.set())
pages = Stubborn()
server = WebServer(pages, "127.0.0.1", 0)
server.start()
print(server.port, flush=True)
pages.entered.wait()
print("entered", flush=True)
stopping.wait()
server.stop()
"""


def test_a_process_stopped_with_a_handler_that_never_ends_says_our_line_alone():
    """A real process stopped by SIGTERM while a request's handler ignores its cancellation: its
    journal has our one line on what the stop left, and not asyncio's "Task was destroyed but
    it is pending!" (the loop was closed under the task, destroyed as the process ended)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", STUBBORN_PROCESS], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        port = int(proc.stdout.readline())
        with socket.create_connection(("127.0.0.1", port)) as client:
            client.sendall(f"GET /stubborn HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            assert proc.stdout.readline() == "entered\n"
            assert stop(proc) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        said = proc.communicate()[1].splitlines()
    assert [line for line in said if line.startswith("reedboard run: web:")] == [
        "reedboard run: web: stopping took more than 2 s: 1 connection(s) cut off; "
        "2 task(s) that do not end left running"  # the connection's and its request's
    ], said


class FailsToClean(Echo):
    """An app whose cleanup fails."""

    def app(self) -> web.Application:
        app = super().app()

        async def fail(_: web.Application) -> None:
            raise OSError("the card is gone")

        app.on_cleanup.append(fail)
        return app


def test_a_shutdown_that_fails_is_raised_by_the_stop_not_taken_for_a_held_loop(capsys):
    """Not a slow stop: its error is the caller's, as before the stop waited for tasks left
    (it was said as a loop held by a handler once the bound had passed)."""
    server = WebServer(FailsToClean(token=None, host="127.0.0.1"), "127.0.0.1", 0)
    server.start()
    with pytest.raises(OSError, match="the card is gone"):
        server.stop()
    assert "stopping took more than" not in capsys.readouterr().err
