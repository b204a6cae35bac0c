"""The café's tables as the broker tells them: each board's retained state and availability,
the games it finished today, and the pieces on it (the moves replayed through the game's engine,
so a board sends only its moves, never its geometry).

:class:`Fleet` is fed from the MQTT client's thread (:meth:`Fleet.receive`) and hands every
changed table, as a JSON-ready dict, to its listener. Everything a board publishes is checked
as untrusted input first (:mod:`firmware_host.net.mqtt.untrusted`): a message that fails is
dropped whole (:class:`Bad`, which the link says in the journal) and the table keeps what it had.
Replaying a board's moves is bounded by the board: a game of at most ``MAX_MOVES`` moves, and
:data:`REPLAY_RATE` moves replayed a second for each board; a board that sends more has its
newest state wait (said once) and shown when its budget allows, so no board delays another's
tile.

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
>>> fleet.receive("reedboard/t1/state", b'{"game": "antipalos", "size": 5, "variant": "two", '
...               b'"moves": [], "pieces": ["B2*", "C3*"], "sync": "out_of_sync"}')
>>> seen[-1]["pieces"], seen[-1]["figures"], "pieces" in seen[-1]["state"]
(['B2*', 'C3*'], [], False)
>>> fleet.receive("reedboard/t1/state", b'{"game": "antipalos", "size": 5, "moves": ["Q9*"]}')
>>> seen[-1]["pieces"], seen[-1]["problem"][:23]
([], 'cannot show this game (')
>>> fleet.receive("reedboard/t1/state", b'{"game": "antipalos", "moves": 5}')
Traceback (most recent call last):
...
firmware_host.net.mqtt.untrusted.Bad: moves: expected a list (got 5)
"""

from __future__ import annotations

import math
import re
import sys
import threading
import time
from typing import Any, Callable

from engines import GAME_NAMES, new_game
from engines.core import GameState, IllegalMove, OptionError
from firmware_host.actions.limits import Bucket
from firmware_host.i18n import N_
from firmware_host.net.cafe.archive import LEAGUE, PLAYERS, read_record
from firmware_host.net.cafe.clock import Clock, zone
from firmware_host.net.mqtt import topics
from firmware_host.net.mqtt.peer import MAX_MOVES
from firmware_host.net.mqtt.untrusted import (
    Bad,
    board_id,
    ident,
    items,
    mapping,
    number,
    one_of,
    optional,
    read,
    record,
    text,
    whole,
)
from firmware_host.net.web.drawn import drawn, figures
from firmware_host.store.config import MAX_BOARD_ID

#: Finished games kept per table for the day's list.
DAY_GAMES = 50
#: Alerts kept for the page (the latest first).
ALERTS = 100
#: Seconds after the dashboard's broker connection comes back during which a table reported
#: offline since shortly before the broker went, or not yet heard online again, is taken to be
#: reconnecting (a broker that goes down sends every board's last will; the boards come back
#: within their 30 s backoff).
GRACE = 40.0
#: The moves the dashboard replays for one board: a second's worth, and at once (a long game's
#: state after a restart).
REPLAY_RATE, REPLAY_BURST = 1000.0, float(MAX_MOVES)
#: Seconds an offline report waits before it is believed: a broker going down sends the boards'
#: last wills just before the dashboard notices that it lost the broker itself.
WINDOW = 3.0
#: The OLED's page number ("p1/3") at the end of a line of a long screen's page.
_PAGE_MARK = re.compile(r"\s*\bp\d+/\d+$")

