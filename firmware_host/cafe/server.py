"""The café dashboard's web server: aiohttp in a thread of its own (the simulator's WebServer).

Routes: ``/`` every table, ``/watch/<id>`` one table for a café screen, ``/layouts/<key>`` the
sites of a game some table plays, ``/static/...``, ``/ws`` the live feed.

Safe as the simulator page is: bound to 127.0.0.1 unless told otherwise, every request's Host
checked (loopback names or the bound address), websockets from another site's page refused, a
strict Content-Security-Policy. Beyond loopback, commands need the token (``?token=...``); the
tiles are shown to anyone who can reach the page.
"""

from __future__ import annotations

import asyncio
import hmac
import json
from pathlib import Path
from typing import Any, Callable

from aiohttp import WSCloseCode, WSMsgType, web

from engines import GAME_NAMES
from firmware_host.cafe.fleet import Fleet
from firmware_host.mqtt.commands import parse
from firmware_host.web.commands import CommandError, load
from firmware_host.web.guard import (
    MAX_MESSAGE, Bucket, host_allowed, same_origin, security_headers, send_all,
)

STATIC = Path(__file__).with_name("static")
#: Messages waiting for a slow page before it is dropped (it reconnects and starts afresh).
BACKLOG = 512
#: Commands one page may send: RATE a second on average, BURST at once.
RATE, BURST = 2.0, 10.0

#: Sends a checked command: (board, JSON text).
Send = Callable[[str, str], None]


class Dashboard:
    """The pages showing ``fleet``; ``send`` publishes a command; ``token``: None on loopback."""

    def __init__(self, fleet: Fleet, send: Send, token: str | None, host: str) -> None:
        self.fleet, self.send, self.token, self.host = fleet, send, token, host
        self.queues: set[asyncio.Queue] = set()
        self.sockets: set[web.WebSocketResponse] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.broker = False

    def app(self) -> web.Application:
        app = web.Application(middlewares=[security_headers, self._check_host])
        app.router.add_get("/", self.page)
        app.router.add_get("/watch/{board}", self.page)
        app.router.add_get("/layouts/{game}/{size}/{variant}", self.layout)
        app.router.add_get("/ws", self.socket)
        app.router.add_static("/static", STATIC)
        app.on_startup.append(self._started)
        app.on_shutdown.append(self._close_sockets)
        return app

    async def _started(self, _: web.Application) -> None:
        self.loop = asyncio.get_running_loop()

    async def _close_sockets(self, _: web.Application) -> None:
        for ws in list(self.sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"reedboard cafe stopped")

    @web.middleware
    async def _check_host(self, request: web.Request, handler) -> web.StreamResponse:
        if not host_allowed(request.headers.get("Host", ""), self.host):
            raise web.HTTPMisdirectedRequest(text="this dashboard answers only to its own address\n")
        return await handler(request)

    # ------------------------------------------------------------------ the fleet's thread
    def push(self, message: dict[str, Any]) -> None:
        """Hand ``message`` to every page (from any thread)."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._fan_out, message)

    def table_changed(self, view: dict[str, Any]) -> None:
        self.push({"type": "table", "table": view})

    def replied(self, board: str, reply: dict[str, Any]) -> None:
        self.push({"type": "reply", "board": board, "reply": reply})

    def broker_changed(self, connected: bool) -> None:
        self.broker = connected
        self.push({"type": "broker", "connected": connected})

    def _fan_out(self, message: dict[str, Any]) -> None:
        for queue in list(self.queues):
            if queue.full():  # a page that cannot keep up starts again from the full state
                self.queues.discard(queue)
                queue.put_nowait(None)
            else:
                queue.put_nowait(message)

    # ------------------------------------------------------------------ handlers
    async def page(self, _: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "cafe.html")

    async def layout(self, request: web.Request) -> web.Response:
        key = "/".join(request.match_info[k] for k in ("game", "size", "variant"))
        sites = self.fleet.layout(key)
        if sites is None:
            raise web.HTTPNotFound(text="no table plays that game\n")
        return web.json_response({"sites": sites}, headers={"Cache-Control": "max-age=3600"})

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        same_origin(request)
        controls = self._authorised(request)
        ws = web.WebSocketResponse(heartbeat=30, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        queue: asyncio.Queue = asyncio.Queue(BACKLOG)
        queue.put_nowait({"type": "hello", "controls": controls, "games": list(GAME_NAMES),
                          "broker": self.broker, "tables": self.fleet.views()})
        self.queues.add(queue)
        self.sockets.add(ws)
        sender = asyncio.create_task(send_all(ws, queue))
        bucket = Bucket(RATE, BURST)
        try:
            async for msg in ws:
                reply = self._command(msg, controls and bucket)
                if not queue.full():
                    queue.put_nowait(reply)
        finally:
            self.queues.discard(queue)
            self.sockets.discard(ws)
            sender.cancel()
        return ws

    def _command(self, msg: Any, controls: Bucket | bool) -> dict[str, Any]:
        """Check a page's ``{"type": "command", "board": id, "command": {...}}`` and send it;
        what to tell the page. ``controls``: the page's bucket, False without the token."""
        try:
            if not controls:
                raise CommandError("commands need the token printed by reedboard cafe")
            if not controls.take():
                raise CommandError(f"too many commands (at most {RATE:g} a second)")
            if msg.type != WSMsgType.TEXT:
                raise CommandError("expected a text message")
            obj = load(msg.data)
            board, command = obj.get("board"), obj.get("command")
            if obj.get("type") != "command" or set(obj) != {"type", "board", "command"}:
                raise CommandError('expected {"type": "command", "board": ..., "command": {...}}')
            if not isinstance(board, str) or board not in self.fleet.tables:
                raise CommandError(f"no table {str(board)[:40]!r}")
            text = json.dumps(command)
            parse(text)
        except CommandError as exc:
            return {"type": "error", "error": str(exc)}
        self.send(board, text)
        return {"type": "sent", "board": board}

    def _authorised(self, request: web.Request) -> bool:
        if self.token is None:
            return True
        given = request.query.get("token", "")
        return hmac.compare_digest(given.encode(), self.token.encode())

