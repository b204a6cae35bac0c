"""The league's store in the café archive's SQLite file: kept across restarts, refusals change
nothing, results found in the archive by event, round and table."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from firmware_host.league.model import Event, LeagueError
from firmware_host.league.store import MIGRATIONS, LeagueStore
from firmware_host.net.cafe.archive import Archive, read_record

PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]


def _evening(path: Path) -> LeagueStore:
    store = LeagueStore.open(f"sqlite://{path}")
    for name in PLAYERS:
        store.add_player(name)
    store.new_event(Event("Thursday", "antipalos", 3, rounds=3))
    store.register(None, PLAYERS)
    return store


def _record(league: dict, players: list[str], winner: str = "white", game_id: int = 3) -> dict:
    """A board's finished Antipalos 3 game (white connects), as the archive reads it."""
    return read_record(
        json.dumps(
            {
                "id": game_id,
                "game": "antipalos",
                "size": 3,
                "variant": "two",
                "started": "2026-11-23T20:01:00Z",
                "finished": "2026-11-23T20:09:00Z",
                "result": f"{winner} wins by connection",
                "winner": winner,
                "moves": ["A1*", "A3*", "B2*", "C1*", "C3*"],
                "players": players,
                "league": league,
            }
        ).encode()
    )


def test_the_league_is_kept_across_restarts_and_migrated_once(tmp_path: Path) -> None:
    store = _evening(tmp_path / "cafe.db")
    tables = store.pair(boards=["table-1", "table-2"])
    store.close()
    again = LeagueStore.open(f"sqlite://{tmp_path / 'cafe.db'}")
    assert again.pairings() == tables and [t.board for t in tables] == ["table-1", "table-2"]
    version = sqlite3.connect(tmp_path / "cafe.db").execute("SELECT version FROM league_schema").fetchall()
    assert version == [(len(MIGRATIONS),)]


@pytest.mark.parametrize(
    "action, message",
    [
        (lambda s: s.add_player("Anna"), "a player is called 'Anna' already"),
        (lambda s: s.add_player(""), "a player's name is 1 to 24 printable characters"),
        (lambda s: s.register(None, ["Zed"]), "no player called 'Zed'"),
        (lambda s: s.set_result(None, 9, "1-0"), "round 1 has no table 9"),
        (lambda s: s.set_result(None, 1, "2-0"), "result '2-0': give 1-0, 0-1"),
        (lambda s: s.pair(), "round 1 is not over (table 1, 2 has no result)"),
        (lambda s: s.pair(boards=["table-1"], again=True), "2 tables needed, [league] tables names 1"),
        (lambda s: s.event("Friday"), "no event called 'Friday'"),
    ],
)
def test_a_refused_action_says_why_in_one_line_and_changes_nothing(tmp_path: Path, action, message) -> None:
    store = _evening(tmp_path / "cafe.db")
    store.pair()
    before = (store.players(), store.pairings(), store.entries())
    with pytest.raises(
        LeagueError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")
    ):
        action(store)
    assert (store.players(), store.pairings(), store.entries()) == before


def test_the_arbiter_corrects_forfeits_withdraws_and_pairs_again(tmp_path: Path) -> None:
    store = _evening(tmp_path / "cafe.db")
    first = store.pair()
    again = store.pair(again=True)
    assert again == first  # the same pairing: nothing played yet
    store.set_result(None, 1, "1-0")
    store.set_result(None, 1, "0-1")  # corrected
    store.set_result(None, 2, "+-")  # a forfeit: scores, is not rated
    rows = {r["name"]: r for r in store.standings()}
    white2, black2 = first[1].names
    assert rows[first[0].names[1]]["points"] == 1.0 and rows[white2]["points"] == 1.0
    assert rows[white2]["rating"] is None and rows[first[0].names[1]]["rating"]["games"] == 1
    store.withdraw(None, black2)
    second = store.pair()
    assert sorted(n for p in second for n in p.names) == sorted(set(PLAYERS) - {black2})
    assert [p.names for p in second if p.bye]  # three players: one has the bye
    assert {r["name"]: r["withdrawn"] for r in store.standings()}[black2] is True


def test_a_boards_game_gives_its_table_its_result_through_the_archive(tmp_path: Path) -> None:
    archive = Archive.open(f"sqlite://{tmp_path / 'cafe.db'}")
    store = _evening(tmp_path / "cafe.db")
    tables = store.pair(boards=["table-1", "table-2"])
    archive.store("table-2", _record({"event": "Thursday", "round": 1, "table": 2}, list(tables[1].names)))
    # another event's game and a game whose players are not the table's are not this table's result
    archive.store(
        "table-1", _record({"event": "Friday", "round": 1, "table": 1}, list(tables[0].names), game_id=4)
    )
    archive.store("table-1", _record({"event": "Thursday", "round": 1, "table": 1}, ["X", "Y"], game_id=5))
    assert store.collect() == 1
    results = {p.table: p.points for p in store.pairings()}
    assert results == {1: None, 2: (1.0, 0.0)}
    assert store.collect() == 0  # recorded once
    row = archive.game("table-2", archive.games("table-2")[0]["key"])
    assert (row["players"], row["league_event"], row["league_round"], row["league_table"]) == (
        list(tables[1].names),
        "Thursday",
        1,
        2,
    )


