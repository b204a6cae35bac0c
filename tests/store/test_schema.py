"""The games database from every release: a file in each schema the project has shipped, with
games in it, opens with today's code with nothing lost and the schema current; a file from a
newer reedboard is refused in one line and left as it is.

The shipped schemas are written out here as those releases created them (found with ``git log
-p -- firmware_host/store/storage.py``), not derived from today's migrations, so a step changed after
it shipped fails here."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys

import pytest

from firmware_host.cli.main import main
from firmware_host.store.storage import SCHEMA_VERSION, NewerSchema, Storage, schema_version

GAMES = (
    "id INTEGER PRIMARY KEY",
    "game TEXT NOT NULL",
    "size INTEGER",
    "variant TEXT",
    "started TEXT NOT NULL",
    "finished TEXT",
    "result TEXT",
)
MOVES = (
    "CREATE TABLE IF NOT EXISTS moves (game_id INTEGER NOT NULL REFERENCES games(id) ON"
    " DELETE CASCADE, ply INTEGER NOT NULL, notation TEXT NOT NULL, time TEXT NOT NULL,"
    " PRIMARY KEY (game_id, ply))"
)
CORRECTIONS = (
    "CREATE TABLE IF NOT EXISTS corrections (game_id INTEGER NOT NULL REFERENCES"
    " games(id) ON DELETE CASCADE, ply INTEGER NOT NULL, replaced TEXT NOT NULL,"
    " notation TEXT NOT NULL, time TEXT NOT NULL)"
)
#: The commit that shipped each schema before versions were kept: the columns of its games
#: table after the first release's, and whether it had the corrections table.
SHIPPED = {
    "684e936": ((), False),
    "59c6382": (("winner TEXT",), False),
    "02bc646": (("winner TEXT", "match_of INTEGER", "match_target INTEGER"), False),
    "82938c2": (("winner TEXT", "match_of INTEGER", "match_target INTEGER", "first TEXT"), False),
    "52b6627": (("winner TEXT", "match_of INTEGER", "match_target INTEGER", "first TEXT"), True),
    "be90131": (
        ("winner TEXT", "match_of INTEGER", "match_target INTEGER", "first TEXT", "options TEXT"),
        True,
    ),
    "53c8503": (
        (
            "winner TEXT",
            "match_of INTEGER",
            "match_target INTEGER",
            "first TEXT",
            "options TEXT",
            "opponent TEXT",
        ),
        True,
    ),
    "e924b8c": (
        (
            "winner TEXT",
            "match_of INTEGER",
            "match_target INTEGER",
            "first TEXT",
            "options TEXT",
            "opponent TEXT",
            "history TEXT",
        ),
        True,
    ),
}
#: A value for each later column, as its release stored it.
LATER = {
    "winner": "white",
    "match_of": 1,
    "match_target": 6,
    "first": "black",
    "options": "supply=4",
    "opponent": "computer black, level 3",
    "history": '{"rewrites": []}',
}


def shipped_file(path, release: str) -> dict[str, object]:
    """A games file as ``release`` left it (WAL, as the daemon always set): a finished game of
    three moves and a running one of two, with every column that release had filled; what
    the finished game's row holds."""
    later, corrections = SHIPPED[release]
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(f"CREATE TABLE IF NOT EXISTS games ({', '.join(GAMES + later)})")
    db.execute(MOVES)
    if corrections:
        db.execute(CORRECTIONS)
    row = {
        "id": 1,
        "game": "antipalos",
        "size": 3,
        "variant": "two",
        "started": "2026-11-21T18:30:00Z",
        "finished": "2026-11-21T18:40:00Z",
        "result": "white wins by connection",
    }
    row.update({name: LATER[name] for name in (column.split()[0] for column in later)})
    with db:
        db.execute(
            f"INSERT INTO games ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", tuple(row.values())
        )
        db.execute(
            "INSERT INTO games (id, game, size, variant, started) VALUES"
            " (2, 'anti-grid', 6, 'plain', '2026-11-22T10:00:00Z')"
        )
        for game, ply, notation in (
            (1, 1, "A1*"),
            (1, 2, "*B2"),
            (1, 3, "C3*"),
            (2, 1, "a3-b3"),
            (2, 2, "f4-e4"),
        ):
            db.execute("INSERT INTO moves VALUES (?, ?, ?, '2026-11-22T10:00:01Z')", (game, ply, notation))
        if corrections:
            db.execute("INSERT INTO corrections VALUES (1, 2, '*C2', '*B2', 'x')")
    db.close()
    return row


