"""A league table across two paired boards (docs/cafe.md's pair, ``reedboard run --sim``
each): the round's ``table`` goes to one board, and both know who sits at both ends; each
player presses OK at their own board, they play, and the table is scored once though both
boards record the game."""

from __future__ import annotations

import json
import sqlite3

import pytest

from testbed.league_desk import one_table
from testbed.pairs import MOVES, play_across, small_pair
from tests.net.cafe.test_league_night import _open_tables, _overview, _wait, dashboard, league

pytestmark = pytest.mark.slow


def test_a_league_table_across_two_paired_boards_is_shared_and_scored_once(
    tmp_path, broker, watcher, boards, capsys
):
    running = small_pair(tmp_path, boards, {"home": broker.port, "friend": broker.port})
    with dashboard(tmp_path, broker.port, ["home"]) as (config, url):
        assert "home: table 1 sent, ok" in one_table(config, "Pairs")

        # both boards know the table and who sits at both ends; Anna plays at home, Ben at friend
        table = {"event": "Pairs", "round": 1, "table": 1}
        for name in running:
            state = watcher.state(name, lambda s: s["league"] == table and s["ready"] == "Anna: press OK")
            assert state["players"] == ["Anna", "Ben"] and state["screen"][0] == "Table 1: Anna – Ben"
        running["home"].press("ok")
        for name in running:
            watcher.state(name, lambda s: s["league"] == table and s["ready"] == "Ben: press OK")
        # home's screen sends Ben to his own board, where he presses OK
        watcher.state("home", lambda s: s["league"] == table and "Ben: OK at the other board" in s["screen"])
        running["friend"].press("ok")
        for name in running:
            watcher.state(name, lambda s: s["league"] == table and s["ready"] is None)

        play_across(running, MOVES, hears=lambda other: watcher)
        for name in running:
            over = watcher.state(name, lambda s: s["league"] == table and s["winner"] is not None)
            assert over["winner"] == "white" and over["players"] == ["Anna", "Ben"]

        # both boards' records reach the archive with the table; it is scored once
        database = tmp_path / "cafe.db"
        query = "SELECT board FROM games WHERE league_event = 'Pairs'"
        _wait(lambda: _boards(database, query) == ["friend", "home"], 20)
        _wait(lambda: _open_tables(url) == [], 20, lambda: str(_overview(url)))
        capsys.readouterr()
        assert league(config, "standings", "--json") == 0
        rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)["standings"]}
        assert {n: (r["points"], r["played"], r["rating"]["games"]) for n, r in rows.items()} == {
            "Anna": (1.0, 1, 1),
            "Ben": (0.0, 1, 1),
        }


def _boards(database, query: str) -> list[str]:
    with sqlite3.connect(database) as db:
        try:
            return sorted(row[0] for row in db.execute(query))
        except sqlite3.OperationalError:  # the dashboard has not made its tables yet
            return []
