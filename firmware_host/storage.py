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
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    size     INTEGER,
    variant  TEXT,
    started  TEXT NOT NULL,
    finished TEXT,
    result   TEXT,
    winner   TEXT,
    match_of INTEGER,
    match_target INTEGER,
    first    TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL,
    notation TEXT NOT NULL,
    time     TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS corrections (
    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL,
    replaced TEXT NOT NULL,
    notation TEXT NOT NULL,
    time     TEXT NOT NULL
);
"""


#: Columns of ``games`` added after the first release: databases written before get them, empty.
ADDED_COLUMNS = {
    "winner": "TEXT", "match_of": "INTEGER", "match_target": "INTEGER", "first": "TEXT",
}


class StorageError(Exception):
    """The database cannot be opened or written; ``str()`` is one line."""


@dataclass(frozen=True)
class GameRecord:
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
    moves: tuple[str, ...] = ()


def now_text(when: datetime | None = None) -> str:
    """``when`` (default: now) in UTC as stored: "2025-05-01T18:30:00Z"."""
    when = datetime.now(timezone.utc) if when is None else when.astimezone(timezone.utc)
    return when.isoformat(timespec="seconds").replace("+00:00", "Z")


class Storage:
    """The games database at ``path`` (":memory:" for a throw-away one)."""

    def __init__(self, path: str, read_only: bool = False) -> None:
        self.path = path
        try:
            if read_only:
                uri = Path(path).absolute().as_uri() + "?mode=ro"
                self._db = sqlite3.connect(uri, uri=True)
            else:
                if path != ":memory:":
                    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
                self._db = sqlite3.connect(path)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.executescript(SCHEMA)
                self._add_missing_columns()
            self._db.execute("PRAGMA foreign_keys=ON")
        except (OSError, sqlite3.Error) as exc:
            raise StorageError(f"{path}: cannot open the games database ({exc})") from None

    def _add_missing_columns(self) -> None:
        """Databases written before some :data:`ADDED_COLUMNS` existed get them (empty)."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        with self._db:
            for name, kind in ADDED_COLUMNS.items():
                if name not in columns:
                    self._db.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")

    def close(self) -> None:
        self._db.close()

    def _write(self, sql: str, args: tuple, *more: tuple[str, tuple]) -> sqlite3.Cursor:
        """Run the statements in one committed transaction."""
        try:
            with self._db:
                cur = self._db.execute(sql, args)
                for other, other_args in more:
                    self._db.execute(other, other_args)
                return cur
        except sqlite3.Error as exc:
            raise StorageError(f"{self.path}: cannot save ({exc})") from None

    def start(
        self,
        game: str,
        size: int | None,
        variant: str | None,
        match_of: int | None = None,
        match_target: int | None = None,
        first: str | None = None,
    ) -> int:
        """A new running game; its id. In a match (``match_target`` given) ``match_of`` is the
        id of the match's first game; None: this game begins the match (it gets its own id)."""
        if match_target is not None and match_of is None:
            match_of = -1  # set to the new id in the same transaction
        cur = self._write(
            "INSERT INTO games (game, size, variant, started, match_of, match_target, first)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game, size, variant, now_text(), match_of, match_target, first),
            ("UPDATE games SET match_of = id WHERE id = last_insert_rowid() AND match_of = -1",
             ()),
        )
        return int(cur.lastrowid)

    def add_move(self, game_id: int, ply: int, notation: str) -> None:
        """Commit move number ``ply`` (1 = the first) before anyone is told of it."""
        self._write(
            "INSERT OR REPLACE INTO moves (game_id, ply, notation, time) VALUES (?, ?, ?, ?)",
            (game_id, ply, notation, now_text()),
        )

    def correct(self, game_id: int, ply: int, notation: str, replaced: str) -> None:
        """Move ``ply`` was mis-read as ``replaced``: keep ``notation`` and log the correction."""
        when = now_text()
        self._write(
            "INSERT OR REPLACE INTO moves (game_id, ply, notation, time) VALUES (?, ?, ?, ?)",
            (game_id, ply, notation, when),
            ("INSERT INTO corrections (game_id, ply, replaced, notation, time) VALUES (?, ?, ?, ?, ?)",
             (game_id, ply, replaced, notation, when)),
        )

    def corrections(self, game_id: int) -> list[tuple[int, str, str]]:
        """The game's logged corrections: (ply, replaced, notation), oldest first."""
        rows = self._db.execute(
            "SELECT ply, replaced, notation FROM corrections WHERE game_id = ? ORDER BY rowid",
            (game_id,),
        )
        return [tuple(row) for row in rows]

    def truncate(self, game_id: int, plies: int) -> None:
        """Keep only the first ``plies`` moves (a takeback); the game runs again."""
        self._write(
            "DELETE FROM moves WHERE game_id = ? AND ply > ?",
            (game_id, plies),
            ("UPDATE games SET finished = NULL, result = NULL, winner = NULL WHERE id = ?",
             (game_id,)),
        )

    def finish(self, game_id: int, result: str, winner: str | None = None) -> None:
        """The game is over: ``result`` in words, ``winner`` a side or "draw" (None when the
        game was abandoned)."""
        self._write(
            "UPDATE games SET finished = ?, result = ?, winner = ? WHERE id = ?",
            (now_text(), result, winner, game_id),
        )

    def unfinished(self) -> GameRecord | None:
        """The most recent game still running, with its moves."""
        games = self.games(running=True)
        return games[-1] if games else None

    def match_games(self, match_of: int) -> list[GameRecord]:
        """The games of the match whose first game is ``match_of``, in the order played."""
        return self.games(match_of=match_of)

    def games(
        self,
        game_id: int | None = None,
        running: bool = False,
        since: str | None = None,
        match_of: int | None = None,
    ) -> list[GameRecord]:
        """Stored games, oldest first (one, by id; only the running ones; those started at
        or after ``since``, a time as :func:`now_text` writes it; or a match's)."""
        sql = (
            "SELECT id, game, size, variant, started, finished, result, winner, match_of,"
            " match_target, first FROM games"
        )
        where, args = [], []
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
            return [GameRecord(*row, moves=self._moves(row[0])) for row in rows]
        except sqlite3.Error as exc:
            raise StorageError(f"{self.path}: cannot read the games ({exc})") from None

    def _moves(self, game_id: int) -> tuple[str, ...]:
        rows = self._db.execute(
            "SELECT notation FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        )
        return tuple(n for (n,) in rows)