_WORD, _LINE = text(80), text(200)
#: The most lines a board's screen may have (a menu lists every item: 13 and more).
SCREEN_LINES = 64
#: The most games, sizes and variants a board's state may list as playable (every game in every
#: size and variant its engine takes is 112).
PLAYABLE = 300
_SITES = items(text(40), 2000)
#: A board's state as the dashboard reads it: anything else is left out, anything wrong drops it.
STATE = record(
    {
        "game": text(40),
        "title": optional(_WORD),
        "size": optional(whole(0, 1000)),
        "variant": optional(text(40)),
        "sides": optional(items(text(20), 8)),
        "ply": optional(whole(0, 1_000_000)),
        "to_move": optional(text(20)),
        "moves": optional(items(text(40), MAX_MOVES)),
        "winner": optional(text(20)),
        "result": optional(_LINE),
        "status": optional(_LINE),
        "screen": optional(items(_LINE, SCREEN_LINES)),
        "sync": optional(one_of("in_sync", "out_of_sync")),
        "missing": optional(_SITES),
        "extra": optional(_SITES),
        "pieces": optional(_SITES),
        "brightness": optional(number(0, 1)),
        "clock": optional(
            record(
                {
                    "control": text(40),
                    "left": mapping(text(20), whole(0, 10**10), 8),
                    "running": optional(text(20)),
                    "flag": optional(text(20)),
                    "paused": optional(one_of(True, False)),
                },
                required=("control", "left"),
            )
        ),
        "board": optional(text(MAX_BOARD_ID)),
        "hardware": optional(_WORD),
        "opponent": optional(_WORD),
        "last_move_at": optional(text(32, r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")),
        "last_result": optional(_LINE),
        "games": optional(items(text(40), 20)),
        "choice": optional(_WORD),
        "players": optional(PLAYERS),
        "league": optional(LEAGUE),
        "ready": optional(_LINE),
        "today": optional(
            record(
                {
                    "played": whole(0, 100_000),
                    "results": mapping(text(20), whole(0, 100_000), 24),
                    "running": whole(0, 100_000),
                    "last": optional(_LINE),
                }
            )
        ),
    },
    required=("game",),
)
#: Every game, size and variant a board plays (retained on ``reedboard/<id>/games``).
GAMES = record(
    {
        "playable": items(
            record(
                {
                    "game": text(40),
                    "size": optional(whole(0, 1000)),
                    "variant": optional(text(40)),
                    "title": _WORD,
                },
                required=("game", "title"),
            ),
            PLAYABLE,
        )
    },
    required=("playable",),
)
#: A board's answer to a command.
REPLY = record({"id": ident, "ok": one_of(True, False), "error": optional(text(300))}, required=("ok",))


class Table:
    """One board: what it last said, and its game replayed."""

    def __init__(self, board: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.board = board
        #: The moves its states may have replayed (:data:`REPLAY_RATE`), and its newest state
        #: still waiting for them (None: none).
        self.budget = Bucket(REPLAY_RATE, REPLAY_BURST, clock)
        self.waiting: dict[str, Any] | None = None
        self.online = False
        #: When an offline report not yet believed came (monotonic s; None: none is waiting).
        self.offline_at: float | None = None
        self.state: dict[str, Any] = {}
        self.games: list[dict[str, Any]] = []
        #: Every game, size and variant its board plays, titled (its ``games`` topic).
        self.playable: list[dict[str, Any]] = []
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
        key, moves = _game_of(self.state)
        try:
            before, position = self._play(key, moves)
        except (OptionError, IllegalMove, ValueError, KeyError, TypeError) as exc:
            self.problem = f"cannot show this game ({' '.join(str(exc).split())[:120]})"
            self.layout, self.pieces, self.changed, self._game = None, frozenset(), frozenset(), None
            self.figures = []
            return None
        self.problem = None
        pieces = position.occupied()
        if before is not None:  # a move was played: its sites are the last change
            self.changed = before.occupied() ^ pieces
        self.layout, self.pieces = key, pieces
        self.figures = figures(position)
        self._game = (key, moves, position)
        return position

    def cost(self, state: dict[str, Any]) -> int:
        """The moves showing ``state`` replays: the new ones, or all when the game is another."""
        key, moves = _game_of(state)
        return len(moves) - (len(self._game[1]) if self._game and self._goes_on(key, moves) else 0)

    def _goes_on(self, key: str, moves: tuple[str, ...]) -> bool:
        """Whether ``moves`` of the game ``key`` go on from the last ones replayed."""
        return (
            self._game is not None and self._game[0] == key and moves[: len(self._game[1])] == self._game[1]
        )

    def _play(self, key: str, moves: tuple[str, ...]) -> tuple[GameState | None, GameState]:
        """(the position before the last new move or None, the position after ``moves``)."""
        if self._game and self._goes_on(key, moves):
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
        return not self.online and self.offline_at is not None

    def view(self, listing: bool = True) -> dict[str, Any]:
        """The table for the page; ``lines``: the OLED's lines besides its title and main line
        (:func:`tile_lines`); ``pieces``: what the board's sensors see while it differs from the
        game (the last game's pieces at a new one, as its own page shows them), else the game's
        pieces; ``listing``: with the games it plays (``state.playable``, a few
        kilobytes that change only with its ``games`` topic): left out, the page keeps the
        list it had."""
        state = {k: v for k, v in self.state.items() if k not in ("moves", "pieces")}
        seen = self.state.get("pieces")  # the board's own reading, while it differs from the game
        if listing:
            state["playable"] = self.playable
        return {
            "id": self.board,
            "name": self.name or self.board,
            "online": self.online or self.reconnecting,
            "reconnecting": self.reconnecting,
            "state": state,
            "lines": tile_lines(state.get("screen") or [], state.get("status")),
            "layout": self.layout,
            "pieces": sorted(self.pieces) if seen is None else seen,
            "changed": sorted(self.changed),
            "figures": self.figures,
            "problem": self.problem,
            "games": self.games[:10],
        }


class Fleet:
    """Every table seen on the broker; ``archive`` (None: none) keeps their finished games and
    names; ``clock``: the café's (default: the system's zone); ``timer``: monotonic seconds."""

    def __init__(
        self, archive: Any = None, clock: Clock | None = None, timer: Callable[[], float] = time.monotonic
    ) -> None:
        self.tables: dict[str, Table] = {}
        self.lock = threading.Lock()
        self.archive = archive
        self.clock = clock or Clock(zone(None))
        self.timer = timer
        #: Called with a table's view whenever it changes (from the MQTT client's thread).
        self.listener: Callable[[dict[str, Any]], None] = lambda _: None
        #: Called with (board, reply) for a board's answer to a command.
        self.on_reply: Callable[[str, dict[str, Any]], None] = lambda *_: None
        #: Called with each new alert (a table out of sync, offline, finished a game).
        self.on_alert: Callable[[dict[str, Any]], None] = lambda _: None
        #: Called with (board, game) for each finished game's checked record (the league's).
        self.on_record: Callable[[str, dict[str, Any]], None] = lambda *_: None
        #: Layout key -> the board to draw, its sites and drawing (only games some table plays).
        self.layouts: dict[str, dict[str, Any]] = {}
        self.alerts: list[dict[str, Any]] = []
        #: Whether the dashboard is connected to the broker, when it last lost it and since
        #: when it is back (monotonic s; its first connection is no return).
        self.broker_up, self.broker_lost, self.broker_since = False, -math.inf, -math.inf
        self._connected_before = False
        self._day = self.clock.today()
        if archive is not None:
            archive.on_read = self.recall

    # ------------------------------------------------------------------ the link's thread
    def receive(self, topic: str, payload: bytes) -> None:
        """A message on ``reedboard/<id>/<kind>``; Bad (and nothing changes) when it is not
        what a board sends."""
        board, kind = board_id(topics.board_of(topic)), topic.rsplit("/", 1)[-1]
        if board is None:
            raise Bad(
                f"not a board's topic (a board id is a-z, 0-9, '-', '_', at most {MAX_BOARD_ID} characters)"
            )
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
        elif kind == "games":
            data = read(payload, GAMES)["playable"] if payload else None
        else:
            return
        if not payload and board not in self.tables:
            return  # a retired table's retained topics being cleared
        with self.lock:
            table = self._table(board)
            if kind == "state" and data is not None and not self._affords(table, data):
                return
            alerts = self._apply(table, kind, data)
            view = table.view(listing=kind == "games")
        self.listener(view)
        for alert in alerts:
            self._alert(alert)

    def _affords(self, table: Table, state: dict[str, Any]) -> bool:
        """Whether ``table``'s budget pays for replaying ``state`` now; else it waits (the
        newest waiting replaces an older one) for :meth:`tick`, said once."""
        if table.waiting is None and table.budget.take(table.cost(state)):
            return True
        if table.waiting is None:
            print(
                f"reedboard cafe: {table.board} sends more moves than the dashboard replays "
                f"({REPLAY_RATE:g} a second): its newest state is shown when they are replayed",
                file=sys.stderr,
            )
        table.waiting = state
        return False

    def _table(self, board: str) -> Table:
        table = self.tables.get(board)
        if table is None:
            table = self.tables[board] = Table(board, self.timer)
            self._from_archive(table)
        return table

    def _from_archive(self, table: Table) -> None:
        """The table's name and today's games as the archive has them (in its memory)."""
        if self.archive is not None:
            table.name = self.archive.names().get(table.board)
            table.games = [
                self._timed(g) for g in self.archive.day(table.board, self.clock.midnight())[:DAY_GAMES]
            ]

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
            if online:
                table.offline_at = None
            elif table.online:  # believed later (:meth:`_believed`), or not at all
                table.offline_at = self.timer()
            table.online = online
            alerts += self._gone(table)
        elif kind == "games":
            table.playable = data or []
        elif data is None:  # a retired table's state cleared
            table.state = {}
            table.replay()
        else:
            before = table.state
            if data.get("result") and not before.get("result") and before:
                alerts.append(self._alert_for(table, "finished", data["result"]))
            if data.get("sync") == "out_of_sync" and before.get("sync") != "out_of_sync":
                alerts.append(self._alert_for(table, "sync", N_("out of sync")))
            table.state = data
            position = table.replay()
            if position is not None and table.layout is not None and table.layout not in self.layouts:
                self.layouts[table.layout] = drawn(position)
        return alerts

    def _gone(self, table: Table) -> list[dict[str, Any]]:
        """The alert for a table whose offline report is now believed (it is then offline)."""
        if table.offline_at is None or not self._believed(table.offline_at, self.timer()):
            return []
        table.offline_at = None
        return [self._alert_for(table, "offline", N_("went offline"))]

    def _believed(self, at: float, now: float) -> bool:
        """Whether an offline report that came at ``at`` is believed ``now``: not while the
        dashboard is cut off from the broker, nor for :data:`WINDOW` after it came (the broker
        may be going down), nor, when it came within :data:`WINDOW` before the dashboard lost
        the broker or since, until :data:`GRACE` after the dashboard is back."""
        if not self.broker_up or now < at + WINDOW:
            return False
        return not (at >= self.broker_lost - WINDOW and now < self.broker_since + GRACE)

    def _record(self, board: str, payload: bytes) -> None:
        """A finished game's record: checked (its moves replayed), archived, listed today."""
        if not payload:
            return
        game = read_record(payload)
        if self.archive is not None:
            self.archive.add(board, game)
        self.on_record(board, game)
        with self.lock:
            table = self._table(board)
            entry = self._day_entry(game)
            if game["finished"] and game["finished"] >= self.clock.midnight() and entry not in table.games:
                table.games = [entry] + [g for g in table.games if g["key"] != entry["key"]]
                del table.games[DAY_GAMES:]
            view = table.view()
        self.listener(view)

    def _alert(self, alert: dict[str, Any]) -> None:
        with self.lock:
            self.alerts.insert(0, alert)
            del self.alerts[ALERTS:]
        self.on_alert(alert)

    def _new_day(self) -> list[Table]:
        """At the café's midnight the day's lists start empty: the tables that had games."""
        today = self.clock.today()
        if today == self._day:
            return []
        self._day = today
        emptied = [table for table in self.tables.values() if table.games]
        for table in emptied:
            table.games = []
        return emptied

    def broker(self, connected: bool) -> None:
        """The dashboard's own link to the broker went up or down. Back, every table is
        reconnecting until it says it is online (its retained availability, or the board's
        return): a board gone meanwhile may have left no word on a restarted broker."""
        views = []
        with self.lock:
            if self.broker_up and not connected:
                self.broker_lost = self.timer()
            self.broker_up = connected
            if connected and self._connected_before:
                self.broker_since = self.timer()
                for table in self.tables.values():
                    if table.online:
                        table.online, table.offline_at = False, self.broker_since
                        views.append(table.view())
            self._connected_before |= connected
        for view in views:
            self.listener(view)

    def tick(self) -> None:
        """Called about once a second: a table whose offline report is now believed is offline
        (and alerted); a state that waited for its board's replay budget is shown when the
        budget allows; at the café's midnight the day's lists are emptied."""
        changed = []
        with self.lock:
            emptied = self._new_day()
            for table in self.tables.values():
                alerts = self._gone(table)
                waiting = table.waiting
                shown = waiting is not None and table.budget.take(table.cost(waiting))
                if shown:
                    table.waiting = None
                    alerts += self._apply(table, "state", waiting)
                if alerts or shown or table in emptied:
                    changed.append((table.view(listing=False), alerts))
        for view, alerts in changed:
            self.listener(view)
            for alert in alerts:
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

    def _alert_for(self, table: Table, kind: str, what: str) -> dict[str, Any]:
        """An alert: ``at`` in UTC, ``time`` as the café reads it."""
        at = topics.utc_now()
        return {
            "board": table.board,
            "name": table.name or table.board,
            "kind": kind,
            "what": what,
            "at": at,
            "time": self.clock.shown(at),
        }

    def _day_entry(self, game: dict[str, Any]) -> dict[str, Any]:
        """A finished game's record as the tile's day list shows it."""
        return self._timed(
            {
                "key": game["key"],
                "game": game["title"],
                "result": game["result"],
                "winner": game["winner"],
                "moves": len(game["moves"]),
                "at": game["finished"],
            }
        )

    def _timed(self, entry: dict[str, Any]) -> dict[str, Any]:
        """A day list's entry with its ``time`` as the café reads it."""
        return {**entry, "time": self.clock.shown(entry["at"])} if entry["at"] else entry


def _game_of(state: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    """A board's state's game as a layout key ("antipalos/5/two") and its moves."""
    return f"{state.get('game')}/{state.get('size')}/{state.get('variant')}", tuple(state.get("moves") or ())


def tile_lines(screen: list[str], status: str | None) -> list[str]:
    """The OLED's lines a tile shows beside its turn: without the title (a long screen's pages
    may leave it out), the clocks (the tile shows them itself), the main line (``status``) and
    the pages' numbers ("p1/3").

    >>> tile_lines(["Phalanx p1/3", "Green to move", "Board differs", "Green 15 pcs"], "Green to move")
    ['Board differs', 'Green 15 pcs']
    >>> tile_lines(["White to move", "Remove the 2 lit pieces", "Phase 2", "p1/5"], "White to move")
    ['Remove the 2 lit pieces', 'Phase 2']
    >>> tile_lines(["Antipalos 5", ">4:58 5:00", "White to move", "Phase 1"], "White to move")
    ['Phase 1']
    """
    lines = [kept for line in screen if (kept := _PAGE_MARK.sub("", line))]
    if status in lines[:3]:  # after the title and the clocks
        return lines[lines.index(status) + 1 :]
    return lines[1:]
