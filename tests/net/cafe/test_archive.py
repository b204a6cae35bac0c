"""The café's archive in SQLite and in PostgreSQL (a throw-away cluster on a loopback port):
the same games kept, replaced when sent again, listed, read back as ``reedboard export`` writes
them; a database that goes away is said and written to once it is back."""

from __future__ import annotations

import json
import sqlite3
import time

import pytest

from firmware_host.net.cafe import archive as archive_module
from firmware_host.net.cafe.archive import Archive, ArchiveError, positions, read_record
from firmware_host.net.cafe.fleet import Fleet
from firmware_host.net.mqtt import topics
from firmware_host.net.mqtt.untrusted import Bad

GAME = {
    "id": 4,
    "game": "antipalos",
    "size": 3,
    "variant": "two",
    "started": "2026-11-23T20:01:00Z",
    "finished": "2026-11-23T20:09:00Z",
    "result": "white wins by connection",
    "winner": "white",
    "opponent": "board t2, black",
    "moves": ["A1*", "A3*", "B2*", "C1*", "C3*"],
}


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.broker)])
def archive(request, tmp_path):
    if request.param == "sqlite":
        return Archive.open(None, str(tmp_path))
    pytest.importorskip("psycopg")
    return Archive.open(request.getfixturevalue("postgres").database())


def test_games_kept_listed_and_read_back_as_records(archive):
    first = read_record(json.dumps(GAME).encode())
    archive.store("t1", first)
    archive.store("t1", first)  # the retained record again (a reconnection): no second game
    second = read_record(
        json.dumps(
            {
                **GAME,
                "id": 5,
                "finished": "2026-11-23T21:00:00Z",
                "moves": GAME["moves"][:4],
                "result": None,
                "winner": None,
            }
        ).encode()
    )
    archive.store("t1", second)
    archive.store("t2", read_record(json.dumps(GAME).encode()))
    listed = archive.games("t1")
    assert [(g["key"], g["plies"]) for g in listed] == [(second["key"], 4), (first["key"], 5)]
    game = archive.game("t1", first["key"])
    assert game["moves"] == GAME["moves"] and game["text"] == first["text"]
    assert '[Opponent "board t2, black"]' in game["text"] and "1. A1*; A3*" in game["text"]
    assert [len(p.occupied()) for p in positions(game)] == [0, 1, 2, 3, 4, 5]
    day = archive.day("t1", "2026-11-23T00:00:00Z")  # the latest first, as every list
    assert [(g["key"], g["game"]) for g in day] == [
        (second["key"], "Antipalos 3"),
        (first["key"], "Antipalos 3"),
    ]
    assert archive.game("t1", "nope") is None and archive.boards() == ["t1", "t2"]


def test_a_taken_back_game_finished_anew_replaces_the_first(archive):
    archive.store("t1", read_record(json.dumps(GAME).encode()))
    other = {**GAME, "moves": ["A1*", "A3*", "B2*", "C3*", "C1*"]}
    archive.store("t1", read_record(json.dumps(other).encode()))
    (only,) = archive.games("t1")
    assert archive.game("t1", only["key"])["moves"] == other["moves"]


def test_names(archive):
    archive.set_name("t1", "Window table")
    archive.set_name("t2", "Bar")
    archive.set_name("t2", None)
    assert archive.flush()
    assert archive.names() == {"t1": "Window table"}


def test_a_postgres_that_goes_away_is_written_to_when_it_is_back(postgres, capfd):
    pytest.importorskip("psycopg")
    archive = Archive.open(postgres.database())
    postgres.stop()
    try:
        with pytest.raises(ArchiveError, match="the archive is unavailable"):
            archive.games("t1")
        archive.add("t1", read_record(json.dumps(GAME).encode()))
        assert archive.waiting == 1
    finally:
        postgres.start_again()
    assert archive.flush(30)
    assert len(archive.games("t1")) == 1
    journal = capfd.readouterr().err.splitlines()
    assert [line.split(":")[1] for line in journal] == [
        " the archive (127.0.0.1",
        " the archive (127.0.0.1",
    ]  # away, then back: one line each
    assert "is unavailable" in journal[0] and "is back" in journal[1]


