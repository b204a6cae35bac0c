"""Games and their moves in SQLite (WAL): every accepted move is committed before the daemon
acknowledges it, so a power cut loses nothing the players were shown.

>>> db = Storage(":memory:")
>>> game = db.start("antipalos", 12, "two")
>>> db.add_move(game, 1, "B4*"); db.add_move(game, 2, "*C3"); db.truncate(game, 1)
>>> record = db.unfinished()
>>> record.game, record.moves
('antipalos', ('B4*',))
>>> db.finish(game, "white wins by connection"); db.unfinished() is None
True

A match's games share ``match_of``, the id of its first game:

>>> first = db.start("antipalos", 3, "two", match_target=6)
>>> second = db.start("antipalos", 3, "two", match_of=first, match_target=6)
>>> [(g.id, g.match_of, g.match_target) for g in db.match_games(first)]
[(2, 2, 6), (3, 2, 6)]

A move is saved before it is acknowledged, so :meth:`Storage.add_move` raises
:class:`StorageError` when it cannot be. Every other write (a game begun, ended, a takeback)
that fails is kept in order and tried again (:meth:`Storage.flush`, and before any later
write), so the file always holds a prefix of what happened, and ``failure`` says why meanwhile.
A game's id is chosen here (the next one), so a new game can begin while its row waits.

A file that cannot be written at all (a card remounted read-only after errors, a folder that
is missing and cannot be made, a file nobody may write) does not stop the game: the games are
kept in memory (``in_memory``: a copy of what the file holds, when it can be read), every
write, moves included, is done there and kept in order, and :meth:`Storage.flush` writes them
all to the file once it can be written again; ``failure`` says why meanwhile ("the card is
read-only").
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections import deque
from contextlib import closing, suppress
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, NamedTuple

#: The schema as the steps that built it, in order: a database at version n (``PRAGMA
#: user_version``) has had the first n. A step once shipped is never changed; a new one is added
#: at the end (a database from before it gets it when next opened for writing).
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: games and their moves (the first release)
    (
        "CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, size INTEGER,"
        " variant TEXT, started TEXT NOT NULL, finished TEXT, result TEXT)",
        "CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
        " ply INTEGER NOT NULL, notation TEXT NOT NULL, time TEXT NOT NULL,"
        " PRIMARY KEY (game_id, ply))",
    ),
    # 2: who won
    ("ALTER TABLE games ADD COLUMN winner TEXT",),
    # 3: the match a game belongs to
    ("ALTER TABLE games ADD COLUMN match_of INTEGER", "ALTER TABLE games ADD COLUMN match_target INTEGER"),
    # 4: who began
    ("ALTER TABLE games ADD COLUMN first TEXT",),
    # 5: moves corrected in place
    (
        "CREATE TABLE corrections (game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
        " ply INTEGER NOT NULL, replaced TEXT NOT NULL, notation TEXT NOT NULL, time TEXT NOT NULL)",
    ),
    # 6: the house rules played with
    ("ALTER TABLE games ADD COLUMN options TEXT",),
    # 7: who played the other side
    ("ALTER TABLE games ADD COLUMN opponent TEXT",),
    # 8: takebacks and corrections as board-to-board play keeps them
    ("ALTER TABLE games ADD COLUMN history TEXT",),
    # 9: the clocks as they stood after each move (JSON: the control, each side's ms left, moves)
    (
        "CREATE TABLE clocks (game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
        " ply INTEGER NOT NULL, readings TEXT NOT NULL, PRIMARY KEY (game_id, ply))",
    ),
    # 10: who sat at the seats (JSON: a name per seat) and the league round played for (JSON)
    ("ALTER TABLE games ADD COLUMN players TEXT", "ALTER TABLE games ADD COLUMN league TEXT"),
)
#: The version this code writes and reads.
SCHEMA_VERSION = len(MIGRATIONS)
#: What each step up to 8 left behind (a table, or a table's column): how far a database from
#: before versions were kept (user_version 0) had got.
UNVERSIONED = (
    ("games", None),
    ("games", "winner"),
    ("games", "match_target"),
    ("games", "first"),
    ("corrections", None),
    ("games", "options"),
    ("games", "opponent"),
    ("games", "history"),
)


class StorageError(Exception):
    """The database cannot be opened or written; ``str()`` is one line; ``reason`` is SQLite's
    (or the OS's) own words, e.g. "database is locked"."""

    def __init__(self, message: str, reason: str = "", corrupt: bool = False) -> None:
        super().__init__(message)
        self.reason = reason or message
        #: The file is damaged (not a database, malformed), not merely locked or unwritable.
        self.corrupt = corrupt
        #: The file may not be written at all (read-only, no permission).
        self.read_only = False


class NewerSchema(StorageError):
    """The file was written by a newer reedboard, whose schema this one does not know: it is
    left as it is."""

    def __init__(self, path: str, version: int) -> None:
        super().__init__(
            f"{path} was written by a newer reedboard (games database version "
            f"{version}; this one knows up to {SCHEMA_VERSION}): update reedboard, "
            "or name another file (storage in the config)"
        )


#: How long a write waits for a lock another process holds, by default (the daemon shortens
#: it to a scan period or two, :meth:`Storage.set_busy_ms`).
BUSY_MS = 2000
#: Free space below which the games' file system counts as full (a move's commit takes a few
#: pages; the log grows to about 4 MB between checkpoints).
MIN_FREE_BYTES = 256 * 1024

Write = tuple[str, tuple]
#: Why the games cannot be saved when their file system is mounted read-only.
READ_ONLY = "the card is read-only"
#: SQLite's primary result codes for a file it cannot write at all: READONLY, CANTOPEN, PERM,
#: and IOERR (what a write gets once ext4 has remounted the card read-only after errors).
CANNOT_WRITE = (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_IOERR)


class GameId(int):
    """A game's id in a write: shifted if the games kept in memory must follow others the
    file got meanwhile (see :meth:`Storage.flush`)."""


class StoredGame(NamedTuple):
    """A stored game; ``moves`` in canonical notation, ply 1 first. ``match_of``: the id of
    the first game of the match it belongs to (None for a single game), ``match_target`` the
    points that match goes to; ``first`` the side that began (a match's loser begins the next
    game)."""

    id: int
    game: str
    size: int | None
    variant: str | None
    started: str
    finished: str | None
    result: str | None
    winner: str | None = None
    match_of: int | None = None
    match_target: int | None = None
    first: str | None = None
    #: The house rules it was played with, as records write them: "supply=4, trapped=no".
    options: str | None = None
    #: Who played the other side when not a player at the table: "computer black, level 3".
    opponent: str | None = None
    #: The game's takebacks and corrections and its token, as board-to-board play keeps them
    #: (``firmware_host/board/record.py``): JSON.
    history: str | None = None
    #: The players at the seats, a name per seat in seat order (JSON, ``store/players.py``).
    players: str | None = None
    #: The league round it was played for: event, round and table (JSON).
    league: str | None = None
    moves: tuple[str, ...] = ()
    #: The clocks' readings (JSON, ``firmware_host/store/timecontrol.py``) after each move, ply 1
    #: first ("" where none was kept); empty for a game without a clock.
    clocks: tuple[str, ...] = ()
    #: What is wrong with the stored row (a column of the wrong type), if anything.
    problem: str | None = None


def now_text(when: datetime | None = None) -> str:
    """``when`` (default: now) in UTC as stored: "2025-05-01T18:30:00Z"."""
    when = datetime.now(timezone.utc) if when is None else when.astimezone(timezone.utc)
    return when.isoformat(timespec="seconds").replace("+00:00", "Z")


class Storage:
    """The games database at ``path`` (":memory:" for a throw-away one)."""

    def __init__(self, path: str, read_only: bool = False) -> None:
        self.path = path
        #: Writes that failed, in order, to be tried again before any other.
        self.pending: deque[tuple[Write, ...]] = deque()
        #: Why the last write failed, until one works again (None: all saved).
        self.failure: str | None = None
        #: True while the file cannot be written: the games are kept in memory meanwhile.
        self.in_memory = False
        #: The last game id the file held when the games went to memory: later games were
        #: begun in memory, and follow any the file got meanwhile (``_shift``, once known).
        self._known = 0
        self._shift: int | None = None
        self._busy_ms = BUSY_MS
        try:
            if read_only:
                self._db = _readable(reader(path), path)
            else:
                try:
                    self._db = self._open_file()
                except (OSError, sqlite3.Error) as exc:
                    if not cannot_write(exc):
                        raise
                    self._db = self._in_memory(self.unwritable(exc))
            self._db.execute("PRAGMA foreign_keys=ON")
            self._last_id = self._db.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()[0]
        except (OSError, sqlite3.Error) as exc:
            corrupt = isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError)
            raise StorageError(f"{path}: cannot open the games database ({exc})", str(exc), corrupt) from None

    def _open_file(self) -> sqlite3.Connection:
        """The file opened for writing (made if missing), its schema up to date; sets
        ``failure`` if the disk is nearly full."""
        if self.path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        db = sqlite3.connect(self.path, timeout=self._busy_ms / 1000)
        try:
            _refuse_newer(db, self.path)  # before anything is written to it
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            migrate(db, self.path)
            _check_writable(db)
        except BaseException:
            db.close()
            raise
        self.failure = self._short_of_space()
        return db

    def _in_memory(self, why: str, file: sqlite3.Connection | None = None) -> sqlite3.Connection:
        """Keep the games in memory from now on (``why`` the file cannot be written): a copy
        of what the file holds (``file``, the open connection, closed here; else read anew;
        nothing if it cannot be read), with the writes still waiting done in it."""
        memory = sqlite3.connect(":memory:")
        try:
            source = file or reader(self.path)
        except (OSError, sqlite3.Error):
            source = None  # missing or unreadable: the games begin afresh, saved once it can be
        if source is not None:
            try:
                source.backup(memory)
            except sqlite3.Error:
                pass  # damaged: as if missing (it is set aside once the card can be written)
            finally:
                source.close()
        migrate(memory, self.path)
        if not self._shift:  # (games renumbered once stay so: the players' ids stay ours)
            self._known = memory.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()[0]
            self._shift = None
        for statements in self.pending:
            self._apply(memory, statements)
        self.in_memory, self.failure = True, why
        return memory

    def unwritable(self, exc: BaseException) -> str:
        """Why the file cannot be written, in the players' words: "the card is read-only"
        when its file system refuses a new file so (as ext4 does once it has remounted itself
        read-only after errors, though it still says rw), else what the OS or SQLite said."""
        folder = os.path.dirname(os.path.abspath(self.path))
        while not os.path.isdir(folder) and folder != os.path.dirname(folder):
            folder = os.path.dirname(folder)
        probe = os.path.join(folder, f".reedboard-probe-{os.getpid()}")
        try:
            os.close(os.open(probe, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            os.unlink(probe)
        except OSError as refused:
            if refused.errno == errno.EROFS:
                return READ_ONLY
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return f"the games file cannot be written ({reason.lower()})"

    @staticmethod
    def set_aside(path: str, copy: bool = False) -> str:
        """Move (or ``copy``) a damaged database and its WAL aside, never deleting them; the
        new name."""
        import shutil  # only for a damaged database

        aside = f"{path}.damaged-{now_text().replace(':', '')}"
        for suffix in ("", "-wal") if copy else ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                (shutil.copy2 if copy else os.replace)(path + suffix, aside + suffix)
        return aside

    def _short_of_space(self) -> str | None:
        """Why saving will soon fail for want of space (None: there is room, or no file)."""
        if self.path == ":memory:":
            return None
        try:
            info = os.statvfs(os.path.dirname(os.path.abspath(self.path)))
        except (OSError, ValueError):
            return None
        free = info.f_bavail * info.f_frsize
        return None if free >= MIN_FREE_BYTES else f"the disk is full ({free // 1024} kB free)"

    def set_busy_ms(self, ms: float) -> None:
        """Wait at most ``ms`` for a lock another process holds before a write fails (the
        file opened again later too)."""
        self._busy_ms = int(ms)
        self._db.execute(f"PRAGMA busy_timeout = {int(ms)}")

    def close(self) -> None:
        self._db.close()

    @property
    def unsaved_moves(self) -> int:
        """The moves acknowledged but not yet in the file (kept in memory)."""
        return sum(
            sql.startswith("INSERT OR REPLACE INTO moves")
            for statements in self.pending
            for sql, _ in statements
        )

    def save_aside(self, folders: Iterable[str]) -> str | None:
        """Write the games as they stand, every write still waiting done, to a new file in
        the first of ``folders`` that takes it (``<name>.unsaved-<UTC time>.db``, a games file
        like this one); its path, None when no folder took it. For a stop while the file
        cannot be written: what is kept in memory is not lost."""
        name = f"{os.path.basename(self.path)}.unsaved-{now_text().replace(':', '')}.db"
        for folder in folders:
            path = os.path.join(folder, name)
            try:
                with closing(sqlite3.connect(path)) as copy:
                    self._db.backup(copy)
                    if not self.in_memory:  # the file's games, and the writes waiting for it
                        for statements in self.pending:
                            self._apply(copy, statements)
                return path
            except (OSError, sqlite3.Error):
                with suppress(OSError):
                    os.remove(path)
        return None

    def _write(self, *statements: Write, keep: bool = True) -> None:
        """Run the statements in one committed transaction, after the writes still pending.
        When that fails: ``keep`` them for later (a write nobody waits on; while others wait,
        it waits behind them untried, so a failing file costs a step one busy timeout at
        most), else raise StorageError (a move, which is not acknowledged unless saved).
        While the file cannot be written at all, they are done in memory and kept."""
        if not self.in_memory:
            if keep and self.pending:  # behind the others: flush() tries them all again
                self.pending.append(statements)
                return
            try:
                self._flush()
                self._commit(statements)
                return
            except StorageError as exc:
                if not exc.read_only and not keep:
                    raise
                if not exc.read_only:
                    self.pending.append(statements)
                    return
            self._db = self._in_memory(self.failure or READ_ONLY, self._db)  # (_commit said why)
        try:
            self._apply(self._db, statements)
        except sqlite3.Error as exc:  # memory itself refused it (none left): not kept
            raise StorageError(f"{self.path}: cannot keep the game ({exc})", str(exc)) from None
        self.pending.append(statements)

    def _apply(self, db: sqlite3.Connection, statements: tuple[Write, ...]) -> None:
        """Run ``statements`` in one transaction on ``db``, games begun in memory renumbered
        if the file got others meanwhile."""
        shift = self._shift or 0
        with db:
            for sql, args in statements:
                db.execute(
                    sql, tuple(a + shift if isinstance(a, GameId) and a > self._known else a for a in args)
                )

    def _commit(self, statements: tuple[Write, ...]) -> None:
        try:
            self._apply(self._db, statements)
        except sqlite3.Error as exc:
            read_only = cannot_write(exc)
            self.failure = self.unwritable(exc) if read_only else str(exc)
            error = StorageError(f"{self.path}: cannot save ({exc})", str(exc))
            error.read_only = read_only
            raise error from None
        self.failure = self._short_of_space()

    def _flush(self) -> None:
        while self.pending:
            self._commit(self.pending[0])
            self.pending.popleft()

    def flush(self) -> bool:
        """Try the pending writes again, in order; True when none is left and there is room
        (``failure`` is then cleared: a move refused meanwhile is its caller's to try again).
        Games kept in memory are written to the file once it can be opened for writing."""
        if self.in_memory:
            return self._to_file()
        if not self.pending:
            self.failure = self._short_of_space()
            return self.failure is None
        try:
            self._flush()
        except StorageError:
            return False
        return True

    def _to_file(self) -> bool:
        """Write what was kept in memory to the file, in order, and use the file again; False
        (``failure`` says why) while it cannot be. A file that got games meanwhile (it could
        not be read before) keeps them: the games begun here follow them."""
        try:
            try:
                file = self._open_file()
            except sqlite3.DatabaseError as exc:
                if isinstance(exc, sqlite3.OperationalError):
                    raise
                self.set_aside(self.path)  # damaged (it could not be read either): kept aside
                file = self._open_file()
        except (OSError, sqlite3.Error) as exc:
            self.failure = self.unwritable(exc) if cannot_write(exc) else str(exc)
            return False
        except StorageError as exc:  # another reedboard wrote a newer schema meanwhile
            self.failure = str(exc)
            return False
        if self._shift is None:
            last = file.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()[0]
            self._shift = max(0, last - self._known)
        try:
            while self.pending:
                self._apply(file, self.pending[0])
                self.pending.popleft()
        except sqlite3.Error as exc:
            file.close()
            self.failure = str(exc)
            return False
        file.execute("PRAGMA foreign_keys=ON")
        self._db.close()
        self._db, self.in_memory = file, False
        self.failure = self._short_of_space()
        return self.failure is None

    def start(
        self,
        game: str,
        size: int | None,
        variant: str | None,
        match_of: int | None = None,
        match_target: int | None = None,
        first: str | None = None,
        options: str | None = None,
        opponent: str | None = None,
        players: str | None = None,
        league: str | None = None,
    ) -> int:
        """A new running game; its id. In a match (``match_target`` given) ``match_of`` is the
        id of the match's first game; None: this game begins the match (it gets its own id).
        ``options``: the house rules it is played with, as records write them; ``opponent``:
        who plays the other side when not a player at the table; ``players`` and ``league``:
        who sits at the seats and the league round (JSON, ``store/players.py``)."""
        self._last_id += 1
        game_id = self._last_id
        if match_target is not None and match_of is None:
            match_of = game_id
        self._write(
            (
                "INSERT INTO games (id, game, size, variant, started, match_of, match_target, first,"
                " options, opponent, players, league) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    GameId(game_id),
                    game,
                    size,
                    variant,
                    now_text(),
                    None if match_of is None else GameId(match_of),
                    match_target,
                    first,
                    options,
                    opponent,
                    players,
                    league,
                ),
            )
        )
        return game_id

    def add_move(self, game_id: int, ply: int, notation: str) -> None:
        """Commit move number ``ply`` (1 = the first) before anyone is told of it."""
        self._write(
            (
                "INSERT OR REPLACE INTO moves (game_id, ply, notation, time) VALUES (?, ?, ?, ?)",
                (GameId(game_id), ply, notation, now_text()),
            ),
            keep=False,
        )

    def correct(
        self, game_id: int, ply: int, notation: str, replaced: str, history: str | None = None
    ) -> None:
        """Move ``ply`` was mis-read as ``replaced``: keep ``notation`` and log the correction
        (``history``: the game's, as it stands after it)."""
        when = now_text()
        self._write(
            (
                "INSERT OR REPLACE INTO moves (game_id, ply, notation, time) VALUES (?, ?, ?, ?)",
                (GameId(game_id), ply, notation, when),
            ),
            (
                "INSERT INTO corrections (game_id, ply, replaced, notation, time) VALUES (?, ?, ?, ?, ?)",
                (GameId(game_id), ply, replaced, notation, when),
            ),
            *self._history(game_id, history),
            keep=False,
        )

    def corrections(self, game_id: int) -> list[tuple[int, str, str]]:
        """The game's logged corrections: (ply, replaced, notation), oldest first."""
        rows = self._db.execute(
            "SELECT ply, replaced, notation FROM corrections WHERE game_id = ? ORDER BY rowid",
            (game_id,),
        )
        return [tuple(row) for row in rows]

    def truncate(self, game_id: int, plies: int, history: str | None = None) -> None:
        """Keep only the first ``plies`` moves (a takeback); the game runs again (``history``:
        the game's, as it stands after it)."""
        self._write(
            ("DELETE FROM moves WHERE game_id = ? AND ply > ?", (GameId(game_id), plies)),
            ("DELETE FROM clocks WHERE game_id = ? AND ply > ?", (GameId(game_id), plies)),
            (
                "UPDATE games SET finished = NULL, result = NULL, winner = NULL WHERE id = ?",
                (GameId(game_id),),
            ),
            *self._history(game_id, history),
        )

    def set_clocks(self, game_id: int, ply: int, readings: str) -> None:
        """The clocks' ``readings`` (JSON) as they stood after move ``ply`` (0: the start)."""
        self._write(
            (
                "INSERT OR REPLACE INTO clocks (game_id, ply, readings) VALUES (?, ?, ?)",
                (GameId(game_id), ply, readings),
            )
        )

    def clocks(self, game_id: int) -> dict[int, str]:
        """The clocks' readings kept after each move of game ``game_id``, by ply."""
        try:
            rows = self._db.execute("SELECT ply, readings FROM clocks WHERE game_id = ?", (game_id,))
            return {ply: readings for ply, readings in rows}
        except sqlite3.Error as exc:
            raise StorageError(f"{self.path}: cannot read the clocks ({exc})") from None

    def set_history(self, game_id: int, history: str) -> None:
        """The game's history (its takebacks and corrections, its token) is now ``history``."""
        self._write(*self._history(game_id, history))

    @staticmethod
    def _history(game_id: int, history: str | None) -> tuple[Write, ...]:
        if history is None:
            return ()
        return (("UPDATE games SET history = ? WHERE id = ?", (history, GameId(game_id))),)

    def set_opponent(self, game_id: int, opponent: str) -> None:
        """Who plays the other side of game ``game_id``, told after it began."""
        self._write(("UPDATE games SET opponent = ? WHERE id = ?", (opponent, GameId(game_id))))

    def set_players(self, game_id: int, players: str | None) -> None:
        """Who sits at the seats of game ``game_id`` now (JSON, None: nobody named)."""
        self._write(("UPDATE games SET players = ? WHERE id = ?", (players, GameId(game_id))))

    def set_seats(self, game_id: int, players: str | None, league: str | None) -> None:
        """Who sits at the seats of game ``game_id`` and the league round it is played for
        (JSON each, None: none), as the board paired with this one set them."""
        self._write(
            ("UPDATE games SET players = ?, league = ? WHERE id = ?", (players, league, GameId(game_id)))
        )

    def last_move_time(self, game_id: int) -> str | None:
        """When the last move of game ``game_id`` was saved (as :func:`now_text` writes it),
        None before its first move."""
        try:
            row = self._db.execute("SELECT MAX(time) FROM moves WHERE game_id = ?", (game_id,)).fetchone()
        except sqlite3.Error as exc:
            raise StorageError(f"{self.path}: cannot read the games ({exc})") from None
        return row[0] if row and isinstance(row[0], str) else None

    def finish(self, game_id: int, result: str, winner: str | None = None) -> None:
        """The game is over: ``result`` in words, ``winner`` a side or "draw" (None when the
        game was abandoned)."""
        self._write(
            (
                "UPDATE games SET finished = ?, result = ?, winner = ? WHERE id = ?",
                (now_text(), result, winner, GameId(game_id)),
            )
        )

    def unfinished(self) -> StoredGame | None:
        """The most recent game still running, with its moves."""
        games = self.games(running=True)
        return games[-1] if games else None

    def last_opponent(self) -> str | None:
        """Who played the other side of the latest game (None: the players at the table, or no
        game yet)."""
        try:
            row = self._db.execute("SELECT opponent FROM games ORDER BY id DESC LIMIT 1").fetchone()
        except sqlite3.Error as exc:
            raise StorageError(f"{self.path}: cannot read the games ({exc})") from None
        return row[0] if row and isinstance(row[0], str) else None

    def last_history(self) -> str | None:
        """The history (``firmware_host/board/record.py``: a paired game's token...) of the
        latest game (None: none kept, or no game yet)."""
        try:
            row = self._db.execute("SELECT history FROM games ORDER BY id DESC LIMIT 1").fetchone()
        except sqlite3.Error as exc:
            raise StorageError(f"{self.path}: cannot read the games ({exc})") from None
        return row[0] if row and isinstance(row[0], str) else None

    def match_games(self, match_of: int) -> list[StoredGame]:
        """The games of the match whose first game is ``match_of``, in the order played."""
        return self.games(match_of=match_of)

    def games(
        self,
        game_id: int | None = None,
        running: bool = False,
        since: str | None = None,
        match_of: int | None = None,
    ) -> list[StoredGame]:
        """Stored games, oldest first (one, by id; only the running ones; those started at
        or after ``since``, a time as :func:`now_text` writes it; or a match's)."""
        sql = (
            "SELECT id, game, size, variant, started, finished, result, winner, match_of,"
            " match_target, first, options, opponent, history, players, league FROM games"
        )
        where: list[str] = []
        args: list[object] = []
        for column, value in (("id", game_id), ("match_of", match_of)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        if running:
            where.append("finished IS NULL")
        if since is not None:
            where.append("started >= ?")
            args.append(since)
        if where:
            sql += " WHERE " + " AND ".join(where)
        try:
            rows = self._db.execute(sql + " ORDER BY id", args).fetchall()
            return [self._with_clocks(_record(row, self._moves(row[0]))) for row in rows]
        except sqlite3.Error as exc:
            raise StorageError(f"{self.path}: cannot read the games ({exc})") from None

    def _with_clocks(self, record: StoredGame) -> StoredGame:
        kept = self.clocks(record.id)
        if not any(kept.get(ply) for ply in range(1, len(record.moves) + 1)):
            return record  # no clock, or none kept after a move yet
        return record._replace(clocks=tuple(kept.get(ply, "") for ply in range(1, len(record.moves) + 1)))

    def _moves(self, game_id: int) -> tuple:
        rows = self._db.execute("SELECT notation FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        return tuple(n for (n,) in rows)


def reader(path: str) -> sqlite3.Connection:
    """``path`` opened read-only, also on a read-only file system: where SQLite cannot make
    the WAL's shared-memory file (a clean shutdown removed it) the file is read as immutable
    (nothing can change it then)."""
    uri = Path(path).absolute().as_uri()
    if not os.path.exists(path):
        raise FileNotFoundError(errno.ENOENT, "no such file", path)
    try:
        db = sqlite3.connect(uri + "?mode=ro", uri=True, timeout=BUSY_MS / 1000)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError as exc:
        if not cannot_write(exc) or os.path.exists(path + "-wal"):
            raise
    return sqlite3.connect(uri + "?immutable=1", uri=True)


def cannot_write(exc: BaseException) -> bool:
    """True when ``exc`` says the file or its folder cannot be written (read-only, no
    permission, I/O errors), not that it is busy, full or damaged."""
    if isinstance(exc, OSError):
        return exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO)
    return getattr(exc, "sqlite_errorcode", 0) & 0xFF in CANNOT_WRITE


def _check_writable(db: sqlite3.Connection) -> None:
    """Raise sqlite3.Error unless a row could be written (nothing is)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("INSERT INTO games (game, started) VALUES ('', '')")
    finally:
        db.execute("ROLLBACK")


def schema_version(db: sqlite3.Connection) -> int:
    """The schema version of ``db``: its ``user_version``, or for a file from before versions
    were kept, how far its tables got (0: none yet).

    >>> schema_version(sqlite3.connect(":memory:"))
    0
    """
    version: int = db.execute("PRAGMA user_version").fetchone()[0]
    if version:
        return version
    for version, (table, column) in enumerate(UNVERSIONED):
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if not columns or (column is not None and column not in columns):
            return version
    return len(UNVERSIONED)


def migrate(db: sqlite3.Connection, path: str) -> None:
    """Bring ``db`` up to :data:`SCHEMA_VERSION`, all steps in one transaction (none done if
    one fails); :class:`NewerSchema` if it is beyond.

    >>> db = sqlite3.connect(":memory:"); migrate(db, ":memory:")
    >>> schema_version(db) == SCHEMA_VERSION
    True
    """
    _refuse_newer(db, path)
    if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        version = _refuse_newer(db, path)  # again, under the lock: another may have done it
        for steps in MIGRATIONS[version:]:
            for sql in steps:
                db.execute(sql)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _refuse_newer(db: sqlite3.Connection, path: str) -> int:
    """The schema version of ``db``; :class:`NewerSchema` if this code does not know it."""
    version = schema_version(db)
    if version > SCHEMA_VERSION:
        raise NewerSchema(path, version)
    return version


def _readable(db: sqlite3.Connection, path: str) -> sqlite3.Connection:
    """``db``, opened read-only, as this code reads it: itself when its schema is current, else
    a copy in memory brought up to date (the file is not changed)."""
    try:
        if _refuse_newer(db, path) == SCHEMA_VERSION:
            return db
        memory = sqlite3.connect(":memory:")
        db.backup(memory)
    except BaseException:
        db.close()
        raise
    db.close()
    migrate(memory, path)
    return memory


#: The type each column of a stored game must have (None is allowed but for id, game, started).
_TYPES = {
    "id": int,
    "game": str,
    "size": int,
    "variant": str,
    "started": str,
    "finished": str,
    "result": str,
    "winner": str,
    "match_of": int,
    "match_target": int,
    "first": str,
    "options": str,
    "opponent": str,
    "history": str,
    "players": str,
    "league": str,
}


def _record(row: tuple, moves: tuple) -> StoredGame:
    """A stored row as a record; one whose columns have the wrong types says so in
    ``problem`` (a damaged or hand-edited file), the bad values left out.

    >>> _record((3, "antipalos", "big", None, "", *[None] * 11), ()).problem
    "size 'big' is not a whole number"
    """
    values, problems = dict(zip(_TYPES, row)), []
    for name, kind in _TYPES.items():
        value = values[name]
        if (value is None and name not in ("id", "game", "started")) or (
            isinstance(value, kind) and not isinstance(value, bool)
        ):
            continue
        what = "a whole number" if kind is int else "text"
        problems.append(f"{name} {str(value)[:20]!r} is not {what}")
        values[name] = None if name not in ("game", "started") else str(value)
    bad = [n for n, text in enumerate(moves, 1) if not isinstance(text, str)]
    if bad:
        problems.append(f"move {bad[0]} is not text")
        moves = tuple(str(m) for m in moves)
    return StoredGame(**values, moves=moves, problem="; ".join(problems) or None)
