"""The café's game archive: every finished game of every table, kept as it arrives, with the
names the café gives its tables.

Each board publishes its finished game, retained, on ``reedboard/<id>/record`` (the fields
``reedboard export`` writes from); :func:`read_record` checks it as untrusted input and replays
its moves through the game's engine, and :class:`Archive` keeps it with its text record (as
``reedboard export`` writes it). By default the archive is SQLite in the dashboard's state
directory; ``[archive] url = "postgresql://..."`` keeps the same tables in PostgreSQL
(psycopg), for a chain of cafés whose brokers are bridged to one.

Writes go through a thread of the archive's own (a slow or restarting database never holds up
the broker's thread); a write that fails is said once and tried again.

>>> archive = Archive.open("sqlite://:memory:")
>>> game = read_record(b'{"id": 3, "game": "antipalos", "size": 3, "variant": "two", '
...     b'"started": "2026-11-23T20:01:00Z", "finished": "2026-11-23T20:09:00Z", '
...     b'"result": "white wins by connection", "winner": "white", '
...     b'"moves": ["A1*", "A3*", "B2*", "C1*", "C3*"]}')
>>> archive.store("t1", game)
>>> [g["result"] for g in archive.games("t1")]
['white wins by connection']
>>> print(archive.game("t1", game["key"])["text"].splitlines()[0])
[Game "antipalos"]
>>> read_record(b'{"id": 3, "game": "antipalos", "size": 3, "started": "2026-11-23T20:01:00Z", '
...     b'"finished": null, "moves": ["A1*", "A1*"]}')
Traceback (most recent call last):
...
firmware_host.net.mqtt.untrusted.Bad: move 2 'A1*' cannot be played (A1 already holds a Trirod)
"""

from __future__ import annotations

import json
import math
import os
import queue
import sqlite3
import sys
import threading
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Callable, Iterator

from engines import GAME_NAMES, new_game
from engines.core import DRAW, GameState, IllegalMove, OptionError
from firmware_host.board.game import Game
from firmware_host.net.mqtt.untrusted import Bad, items, optional, read, record, text, whole
from firmware_host.store.export import options_of, record_text
from firmware_host.store.storage import StoredGame

