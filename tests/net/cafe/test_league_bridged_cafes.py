"""A league table across two cafés bridged as docs/cafe.md configures them (two real Mosquittos,
north's bridge logging in to south's TLS listener): board ``home`` behind north is paired with
board ``friend`` behind south; the league, in the PostgreSQL both cafés' dashboards share, sends
its table to home, both boards know it, each player presses OK at their own board, and the
table is scored once though both dashboards hear both boards' records."""

from __future__ import annotations

import json

import pytest

from firmware_host.league.store import LeagueStore
from firmware_host.net.cafe.archive import Archive
from testbed.bridged import bridged_cafes
from testbed.league_desk import one_table
from testbed.pairs import MOVES, play_across, small_pair
from tests.net.cafe.test_league_night import _wait, league

pytestmark = pytest.mark.slow


def test_a_league_table_across_two_bridged_cafes_is_scored_once(tmp_path, boards, postgres, capsys):
    database = postgres.database()
    with bridged_cafes(tmp_path, database, league=("home",)) as cafes:
        north, south = cafes.brokers.values()
        running = small_pair(tmp_path, boards, {"home": north.port, "friend": south.port})
        config = tmp_path / "north-cafe.toml"  # the arbiter in north, on the shared archive
        config.write_text(
            f'[mqtt]\nhost = "127.0.0.1"\nport = {north.port}\n\n[archive]\nurl = "{database}"\n\n'
            '[league]\ntables = ["home"]\n'
        )
        assert "home: table 1 sent, ok" in one_table(config, "Two cafés")

        table = {"event": "Two cafés", "round": 1, "table": 1}
        south_sees = cafes.watchers["south"]
        for name in running:  # south's café sees both boards seated for the table
            south_sees.state(name, lambda s: s["league"] == table and s["players"] == ["Anna", "Ben"])
        running["home"].press("ok")
        south_sees.state("friend", lambda s: s["league"] == table and s["ready"] == "Ben: press OK")
        running["friend"].press("ok")
        for name in running:
            south_sees.state(name, lambda s: s["league"] == table and s["ready"] is None)
        play_across(running, MOVES, hears=lambda other: south_sees)

        archive = Archive.open(database)
        _wait(lambda: sorted(archive.boards()) == ["friend", "home"], 20, lambda: str(archive.boards()))
        store = LeagueStore.open(database)
        _wait(lambda: store.pairings("Two cafés")[0].points is not None, 20)
        capsys.readouterr()
        assert league(config, "standings", "--json") == 0
        rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)["standings"]}
        assert {n: (r["points"], r["rating"]["games"]) for n, r in rows.items()} == {
            "Anna": (1.0, 1),
            "Ben": (0.0, 1),
        }
        store.close()
