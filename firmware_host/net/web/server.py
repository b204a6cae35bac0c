"""The board's page (simulated board or real hardware): its routes, websockets and commands.

Routes: ``/`` the board with its controls, ``/watch`` the read-only spectator view (the same
page), ``/static/...`` its script and style, ``/shared/...`` the board-drawing module, ``/ws``
the controls' websocket, ``/ws/watch`` the spectator's, ``/replay.jsonl`` the session as a replay
input file, ``/games.json`` the stored games, ``/games/N.json`` one to replay move by move,
``/games/N.txt`` and ``/games.txt`` their records as ``reedboard export`` writes them,
``/guide/GAME`` the player's guide (docs/play/) and ``/setup`` how to start the set-up wizard.

Safe by default: it binds 127.0.0.1. Bound elsewhere, the controls (``/ws``, ``/replay.jsonl``)
need the token (``?token=...``); the spectator view never does and never accepts commands.
A websocket from another site's page (an ``Origin`` not this server's) is refused, and so is
every request whose ``Host`` is not a loopback name or address nor the address the server was
told to use (DNS rebinding: a page at ``http://evil.test:8080`` whose name is made to resolve to
127.0.0.1 sends ``Host: evil.test:8080``); bound to every interface (0.0.0.0, ::), an IP address
and this machine's own name are accepted too.

The frame (the Host and Origin checks, the token, the headers, the files, the websockets' fan-out,
the server's supervised thread) is :mod:`firmware_host.net.web.base`, shared with the café dashboard.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from firmware_host.actions.commands import NewGame
from firmware_host.actions.limits import BURST, NEW_GAME_SECONDS, RATE, Bucket
from firmware_host.actions.reading import CommandError
from firmware_host.board.playable import Playable
from firmware_host.net.web import games as stored
from firmware_host.net.web import guides
from firmware_host.net.web.address import qr_svg
from firmware_host.net.web.base import WebApp
from firmware_host.net.web.bridge import Hub, watched
from firmware_host.net.web.commands import Drag, SetNoise, SetUp, SiteChange, parse


class Pages(WebApp):
    """The pages connected to one hub, and the handlers serving them."""

    name, farewell, backlog = "board", b"reedboard stopped", 256
    static = Path(__file__).with_name("static")

    def __init__(
        self,
        hub: Hub,
        token: str | None = None,
        host: str = "127.0.0.1",
        playable: Playable = Playable(),
        simulated: bool = True,
        address: str | None = None,
    ) -> None:
        super().__init__(token, host)
        self.hub = hub
        #: What the board can play: the picker offers only that, and a new game is checked.
        self.playable = playable
        #: False on real hardware: the simulator's piece controls are refused.
        self.simulated = simulated
        #: The page's address for phones (None: not known), shown with its QR code.
        self.address = address
        self._new_games = Bucket(1 / NEW_GAME_SECONDS, 1)

    def routes(self, router: web.UrlDispatcher) -> None:
        router.add_get("/", self.file("index.html"))
        router.add_get("/watch", self.file("index.html"))
        router.add_get("/ws", self.controls)
        router.add_get("/ws/watch", self.watch)
        router.add_get("/replay.jsonl", self.replay)
        router.add_get("/games.json", self.games_list)
        router.add_get("/games.txt", self.records)
        router.add_get(r"/games/{id:\d{1,9}}.json", self.game_replay)
        router.add_get(r"/games/{id:\d{1,9}}.txt", self.records)
        router.add_get("/setup", self.file("setup.html"))
        router.add_get(r"/guide/{game:[a-z-]{1,20}}", self.guide)
        router.add_get(r"/guide/img/{name:[a-z0-9-]{1,60}\.(png|svg)}", self.guide_image)

    def started(self) -> None:
        """Every update the loop publishes goes to every page."""
        self.hub.listen(lambda update: self.push({"type": "update", **update}))

    # ------------------------------------------------------------------ handlers
    async def replay(self, request: web.Request) -> web.Response:
        self._authorise(request)
        rec = self.hub.recording
        name = "-".join(
            str(v) for v in (rec.game.get("name", "game"), rec.game.get("size"), rec.game.get("variant")) if v
        )
        return web.Response(
            text=rec.text(),
            content_type="application/x-ndjson",
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
        return web.Response(
            text=text,
            content_type="text/plain",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def _stored(self, read, *args):
        """``read(*args)`` in a worker thread (the games file is read there, never in the
        server's loop or the daemon's); 404 with its words when there is no such game."""
        try:
            return await asyncio.get_running_loop().run_in_executor(None, read, *args)
        except stored.NotFound as exc:
            raise web.HTTPNotFound(text=f"{exc}\n") from None

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
        """A page's socket: the hello, the whole state, then every update. Its commands: RATE a
        second on average, BURST at once; a new game (which rebuilds the board) once every
        NEW_GAME_SECONDS, from all pages together (firmware_host.actions.limits)."""
        bucket = Bucket(RATE, BURST)

        def first() -> list[dict[str, Any]]:
            return [
                {
                    "type": "hello",
                    "controls": controls,
                    "games": self.playable.picker() if controls else [],
                    "choose_players": controls and self.playable.chooses_players,
                    "simulated": self.simulated,
                    **self._link(controls),
                },
                {"type": "update", **self.hub.current()},
            ]

        return await self.socket(
            request,
            first,
            lambda msg: self._answer(msg, controls, bucket),
            None if controls else self._watched,
        )

    def _watched(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """What a spectator's socket is sent of ``message``: of an update, only what /watch
        shows (``bridge.watched``); None when that is nothing."""
        if message.get("type") != "update":
            return message
        shown = watched(message, self.hub.lights())
        return {"type": "update", **shown} if shown else None

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

    def _authorise(self, request: web.Request) -> None:
        if not self.authorised(request):
            raise web.HTTPForbidden(text="the controls need the token printed by reedboard run\n")


def _error(text: str) -> dict[str, str]:
    return {"type": "error", "error": text}
