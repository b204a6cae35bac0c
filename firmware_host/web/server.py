"""The simulator page's web server: aiohttp with a websocket, in a thread of its own.

Routes: ``/`` the board with its controls, ``/watch`` the read-only spectator view (the same
page), ``/static/...`` its script and style, ``/ws`` the controls' websocket, ``/ws/watch`` the
spectator's, ``/replay.jsonl`` the session as a replay input file, ``/games.json`` the stored
games, ``/games/N.json`` one to replay move by move, ``/games/N.txt`` and ``/games.txt`` their
records as ``reedboard export`` writes them, ``/guide/GAME`` the player's guide (docs/play/) and
``/setup`` how to start the set-up wizard.

Safe by default: it binds 127.0.0.1. Bound elsewhere, the controls (``/ws``, ``/replay.jsonl``)
need the token (``?token=...``); the spectator view never does and never accepts commands.
A websocket from another site's page (an ``Origin`` not this server's) is refused, and so is
every request whose ``Host`` is not a loopback name or address nor the address the server was
told to use (DNS rebinding: a page at ``http://evil.test:8080`` whose name is made to resolve to
127.0.0.1 sends ``Host: evil.test:8080``); bound to every interface (0.0.0.0, ::), an IP address
and this machine's own name are accepted too.

The server's thread is supervised (:meth:`WebServer.check`): one that dies runs its event loop
again, with the pages and sockets it had; a handler's or callback's error is one line.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import socket
import sys
import time
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from firmware_host.web.bridge import Hub, Update
from firmware_host.playable import Playable
from firmware_host.limits import BURST, NEW_GAME_SECONDS, RATE, Bucket
from firmware_host.web.guard import MAX_MESSAGE, host_allowed, same_origin, security_headers, send_all
from firmware_host.web import guides
from firmware_host.web import games as stored
from firmware_host.web.address import qr_svg
from firmware_host.web.commands import CommandError, Drag, NewGame, SetNoise, SetUp, SiteChange, parse
from hardware.supervise import Supervised

STATIC = Path(__file__).with_name("static")
#: Messages waiting for a slow page before it is dropped (it reconnects and starts afresh).
BACKLOG = 256
#: Commands one page may send: RATE a second on average, BURST at once; a new game (which
#: rebuilds the board) once every NEW_GAME_SECONDS, from all pages together (firmware_host.limits).
#: Open connections at most (more are answered 503 and closed), and the seconds a connection
#: may stay open without a whole request (a slow or idle client; websockets are not idle).
MAX_CONNECTIONS, IDLE_SECONDS = 64, 10.0


class Pages:
    """The pages connected to one hub, and the handlers serving them."""

    def __init__(self, hub: Hub, token: str | None = None, host: str = "127.0.0.1",
                 playable: Playable = Playable(), simulated: bool = True,
                 address: str | None = None) -> None:
        self.hub = hub
        self.token = token
        #: What the board can play: the picker offers only that, and a new game is checked.
        self.playable = playable
        #: False on real hardware: the simulator's piece controls are refused.
        self.simulated = simulated
        #: The page's address for phones (None: not known), shown with its QR code.
        self.address = address
        self._new_games = Bucket(1 / NEW_GAME_SECONDS, 1)
        #: The address the server is bound to: Host headers must name it (or loopback).
        self.host = host
        self.queues: set[asyncio.Queue] = set()
        self.sockets: set[web.WebSocketResponse] = set()
        self.loop: asyncio.AbstractEventLoop | None = None

    def app(self) -> web.Application:
        app = web.Application(middlewares=[security_headers, self._check_host])
        app.router.add_get("/", self.page)
        app.router.add_get("/watch", self.page)
        app.router.add_get("/ws", self.controls)
        app.router.add_get("/ws/watch", self.watch)
        app.router.add_get("/replay.jsonl", self.replay)
        app.router.add_get("/games.json", self.games_list)
        app.router.add_get("/games.txt", self.records)
        app.router.add_get(r"/games/{id:\d{1,9}}.json", self.game_replay)
        app.router.add_get(r"/games/{id:\d{1,9}}.txt", self.records)
        app.router.add_get("/setup", self.setup)
        app.router.add_get(r"/guide/{game:[a-z-]{1,20}}", self.guide)
        app.router.add_get(r"/guide/img/{name:[a-z0-9-]{1,60}\.(png|svg)}", self.guide_image)
        app.router.add_static("/static", STATIC)
        app.on_startup.append(self._started)
        app.on_shutdown.append(self._close_sockets)
        return app

    async def _started(self, _: web.Application) -> None:
        self.loop = asyncio.get_running_loop()
        self.hub.listen(self._from_loop)

    async def _close_sockets(self, _: web.Application) -> None:
        """The daemon stops: tell every open page, so that none holds the server up."""
        for ws in list(self.sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"reedboard stopped")

    @web.middleware
    async def _check_host(self, request: web.Request, handler) -> web.StreamResponse:
        """Refuse a Host this server is not (DNS rebinding), before anything else."""
        if not host_allowed(request.headers.get("Host", ""), self.host):
            raise web.HTTPMisdirectedRequest(text="this board answers only to its own address\n")
        return await handler(request)

    # ------------------------------------------------------------------ handlers
    async def page(self, _: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def replay(self, request: web.Request) -> web.Response:
        self._authorise(request)
        rec = self.hub.recording
        name = "-".join(str(v) for v in (rec.game.get("name", "game"), rec.game.get("size"),
                                          rec.game.get("variant")) if v)
        return web.Response(
            text=rec.text(), content_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{name}.replay.jsonl"'},
        )

    async def games_list(self, request: web.Request) -> web.Response:
        self._authorise(request)
        return web.json_response(await self._stored(stored.listed, self.hub.storage))

    async def game_replay(self, request: web.Request) -> web.Response:
        self._authorise(request)
        found = await self._stored(stored.replayed, self.hub.storage, int(request.match_info["id"]))
        return web.json_response(found)

    async def records(self, request: web.Request) -> web.Response:
        """Records as ``reedboard export`` writes them: one game's, or all (a download)."""
        self._authorise(request)
        game_id = request.match_info.get("id")
        text = await self._stored(stored.records, self.hub.storage, game_id and int(game_id))
        name = f"game-{game_id}.txt" if game_id else "games.txt"
        return web.Response(text=text, content_type="text/plain",
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def _stored(self, read, *args):
        """``read(*args)`` in a worker thread (the games file is read there, never in the
        server's loop or the daemon's); 404 with its words when there is no such game."""
        try:
            return await asyncio.get_running_loop().run_in_executor(None, read, *args)
        except stored.NotFound as exc:
            raise web.HTTPNotFound(text=f"{exc}\n") from None

    async def setup(self, _: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "setup.html")

    async def guide(self, request: web.Request) -> web.Response:
        text = guides.page(request.match_info["game"])
        if text is None:
            raise web.HTTPNotFound(text="no such guide here (the guides are in docs/play/ of the source)\n")
        return web.Response(text=text, content_type="text/html")

    async def guide_image(self, request: web.Request) -> web.FileResponse:
        path = guides.image(request.match_info["name"])
        if path is None:
            raise web.HTTPNotFound()
        return web.FileResponse(path)

    async def controls(self, request: web.Request) -> web.WebSocketResponse:
        self._authorise(request)
        return await self._socket(request, controls=True)

    async def watch(self, request: web.Request) -> web.WebSocketResponse:
        return await self._socket(request, controls=False)

    # ------------------------------------------------------------------ websockets
    async def _socket(self, request: web.Request, controls: bool) -> web.WebSocketResponse:
        same_origin(request)
        ws = web.WebSocketResponse(heartbeat=30, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        queue: asyncio.Queue = asyncio.Queue(BACKLOG)
        bucket = Bucket(RATE, BURST)
        hello = {"type": "hello", "controls": controls,
                 "games": self.playable.picker() if controls else [],
                 "simulated": self.simulated, **self._link(controls)}
        queue.put_nowait(hello)
        queue.put_nowait({"type": "update", **self.hub.current()})
        self.queues.add(queue)
        self.sockets.add(ws)
        sender = asyncio.create_task(send_all(ws, queue))
        try:
            async for msg in ws:
                reply = self._answer(msg, controls, bucket)
                if reply and not queue.full():
                    queue.put_nowait(reply)
        finally:
            self.queues.discard(queue)
            self.sockets.discard(ws)
            sender.cancel()
        return ws

    def _link(self, controls: bool) -> dict[str, str]:
        """The address a phone opens, and its QR code: the controls' (with the token) for a
        page that has them, else the spectators'."""
        if self.address is None:
            return {}
        link = self.address + ("" if controls else "watch")
        if controls and self.token:
            link += f"?token={self.token}"
        return {"address": link, "qr": qr_svg(link)}

    def _answer(self, msg: Any, controls: bool, bucket: "Bucket") -> dict[str, str] | None:
        """Submit the command in ``msg``; an error message for the page when it is bad, too
        many, or the board has too many waiting."""
        if not controls:
            return _error("this view is read-only")
        if msg.type != WSMsgType.TEXT:
            return _error("expected a text message")
        if not bucket.take():
            return _error(f"too many messages (at most {RATE:g} a second)")
        try:
            command = parse(msg.data, self.hub.labels)
        except CommandError as exc:
            return _error(str(exc))
        if not self.simulated and isinstance(command, (SiteChange, Drag, SetUp, SetNoise)):
            return _error("this is a real board: move its pieces by hand")
        why = self.playable.refusal(command)
        if why:
            return _error(why)
        if isinstance(command, NewGame) and not self._new_games.take():
            return _error(f"one new game every {NEW_GAME_SECONDS:g} s at most")
        if not self.hub.submit(command):
            return _error("the board is busy: too many commands waiting")
        return None

    def _from_loop(self, update: Update) -> None:
        """Called in the loop's thread: hand the update to every page."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._fan_out, {"type": "update", **update})

    def _fan_out(self, message: dict[str, Any]) -> None:
        for queue in list(self.queues):
            if queue.full():  # a page that cannot keep up starts again from the full state
                self.queues.discard(queue)
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(None)
            else:
                queue.put_nowait(message)

    def _authorise(self, request: web.Request) -> None:
        if self.token is None:
            return
        given = request.query.get("token", "")
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            raise web.HTTPForbidden(text="the controls need the token printed by reedboard run\n")


class OneLine(logging.Handler):
    """The web server's errors (a malformed request, a handler that failed) as one line on
    stderr each, never a traceback; the same line at most once a second."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self._last: tuple[str, float] = ("", 0.0)

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage().splitlines()[0] if record.getMessage() else "error"
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            text += f": {type(exc).__name__}: {' '.join(str(exc).split())[:200]}"
        now = time.monotonic()
        if self._last[0] == text and now - self._last[1] < 1:
            return
        self._last = (text, now)
        print(f"reedboard run: web: {text}", file=sys.stderr)


#: The logger the server's connections report to.
LOG = logging.getLogger("reedboard.web")
LOG.addHandler(OneLine())
LOG.propagate = False


def _one_line(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's own errors (a callback that raised) as one line, like the server's."""
    LOG.error(context.get("message", "error"), exc_info=context.get("exception"))


class _Refused(asyncio.Protocol):
    """A connection past MAX_CONNECTIONS: answered 503 and closed."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
                        b"Connection: close\r\n\r\n")
        transport.close()


class CappedSite(web.TCPSite):
    """A TCP site that serves at most ``limit`` connections at once (counting those accepted
    whose handler has not started yet: a burst is accepted before any starts). ``sock``: a
    socket already listening on host:port, served instead of binding anew."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, limit: int,
                 sock: socket.socket | None = None) -> None:
        super().__init__(runner, host, port)
        self.limit = limit
        self.starting = 0
        self.sock = sock

    async def start(self) -> None:
        await web.BaseSite.start(self)
        server = self._runner.server
        made = server.connection_made

        def connection_made(handler, transport) -> None:
            self.starting = max(0, self.starting - 1)
            made(handler, transport)

        def factory() -> asyncio.Protocol:
            if len(server.connections) + self.starting >= self.limit:
                return _Refused()
            self.starting += 1
            return server()

        server.connection_made = connection_made
        where = ({"sock": self.sock} if self.sock is not None else
                 {"host": self._host, "port": self._port, "reuse_address": self._reuse_address})
        self._server = await asyncio.get_running_loop().create_server(
            factory, backlog=self._backlog, **where)
        self._bound_port = self._server.sockets[0].getsockname()[1]


def _error(text: str) -> dict[str, str]:
    return {"type": "error", "error": text}


class WebServer:
    """Serves ``pages`` on ``host``:``port`` from a thread of its own until :meth:`stop`."""

    def __init__(self, pages: Pages, host: str, port: int,
                 sock: socket.socket | None = None) -> None:
        self.pages, self.host, self.port = pages, host, port
        #: A socket already listening on host:port (serve there rather than bind anew).
        self.sock = sock
        self._loop = asyncio.new_event_loop()
        self._loop.set_exception_handler(_one_line)
        self._runner: web.AppRunner | None = None
        self._thread = Supervised("web", self._loop.run_forever)
        self._stopped = False

    def start(self) -> None:
        """Bind and start serving; OSError when the address is taken or not ours."""
        self._runner = web.AppRunner(self.pages.app(), access_log=None, logger=LOG,
                                     keepalive_timeout=IDLE_SECONDS)
        try:
            self._loop.run_until_complete(self._bind())
        except BaseException:
            self._loop.run_until_complete(self._runner.cleanup())
            self._loop.close()
            raise
        self._thread.start()

    async def _bind(self) -> None:
        await self._runner.setup()
        site = CappedSite(self._runner, self.host, self.port, MAX_CONNECTIONS, self.sock)
        await site.start()
        if self.port == 0:  # the OS chose one (tests): say which
            self.port = site._bound_port

    def check(self) -> str | None:
        """Run the event loop in a new thread if its thread died: what happened, once."""
        return None if self._stopped else self._thread.check()

    def stop(self) -> None:
        self._stopped = True
        if self._thread.thread is None:  # never served
            return
        if not self._thread.alive():  # its thread died: the loop is idle, clean up here
            self._loop.run_until_complete(asyncio.wait_for(self._runner.cleanup(), 5))
        else:
            future = asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop)
            future.result(timeout=5)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
        self._loop.close()

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"
