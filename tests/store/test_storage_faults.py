"""Storage faults with real SQLite: a second connection holding the write lock, a database full
at ``PRAGMA max_page_count`` (a real SQLITE_FULL), a write SQLite's authorizer refuses, and a
file that cannot be written. The daemon keeps running, says why on the OLED, in STATUS and once
in the journal, refuses or retries the action, and loses nothing it acknowledged."""

from __future__ import annotations

import os
import sqlite3
from collections import deque

import pytest

from firmware_host.board.game import Game
from firmware_host.store.config import Config, Timing
from firmware_host.store.storage import Storage
from testbed.stepped import Stepped
from testbed.tools import immutable

TIMING = Timing(settle_ms=100, debounce_scans=2)
#: Antipalos 3: white wins by connection with its third stone.
GAME = ["A1*", "A3*", "B2*", "C1*", "C3*"]


class OnFile(Stepped):
    """The daemon loop stepped over the simulated board and a real games file at ``path``."""

    def __init__(self, path: str, match: int = 0) -> None:
        super().__init__(
            Config(game="antipalos", size=3, match=match, storage=path, timing=TIMING), Storage(path)
        )
        self.wait(200)

    def stored(self) -> list[tuple]:
        with sqlite3.connect(self.config.storage) as db:
            games = db.execute("SELECT id, finished, result FROM games WHERE id > 0").fetchall()
            moves = db.execute(
                "SELECT game_id, notation FROM moves WHERE game_id > 0 ORDER BY game_id, ply"
            ).fetchall()
        return games, moves


class Locked:
    """Another process's connection holds the write lock."""

    reason = "database is locked"

    def __init__(self, board: OnFile) -> None:
        self.other = sqlite3.connect(board.config.storage, isolation_level=None)
        self.other.execute("BEGIN EXCLUSIVE")

    def end(self) -> None:
        self.other.execute("ROLLBACK")
        self.other.close()


class Full:
    """The database may not grow (max_page_count) and its pages are full: SQLITE_FULL."""

    reason = "database or disk is full"

    def __init__(self, board: OnFile) -> None:
        self.db = db = board.storage._db
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")
        filler = -1
        try:  # fill the pages there are (negative ids: no game of the daemon's)
            while True:
                with db:
                    db.execute(
                        "INSERT INTO games (id, game, started, finished) VALUES (?, 'x', '', 'x')", (filler,)
                    )
                    db.execute("INSERT INTO moves VALUES (?, 1, ?, '')", (filler, "x" * 20))
                filler -= 1
        except sqlite3.OperationalError as exc:
            assert "full" in str(exc)
        ply = 2
        try:  # and the room left on the last pages, row by small row
            while True:
                with db:
                    db.execute("INSERT INTO moves VALUES (?, ?, '', '')", (filler + 1, ply))
                ply += 1
        except sqlite3.OperationalError as exc:
            assert "full" in str(exc)

    def end(self) -> None:
        self.db.execute("PRAGMA max_page_count = 1000000")


class Refused:
    """SQLite's authorizer refuses every write to the games table (a game begun or ended)."""

    reason = "not authorized"

    def __init__(self, board: OnFile) -> None:
        self.db = board.storage._db
        writes = (sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE)
        self.db.set_authorizer(
            lambda action, table, *_: (
                sqlite3.SQLITE_DENY if action in writes and table == "games" else sqlite3.SQLITE_OK
            )
        )

    def end(self) -> None:
        self.db.set_authorizer(None)


def said(board: OnFile, capsys, fault) -> None:
    """The OLED, STATUS and the journal (once) say the games cannot be saved, and why."""
    assert board.screen[:2] == ["Cannot save", fault.reason]
    assert f"(cannot save: {fault.reason})" in board.daemon._status
    err = capsys.readouterr().err
    assert err.count("cannot save the games") == 1 and fault.reason in err


def recovered(board: OnFile, capsys) -> None:
    board.wait(1200)
    assert "cannot save" not in board.daemon._status
    assert "can be saved again" in capsys.readouterr().err
    assert board.storage.pending == deque() and board.storage.failure is None


@pytest.mark.parametrize("fault", [Locked, Full])
def test_a_move_is_refused_until_it_can_be_saved_then_taken(tmp_path, capsys, fault):
    board = OnFile(str(tmp_path / "games.db"))
    board.put("A1*")
    broken = fault(board)
    board.put("A3*")
    assert [e["move"] for e in board.events("move")] == ["A1*"]  # not acknowledged
    said(board, capsys, broken)
    board.wait(2000)
    assert capsys.readouterr().err == ""  # said once
    broken.end()
    recovered(board, capsys)
    assert [e["move"] for e in board.events("move")] == ["A1*", "A3*"]
    assert board.stored()[1] == [(1, "A1*"), (1, "A3*")]