def columns(path) -> list[str]:
    with sqlite3.connect(path) as db:
        return [row[1] for row in db.execute("PRAGMA table_info(games)")]


@pytest.mark.parametrize("release", SHIPPED)
def test_a_file_from_each_release_opens_with_its_games_and_the_schema_current(tmp_path, release):
    path = str(tmp_path / "games.db")
    row = shipped_file(path, release)
    storage = Storage(path)
    finished, running = storage.games()
    assert {name: getattr(finished, name) for name in row} == row
    assert finished.moves == ("A1*", "*B2", "C3*")
    assert (running.game, running.size, running.variant, running.moves) == (
        "anti-grid",
        6,
        "plain",
        ("a3-b3", "f4-e4"),
    )
    assert storage.unfinished().id == 2
    assert storage.corrections(1) == ([(2, "*C2", "*B2")] if SHIPPED[release][1] else [])
    new = storage.start(
        "phalanx", None, None, first="white", options="quiet-plies=50", opponent="computer black, level 2"
    )
    storage.add_move(new, 1, "a1se-a4sw")
    readings = '{"control": "60", "left": {"white": 59000.0}, "moves": {"white": 1}}'
    storage.set_clocks(new, 1, readings)  # version 9: the clocks after each move
    storage.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    fresh = str(tmp_path / "fresh.db")
    Storage(fresh).close()
    assert columns(path) == columns(fresh)
    again = Storage(path)  # opened again: nothing to do, nothing changed
    assert [g.moves for g in again.games()] == [("A1*", "*B2", "C3*"), ("a3-b3", "f4-e4"), ("a1se-a4sw",)]
    assert again.games(new)[0].opponent == "computer black, level 2"
    assert again.games(new)[0].clocks == (readings,) and again.games(1)[0].clocks == ()


@pytest.mark.parametrize("release", ["684e936", "53c8503"])
def test_an_old_file_read_only_is_read_as_today_s_and_left_as_it_was(tmp_path, release):
    path = str(tmp_path / "games.db")
    shipped_file(path, release)
    before = columns(path)
    storage = Storage(path, read_only=True)
    assert [g.moves for g in storage.games()] == [("A1*", "*B2", "C3*"), ("a3-b3", "f4-e4")]
    assert storage.games(1)[0].history is None
    storage.close()
    assert columns(path) == before
    with sqlite3.connect(path) as db:
        assert schema_version(db) == list(SHIPPED).index(release) + 1


def newer_file(path) -> str:
    """A games file a later reedboard wrote (a schema version beyond ours); its digest."""
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT, board BLOB);"
        f"INSERT INTO games (game) VALUES ('antipod'); PRAGMA user_version = "
        f"{SCHEMA_VERSION + 1};"
    )
    db.close()
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


@pytest.mark.parametrize("read_only", [False, True])
def test_a_file_from_a_newer_reedboard_is_refused_and_left_as_it_is(tmp_path, read_only):
    path = str(tmp_path / "games.db")
    digest = newer_file(path)
    with pytest.raises(NewerSchema) as refused:
        Storage(path, read_only=read_only)
    assert str(refused.value) == (
        f"{path} was written by a newer reedboard (games database version {SCHEMA_VERSION + 1};"
        f" this one knows up to {SCHEMA_VERSION}): update reedboard, or name another file"
        " (storage in the config)"
    )
    assert not refused.value.corrupt  # never set aside as damaged
    assert hashlib.sha256(open(path, "rb").read()).hexdigest() == digest
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)


def test_run_export_and_doctor_say_so_in_one_line(tmp_path, capsys):
    path = tmp_path / "games.db"
    digest = newer_file(str(path))
    config = tmp_path / "config.toml"
    config.write_text(f'storage = "{path}"\n')
    assert main(["export", "--config", str(config)]) == 2
    said = capsys.readouterr().err.splitlines()
    assert len(said) == 1 and said[0].startswith(f"reedboard export: {path} was written by a newer")
    assert main(["doctor", "--config", str(config)]) == 1
    assert f"FAIL  storage: {path} was written by a newer reedboard" in capsys.readouterr().out
    run = subprocess.run(
        [sys.executable, "-m", "firmware_host.cli.main", "run", "--sim", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert run.stderr.splitlines() == [
        f"reedboard run: {path} was written by a newer reedboard "
        f"(games database version {SCHEMA_VERSION + 1}; this one "
        f"knows up to {SCHEMA_VERSION}): update reedboard, or "
        "name another file (storage in the config)"
    ]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml", "games.db", "games.db.lock"]