def test_a_hung_postgres_holds_up_no_reader_and_loses_no_game(postgres, capfd):
    """The server stopped (SIGSTOP: as a network that drops packets) while games arrive: the
    names and today's games answer from memory, a page of the archive says it is unavailable,
    the games wait; the server back, each is written once, in order, the latest version."""
    pytest.importorskip("psycopg")
    url = postgres.database()
    archive = Archive.open(url)
    archive.set_name("t1", "Window table")
    assert archive.flush()
    postgres.pause()
    try:
        first, second = (read_record(json.dumps({**GAME, "id": n}).encode()) for n in (4, 5))
        archive.add("t1", first)
        archive.add("t2", second)
        again = read_record(
            json.dumps({**GAME, "id": 4, "moves": GAME["moves"][:4], "result": None, "winner": None}).encode()
        )
        archive.add("t1", again)  # taken back and finished anew while waiting: replaces it
        archive.set_name("t2", "Bar")
        assert archive.names() == {"t1": "Window table", "t2": "Bar"}
        assert [g["moves"] for g in archive.day("t1", "2026-11-23T00:00:00Z")] == [4]
        with pytest.raises(ArchiveError, match="the archive is unavailable"):
            archive.games("t1")
        assert not archive.flush(archive_module.CALL_LIMIT + 1)  # the hung call cut off
        assert "is unavailable: no answer within 5 s" in capfd.readouterr().err
        with pytest.raises(ArchiveError, match="the archive is unavailable"):
            archive.game("t1", first["key"])
        assert archive.waiting == 3 and archive.names()["t2"] == "Bar"
    finally:
        postgres.resume()
    assert archive.flush(30)
    assert [(g["key"], g["plies"]) for g in archive.games("t1")] == [(first["key"], 4)]
    assert [g["key"] for g in archive.games("t2")] == [second["key"]]
    assert Archive.open(url).names() == {"t1": "Window table", "t2": "Bar"}
    assert "is back" in capfd.readouterr().err