_TIME = text(32, r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
#: How far in the future (by the dashboard's clock) a record's times may be: boards' clocks differ.
SKEW_SECONDS = 600
_ID = whole(1, 2**53)
#: A finished game as a board publishes it (StoredGame's fields).
RECORD = record({
    "id": _ID, "game": text(40), "size": optional(whole(0, 1000)), "variant": optional(text(40)),
    "started": _TIME, "finished": optional(_TIME), "result": optional(text(200)),
    "winner": optional(text(20)), "match_of": optional(_ID), "match_target": optional(whole(0, 1000)),
    "first": optional(text(20)), "options": optional(text(400)), "opponent": optional(text(80)),
    "moves": items(text(40), 20_000),
}, required=("id", "game", "started", "moves"))

COLUMNS = ("board", "key", "game_id", "game", "size", "variant", "started", "finished", "result",
           "winner", "first", "options", "opponent", "match_of", "match_target", "plies", "moves",
           "text", "received")
#: What a list of games shows (not the moves or the text).
SUMMARY = "key, game, size, variant, started, finished, result, winner, opponent, plies"


def read_record(payload: bytes, now: float | None = None) -> dict[str, Any]:
    """A board's finished game, checked: its fields, its times (real dates, none after ``now``,
    the clock's time, by more than SKEW_SECONDS), its sides (``first``, ``winner``: the game's),
    and its moves replayed through the engine (with the house rules it was played with). Bad
    otherwise. Adds ``key`` (the game's
    id and start, unique per board), ``title`` and ``text`` (as ``reedboard export`` writes it)."""
    game = read(payload, RECORD)
    if game["game"] not in GAME_NAMES:
        raise Bad(f"unknown game {game['game']!r}")
    _check_times(game, time.time() if now is None else now)
    rec = StoredGame(**game)
    sides = replay(rec)[0].sides
    for key, allowed in (("first", sides), ("winner", (*sides, DRAW))):
        if game[key] is not None and game[key] not in allowed:
            raise Bad(f"{key}: {game[key]!r} is no side of this game ({', '.join(sides)})")
    try:
        game["text"] = record_text(rec)
        game["title"] = Game(game["game"], game["size"]).title
    except (OptionError, TypeError, ValueError) as exc:
        raise Bad(f"cannot write its record ({exc})") from None
    game["key"] = f"{game['id']}-{game['started'].replace('-', '').replace(':', '')}"
    return game


def _check_times(game: dict[str, Any], now: float) -> None:
    """``started`` and ``finished`` are real times in that order, neither in the future by
    more than SKEW_SECONDS (a game dated 9999 would head every list); Bad otherwise."""
    times = {}
    for key in ("started", "finished"):
        if game[key] is not None:
            try:
                when = datetime.strptime(game[key], "%Y-%m-%dT%H:%M:%SZ")
            except ValueError:
                raise Bad(f"{key}: {game[key]!r} is no date and time") from None
            times[key] = when.replace(tzinfo=timezone.utc).timestamp()
            if times[key] > now + SKEW_SECONDS:
                raise Bad(f"{key}: {game[key]!r} is in the future")
    if times.get("finished", math.inf) < times["started"]:
        raise Bad("finished: before the game started")


def replay(rec: StoredGame) -> list[GameState]:
    """Every position of a stored game, the start first; Bad for a move that cannot be played."""
    try:
        state = new_game(rec.game, rec.size, rec.variant, options_of(rec))
    except (OptionError, ImportError, TypeError, ValueError) as exc:
        raise Bad(f"cannot set up {rec.game} ({' '.join(str(exc).split())[:100]})") from None
    states = [state]
    for n, move in enumerate(rec.moves, 1):
        try:
            states.append(states[-1].play(move))
        except (IllegalMove, ValueError) as exc:
            raise Bad(f"move {n} {move[:20]!r} cannot be played ({exc})") from None
    return states


class ArchiveError(Exception):
    """The archive's database cannot be read; ``str()`` is one line."""


class Archive:
    """The archive on one database connection (SQLite or psycopg), used under a lock."""

    def __init__(self, connect: Callable[[], Any], dialect: str, where: str,
                 errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)) -> None:
        self.connect, self.dialect, self.where, self.errors = connect, dialect, where, errors
        self._lock = threading.Lock()
        self._db: Any = None
        self._queue: queue.Queue = queue.Queue(10_000)
        self._said = ""
        self._writer = threading.Thread(target=self._write_all, daemon=True, name="archive")
        self._writer.start()

    @classmethod
    def open(cls, url: str | None, state_dir: str | None = None) -> "Archive":
        """The archive at ``url`` (``postgresql://...``, ``sqlite:///path``), default SQLite
        ``cafe.db`` in ``state_dir``; ArchiveError when it cannot be opened."""
        if url and url.startswith(("postgresql://", "postgres://")):
            return cls._postgres(url)
        if url and not url.startswith("sqlite://"):
            raise ArchiveError(f"[archive] url must be postgresql://... or sqlite:///path (got {url[:40]!r})")
        path = url[len("sqlite://"):] if url else os.path.join(state_dir or ".", "cafe.db")
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)

        def connect() -> sqlite3.Connection:
            db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=5)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            return db

        archive = cls(connect, "sqlite", path)
        archive._ready()
        return archive

    @classmethod
    def _postgres(cls, url: str) -> "Archive":
        try:
            import psycopg
        except ImportError:
            raise ArchiveError("[archive] url names PostgreSQL: install psycopg "
                               "(pip install 'psycopg[binary]' or apt install python3-psycopg)") from None
        def connect():
            db = psycopg.connect(url, autocommit=True, connect_timeout=5)
            # As SQLite's synchronous=NORMAL: a crash of the server's machine may lose the last
            # instants' games (each board keeps its own), never the database's consistency.
            db.execute("SET synchronous_commit TO off")
            return db

        archive = cls(connect, "postgresql", url.split("@")[-1], (psycopg.Error, OSError))
        archive._ready()
        return archive

    def _ready(self) -> None:
        try:
            with self._cursor() as db:
                for statement in _schema(self.dialect):
                    db.execute(statement)
        except ArchiveError as exc:
            raise ArchiveError(f"cannot open the archive: {exc}") from None

    # ------------------------------------------------------------------ database access
    @contextmanager
    def _cursor(self) -> Iterator[Any]:
        """A cursor on the connection (made again after a failure), under the lock;
        ArchiveError for anything the database says."""
        with self._lock:
            try:
                if self._db is None:
                    self._db = self.connect()
                yield self._db.cursor()
            except self.errors as exc:
                self._drop_connection()
                raise ArchiveError(_one_line(exc)) from None

    def _drop_connection(self) -> None:
        try:
            self._db.close()
        except Exception:  # noqa: BLE001 - a broken connection may not close cleanly either
            pass
        self._db = None

    def _sql(self, statement: str) -> str:
        return statement.replace("?", "%s") if self.dialect == "postgresql" else statement

    def _rows(self, statement: str, args: tuple = ()) -> list[dict[str, Any]]:
        with self._cursor() as db:
            db.execute(self._sql(statement), args)
            names = [d[0] for d in db.description]
            return [dict(zip(names, row)) for row in db.fetchall()]

    # ------------------------------------------------------------------ writing
    def add(self, board: str, game: dict[str, Any]) -> None:
        """Keep ``game`` (from :func:`read_record`) soon, in the writer thread."""
        try:
            self._queue.put_nowait((self.store, (board, game)))
        except queue.Full:
            self._say("the archive's queue is full: a game was not kept")

    def set_name(self, board: str, name: str | None) -> None:
        """Call table ``board`` ``name`` (None: by its id again)."""
        self._queue.put((self._store_name, (board, name)))

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until everything added so far is written (tests, the bench)."""
        done = threading.Event()
        self._queue.put((lambda: done.set(), ()))
        return done.wait(timeout)

    def store(self, board: str, game: dict[str, Any]) -> None:
        """Write ``game`` now (replacing the same game sent again, or taken back and finished
        anew); ArchiveError when the database fails."""
        values = {**game, "board": board, "game_id": game["id"], "moves": json.dumps(game["moves"]),
                  "plies": len(game["moves"]),
                  "received": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        columns = ", ".join(COLUMNS)
        updates = ", ".join(f"{c} = excluded.{c}" for c in COLUMNS if c not in ("board", "key"))
        with self._cursor() as db:
            db.execute(self._sql(
                f"INSERT INTO games ({columns}) VALUES ({', '.join('?' * len(COLUMNS))}) "
                f"ON CONFLICT (board, key) DO UPDATE SET {updates}"),
                tuple(values.get(c) for c in COLUMNS))

    def _store_name(self, board: str, name: str | None) -> None:
        with self._cursor() as db:
            db.execute(self._sql("DELETE FROM tables WHERE board = ?"), (board,))
            if name:
                db.execute(self._sql("INSERT INTO tables (board, name) VALUES (?, ?)"), (board, name))

    def _write_all(self) -> None:
        while True:
            job, args = self._queue.get()
            while True:
                try:
                    job(*args)
                    break
                except ArchiveError as exc:
                    self._say(f"cannot write the archive ({self.where}): {exc}; trying again")
                    time.sleep(2.0)

    def _say(self, text: str) -> None:
        if text != self._said:
            self._said = text
            print(f"reedboard cafe: {text}", file=sys.stderr)

    # ------------------------------------------------------------------ reading
    def games(self, board: str, limit: int = 200, offset: int = 0) -> list[dict[str, Any]]:
        """Table ``board``'s games, the latest finished first."""
        return self._rows(f"SELECT {SUMMARY} FROM games WHERE board = ? "
                          "ORDER BY finished DESC, game_id DESC LIMIT ? OFFSET ?",
                          (board, limit, offset))

    def day(self, board: str, since: str) -> list[dict[str, Any]]:
        """Table ``board``'s games finished at or after ``since``, the latest first (the day's)."""
        rows = self._rows(f"SELECT {SUMMARY} FROM games WHERE board = ? AND finished >= ? "
                          "ORDER BY finished DESC, game_id DESC", (board, since))
        return [{"key": r["key"], "game": Game(r["game"], r["size"]).title, "result": r["result"],
                 "winner": r["winner"], "moves": r["plies"], "at": r["finished"]} for r in rows]

    def game(self, board: str, key: str) -> dict[str, Any] | None:
        """One game with its moves and text record, None if the archive has none."""
        rows = self._rows("SELECT * FROM games WHERE board = ? AND key = ?", (board, key))
        if not rows:
            return None
        row = rows[0]
        row["moves"] = json.loads(row["moves"])
        return row

    def boards(self) -> list[str]:
        return [r["board"] for r in self._rows("SELECT DISTINCT board FROM games ORDER BY board")]

    def names(self) -> dict[str, str]:
        try:
            return {r["board"]: r["name"] for r in self._rows("SELECT board, name FROM tables")}
        except ArchiveError:
            return {}


