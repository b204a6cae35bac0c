"""The archive keeps each game's players and league round, also in an archive made before it
kept them (its games table gets the columns when the dashboard opens it, its games stay)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from firmware_host.net.cafe.archive import Archive, read_record
from firmware_host.net.mqtt.untrusted import Bad

#: The games table as the first release of the archive made it.
OLD = (
    "CREATE TABLE games (n INTEGER PRIMARY KEY, board TEXT NOT NULL, key TEXT NOT NULL, "
    "game_id INTEGER NOT NULL, game TEXT NOT NULL, size INTEGER, variant TEXT, "
    "started TEXT NOT NULL, finished TEXT, result TEXT, winner TEXT, first TEXT, "
    "options TEXT, opponent TEXT, match_of INTEGER, match_target INTEGER, plies INTEGER NOT NULL, "
    "moves TEXT NOT NULL, text TEXT NOT NULL, received TEXT NOT NULL, UNIQUE (board, key))"
)
GAME = {
    "id": 4,
    "game": "antipalos",
    "size": 3,
    "variant": "two",
    "started": "2026-11-26T20:01:00Z",
    "finished": "2026-11-26T20:09:00Z",
    "result": "white wins by connection",
    "winner": "white",
    "moves": ["A1*", "A3*", "B2*", "C1*", "C3*"],
}


def test_an_archive_from_before_players_keeps_its_games_and_takes_a_league_game(tmp_path):
    path = tmp_path / "cafe.db"
    with sqlite3.connect(path) as db:
        db.execute(OLD)
        db.execute(
            "INSERT INTO games (board, key, game_id, game, started, plies, moves, text, received) "
            "VALUES ('t1', '1-x', 1, 'antipalos', '2026-11-20T20:00:00Z', 0, '[]', '', '')"
        )
    archive = Archive.open(f"sqlite:///{path}")
    league = {"event": "Thursday league", "round": 2, "table": 3}
    game = read_record(json.dumps({**GAME, "players": ["Anna", "Ben"], "league": league}).encode())
    archive.store("t2", game)
    assert [g["key"] for g in archive.games("t1")] == ["1-x"]  # the old game stays, nobody named
    assert archive.games("t1")[0]["players"] == []
    found = archive.league_game("Thursday league", 2, 3)
    assert found["board"] == "t2" and found["players"] == ["Anna", "Ben"] and found["winner"] == "white"
    assert archive.league_game("Thursday league", 2, 4) is None
    assert '[Player1 "Anna"]' in found["text"] and '[Round "2"]' in found["text"]


def test_a_record_with_a_name_that_is_no_name_is_refused():
    for names, why in (
        (["Anna", " "], "players: name 2 is empty"),
        (["Anna", "B\tn"], "players: item 1: unexpected text"),
    ):
        with pytest.raises(Bad, match=why):
            read_record(json.dumps({**GAME, "players": names}).encode())
