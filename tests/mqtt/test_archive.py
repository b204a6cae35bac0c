"""The café's archive in SQLite and in PostgreSQL (a throw-away cluster on a loopback port):
the same games kept, replaced when sent again, listed, read back as ``reedboard export`` writes
them; a database that goes away is said and written to once it is back."""

from __future__ import annotations

import json
import time

import pytest

from firmware_host.net.cafe.archive import Archive, ArchiveError, positions, read_record
from firmware_host.net.mqtt.untrusted import Bad

GAME = {"id": 4, "game": "antipalos", "size": 3, "variant": "two",
        "started": "2026-11-23T20:01:00Z", "finished": "2026-11-23T20:09:00Z",
        "result": "white wins by connection", "winner": "white", "opponent": "board t2, black",
        "moves": ["A1*", "A3*", "B2*", "C1*", "C3*"]}


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
    second = read_record(json.dumps({**GAME, "id": 5, "finished": "2026-11-23T21:00:00Z",
                                     "moves": GAME["moves"][:4], "result": None,
                                     "winner": None}).encode())
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
        (second["key"], "Antipalos 3"), (first["key"], "Antipalos 3")]
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
    with pytest.raises(ArchiveError):
        archive.games("t1")
    archive.add("t1", read_record(json.dumps(GAME).encode()))
    postgres.start_again()
    assert archive.flush(20)
    assert len(archive.games("t1")) == 1
    assert "cannot write the archive" in capfd.readouterr().err


def test_an_archive_that_cannot_be_opened_says_why(tmp_path):
    with pytest.raises(ArchiveError, match="url must be"):
        Archive.open("mysql://x")
    with pytest.raises(ArchiveError, match="cannot open the archive"):
        Archive.open("postgresql://nobody@127.0.0.1:1/none")


def test_a_record_dated_in_the_future_or_with_a_side_not_of_its_game_is_not_kept(
        tmp_path, broker, watcher, cafe):
    """An outsider on the café network publishes records: one finished in 9999 (it would head
    every day's list), one whose first player is "purple", one whose winner is, one dated on a day
    no calendar has, one finished before it began. None is kept, each for a one-line reason; a
    true record after them is kept."""
    archive = Archive.open(None, str(tmp_path / "cafe"))
    cafe(archive=archive)
    bad = [("t8", {**GAME, "finished": "9999-12-31T23:59:59Z"}, "is in the future"),
           ("t8", {**GAME, "id": 5, "first": "purple"}, "purple"),
           ("t8", {**GAME, "id": 10, "game": "phalanx", "size": None, "variant": None,
                   "winner": None, "moves": [], "first": "purple"}, "first: 'purple' is no side"),
           ("t8", {**GAME, "id": 6, "winner": "purple"}, "winner: 'purple' is no side"),
           ("t8", {**GAME, "id": 7, "finished": "2026-02-30T10:00:00Z"}, "is no date"),
           ("t8", {**GAME, "id": 8, "finished": "2026-11-23T19:00:00Z"}, "before the game started")]
    for board, game, _ in bad:
        watcher.client.publish(f"reedboard/{board}/record", json.dumps(game), qos=1,
                               retain=True).wait_for_publish(5)
    watcher.client.publish("reedboard/t8/record", json.dumps({**GAME, "id": 9}), qos=1,
                           retain=True).wait_for_publish(5)
    deadline = time.monotonic() + 10
    while not archive.games("t8"):
        assert time.monotonic() < deadline, "the true record was not kept"
        time.sleep(0.05)
    assert [g["key"].split("-")[0] for g in archive.games("t8")] == ["9"]
    for _, game, why in bad:
        with pytest.raises(Bad, match=why):
            read_record(json.dumps(game).encode())