def test_an_archive_made_before_the_league_gets_its_columns(tmp_path: Path) -> None:
    path = tmp_path / "cafe.db"
    old = sqlite3.connect(path)
    old.execute(
        "CREATE TABLE games (n INTEGER PRIMARY KEY, board TEXT NOT NULL, key TEXT NOT NULL, game_id INTEGER "
        "NOT NULL, game TEXT NOT NULL, size INTEGER, variant TEXT, started TEXT NOT NULL, finished TEXT, "
        "result TEXT, winner TEXT, first TEXT, options TEXT, opponent TEXT, match_of INTEGER, "
        "match_target INTEGER, plies INTEGER NOT NULL, moves TEXT NOT NULL, text TEXT NOT NULL, "
        "received TEXT NOT NULL, UNIQUE (board, key))"
    )
    old.commit()
    old.close()
    archive = Archive.open(f"sqlite://{path}")
    archive.store("table-1", _record({"event": "Thursday", "round": 1, "table": 1}, ["Anna", "Ben"]))
    assert archive.games("table-1")[0]["winner"] == "white"


def test_team_antipalos_scores_both_partners_from_the_boards_record(tmp_path: Path) -> None:
    store = LeagueStore.open(f"sqlite://{tmp_path / 'cafe.db'}")
    for name in PLAYERS:
        store.add_player(name)
    store.new_event(Event("Teams", "antipalos", 3, "team", format="pods", rounds=1))
    store.register(None, PLAYERS)
    (table,) = store.pair()
    record = {
        "key": "1-x",
        "winner": "black",
        "players": list(table.names),
        "league": {"event": "Teams", "round": 1, "table": 1},
    }
    assert store.record_game(record).points == (0.0, 1.0, 0.0, 1.0)  # seats 2 and 4: black's team
    rows = {r["name"]: r for r in store.standings()}
    winners = {table.names[1], table.names[3]}
    assert {n for n, r in rows.items() if r["points"] == 1.0} == winners
    partner = rows[table.names[1]]["rating"]
    assert partner["games"] == 1 and partner["history"][0]["round"] == 1 and partner["mu"] > 25


def test_a_round_robin_keeps_its_tables_when_a_player_withdraws(tmp_path: Path) -> None:
    store = LeagueStore.open(f"sqlite://{tmp_path / 'cafe.db'}")
    for name in PLAYERS:
        store.add_player(name)
    store.new_event(Event("Club", "anti-grid", 6, format="round-robin", rounds=3))
    store.register(None, PLAYERS)
    for table in store.pair():
        store.set_result(None, table.table, "1-0")
    store.withdraw(None, "Dan")
    second = store.pair()
    # Berger's round 2 for four: 4-3 1-2; Dan (4) withdrew: Cleo wins by forfeit, unplayed
    dans = next(p for p in second if "Dan" in p.names)
    assert set(dans.names) == {"Dan", "Cleo"} and dans.forfeit
    assert dans.points[dans.names.index("Cleo")] == 1.0
    assert next(p for p in second if "Anna" in p.names).points is None


def test_a_bye_asked_for_ahead_sits_the_player_out_with_half_a_point(tmp_path: Path) -> None:
    store = _evening(tmp_path / "cafe.db")
    assert store.bye(None, "Dan") == 1
    with pytest.raises(LeagueError, match="'Zed' is not playing in Thursday"):
        store.bye(None, "Zed")
    with pytest.raises(LeagueError, match="--points: a bye scores 0, 1/2 or 1"):
        store.bye(None, "Ben", 2)
    tables = store.pair()
    assert [p.names for p in tables] == [("Anna", "Ben"), ("Cleo",), ("Dan",)]
    assert [p.points for p in tables] == [None, (1.0,), (0.5,)]  # Cleo: the pairing's bye
    store.set_result(None, 1, "1-0")
    rows = {r["name"]: r["points"] for r in store.standings()}
    assert rows == {"Anna": 1.0, "Ben": 0.0, "Cleo": 1.0, "Dan": 0.5}


def test_a_league_made_by_an_older_version_is_migrated_on_opening(tmp_path: Path) -> None:
    path = tmp_path / "cafe.db"
    old = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:
        old.execute(statement)
    old.execute("CREATE TABLE league_schema (version INTEGER NOT NULL)")
    old.execute("INSERT INTO league_schema (version) VALUES (1)")
    old.execute("INSERT INTO league_players (name, tag, added) VALUES ('Anna', NULL, '2026-11-23T20:00:00Z')")
    old.commit()
    old.close()
    store = LeagueStore.open(f"sqlite://{path}")
    assert [p["name"] for p in store.players()] == ["Anna"]  # kept
    store.add_player("Ben")
    store.new_event(Event("Thursday", "anti-grid", 6))
    store.register(None, ["Anna", "Ben"])
    assert store.bye(None, "Ben") == 1  # the table migration 2 makes
    assert sqlite3.connect(path).execute("SELECT version FROM league_schema").fetchall() == [
        (len(MIGRATIONS),)
    ]
