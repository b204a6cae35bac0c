"""The café dashboard's web server: its routes, websocket and commands, on the frame the board's
page has too (:mod:`firmware_host.net.web.base`: served from a thread of its own).

Routes: ``/`` every table, ``/watch/<id>`` one table for a café screen, ``/tables/<id>`` the
games a table finished (the archive) and ``/tables/<id>/games/<key>`` one replayed move by move,
``/tables/<id>/games/<key>.txt`` its record, ``/api/...`` the JSON behind those pages,
``/layouts/<key>`` the board of a game some table plays (its sites and drawing), ``/static/...``,
``/shared/...`` the board-drawing module the board's page uses too, ``/ws`` the live feed.

The live feed sends the hello (every table), then each change as a message, or the changes that
queued up while the page was being sent one as a JSON list of them. The page's websocket takes
``{"type": "command", "board", "command"}`` (a board's command, checked as the board checks it
and refused at once for a board that is offline),
``{"type": "rename", "board", "name"}`` and ``{"type": "retire", "board"}`` (an offline table's
retained topics and Home Assistant device cleared, its games kept).

Safe as the simulator page is: bound to 127.0.0.1 unless told otherwise, every request's Host
checked (loopback names or the bound address), websockets from another site's page refused, a
strict Content-Security-Policy. Beyond loopback, commands need the token (``?token=...``); the
tiles are shown to anyone who can reach the page.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Callable

from aiohttp import WSMsgType, web

from engines import GAME_NAMES
from firmware_host.actions.limits import Bucket
from firmware_host.actions.reading import MOST_SIDES, CommandError, load
from firmware_host.board.game import Game
from firmware_host.net.cafe.archive import ArchiveError, positions
from firmware_host.net.cafe.fleet import Fleet
from firmware_host.net.mqtt import topics
from firmware_host.net.mqtt.commands import parse
from firmware_host.net.mqtt.discovery import removal_messages
from firmware_host.net.mqtt.untrusted import board_id
from firmware_host.net.web.base import WebApp
from firmware_host.net.web.drawn import drawn, figures

#: Commands one page may send: RATE a second on average, BURST at once.
RATE, BURST = 2.0, 10.0
#: The longest name a table may be given.
MAX_NAME = 40
#: A board's retained topics, cleared when its table is retired (each player's clock too).
RETAINED = (
    "state",
    "availability",
    "moves",
    "record",
    "games",
    *(f"clock/{n}" for n in range(1, MOST_SIDES + 1)),
)

#: Publishes on the broker: (topic, payload, retained).
Publish = Callable[[str, str, bool], None]


class Dashboard(WebApp):
    """The pages showing ``fleet``; ``publish`` sends on the broker; ``token``: None on
    loopback."""

    #: A slow page may fall 512 messages behind before it is dropped (it reconnects afresh);
    #: what queued up for a page goes as one list (200 tables send over a hundred changes a
    #: second).
    name, farewell, backlog, batch = "dashboard", b"reedboard cafe stopped", 512, True
    who = "reedboard cafe"
    static = Path(__file__).with_name("static")

    def __init__(
        self, fleet: Fleet, publish: Publish, token: str | None, host: str, league: Any = None
    ) -> None:
        super().__init__(token, host)
        self.fleet, self.publish = fleet, publish
        #: The league's pages (a LeagueDesk, docs/league.md), None: none.
        self.league = league
        self.broker = False

    def routes(self, router: web.UrlDispatcher) -> None:
        router.add_get("/", self.file("cafe.html"))
        router.add_get("/watch/{board}", self.file("cafe.html"))
        router.add_get("/tables/{board}", self.file("archive.html"))
        router.add_get("/tables/{board}/games/{key}.txt", self.record_text)
        router.add_get("/tables/{board}/games/{key}", self.file("archive.html"))
        router.add_get("/api/tables/{board}/games", self.games)
        router.add_get("/api/tables/{board}/games/{key}", self.replay)
        router.add_get("/layouts/{game}/{size}/{variant}", self.layout)
        router.add_get("/ws", self.feed)
        if self.league is not None:
            self.league.routes(router, self.file, self.authorised)

    # ------------------------------------------------------------------ the fleet's thread
    def table_changed(self, view: dict[str, Any]) -> None:
        self.push({"type": "table", "table": view})

    def replied(self, board: str, reply: dict[str, Any]) -> None:
        self.push({"type": "reply", "board": board, "reply": reply})

    def alerted(self, alert: dict[str, Any]) -> None:
        self.push({"type": "alert", "alert": alert})

    def broker_changed(self, connected: bool) -> None:
        self.broker = connected
        self.push({"type": "broker", "connected": connected})

    # ------------------------------------------------------------------ handlers
    def _archive(self):
        if self.fleet.archive is None:
            raise web.HTTPNotFound(text="this dashboard keeps no archive\n")
        return self.fleet.archive

    async def _read(self, what: Callable[[], Any]) -> Any:
        """``what()`` on the archive, off the event loop; 503 at once while the database is
        away, or when it does not answer within the archive's ``READ_WAIT``."""
        try:
            return await asyncio.to_thread(what)
        except ArchiveError as exc:
            raise web.HTTPServiceUnavailable(text=f"{exc}\n") from None

    async def games(self, request: web.Request) -> web.Response:
        board = _board(request)
        archive = self._archive()
        asked = request.query.get("offset", "0")
        offset = int(asked) if asked.isdigit() and len(asked) < 9 else 0
        listed = await self._read(lambda: archive.games(board, 200, offset))
        for game in listed:  # the time as the café reads it
            game["when"] = self.fleet.clock.shown(game["finished"], day=True) if game["finished"] else ""
        name = self.fleet.tables[board].name if board in self.fleet.tables else None
        return web.json_response({"board": board, "name": name or board, "games": listed})

    async def _stored(self, request: web.Request) -> tuple[str, str, dict[str, Any]]:
        """The table, the key and the archived game the request names (404 if there is none)."""
        board, key = _board(request), request.match_info["key"]
        archive = self._archive()
        game = await self._read(lambda: archive.game(board, key))
        if game is None:
            raise web.HTTPNotFound(text="no such game\n")
        return board, key, game

    async def replay(self, request: web.Request) -> web.Response:
        board, _, game = await self._stored(request)
        states = await asyncio.to_thread(lambda: list(positions(game)))
        steps, before = [], None
        for n, state in enumerate(states):
            occupied = state.occupied()
            steps.append(
                {
                    "move": game["moves"][n - 1] if n else None,
                    "clock": game["clocks"][n - 1] if 0 < n <= len(game["clocks"]) else "",
                    "pieces": sorted(occupied),
                    "changed": sorted(occupied ^ before) if before is not None else [],
                    "figures": figures(state),
                }
            )
            before = occupied
        fields = {
            k: game[k]
            for k in (
                "key",
                "game",
                "size",
                "variant",
                "started",
                "finished",
                "result",
                "winner",
                "opponent",
                "text",
            )
        }
        return web.json_response(
            {
                **fields,
                "title": Game(game["game"], game["size"]).title,
                "sides": list(states[0].sides),
                "board": board,
                **drawn(states[0]),
                "steps": steps,
            }
        )

    async def record_text(self, request: web.Request) -> web.Response:
        board, key, game = await self._stored(request)
        return web.Response(
            text=game["text"],
            content_type="text/plain",
            headers={"Content-Disposition": f'attachment; filename="{board}-{key}.txt"'},
        )

    async def layout(self, request: web.Request) -> web.Response:
        key = "/".join(request.match_info[k] for k in ("game", "size", "variant"))
        board = self.fleet.layout(key)
        if board is None:
            raise web.HTTPNotFound(text="no table plays that game\n")
        return web.json_response(board)

    async def feed(self, request: web.Request) -> web.WebSocketResponse:
        """The live feed: the hello (every table, the alerts), then every change; commands with
        the token."""
        controls = self.authorised(request)
        bucket = Bucket(RATE, BURST)

        def first() -> list[dict[str, Any]]:
            return [
                {
                    "type": "hello",
                    "controls": controls,
                    "games": list(GAME_NAMES),
                    "broker": self.broker,
                    "tables": self.fleet.views(),
                    "alerts": self.fleet.alerts[:20],
                }
            ]

        return await self.socket(request, first, lambda msg: self._command(msg, bucket if controls else None))

    def _command(self, msg: Any, controls: Bucket | None) -> dict[str, Any]:
        """Check a page's message (a board's command, a rename, a retirement) and carry it
        out; what to tell the page. ``controls``: the page's bucket, None without the token."""
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
            return {"type": "error", "error": str(exc), "board": board if isinstance(board, str) else None}

    def _send(self, board: str, obj: dict[str, Any]) -> dict[str, Any]:
        text = json.dumps(obj["command"])
        parse(text)
        if not self.fleet.tables[board].online:
            raise CommandError(f"{board} is offline: nothing was sent")
        self.publish(topics.command_topic(board), text, False)
        return {"type": "sent", "board": board}

    def _rename(self, board: str, obj: dict[str, Any]) -> dict[str, Any]:
        name = obj["name"]
        if name is not None and (
            not isinstance(name, str) or len(name.strip()) > MAX_NAME or any(ord(c) < 32 for c in name)
        ):
            raise CommandError(f"a table's name is text of at most {MAX_NAME} characters")
        self.fleet.rename(board, (name or "").strip() or None)
        return {"type": "renamed", "board": board}

    def _retire(self, board: str, _: dict[str, Any]) -> dict[str, Any]:
        """Forget an offline table: its retained topics and Home Assistant device cleared."""
        if self.fleet.tables[board].online:
            raise CommandError(
                f"{board} is online: switch the board off (or give it another "
                "id) first, or it announces itself again"
            )
        self.fleet.retire(board)  # first: the clearing below, heard back, finds no table to draw
        for kind in RETAINED:
            self.publish(topics.topic(board, kind), "", True)
        for topic, payload in removal_messages(board):
            self.publish(topic, payload, True)
        self.fan_out({"type": "retired", "board": board})
        return {"type": "sent", "board": board}


#: The fields of each message a page may send.
_FIELDS = {
    "command": {"type", "board", "command"},
    "rename": {"type", "board", "name"},
    "retire": {"type", "board"},
}


def _board(request: web.Request) -> str:
    board = board_id(request.match_info["board"])
    if board is None:
        raise web.HTTPNotFound(text="no such table\n")
    return board
