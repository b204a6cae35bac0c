"""Damaged or unreadable stored data: one journal line and an OLED notice saying what was set
aside; nothing is deleted; ``export`` warns about a game it cannot read and goes on."""

from __future__ import annotations

import sqlite3
import subprocess

from firmware_host.store.storage import Storage
from testbed.running import Running
from testbed.tools import REEDBOARD, free_port


def setup(tmp_path):
    db = tmp_path / "games.db"
    config = tmp_path / "config.toml"
    config.write_text(f'game = "antipalos"\nsize = 3\nstorage = "{db}"\n[web]\nport = {free_port()}\n')
    return db, config


def first_screen(config) -> tuple[list[str], list[str]]:
    """The first OLED lines of ``run --sim`` and what it said on stderr (both of its pipes
    drained meanwhile: testbed/running.py)."""
    board = Running(config)
    try:
        shown = board.wait_for("display")
    finally:
        board.stop()
    said = [line for line in board.stderr().splitlines() if line.startswith("reedboard run")]
    return shown["lines"], said


def stored_games(db) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT id, size, result FROM games ORDER BY id").fetchall()


def test_a_text_size_sets_the_game_aside_and_export_goes_on(tmp_path):
    db, config = setup(tmp_path)
    storage = Storage(str(db))
    done = storage.start("antipalos", 3, None)
    storage.add_move(done, 1, "A1*")
    storage.finish(done, "white wins by connection", "white")
    bad = storage.start("antipalos", 3, None)
    storage.add_move(bad, 1, "B2*")
    storage._db.execute("UPDATE games SET size = 'big' WHERE id = ?", (bad,))
    storage._db.commit()
    storage.close()
    lines, said = first_screen(config)
    assert lines[:2] == ["Game set aside", "Game 2 cannot resume"]
    assert said == [
        f"reedboard run: game 2 (antipalos) cannot be resumed and is set aside (size "
        f"'big' is not a whole number); its moves are kept in {db}"
    ]
    assert stored_games(db)[1] == (2, "big", "set aside: size 'big' is not a whole number")
    export = subprocess.run(
        [*REEDBOARD, "export", "--config", str(config)], capture_output=True, text=True, timeout=30
    )
    assert export.returncode == 0 and '[Id "1"]' in export.stdout and '[Id "3"]' in export.stdout
    assert export.stderr.splitlines() == [
        "reedboard export: game 2 left out: size 'big' is not a whole number"
    ]


def test_a_game_that_no_longer_replays_is_set_aside_with_its_moves(tmp_path):
    db, config = setup(tmp_path)
    storage = Storage(str(db))
    game = storage.start("antipalos", 3, None)
    storage.add_move(game, 1, "A1*")
    storage.add_move(game, 2, "A1*")  # the same site twice: it no longer replays
    storage.close()
    lines, said = first_screen(config)
    assert lines[0] == "Game set aside" and len(said) == 1 and "set aside" in said[0]
    assert stored_games(db)[0][2].startswith("set aside: ")
    assert Storage(str(db)).games(1)[0].moves == ("A1*", "A1*")


def test_a_damaged_file_is_kept_aside_and_a_new_one_begun(tmp_path):
    db, config = setup(tmp_path)
    damaged = bytes(range(256)) * 20
    db.write_bytes(damaged)
    lines, said = first_screen(config)
    assert lines[:2] == ["Games set aside", "The file was damaged"]
    (aside,) = tmp_path.glob("games.db.damaged-*")
    assert aside.read_bytes() == damaged
    assert said == [
        f"reedboard run: {db} is damaged (file is not a database); it is kept as "
        f"{aside} and a new database begun"
    ]
    assert len(stored_games(db)) == 1  # the new game


def test_a_damaged_log_is_said_by_run_and_export_and_kept_aside_as_it_was(tmp_path):
    db, config = setup(tmp_path)
    storage = Storage(str(db))  # left open: its moves stay in the log, as after a power cut
    game = storage.start("antipalos", 3, None)
    for ply, move in enumerate(("A1*", "B2*", "C3*", "A2*"), 1):
        storage.add_move(game, ply, move)
    copy = tmp_path / "copy"
    copy.mkdir()
    for suffix in ("", "-wal"):
        (copy / f"games.db{suffix}").write_bytes(db.with_name(f"games.db{suffix}").read_bytes())
    storage.close()  # (a clean close empties the log into the file: the copies are put back)
    db.write_bytes((copy / "games.db").read_bytes())
    log = bytearray((copy / "games.db-wal").read_bytes())
    log[len(log) // 2] ^= 0xFF
    db.with_name("games.db-wal").write_bytes(log)
    export = subprocess.run(
        [*REEDBOARD, "export", "--config", str(config)], capture_output=True, text=True, timeout=30
    )
    assert export.returncode == 0 and export.stderr.startswith(f"reedboard export: {db}-wal is")
    lines, said = first_screen(config)
    assert lines[:2] == ["Games set aside", "Some saves damaged"]
    (aside,) = tmp_path.glob("games.db.damaged-*-wal")
    assert aside.read_bytes() == log  # the damaged log kept as it was, beside its database
    assert len(said) == 1 and said[0].startswith(f"reedboard run: {db}-wal is damaged: ")
    assert said[0].endswith(f"cannot be read; the files are kept as {str(aside)[:-4]}")
