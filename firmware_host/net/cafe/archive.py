"""The café's game archive: every finished game of every table, kept as it arrives, with the
names the café gives its tables.

Each board publishes its finished game, retained, on ``reedboard/<id>/record`` (the fields
``reedboard export`` writes from); :func:`read_record` checks it as untrusted input and replays
its moves through the game's engine, and :class:`Archive` keeps it with its text record (as
``reedboard export`` writes it). By default the archive is SQLite in the dashboard's state
directory; ``[archive] url = "postgresql://..."`` keeps the same tables in PostgreSQL
(psycopg), for a chain of cafés whose brokers are bridged to one.

Only the archive's own thread (its worker) talks to the database, and a call that takes more
than :data:`CALL_LIMIT` is cut off: finished games and names wait in memory, in order, while the
database is away (said once, tried again with a backoff) and are written when it is back; the
names and today's games are answered from memory, so neither the broker's thread nor the page
ever waits for the database. A page of the archive waits :data:`READ_WAIT` at most.

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
import socket
import sqlite3
import sys
import threading
import time
from collections import OrderedDict, deque
from datetime import datetime, timezone
from typing import Any, Callable, Iterator

from engines import GAME_NAMES, new_game
from engines.core import DRAW, GameState, IllegalMove, OptionError
from firmware_host.actions.commands import NAME_MAX, SEATS_MAX, names_problem
from firmware_host.board.game import Game
from firmware_host.net.mqtt.untrusted import Bad, items, mapping, number, optional, read, record, text, whole
from firmware_host.store.export import options_of, record_text
from firmware_host.store.players import players_text
from firmware_host.store.storage import StoredGame
from firmware_host.store.timecontrol import pgn_clock
from hardware.supervise import Supervised

_TIME = text(32, r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
#: How far in the future (by the dashboard's clock) a record's times may be: boards' clocks differ.
SKEW_SECONDS = 600
_ID = whole(1, 2**53)
#: Who sits at a board's seats, a name per seat.
PLAYERS = items(text(NAME_MAX), SEATS_MAX)
#: The league round a game is played for.
LEAGUE = record(
    {"event": text(80), "round": whole(1, 999), "table": whole(1, 999)},
    required=("event", "round", "table"),
)
#: A finished game as a board publishes it (StoredGame's fields).
RECORD = record(
    {
        "id": _ID,
        "game": text(40),
        "size": optional(whole(0, 1000)),
        "variant": optional(text(40)),
        "started": _TIME,
        "finished": optional(_TIME),
        "result": optional(text(200)),
        "winner": optional(text(20)),
        "match_of": optional(_ID),
        "match_target": optional(whole(0, 1000)),
        "first": optional(text(20)),
        "options": optional(text(400)),
        "opponent": optional(text(80)),
        "players": optional(PLAYERS),
        "league": optional(LEAGUE),
        "moves": items(text(40), 20_000),
        "clocks": optional(items(text(600), 20_000)),
    },
    required=("id", "game", "started", "moves"),
)
#: A record's fields that are a StoredGame's.
_STORED = set(StoredGame._fields)
#: The clocks as a board kept them after a move (``Clocks.readings``).
READING = record(
    {
        "control": text(40),
        "delay": optional(text(40)),
        "left": mapping(text(20), number(-1e13, 1e13), 8),
        "moves": mapping(text(20), whole(0, 10**6), 8),
        "mover": optional(text(20)),
        "used": optional(number(0, 1e13)),
    },
    required=("control", "left", "moves"),
)

COLUMNS = (
    "board",
    "key",
    "game_id",
    "game",
    "size",
    "variant",
    "started",
    "finished",
    "result",
    "winner",
    "first",
    "options",
    "opponent",
    "match_of",
    "match_target",
    "plies",
    "moves",
    "text",
    "received",
    "clocks",
    "players",
    "league_event",
    "league_round",
    "league_table",
)
#: Columns added since the first schema, made in an archive that lacks them (name, type).
ADDED = (
    ("clocks", "TEXT"),
    ("players", "TEXT"),
    ("league_event", "TEXT"),
    ("league_round", "INTEGER"),
    ("league_table", "INTEGER"),
)
#: What a list of games shows (not the moves or the text).
SUMMARY = (
    "key, game, size, variant, started, finished, result, winner, opponent, plies, "
    "players, league_event, league_round, league_table"
)


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
    if (why := names_problem(game["players"] or [])) is not None:
        raise Bad(f"players: {why}")
    game["clocks"] = tuple(game["clocks"] or ())
    league = game["league"]
    stored = {**game, "players": players_text(game["players"] or []), "league": league and json.dumps(league)}
    rec = StoredGame(**{k: v for k, v in stored.items() if k in _STORED})
    start = replay(rec)[0]
    sides = start.sides
    game["clk"] = _clock_readings(game["clocks"], start.players)
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


def _clock_readings(clocks: tuple[str, ...], players: tuple[str, ...]) -> list[str]:
    """Each move's clock reading as ``%clk`` writes it (the mover's time left, ``h:mm:ss``; ""
    where none was kept), checked: Bad for a reading that is not the clocks of these players
    (the sides, or a team's players).

    >>> _clock_readings(('{"control": "60", "left": {"a": 58400, "b": 60000}, "moves": {"a": 1, '
    ...     '"b": 0}, "mover": "a"}', ""), ("a", "b"))
    ['0:00:58', '']
    """
    shown = []
    for n, kept in enumerate(clocks, 1):
        if not kept:
            shown.append("")
            continue
        reading = read(kept.encode(), READING)
        mover = reading["mover"]
        if set(reading["left"]) != set(players) or mover is not None and mover not in players:
            raise Bad(f"clocks after move {n}: not the clocks of {', '.join(players)}")
        shown.append(pgn_clock(reading["left"][mover]) if mover else "")
    return shown


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
    """The archive cannot answer now; ``str()`` is one line."""


#: Seconds a reader (a page of the archive, a test) waits for the database before it is told
#: the archive is unavailable.
READ_WAIT = 2.0
#: Seconds a database call may take before it is cut off (the connection dropped, the call tried
#: again later); PostgreSQL's own statement timeout is the same.
CALL_LIMIT = 5.0
#: Seconds PostgreSQL's connection may take.
CONNECT_TIMEOUT = 3
#: Finished games and names waiting for the database, at most.
PENDING = 2000
#: Today's games kept in memory per table, at most.
DAY = 200
#: Seconds between attempts while the database is away: doubling from the first to the last.
BACKOFF = (1.0, 30.0)


class _Ask:
    """A read waiting for the worker."""

    def __init__(self, job: Callable[..., Any], args: tuple) -> None:
        self.job, self.args = job, args
        self.done = threading.Event()
        self.result: Any = None
        self.error: str | None = None
        self.abandoned = False


class Archive:
    """The archive on one database connection (SQLite or psycopg) that only its worker thread
    uses: writes wait in order in memory (the same game or name sent again replaces the waiting
    one) until the database takes them; the tables' names and the games finished since the
    dashboard's day began are kept in memory too, so the fleet never waits for the database."""

    def __init__(
        self,
        connect: Callable[[], Any],
        dialect: str,
        where: str,
        setup: tuple[str, ...] = (),
        cut: Callable[[Any], None] = lambda db: db.interrupt(),
        away: tuple[type[BaseException], ...] = (sqlite3.OperationalError, OSError),
    ) -> None:
        #: ``connect()`` makes a connection, ``setup`` the statements run on each one,
        #: ``cut(db)`` makes a call waiting on ``db`` fail (from another thread), ``away``: the
        #: exceptions that say the database is away (any other refuses that one write).
        self.connect, self.dialect, self.where, self.setup = connect, dialect, where, setup
        self.cut, self.away = cut, away
        self._cond = threading.Condition()
        self._writes: OrderedDict[tuple[str, str, str], tuple[Callable[..., None], tuple]] = OrderedDict()
        self._reads: deque[_Ask] = deque()
        #: The write the worker is making.
        self._writing: tuple[tuple[str, str, str], Any] | None = None
        #: Why the database is away (None: it answered last); reads fail at once meanwhile.
        self._why: str | None = "not opened yet"
        self._retry_at, self._backoff = 0.0, BACKOFF[0]
        self._full = False
        self._names: dict[str, str] = {}
        self._renamed: dict[str, str | None] = {}
        self._today: dict[str, dict[str, dict[str, Any]]] = {}
        self._loaded = False
        #: Called (from the worker) once the names and today's games are read.
        self.on_read: Callable[[], None] = lambda: None
        self._opened = threading.Event()
        self._db: Any = None
        self._db_lock = threading.Lock()
        #: (call number, monotonic start or None): what the watchdog looks at.
        self._call: tuple[int, float | None] = (0, None)
        self._cut_call = 0
        self._threads = (
            Supervised("archive", self._work, redo=self._redo),
            Supervised("archive-watchdog", self._watch),
        )
        for thread in self._threads:
            thread.start()

    @classmethod
    def open(cls, url: str | None, state_dir: str | None = None) -> "Archive":
        """The archive at ``url`` (``postgresql://...``, ``sqlite:///path``), default SQLite
        ``cafe.db`` in ``state_dir``; ArchiveError for an address it cannot use. A database
        that does not answer is said and tried again: the archive is used meanwhile."""
        if url and url.startswith(("postgresql://", "postgres://")):
            archive = cls._postgres(url)
        elif url and not url.startswith("sqlite://"):
            raise ArchiveError(f"[archive] url must be postgresql://... or sqlite:///path (got {url[:40]!r})")
        else:
            path = url[len("sqlite://") :] if url else os.path.join(state_dir or ".", "cafe.db")
            archive = cls._sqlite(path)
        archive._opened.wait(READ_WAIT)  # a database that answers at once is read before the fleet starts
        return archive

    @classmethod
    def _sqlite(cls, path: str) -> "Archive":
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)

        def connect() -> sqlite3.Connection:  # the busy timeout: how long a locked file is waited for
            return sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=READ_WAIT)

        return cls(connect, "sqlite", path, ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL"))

    @classmethod
    def _postgres(cls, url: str) -> "Archive":
        try:
            import psycopg
        except ImportError:
            raise ArchiveError(
                "[archive] url names PostgreSQL: install psycopg "
                "(pip install 'psycopg[binary]' or apt install python3-psycopg)"
            ) from None

        def connect() -> Any:
            return psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)

        # synchronous_commit off, as SQLite's synchronous=NORMAL: a crash of the server's
        # machine may lose the last instants' games (each board keeps its own), never the
        # database's consistency.
        setup = ("SET synchronous_commit TO off", f"SET statement_timeout TO {int(CALL_LIMIT * 1000)}")
        return cls(
            connect,
            "postgresql",
            url.split("@")[-1],
            setup,
            _shut_down,
            (psycopg.OperationalError, psycopg.InterfaceError, OSError),
        )

    # ------------------------------------------------------------------ anyone's thread
    def add(self, board: str, game: dict[str, Any]) -> None:
        """Keep ``game`` (from :func:`read_record`): listed today at once, written in turn."""
        row = {c: game.get(c) for c in SUMMARY.split(", ")}
        with self._cond:
            today = self._today.setdefault(board, {})
            today[game["key"]] = {**row, "game_id": game["id"], "plies": len(game["moves"])}
            if len(today) > DAY:
                del today[min(today, key=lambda k: _order(today[k]))]
        self._queue(
            ("game", board, game["key"]), self._store, (board, game), f"a game from {board} was not kept"
        )

    def set_name(self, board: str, name: str | None) -> None:
        """Call table ``board`` ``name`` (None: by its id again), written in turn."""
        with self._cond:
            if name:
                self._names[board] = name
            else:
                self._names.pop(board, None)
            if not self._loaded:
                self._renamed[board] = name
        self._queue(("name", board, ""), self._store_name, (board, name), f"{board}'s name was not kept")

    def store(self, board: str, game: dict[str, Any], timeout: float = READ_WAIT) -> None:
        """:meth:`add`, then wait until it is written; ArchiveError if it is not within
        ``timeout`` (it stays waiting)."""
        self.add(board, game)
        if not self.flush(timeout):
            raise ArchiveError(f"the archive is unavailable ({self._why or 'no answer yet'})")

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until everything added so far is written; False if it is not within
        ``timeout``."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._writes and self._writing is None, timeout)

    @property
    def waiting(self) -> int:
        """How many writes wait for the database."""
        with self._cond:
            return len(self._writes) + (self._writing is not None)

    def check(self) -> str | None:
        """Start the worker or the watchdog again if its thread died (said in the answer,
        once); None when both run."""
        said = [f"{thread.name}: {why}" for thread in self._threads if (why := thread.check())]
        return "; ".join(said) or None

    def names(self) -> dict[str, str]:
        """The tables' names, from memory."""
        with self._cond:
            return dict(self._names)

    def day(self, board: str, since: str) -> list[dict[str, Any]]:
        """Table ``board``'s games finished at or after ``since`` (within the dashboard's day),
        the latest first, from memory."""
        with self._cond:
            rows = sorted(
                (r for r in self._today.get(board, {}).values() if (r["finished"] or "") >= since),
                key=_order,
                reverse=True,
            )
        return [
            {
                "key": r["key"],
                "game": Game(r["game"], r["size"]).title,
                "result": r["result"],
                "winner": r["winner"],
                "moves": r["plies"],
                "at": r["finished"],
            }
            for r in rows
        ]

    def games(self, board: str, limit: int = 200, offset: int = 0) -> list[dict[str, Any]]:
        """Table ``board``'s games, the latest finished first; ArchiveError if the database
        does not answer within :data:`READ_WAIT`."""
        rows = self._ask(
            self._rows,
            f"SELECT {SUMMARY} FROM games WHERE board = ? "
            "ORDER BY finished DESC, game_id DESC LIMIT ? OFFSET ?",
            (board, limit, offset),
        )
        return [{**row, "players": json.loads(row["players"] or "[]")} for row in rows]

    def game(self, board: str, key: str) -> dict[str, Any] | None:
        """One game with its moves and text record, None if the archive has none;
        ArchiveError as :meth:`games`."""
        rows = self._ask(self._rows, "SELECT * FROM games WHERE board = ? AND key = ?", (board, key))
        return _decoded(rows[0]) if rows else None

    def league_game(self, event: str, round_: int, table: int) -> dict[str, Any] | None:
        """The game played at ``table`` in ``event``'s round ``round_`` (the last one finished,
        were it played again), with its board, players and result; None while there is none;
        ArchiveError as :meth:`games`."""
        rows = self._ask(
            self._rows,
            "SELECT * FROM games WHERE league_event = ? AND league_round = ? AND league_table = ? "
            "ORDER BY finished DESC, game_id DESC LIMIT 1",
            (event, round_, table),
        )
        return _decoded(rows[0]) if rows else None

    def boards(self) -> list[str]:
        """The tables that have games in the archive; ArchiveError as :meth:`games`."""
        return [r["board"] for r in self._ask(self._rows, "SELECT DISTINCT board FROM games ORDER BY board")]

    def _queue(self, key: tuple[str, str, str], job: Callable[..., None], args: tuple, lost: str) -> None:
        with self._cond:
            if key not in self._writes and len(self._writes) >= PENDING:
                said, self._full = self._full, True
            else:
                said = True
                self._writes[key] = (job, args)
                self._cond.notify_all()
        if not said:
            _say(
                f"the archive's queue is full ({PENDING} writes wait for {self.where}): {lost} "
                "(nor any other until the database is back; each board keeps its own games)"
            )

    def _ask(self, job: Callable[..., Any], *args: Any) -> Any:
        """``job(*args)`` in the worker; ArchiveError at once while the database is away, or
        after :data:`READ_WAIT` without an answer."""
        ask = _Ask(job, args)
        with self._cond:
            if self._why is not None:
                raise ArchiveError(f"the archive is unavailable ({self._why})")
            self._reads.append(ask)
            self._cond.notify_all()
        if not ask.done.wait(READ_WAIT):
            ask.abandoned = True
            raise ArchiveError(f"the archive is unavailable (no answer within {READ_WAIT:g} s)")
        if ask.error is not None:
            raise ArchiveError(ask.error)
        return ask.result

    # ------------------------------------------------------------------ the worker's thread
    def _work(self) -> None:
        while True:
            ask, write = self._next()
            opening = True
            try:
                self._timed(self._open)
                opening = False
                if ask is not None:
                    ask.result = self._timed(ask.job, *ask.args)
                elif write is not None:
                    self._timed(write[1][0], *write[1][1])
            except Exception as exc:  # noqa: BLE001 - the database away, or this one refused
                if opening or isinstance(exc, self.away):
                    cut = self._cut_call == self._call[0]
                    self._failed(f"no answer within {CALL_LIMIT:g} s" if cut else _one_line(exc), write)
                    if ask is not None:
                        ask.error = f"the archive is unavailable ({self._why})"
                else:  # a value the database refuses: said, never tried again
                    what = _what(*write[0]) if write else "a read"
                    _say(f"the archive ({self.where}) refused {what}: {_one_line(exc)}")
                    if ask is not None:
                        ask.error = f"the archive cannot read this ({_one_line(exc)})"
            else:
                self._answered()
            if ask is not None:
                ask.done.set()
            self._opened.set()
            with self._cond:
                self._writing = None
                self._cond.notify_all()

    def _next(self) -> tuple[_Ask | None, tuple[tuple[str, str, str], Any] | None]:
        """The next read (first), or write, or None, None to try the database again: waits
        until there is one and the backoff is over."""
        with self._cond:
            while True:
                while self._reads and self._reads[0].abandoned:
                    self._reads.popleft()
                wait = self._retry_at - time.monotonic()
                if wait <= 0 and (self._reads or self._writes or self._why is not None):
                    break
                self._cond.wait(wait if wait > 0 else None)
            if self._reads:
                return self._reads.popleft(), None
            if self._writes:
                self._writing = self._writes.popitem(last=False)
                return None, self._writing
            return None, None

    def _timed(self, job: Callable[..., Any], *args: Any) -> Any:
        """``job(*args)`` under the watchdog's eye."""
        self._call = (self._call[0] + 1, time.monotonic())
        try:
            return job(*args)
        finally:
            self._call = (self._call[0], None)

    def _watch(self) -> None:
        """Cut off a database call that takes longer than :data:`CALL_LIMIT` (a server that
        hangs, a network that drops packets): the call fails, the connection is made again."""
        while True:
            time.sleep(0.5)
            number, since = self._call
            if since is not None and time.monotonic() - since > CALL_LIMIT:
                with self._db_lock:
                    if self._db is not None and self._call[0] == number:
                        self._cut_call = number
                        try:
                            self.cut(self._db)
                        except Exception:  # noqa: BLE001 - a connection closing as it is cut
                            pass

    def _open(self) -> None:
        """Connect (again) and make the tables if they are missing; the first time, read the
        names and today's games."""
        if self._db is None:
            db = self.connect()
            with self._db_lock:
                self._db = db
            for statement in (*self.setup, *_schema(self.dialect)):
                self._execute(statement)
            self._add_columns()
        if self._loaded:
            return
        names = self._rows("SELECT board, name FROM tables")
        today = self._rows(
            f"SELECT board, {SUMMARY}, game_id FROM games WHERE finished >= ?",
            (f"{time.strftime('%Y-%m-%d', time.gmtime())}T00:00:00Z",),
        )
        with self._cond:
            self._names = {**{r["board"]: r["name"] for r in names}, **self._names}
            for board, name in self._renamed.items():
                if name is None:
                    self._names.pop(board, None)
            for row in today:
                self._today.setdefault(row.pop("board"), {}).setdefault(row["key"], row)
            self._loaded = True
            self._renamed.clear()
        self.on_read()

    def _failed(self, why: str, write: tuple[tuple[str, str, str], Any] | None) -> None:
        """The database is away: the write goes back first in line (unless sent again
        meanwhile), the connection is dropped, the next try after the backoff."""
        with self._db_lock:
            db, self._db = self._db, None
        if db is not None:
            try:
                db.close()
            except Exception:  # noqa: BLE001 - a broken connection may not close cleanly
                pass
        with self._cond:
            self._put_back(write)
            first = self._why is None or not self._opened.is_set()
            self._why = why
            self._retry_at = time.monotonic() + self._backoff
            self._backoff = min(self._backoff * 2, BACKOFF[1])
            self._cond.notify_all()
        if first:
            _say(
                f"the archive ({self.where}) is unavailable: {why}; finished games wait in "
                f"memory (at most {PENDING}) and are written when it is back (tried again "
                f"every {BACKOFF[0]:g} to {BACKOFF[1]:g} s)"
            )

    def _put_back(self, write: tuple[tuple[str, str, str], Any] | None) -> None:
        """A write not made goes back first in line, unless sent again meanwhile (under the
        condition's lock)."""
        if write is not None and write[0] not in self._writes:
            self._writes[write[0]] = write[1]
            self._writes.move_to_end(write[0], last=False)

    def _redo(self, _: str) -> None:
        """The worker's thread died (a fault of this code): the write it was making waits
        again."""
        with self._cond:
            self._put_back(self._writing)
            self._writing = None
            self._cond.notify_all()

    def _answered(self) -> None:
        with self._cond:
            back, self._why = self._why, None
            self._backoff, self._full = BACKOFF[0], False
            waiting = len(self._writes)
        if back is not None and back != "not opened yet":
            _say(f"the archive ({self.where}) is back: {waiting} more waiting writes are made now")

    def _add_columns(self) -> None:
        """Make the columns :data:`ADDED` names in an archive made before them."""
        have = {d[0] for d in self._execute("SELECT * FROM games WHERE 1 = 0").description}
        for name, kind in ADDED:
            if name not in have:
                self._execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")

    def _execute(self, statement: str, args: tuple = ()) -> Any:
        cursor = self._db.cursor()
        cursor.execute(statement.replace("?", "%s") if self.dialect == "postgresql" else statement, args)
        return cursor

    def _rows(self, statement: str, args: tuple = ()) -> list[dict[str, Any]]:
        cursor = self._execute(statement, args)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def _store(self, board: str, game: dict[str, Any]) -> None:
        """Write ``game``, replacing the same game sent again (or taken back and finished
        anew)."""
        league = game.get("league") or {}
        values = {
            **game,
            "players": json.dumps(game["players"]) if game.get("players") is not None else None,
            "league_event": league.get("event"),
            "league_round": league.get("round"),
            "league_table": league.get("table"),
            "board": board,
            "game_id": game["id"],
            "moves": json.dumps(game["moves"]),
            "clocks": json.dumps(game["clk"]) if any(game.get("clk") or ()) else None,
            "plies": len(game["moves"]),
            "received": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        columns = ", ".join(COLUMNS)
        updates = ", ".join(f"{c} = excluded.{c}" for c in COLUMNS if c not in ("board", "key"))
        self._execute(
            f"INSERT INTO games ({columns}) VALUES ({', '.join('?' * len(COLUMNS))}) "
            f"ON CONFLICT (board, key) DO UPDATE SET {updates}",
            tuple(values.get(c) for c in COLUMNS),
        )

    def _store_name(self, board: str, name: str | None) -> None:
        self._execute("DELETE FROM tables WHERE board = ?", (board,))
        if name:
            self._execute("INSERT INTO tables (board, name) VALUES (?, ?)", (board, name))


def positions(game: dict[str, Any]) -> Iterator[GameState]:
    """The positions of an archived game, the start first."""
    fields: dict[str, Any] = {
        k: game.get(k)
        for k in ("game", "size", "variant", "started", "finished", "result", "winner", "first", "options")
    }
    yield from replay(StoredGame(id=game["game_id"], **fields, moves=tuple(game["moves"])))


def _schema(dialect: str) -> list[str]:
    """The tables, in ``dialect`` (SQLite and PostgreSQL differ only in their number types)."""
    n, big = (
        ("BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "BIGINT")
        if (dialect == "postgresql")
        else ("INTEGER PRIMARY KEY", "INTEGER")
    )
    return [
        f"CREATE TABLE IF NOT EXISTS games (n {n}, board TEXT NOT NULL, key TEXT NOT NULL, "
        f"game_id {big} NOT NULL, game TEXT NOT NULL, size INTEGER, variant TEXT, "
        "started TEXT NOT NULL, finished TEXT, result TEXT, winner TEXT, first TEXT, "
        f"options TEXT, opponent TEXT, match_of {big}, match_target INTEGER, plies INTEGER NOT NULL, "
        "moves TEXT NOT NULL, text TEXT NOT NULL, received TEXT NOT NULL, clocks TEXT, UNIQUE (board, key))",
        "CREATE INDEX IF NOT EXISTS games_finished ON games (board, finished)",
        "CREATE TABLE IF NOT EXISTS tables (board TEXT PRIMARY KEY, name TEXT NOT NULL)",
    ]


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    """An archived game's row with its moves, players and clock readings as lists."""
    row["moves"] = json.loads(row["moves"])
    row["players"] = json.loads(row.get("players") or "[]")
    row["clocks"] = json.loads(row["clocks"]) if row.get("clocks") else []
    return row


def _order(row: dict[str, Any]) -> tuple[str, int]:
    return row["finished"] or "", row["game_id"]


def _what(kind: str, board: str, key: str) -> str:
    """A waiting write in words.

    >>> _what("game", "t1", "4-20261123T200100Z"), _what("name", "t1", "")
    ('the game 4-20261123T200100Z from t1', "t1's name")
    """
    return f"the game {key} from {board}" if kind == "game" else f"{board}'s name"


def _shut_down(db: Any) -> None:
    """Cut a psycopg connection off: its socket shut down under it, so that a call waiting on
    a server that does not answer fails at once."""
    with socket.socket(fileno=os.dup(db.fileno())) as sock:
        sock.shutdown(socket.SHUT_RDWR)


def _say(text: str) -> None:
    print(f"reedboard cafe: {text}", file=sys.stderr, flush=True)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__