@pytest.mark.parametrize("fault", [Locked, Refused])
def test_a_takeback_and_a_new_game_wait_for_the_file_in_order(tmp_path, capsys, fault):
    board = OnFile(str(tmp_path / "games.db"))
    board.put("A1*")
    board.put("A3*")
    broken = fault(board)
    board.put("A3*", False)  # taken back on the board: held off for takeback_ms
    board.wait(1500)
    assert [e["move"] for e in board.events("takeback")] == ["A3*"]
    said(board, capsys, broken)
    board.controller.new_game(Game.of("antipalos", 3))  # as the page's picker does
    board.put("A1*", False)
    board.wait(300)
    assert len(board.events("new_game")) == 1 and len(board.storage.pending) == 3
    board.put("B2*")  # a move must wait for the writes before it
    assert [e["move"] for e in board.events("move")] == ["A1*", "A3*"]
    broken.end()
    recovered(board, capsys)
    assert [e["move"] for e in board.events("move")] == ["A1*", "A3*", "B2*"]
    games, moves = board.stored()
    assert [(g[0], g[2]) for g in games] == [(1, "abandoned"), (2, None)]
    assert moves == [(1, "A1*"), (2, "B2*")]


@pytest.mark.parametrize("match", [0, 6])
def test_a_game_end_that_cannot_be_saved_is_saved_later(tmp_path, capsys, match):
    board = OnFile(str(tmp_path / "games.db"), match)
    for site in GAME[:-1]:
        board.put(site)
    broken = Refused(board)
    board.put(GAME[-1])
    assert len(board.events("game_over")) == 1 and len(board.events("match")) == (match > 0)
    said(board, capsys, broken)
    for site in GAME:  # cleared for the next game: begun, its row waits too
        board.put(site, False)
    assert len(board.events("new_game")) == 1
    broken.end()
    recovered(board, capsys)
    games, moves = board.stored()
    assert [g[2] for g in games] == ["white wins by connection", None]
    assert [m for _, m in moves] == GAME


def test_a_locked_database_holds_a_write_two_scan_periods_at_most(tmp_path):
    board = OnFile(str(tmp_path / "games.db"))  # 100 Hz: 10 ms a scan
    assert board.storage._db.execute("PRAGMA busy_timeout").fetchone()[0] == 20


def test_a_database_that_cannot_be_written_at_start_is_played_from_memory(tmp_path, capsys):
    db = tmp_path / "games.db"
    Storage(str(db)).close()
    immutable(db)
    try:
        board = OnFile(str(db))
        why = "the games file cannot be written (attempt to write a readonly database)"
        assert board.storage.in_memory and board.screen[:2] == ["Cannot save", why]
        assert f"Cannot save: {why} ({db}); the game goes on from memory" in capsys.readouterr().err
        board.put("A1*")
        board.put("A3*")
        assert [e["move"] for e in board.events("move")] == ["A1*", "A3*"]
    finally:
        immutable(db, on=False)
    board.wait(1200)
    assert not board.storage.in_memory and "can be saved again" in capsys.readouterr().err
    assert board.stored()[1] == [(1, "A1*"), (1, "A3*")]


def test_the_journal_counts_time_from_the_games_start_as_the_page_and_replays_do(tmp_path):
    board = OnFile(str(tmp_path / "games.db"))
    board.wait(5000)
    board.put("A1*")
    assert board.events("move")[0]["t"] >= 5000  # counted from the daemon's (and game's) start
    board.controller.new_game(Game.of("antipalos", 3))
    board.wait(100)
    new_game = board.events("new_game")[0]
    assert new_game["t"] == 0  # a new game restarts the count
    board.put("A1*", on=False)  # the board is cleared for the new game
    board.put("A1*")
    moves = board.events("move")
    assert len(moves) == 2 and moves[1]["t"] <= 1000


def test_a_disk_already_full_at_start_is_said_at_once_and_cleared_when_there_is_room(
    tmp_path, monkeypatch, capsys
):
    free = os.statvfs(tmp_path).f_bavail * os.statvfs(tmp_path).f_frsize
    monkeypatch.setattr("firmware_host.store.storage.MIN_FREE_BYTES", free * 2)  # the disk is "full"
    board = OnFile(str(tmp_path / "games.db"))
    assert board.screen[0] == "Cannot save" and board.screen[1].startswith("the disk is full")
    assert "(the disk is full (" in capsys.readouterr().err
    monkeypatch.setattr("firmware_host.store.storage.MIN_FREE_BYTES", 0)  # room made
    board.wait(6000)
    assert board.screen[0] != "Cannot save"
    board.put("A1*")
    assert [e["move"] for e in board.events("move")] == ["A1*"]
