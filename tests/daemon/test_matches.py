"""Match play on the board: storage, the controller's score and events, resume, config, menu."""

from __future__ import annotations

import sqlite3

from firmware_host.storage import ADDED_COLUMNS, Storage


# -------------------------------------------------------------------------------- storage
def test_a_match_s_games_share_the_first_game_s_id(tmp_path):
    db = Storage(str(tmp_path / "games.db"))
    single = db.start("phalanx", None, "standard")
    first = db.start("antipalos", 3, "two", match_target=6)
    db.finish(first, "white wins by connection", "white")
    other = db.start("antipalos", 3, "two", match_target=9)
    second = db.start("antipalos", 3, "two", match_of=first, match_target=6)
    db.add_move(second, 1, "A1*")
    assert [g.id for g in db.match_games(first)] == [first, second]
    assert [g.id for g in db.match_games(other)] == [other]
    record = db.unfinished()
    assert (record.id, record.match_of, record.match_target, record.moves) == (
        second, first, 6, ("A1*",))
    assert db.games(single)[0].match_of is None and db.games(single)[0].match_target is None


def test_a_database_from_before_the_match_columns_is_upgraded(tmp_path):
    path = str(tmp_path / "old.db")
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, size INTEGER,"
        " variant TEXT, started TEXT NOT NULL, finished TEXT, result TEXT, winner TEXT);"
        "INSERT INTO games (game, size, variant, started) VALUES ('antipalos', 3, 'two', 'x');"
    )
    old.commit()
    old.close()
    db = Storage(path)
    columns = [row[1] for row in sqlite3.connect(path).execute("PRAGMA table_info(games)")]
    assert columns[-len(ADDED_COLUMNS):] == list(ADDED_COLUMNS)
    assert db.unfinished().match_of is None
    game = db.start("antipalos", 3, "two", match_target=15)
    assert db.match_games(game)[0].match_target == 15
    db.close()
    assert Storage(path).games()[0].id == 1  # opening it again adds nothing
