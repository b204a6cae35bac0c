"""The dashboard's league pages (docs/league.md): ``/league`` for the café's wall (the round's
tables, live results and standings, in large type) and ``/league/desk`` for the arbiter
(create an event, add and register players, pair, enter or correct results, withdraw), with
their JSON under ``/api/league``.

The desk's actions are POSTs of JSON (so another site's page cannot send them) and, beyond
loopback, need the dashboard's token, as its commands do. A board's finished league game (its
record names the event, round and table) gives its table its result as soon as the dashboard
archives it; the store's calls run off the event loop and the broker's thread.
"""

from __future__ import annotations

import asyncio
import json
import queue
import secrets
from typing import Any, Callable

from aiohttp import web

from engines import GAME_NAMES
from firmware_host.i18n import _, ngettext, speaking
from firmware_host.league.model import Event, LeagueError, table_command
from firmware_host.league.standings import as_csv
from firmware_host.league.store import LeagueStore
from firmware_host.net.cafe.fleet import Fleet
from firmware_host.net.mqtt import topics
from hardware.supervise import Supervised

#: Publishes on the broker: (topic, payload, retained).
Publish = Callable[[str, str, bool], None]


class LeagueDesk:
    """The league on ``store``, its rounds' tables on ``tables`` (board ids, table 1 first);
    ``publish`` sends the boards their ``table`` commands."""

    def __init__(self, store: LeagueStore, tables: tuple[str, ...], fleet: Fleet, publish: Publish) -> None:
        self.store, self.tables, self.fleet, self.publish = store, tables, fleet, publish
        #: Does a request carry the dashboard's token (or need none)? Set by :meth:`routes`.
        self.authorised: Callable[[web.Request], bool] = lambda _: False
        self._games: queue.Queue[dict[str, Any]] = queue.Queue(maxsize=1000)
        self._worker = Supervised("league", self._record)
        self._worker.start()

    def game_over(self, board: str, game: dict[str, Any]) -> None:
        """A board's finished game (the broker's thread): recorded in turn if it is a league
        table's."""
        if game.get("league"):
            try:
                self._games.put_nowait(game)
            except queue.Full:
                pass  # the archive has it: the next read of the league collects it

    def check(self) -> str | None:
        return self._worker.check()

    def _record(self) -> None:
        while True:
            game = self._games.get()
            try:
                self.store.record_game(game)
            except Exception as exc:  # noqa: BLE001 - the database away: collected later from the archive
                print(f"reedboard cafe: league: a result was not recorded ({exc})", flush=True)

    # ------------------------------------------------------------------ the pages
    def routes(self, router: web.UrlDispatcher, file: Callable[[str], Any], authorised: Callable) -> None:
        self.authorised = authorised
        router.add_get("/league", file("league.html"))
        router.add_get("/league/desk", file("league-desk.html"))
        router.add_get("/api/league", self.view)
        router.add_get("/league/standings.csv", self.csv)
        router.add_get("/league/players/{name}", file("league-player.html"))
        router.add_get("/api/league/players/{name}", self.player)
        router.add_post("/api/league/{action}", self.act)

    async def view(self, request: web.Request) -> web.Response:
        try:
            return web.json_response(await self._call(self.overview, request.query.get("event")))
        except LeagueError as exc:  # the database away, or no such event
            raise web.HTTPServiceUnavailable(text=f"{exc}\n") from None

    async def player(self, request: web.Request) -> web.Response:
        """A player's games and rating history."""
        try:
            return web.json_response(await self._call(self.store.history, request.match_info["name"]))
        except LeagueError as exc:
            raise web.HTTPNotFound(text=f"{exc}\n") from None

    async def csv(self, request: web.Request) -> web.Response:
        """The standings as CSV (a download)."""

        def standings() -> tuple[Event, str]:
            event = self.store.event(request.query.get("event"))
            self.store.collect(event.name)
            return event, as_csv(self.store.standings(event.name), event.tiebreaks)

        try:
            event, text = await self._call(standings)
        except LeagueError as exc:
            raise web.HTTPServiceUnavailable(text=f"{exc}\n") from None
        name = "".join(c if c.isalnum() else "-" for c in event.name)
        return web.Response(
            text=text,
            content_type="text/csv",
            headers={"Content-Disposition": f'attachment; filename="{name}-standings.csv"'},
        )

    def overview(self, event_name: str | None = None) -> dict[str, Any]:
        """The event, its current round's tables (with each board's state line) and standings,
        the players and the events."""
        players, events = self.store.players(), self.store.events()
        if not events:
            return {
                "event": None,
                "events": [],
                "players": players,
                "boards": self._boards(),
                "games": GAME_NAMES,
            }
        event = self.store.event(event_name)
        self.store.collect(event.name)
        round_no = self.store.current_round(event.name)
        views = {v["id"]: v for v in self.fleet.views()}
        tables = []
        for p in self.store.pairings(event.name, round_no):
            view = views.get(p.board or "", {})
            state = view.get("state", {})
            here = state.get("league") == {"event": event.name, "round": round_no, "table": p.table}
            tables.append(
                {
                    "table": p.table,
                    "board": p.board,
                    "names": list(p.names),
                    "points": p.points,
                    "forfeit": p.forfeit,
                    "bye": p.bye,
                    # the board's state line only while it plays this table (not another game)
                    "playing": here,
                    "status": state.get("status") if here else None,
                    "online": view.get("online", False),
                }
            )
        return {
            "now": self.fleet.clock.shown_now(),
            "event": {**event.__dict__, "tiebreaks": list(event.tiebreaks)},
            "round": round_no,
            "tables": tables,
            "standings": self.store.standings(event.name),
            "entries": self.store.entries(event.name),
            "events": events,
            "players": players,
            "boards": self._boards(),
            "games": GAME_NAMES,
        }

    def _boards(self) -> list[str]:
        """The boards the rounds are played on: ``[league] tables``, else every board the
        dashboard sees, by id."""
        return list(self.tables) or sorted(v["id"] for v in self.fleet.views())

    async def act(self, request: web.Request) -> web.Response:
        if not self.authorised(request):
            raise web.HTTPForbidden(text="the league's desk needs the token printed by reedboard cafe\n")
        if request.content_type != "application/json":
            raise web.HTTPUnsupportedMediaType(text="send JSON\n")
        try:
            body = await request.json()
        except ValueError:
            raise web.HTTPBadRequest(text="send a JSON object\n") from None
        action = request.match_info["action"]
        if not isinstance(body, dict) or action not in _ACTIONS:
            raise web.HTTPBadRequest(text=f"no action {action[:30]!r}\n")
        with speaking(_reader_language(request)):
            try:
                said = await self._call(lambda: _ACTIONS[action](self, body))
            except (LeagueError, KeyError, TypeError, ValueError) as exc:
                return web.json_response({"ok": False, "error": _said(exc)}, status=400)
        return web.json_response({"ok": True, "said": said})

    async def _call(self, job: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(job, *args)

    def pair(self, body: dict[str, Any]) -> str:
        """Pair the next round (or this one again) and send each board its table."""
        if not self.fleet.broker_up:
            raise LeagueError(_("the broker is unreachable: nothing was paired"))
        event = self.store.event(body.get("event"))
        tables = self.store.pair(event.name, self._boards(), again=bool(body.get("again")))
        tag = secrets.token_hex(3)
        online = {v["id"] for v in self.fleet.views() if v["online"]}
        away = []
        for p in tables:
            if p.board and p.points is None:  # not a forfeit of a withdrawn player
                self.publish(topics.command_topic(p.board), json.dumps(table_command(event, p, tag)), False)
                away += [p.board] if p.board not in online else []
        said = ngettext("round {n} paired: {count} table", "round {n} paired: {count} tables", len(tables))
        said = said.format(n=tables[0].round, count=len(tables))
        if away:
            said += " " + _("({boards} offline: tell those players their table)").format(
                boards=", ".join(away)
            )
        return said


def _new(desk: LeagueDesk, body: dict[str, Any]) -> str:
    size = body.get("size")
    event = Event(
        str(body["name"]),
        str(body["game"]),
        int(size) if size not in (None, "") else None,
        body.get("variant") or None,
        body.get("control") or None,
        body.get("format") or "swiss",
        int(body.get("rounds") or 3),
    )
    desk.store.new_event(event)
    return _("{event} created").format(event=event.name)


def _player(desk: LeagueDesk, body: dict[str, Any]) -> str:
    desk.store.add_player(str(body["name"]), body.get("tag") or None)
    return _("{name} added").format(name=body["name"])


def _register(desk: LeagueDesk, body: dict[str, Any]) -> str:
    names = body["names"]
    if not isinstance(names, list):
        raise LeagueError(_("names: a list of players"))
    desk.store.register(body.get("event"), [str(n) for n in names])
    return ngettext("{n} registered", "{n} registered", len(names)).format(n=len(names))


def _withdraw(desk: LeagueDesk, body: dict[str, Any]) -> str:
    desk.store.withdraw(body.get("event"), str(body["name"]))
    return _("{name} withdrawn").format(name=body["name"])


def _bye(desk: LeagueDesk, body: dict[str, Any]) -> str:
    round_no = desk.store.bye(body.get("event"), str(body["name"]), float(body.get("points", 0.5)))
    return _("{name}: a bye in round {n}").format(name=body["name"], n=round_no)


def _result(desk: LeagueDesk, body: dict[str, Any]) -> str:
    p = desk.store.set_result(body.get("event"), int(body["table"]), str(body["result"]), body.get("round"))
    return _("table {table}: {result}").format(table=p.table, result=body["result"])


_ACTIONS: dict[str, Callable[[LeagueDesk, dict[str, Any]], str]] = {
    "new": _new,
    "player": _player,
    "register": _register,
    "withdraw": _withdraw,
    "bye": _bye,
    "result": _result,
    "pair": LeagueDesk.pair,
}


def _reader_language(request: web.Request) -> str:
    """The language the desk's page reads in (its ``Accept-Language``: the reader's choice)."""
    return request.headers.get("Accept-Language", "").split(",")[0].split(";")[0].strip()[:2].lower()


def _said(exc: Exception) -> str:
    """One line for the desk: a missing field named."""
    return (
        _("missing {field}").format(field=exc)
        if isinstance(exc, KeyError)
        else " ".join(str(exc).split())[:200]
    )