def test_a_locked_sqlite_file_holds_up_no_reader(tmp_path):
    """Another program holds the file's lock: the game waits, the names and today's games
    answer from memory; the lock released, the game is written."""
    archive = Archive.open(None, str(tmp_path))
    archive.set_name("t1", "Window table")
    assert archive.flush()
    other = sqlite3.connect(tmp_path / "cafe.db", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        archive.add("t1", read_record(json.dumps(GAME).encode()))
        assert archive.names() == {"t1": "Window table"}
        assert [g["moves"] for g in archive.day("t1", "2026-11-23T00:00:00Z")] == [5]
        assert not archive.flush(0.5)
    finally:
        other.execute("COMMIT")
        other.close()
    assert archive.flush(30)
    assert [g["plies"] for g in archive.games("t1")] == [5]


def test_a_full_queue_is_said_once_and_keeps_what_it_has(monkeypatch, capfd):
    monkeypatch.setattr(archive_module, "PENDING", 2)
    archive = Archive.open("postgresql://nobody@127.0.0.1:1/none")  # nothing listens there
    for n in (4, 5, 6, 7):
        archive.add("t1", read_record(json.dumps({**GAME, "id": n}).encode()))
    assert archive.waiting == 2
    assert [g["key"][0] for g in archive.day("t1", "2026-11-23T00:00:00Z")] == ["7", "6", "5", "4"]
    journal = capfd.readouterr().err
    assert journal.count("queue is full") == 1 and journal.count("is unavailable") == 1


def test_an_archive_that_cannot_be_opened_says_why(tmp_path, capfd):
    with pytest.raises(ArchiveError, match="url must be"):
        Archive.open("mysql://x")
    archive = Archive.open("postgresql://nobody@127.0.0.1:1/none")  # away: said, and used
    assert "the archive (127.0.0.1:1/none) is unavailable: " in capfd.readouterr().err
    with pytest.raises(ArchiveError, match="the archive is unavailable"):
        archive.games("t1")
    archive.set_name("t1", "Window table")
    assert archive.names() == {"t1": "Window table"} and archive.waiting == 1


def test_a_game_the_database_refuses_is_said_and_holds_up_no_other(archive, capfd):
    refused = read_record(json.dumps({**GAME, "opponent": "\ud800"}).encode())  # a lone surrogate
    archive.add("t1", refused)
    archive.add("t1", read_record(json.dumps({**GAME, "id": 5}).encode()))
    assert archive.flush()
    assert [g["key"][0] for g in archive.games("t1")] == ["5"]
    assert f"refused the game {refused['key']} from t1" in capfd.readouterr().err


def test_a_worker_that_dies_is_started_again_and_makes_its_write(tmp_path, monkeypatch):
    archive = Archive.open(None, str(tmp_path))
    store, calls = Archive._store, []

    def dies_once(self, board, game):
        calls.append(board)
        if len(calls) == 1:
            raise KeyboardInterrupt  # not the database: the worker's thread ends
        store(self, board, game)

    monkeypatch.setattr(Archive, "_store", dies_once)
    archive.add("t1", read_record(json.dumps(GAME).encode()))
    assert not archive.flush(0.2) and archive.waiting == 1
    said = None
    for _ in range(50):
        if said := archive.check():
            break
        time.sleep(0.1)
    assert said == "archive: its thread ended (KeyboardInterrupt); it is started again"
    assert archive.flush() and [g["plies"] for g in archive.games("t1")] == [5]


def test_tables_seen_while_the_database_is_away_get_their_names_and_games_once_it_is_back(postgres):
    """A dashboard restarted with its PostgreSQL away shows its tables at once, by their ids;
    the database back, each tile takes its name and today's games."""
    psycopg = pytest.importorskip("psycopg")
    url = postgres.database()
    before = Archive.open(url)
    before.set_name("t1", "Window table")
    before.store("t1", read_record(json.dumps({**GAME, "finished": topics.utc_now()}).encode()))
    with psycopg.connect(url, autocommit=True) as db:  # on disk before the immediate stop
        db.execute("CHECKPOINT")  # (synchronous_commit is off: the last instants may be lost)
    postgres.stop()
    try:
        fleet, seen = Fleet(Archive.open(url)), []
        fleet.listener = seen.append
        fleet.receive("reedboard/t1/state", json.dumps({"game": "antipalos", "size": 3}).encode())
        assert (seen[-1]["name"], seen[-1]["games"]) == ("t1", [])
    finally:
        postgres.start_again()
    for _ in range(300):
        if seen[-1]["name"] != "t1":
            break
        time.sleep(0.1)
    assert seen[-1]["name"] == "Window table"
    assert [g["result"] for g in seen[-1]["games"]] == ["white wins by connection"]


def test_a_record_dated_in_the_future_or_with_a_side_not_of_its_game_is_not_kept(
    tmp_path, broker, watcher, cafe
):
    """An outsider on the café network publishes records: one finished in 9999 (it would head
    every day's list), one whose first player is "purple", one whose winner is, one dated on a day
    no calendar has, one finished before it began. None is kept, each for a one-line reason; a
    true record after them is kept."""
    archive = Archive.open(None, str(tmp_path / "cafe"))
    cafe(archive=archive)
    bad = [
        ("t8", {**GAME, "finished": "9999-12-31T23:59:59Z"}, "is in the future"),
        ("t8", {**GAME, "id": 5, "first": "purple"}, "purple"),
        (
            "t8",
            {
                **GAME,
                "id": 10,
                "game": "phalanx",
                "size": None,
                "variant": None,
                "winner": None,
                "moves": [],
                "first": "purple",
            },
            "first: 'purple' is no side",
        ),
        ("t8", {**GAME, "id": 6, "winner": "purple"}, "winner: 'purple' is no side"),
        ("t8", {**GAME, "id": 7, "finished": "2026-02-30T10:00:00Z"}, "is no date"),
        ("t8", {**GAME, "id": 8, "finished": "2026-11-23T19:00:00Z"}, "before the game started"),
    ]
    for board, game, _ in bad:
        watcher.client.publish(
            f"reedboard/{board}/record", json.dumps(game), qos=1, retain=True
        ).wait_for_publish(5)
    watcher.client.publish(
        "reedboard/t8/record", json.dumps({**GAME, "id": 9}), qos=1, retain=True
    ).wait_for_publish(5)
    deadline = time.monotonic() + 10
    while not archive.games("t8"):
        assert time.monotonic() < deadline, "the true record was not kept"
        time.sleep(0.05)
    assert [g["key"].split("-")[0] for g in archive.games("t8")] == ["9"]
    for _, game, why in bad:
        with pytest.raises(Bad, match=why):
            read_record(json.dumps(game).encode())
