"""The café's tables as the broker tells them: each board's retained state and availability,
the games it finished today, and the pieces on it (the moves replayed through the game's engine,
so a board sends only its moves, never its geometry).

:class:`Fleet` is fed from the MQTT client's thread (:meth:`Fleet.receive`) and hands every
changed table, as a JSON-ready dict, to its listener. Everything a board publishes is checked
as untrusted input first (:mod:`firmware_host.net.mqtt.untrusted`): a message that fails is
dropped whole (:class:`Bad`, which the link says in the journal) and the table keeps what it had.

>>> fleet = Fleet()
>>> seen = []
>>> fleet.listener = seen.append
>>> fleet.receive("reedboard/t1/availability", b"online")
>>> fleet.receive("reedboard/t1/state", b'{"game": "antipalos", "size": 5, "variant": "two", '
...               b'"moves": ["B2*"], "ply": 1, "to_move": "black", "sync": "in_sync"}')
>>> table = seen[-1]
>>> table["id"], table["online"], table["pieces"], table["changed"], table["layout"]
('t1', True, ['B2*'], ['B2*'], 'antipalos/5/two')
>>> table["figures"]
[{'side': 'white', 'sites': ['B2*'], 'kind': 'trirod'}]
>>> fleet.receive("reedboard/t1/state", b'{"game": "antipalos", "size": 5, "moves": ["Q9*"]}')
>>> seen[-1]["pieces"], seen[-1]["problem"][:23]
([], 'cannot show this game (')
>>> fleet.receive("reedboard/t1/state", b'{"game": "antipalos", "moves": 5}')
Traceback (most recent call last):
...
firmware_host.net.mqtt.untrusted.Bad: moves: expected a list (got 5)
"""

from __future__ import annotations

import threading
import time
from datetime import datetime, timezone
from typing import Any, Callable

from engines import GAME_NAMES, new_game
from engines.core import GameState, IllegalMove, OptionError
from firmware_host.net.mqtt import topics
from firmware_host.net.mqtt.untrusted import (
    Bad, board_id, ident, items, mapping, number, one_of, optional, read, record, text, whole,
)
from firmware_host.net.cafe.archive import read_record
from firmware_host.net.web.drawn import drawn, figures

#: Finished games kept per table for the day's list.
DAY_GAMES = 50
#: Alerts kept for the page (the latest first).
ALERTS = 100
#: Seconds after the dashboard's broker connection comes back during which a table that was
#: online and is now reported offline is taken to be reconnecting (a broker that went down sends
#: every board's last will; the boards come back within their 30 s backoff).
GRACE = 40.0

