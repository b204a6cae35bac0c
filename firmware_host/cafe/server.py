"""The café dashboard's web server: aiohttp in a thread of its own (the simulator's WebServer).

Routes: ``/`` every table, ``/watch/<id>`` one table for a café screen, ``/tables/<id>`` the
games a table finished (the archive) and ``/tables/<id>/games/<key>`` one replayed move by move,
``/tables/<id>/games/<key>.txt`` its record, ``/api/...`` the JSON behind those pages,
``/layouts/<key>`` the sites of a game some table plays, ``/static/...``, ``/ws`` the live feed.

The page's websocket takes ``{"type": "command", "board", "command"}`` (a board's command,
checked as the board checks it and refused at once for a board that is offline),
``{"type": "rename", "board", "name"}`` and ``{"type": "retire", "board"}`` (an offline table's
retained topics and Home Assistant device cleared, its games kept).

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
from firmware_host.cafe.archive import ArchiveError, positions
from firmware_host.cafe.fleet import Fleet
from firmware_host.game import Game
from firmware_host.mqtt import topics
from firmware_host.mqtt.commands import parse
from firmware_host.mqtt.discovery import removal_messages
from firmware_host.mqtt.untrusted import board_id
from firmware_host.web.commands import CommandError, load
from firmware_host.web.guard import (
    MAX_MESSAGE, Bucket, host_allowed, same_origin, security_headers, send_all,
)

STATIC = Path(__file__).with_name("static")
#: Messages waiting for a slow page before it is dropped (it reconnects and starts afresh).
BACKLOG = 512
#: Commands one page may send: RATE a second on average, BURST at once.
RATE, BURST = 2.0, 10.0
#: The longest name a table may be given.
MAX_NAME = 40
#: A board's retained topics, cleared when its table is retired.
RETAINED = ("state", "availability", "moves", "record")

#: Publishes on the broker: (topic, payload, retained).
Publish = Callable[[str, str, bool], None]


class Dashboard:
    """The pages showing ``fleet``; ``publish`` sends on the broker; ``token``: None on
    loopback."""

    def __init__(self, fleet: Fleet, publish: Publish, token: str | None, host: str) -> None:
        self.fleet, self.publish, self.token, self.host = fleet, publish, token, host
        self.queues: set[asyncio.Queue] = set()
        self.sockets: set[web.WebSocketResponse] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.broker = False

    def app(self) -> web.Application:
        app = web.Application(middlewares=[security_headers, self._check_host])
        app.router.add_get("/", self.page)
        app.router.add_get("/watch/{board}", self.page)
        app.router.add_get("/tables/{board}", self.archive_page)
        app.router.add_get("/tables/{board}/games/{key}.txt", self.record_text)
        app.router.add_get("/tables/{board}/games/{key}", self.archive_page)
        app.router.add_get("/api/tables/{board}/games", self.games)
        app.router.add_get("/api/tables/{board}/games/{key}", self.replay)
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

    def alerted(self, alert: dict[str, Any]) -> None:
        self.push({"type": "alert", "alert": alert})

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

    async def archive_page(self, _: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "archive.html")

    def _archive(self):
        if self.fleet.archive is None:
            raise web.HTTPNotFound(text="this dashboard keeps no archive\n")
        return self.fleet.archive

    async def _read(self, what: Callable[[], Any]) -> Any:
        """``what()`` on the archive, off the event loop; 503 when the database fails."""
        try:
            return await asyncio.to_thread(what)
        except ArchiveError as exc:
            raise web.HTTPServiceUnavailable(text=f"the archive cannot be read: {exc}\n") from None

    async def games(self, request: web.Request) -> web.Response:
        board = _board(request)
        archive = self._archive()
        offset = request.query.get("offset", "0")
        offset = int(offset) if offset.isdigit() and len(offset) < 9 else 0
        listed = await self._read(lambda: archive.games(board, 200, offset))
        name = self.fleet.tables[board].name if board in self.fleet.tables else None
        return web.json_response({"board": board, "name": name or board, "games": listed})

    async def replay(self, request: web.Request) -> web.Response:
        board, key = _board(request), request.match_info["key"]
        archive = self._archive()
        game = await self._read(lambda: archive.game(board, key))
        if game is None:
            raise web.HTTPNotFound(text="no such game\n")
        states = await asyncio.to_thread(lambda: list(positions(game)))
        sites = [{"label": s.label, "x": s.x, "y": s.y, "shape": s.shape} for s in states[0].sites()]
        steps, before = [], None
        for n, state in enumerate(states):
            occupied = state.occupied()
            steps.append({"move": game["moves"][n - 1] if n else None, "pieces": sorted(occupied),
                          "changed": sorted(occupied ^ before) if before is not None else [],
                          "figures": [{"side": f.side, "sites": list(f.sites), "kind": f.kind}
                                      for f in state.figures()]})
            before = occupied
        fields = {k: game[k] for k in ("key", "game", "size", "variant", "started", "finished",
                                       "result", "winner", "opponent", "text")}
        return web.json_response({**fields, "title": Game(game["game"], game["size"]).title,
                                  "board": board, "sites": sites, "steps": steps})

    async def record_text(self, request: web.Request) -> web.Response:
        board, key = _board(request), request.match_info["key"]
        archive = self._archive()
        game = await self._read(lambda: archive.game(board, key))
        if game is None:
            raise web.HTTPNotFound(text="no such game\n")
        return web.Response(text=game["text"], content_type="text/plain", headers={
            "Content-Disposition": f'attachment; filename="{board}-{key}.txt"'})

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
                          "broker": self.broker, "tables": self.fleet.views(),
                          "alerts": self.fleet.alerts[:20]})
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
        """Check a page's message (a board's command, a rename, a retirement) and carry it
        out; what to tell the page. ``controls``: the page's bucket, False without the token."""
        board = None
        try:
            if not controls:
                raise CommandError("commands need the token printed by reedboard cafe")
            if not controls.take():
                raise CommandError(f"too many commands (at most {RATE:g} a second)")
            if msg.type != WSMsgType.TEXT:
                raise CommandError("expected a text message")
            obj = load(msg.data)
            kind, board = obj.get("type"), obj.get("board")
            handlers = {"command": self._send, "rename": self._rename, "retire": self._retire}
            if kind not in _FIELDS or set(obj) != _FIELDS[kind]:
                raise CommandError('expected {"type": "command", "board": ..., "command": {...}}')
            if not isinstance(board, str) or board not in self.fleet.tables:
                raise CommandError(f"no table {str(board)[:40]!r}")
            return handlers[kind](board, obj)
        except CommandError as exc:
            return {"type": "error", "error": str(exc),
                    "board": board if isinstance(board, str) else None}

    def _send(self, board: str, obj: dict[str, Any]) -> dict[str, Any]:
        text = json.dumps(obj["command"])
        parse(text)
        if not self.fleet.tables[board].online:
            raise CommandError(f"{board} is offline: nothing was sent")
        self.publish(topics.command_topic(board), text, False)
        return {"type": "sent", "board": board}

    def _rename(self, board: str, obj: dict[str, Any]) -> dict[str, Any]:
        name = obj["name"]
        if name is not None and (not isinstance(name, str) or len(name.strip()) > MAX_NAME
                                 or any(ord(c) < 32 for c in name)):
            raise CommandError(f"a table's name is text of at most {MAX_NAME} characters")
        self.fleet.rename(board, (name or "").strip() or None)
        return {"type": "renamed", "board": board}

    def _retire(self, board: str, _: dict[str, Any]) -> dict[str, Any]:
        """Forget an offline table: its retained topics and Home Assistant device cleared."""
        if self.fleet.tables[board].online:
            raise CommandError(f"{board} is online: switch the board off (or give it another "
                               "id) first, or it announces itself again")
        for kind in RETAINED:
            self.publish(topics.topic(board, kind), "", True)
        for topic, payload in removal_messages(board):
            self.publish(topic, payload, True)
        self.fleet.retire(board)
        self._fan_out({"type": "retired", "board": board})
        return {"type": "sent", "board": board}

    def _authorised(self, request: web.Request) -> bool:
        if self.token is None:
            return True
        given = request.query.get("token", "")
        return hmac.compare_digest(given.encode(), self.token.encode())



#: The fields of each message a page may send.
_FIELDS = {"command": {"type", "board", "command"}, "rename": {"type", "board", "name"},
           "retire": {"type", "board"}}


def _board(request: web.Request) -> str:
    board = board_id(request.match_info["board"])
    if board is None:
        raise web.HTTPNotFound(text="no such table\n")
    return board