def positions(game: dict[str, Any]) -> Iterator[GameState]:
    """The positions of an archived game, the start first."""
    fields: dict[str, Any] = {k: game.get(k) for k in ("game", "size", "variant", "started",
                                                       "finished", "result", "winner", "first",
                                                       "options")}
    yield from replay(StoredGame(id=game["game_id"], **fields, moves=tuple(game["moves"])))


def _schema(dialect: str) -> list[str]:
    """The tables, in ``dialect`` (SQLite and PostgreSQL differ only in their number types)."""
    n, big = ("BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "BIGINT") if (
        dialect == "postgresql") else ("INTEGER PRIMARY KEY", "INTEGER")
    return [
        f"CREATE TABLE IF NOT EXISTS games (n {n}, board TEXT NOT NULL, key TEXT NOT NULL, "
        f"game_id {big} NOT NULL, game TEXT NOT NULL, size INTEGER, variant TEXT, "
        "started TEXT NOT NULL, finished TEXT, result TEXT, winner TEXT, first TEXT, "
        f"options TEXT, opponent TEXT, match_of {big}, match_target INTEGER, plies INTEGER NOT NULL, "
        "moves TEXT NOT NULL, text TEXT NOT NULL, received TEXT NOT NULL, UNIQUE (board, key))",
        "CREATE INDEX IF NOT EXISTS games_finished ON games (board, finished)",
        "CREATE TABLE IF NOT EXISTS tables (board TEXT PRIMARY KEY, name TEXT NOT NULL)",
    ]


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__