_WORD, _LINE = text(80), text(200)
_SITES = items(text(40), 2000)
#: A board's state as the dashboard reads it: anything else is left out, anything wrong drops it.
STATE = record({
    "game": text(40), "title": optional(_WORD), "size": optional(whole(0, 1000)),
    "variant": optional(text(40)), "sides": optional(items(text(20), 8)),
    "ply": optional(whole(0, 1_000_000)), "to_move": optional(text(20)),
    "moves": optional(items(text(40), 20_000)), "winner": optional(text(20)),
    "result": optional(_LINE), "status": optional(_LINE), "screen": optional(items(_LINE, 12)),
    "sync": optional(one_of("in_sync", "out_of_sync")), "missing": optional(_SITES),
    "extra": optional(_SITES), "brightness": optional(number(0, 1)),
    "board": optional(text(64)), "hardware": optional(_WORD), "opponent": optional(_WORD),
    "last_move_at": optional(text(32, r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")),
    "last_result": optional(_LINE), "games": optional(items(text(40), 20)),
    "today": optional(record({"played": whole(0, 100_000),
                              "results": mapping(text(20), whole(0, 100_000), 8),
                              "running": whole(0, 100_000), "last": optional(_LINE)})),
}, required=("game",))
#: A board's answer to a command.
REPLY = record({"id": ident, "ok": one_of(True, False), "error": optional(text(300))},
               required=("ok",))


class Table:
    """One board: what it last said, and its game replayed."""

    def __init__(self, board: str) -> None:
        self.board = board
        self.online = False
        #: Until when an offline report is taken for a board reconnecting (monotonic s).
        self.reconnecting_until = 0.0
        self.state: dict[str, Any] = {}
        self.games: list[dict[str, Any]] = []
        self.layout: str | None = None
        self.pieces: frozenset[str] = frozenset()
        #: The pieces as the game has them (``net/web/drawn.py``), for the miniature.
        self.figures: list[dict[str, Any]] = []
        self.changed: frozenset[str] = frozenset()
        self.problem: str | None = None
        #: The name the café gives the table (None: its board id).
        self.name: str | None = None
        self._game: tuple[str, tuple[str, ...], GameState] | None = None

    def replay(self) -> GameState | None:
        """Bring the pieces up to the state's moves: only the new ones are played when the
        moves go on from the last ones seen (a takeback or another game starts again).
        The game's position, or None when it cannot be shown."""
        state = self.state
        key = f"{state.get('game')}/{state.get('size')}/{state.get('variant')}"
        moves = tuple(state.get("moves") or ())
        try:
            before, position = self._play(key, moves)
        except (OptionError, IllegalMove, ValueError, KeyError, TypeError) as exc:
            self.problem = f"cannot show this game ({' '.join(str(exc).split())[:120]})"
            self.layout, self.pieces, self.changed, self._game = None, frozenset(), frozenset(), None
            self.figures = []
            return None
        self.problem = None
        if before is not None:  # a move was played: its sites are the last change
            self.changed = before.occupied() ^ position.occupied()
        self.layout, self.pieces = key, position.occupied()
        self.figures = figures(position)
        self._game = (key, moves, position)
        return position

    def _play(self, key: str, moves: tuple[str, ...]) -> tuple[GameState | None, GameState]:
        """(the position before the last new move or None, the position after ``moves``)."""
        if self._game and self._game[0] == key and moves[: len(self._game[1])] == self._game[1]:
            done, position = len(self._game[1]), self._game[2]
        else:
            name = self.state.get("game")
            if name not in GAME_NAMES:
                raise ValueError(f"unknown game {str(name)[:40]!r}")
            done, position = 0, new_game(name, self.state.get("size"), self.state.get("variant"))
            self.changed = frozenset()
        before = None
        for move in moves[done:]:
            before, position = position, position.play(move)
        return before, position

    @property
    def reconnecting(self) -> bool:
        return not self.online and time.monotonic() < self.reconnecting_until

    def view(self) -> dict[str, Any]:
        """The table for the page."""
        state = {k: v for k, v in self.state.items() if k != "moves"}
        return {"id": self.board, "name": self.name or self.board,
                "online": self.online or self.reconnecting, "reconnecting": self.reconnecting,
                "state": state, "layout": self.layout, "pieces": sorted(self.pieces),
                "changed": sorted(self.changed), "figures": self.figures,
                "problem": self.problem, "games": self.games[-10:]}


class Fleet:
    """Every table seen on the broker; ``archive`` (None: none) keeps their finished games and
    names."""

    def __init__(self, archive: Any = None) -> None:
        self.tables: dict[str, Table] = {}
        self.lock = threading.Lock()
        self.archive = archive
        #: Called with a table's view whenever it changes (from the MQTT client's thread).
        self.listener: Callable[[dict[str, Any]], None] = lambda _: None
        #: Called with (board, reply) for a board's answer to a command.
        self.on_reply: Callable[[str, dict[str, Any]], None] = lambda *_: None
        #: Called with each new alert (a table out of sync, offline, finished a game).
        self.on_alert: Callable[[dict[str, Any]], None] = lambda _: None
        #: Layout key -> the board to draw, its sites and drawing (only games some table plays).
        self.layouts: dict[str, dict[str, Any]] = {}
        self.alerts: list[dict[str, Any]] = []
        #: Whether the dashboard is connected to the broker, and since when it is back after
        #: an outage (monotonic s; its first connection is no return).
        self.broker_up, self.broker_since = False, -GRACE
        self._connected_before = False
        self._day = _today()
        if archive is not None:
            archive.on_read = self.recall

    # ------------------------------------------------------------------ the link's thread
    def receive(self, topic: str, payload: bytes) -> None:
        """A message on ``reedboard/<id>/<kind>``; Bad (and nothing changes) when it is not
        what a board sends."""
        board, kind = board_id(topics.board_of(topic)), topic.rsplit("/", 1)[-1]
        if board is None:
            raise Bad("not a board's topic (a board id is a-z, 0-9, '-', '_')")
        if kind == "reply":
            return self.on_reply(board, read(payload, REPLY))
        if kind == "record":
            return self._record(board, payload)
        if kind == "availability":
            if payload not in (topics.ONLINE.encode(), topics.OFFLINE.encode(), b""):
                raise Bad("availability is online or offline")
            data: Any = payload.decode()
        elif kind == "state":
            data = read(payload, STATE) if payload else None
        else:
            return
        if not payload and board not in self.tables:
            return  # a retired table's retained topics being cleared
        with self.lock:
            table = self._table(board)
            alerts = self._apply(table, kind, data)
            view = table.view()
        self.listener(view)
        for alert in alerts:
            self._alert(alert)

    def _table(self, board: str) -> Table:
        table = self.tables.get(board)
        if table is None:
            table = self.tables[board] = Table(board)
            self._from_archive(table)
        return table

    def _from_archive(self, table: Table) -> None:
        """The table's name and today's games as the archive has them (in its memory)."""
        if self.archive is not None:
            table.name = self.archive.names().get(table.board)
            table.games = self.archive.day(table.board, _midnight())[-DAY_GAMES:]

    def recall(self) -> None:
        """The archive read its database late (away when the dashboard started): each table
        takes its name and today's games from it again."""
        with self.lock:
            for table in self.tables.values():
                self._from_archive(table)
            views = [table.view() for table in self.tables.values()]
        for view in views:
            self.listener(view)

    def _apply(self, table: Table, kind: str, data: Any) -> list[dict[str, Any]]:
        """Take the message in; the alerts it raises."""
        alerts = []
        if kind == "availability":
            online = data == topics.ONLINE
            if not online and table.online and self._just_back():
                table.reconnecting_until = self.broker_since + GRACE
            elif not online and table.online:
                alerts.append(_alert(table, "offline", "went offline"))
            table.online = online
        elif data is None:  # a retired table's state cleared
            table.state = {}
            table.replay()
        else:
            before = table.state
            if data.get("result") and not before.get("result") and before:
                alerts.append(_alert(table, "finished", data["result"]))
            if data.get("sync") == "out_of_sync" and before.get("sync") != "out_of_sync":
                alerts.append(_alert(table, "sync", "out of sync"))
            table.state = data
            position = table.replay()
            if position is not None and table.layout is not None and table.layout not in self.layouts:
                self.layouts[table.layout] = drawn(position)
        return alerts

    def _just_back(self) -> bool:
        return self.broker_up and time.monotonic() - self.broker_since < GRACE

    def _record(self, board: str, payload: bytes) -> None:
        """A finished game's record: checked (its moves replayed), archived, listed today."""
        if not payload:
            return
        game = read_record(payload)
        if self.archive is not None:
            self.archive.add(board, game)
        with self.lock:
            table = self._table(board)
            self._new_day()
            entry = _day_entry(game)
            if game["finished"] and game["finished"] >= _midnight() and entry not in table.games:
                table.games = [g for g in table.games if g["key"] != entry["key"]] + [entry]
                del table.games[:-DAY_GAMES]
            view = table.view()
        self.listener(view)

    def _alert(self, alert: dict[str, Any]) -> None:
        with self.lock:
            self.alerts.insert(0, alert)
            del self.alerts[ALERTS:]
        self.on_alert(alert)

    def _new_day(self) -> None:
        """At midnight (UTC) the day's lists start empty."""
        if _today() != self._day:
            self._day = _today()
            for table in self.tables.values():
                table.games.clear()

    def broker(self, connected: bool) -> None:
        """The dashboard's own link to the broker went up or down."""
        with self.lock:
            self.broker_up = connected
            if connected and self._connected_before:
                self.broker_since = time.monotonic()
            self._connected_before |= connected

    def tick(self) -> None:
        """Called about once a second: a table whose reconnecting time ran out is offline."""
        ended = []
        with self.lock:
            for table in self.tables.values():
                if table.reconnecting_until and not table.reconnecting:
                    table.reconnecting_until = 0.0
                    if not table.online:
                        ended.append((table.view(), _alert(table, "offline", "went offline")))
        for view, alert in ended:
            self.listener(view)
            self._alert(alert)

    # ------------------------------------------------------------------ the page's side
    def views(self) -> list[dict[str, Any]]:
        with self.lock:
            return [table.view() for table in self.tables.values()]

    def layout(self, key: str) -> dict[str, Any] | None:
        """The board of a layout some table uses ("antipalos/5/two"), for drawing; else None."""
        with self.lock:
            return self.layouts.get(key)

    def rename(self, board: str, name: str | None) -> dict[str, Any] | None:
        """Give table ``board`` a name (None: its id again); its view, None if unknown."""
        with self.lock:
            table = self.tables.get(board)
            if table is None:
                return None
            table.name = name
            view = table.view()
        if self.archive is not None:
            self.archive.set_name(board, name)
        self.listener(view)
        return view

    def retire(self, board: str) -> bool:
        """Forget table ``board`` (its games stay archived); False if unknown."""
        with self.lock:
            if self.tables.pop(board, None) is None:
                return False
        if self.archive is not None:
            self.archive.set_name(board, None)
        return True


def _alert(table: Table, kind: str, what: str) -> dict[str, Any]:
    return {"board": table.board, "name": table.name or table.board, "kind": kind, "what": what,
            "at": topics.utc_now()}


def _day_entry(game: dict[str, Any]) -> dict[str, Any]:
    """A finished game as the tile's day list shows it."""
    return {"key": game["key"], "game": game["title"], "result": game["result"], "winner": game["winner"],
            "moves": len(game["moves"]), "at": game["finished"]}


def _today() -> str:
    return datetime.now(timezone.utc).date().isoformat()


def _midnight() -> str:
    """Today's start (UTC) as stored times are written."""
    return f"{_today()}T00:00:00Z"
