"""A league table across two cafés bridged as docs/cafe.md configures them (two real Mosquittos,
north's bridge logging in to south's TLS listener): board ``home`` behind north is paired with
board ``friend`` behind south; the league, in the PostgreSQL both cafés' dashboards share, sends
its table to home, both boards know it, each player presses OK at their own board, and the
table is scored once though both dashboards hear both boards' records."""

from __future__ import annotations

import io
import json

import pytest

from firmware_host.league.store import LeagueStore
from firmware_host.net.cafe.archive import Archive
from firmware_host.net.cafe.run import start
from firmware_host.store.config import Mqtt
from testbed.broker import Watcher
from tests.net.cafe.test_league_night import _wait, league
from tests.net.mqtt.test_bridged_cafes import MOVES, bridged
from tests.net.mqtt.test_paired_games import docs_pair, latest, on_this_machine

pytestmark = pytest.mark.slow


def test_a_league_table_across_two_bridged_cafes_is_scored_once(tmp_path, boards, postgres, capsys):
    north, south = bridged(tmp_path)
    database = postgres.database()
    served, watchers = [], {}
    try:
        for cafe, broker in (("north", north), ("south", south)):
            watchers[cafe] = Watcher(broker.port, "reedboard/#")
            league_of = (LeagueStore.open(database), ("home",))
            served.append(
                start(
                    Mqtt(),
                    "127.0.0.1",
                    broker.port,
                    "127.0.0.1",
                    0,
                    None,
                    io.StringIO(),
                    Archive.open(database),
                    league=league_of,
                )
            )
        configs, running = docs_pair(), {}
        for name, broker in (("home", north), ("friend", south)):
            path = on_this_machine(tmp_path, name, configs[name], broker.port)
            path.write_text("size = 3\n" + path.read_text())
            running[name] = boards(path)
        for board in running.values():
            board.wait_running()
        config = tmp_path / "north-cafe.toml"  # the arbiter in north, on the shared archive
        config.write_text(
            f'[mqtt]\nhost = "127.0.0.1"\nport = {north.port}\n\n[archive]\nurl = "{database}"\n\n'
            '[league]\ntables = ["home"]\n'
        )
        assert league(config, "new", "Two cafés", *"--game antipalos --size 3 --rounds 1".split()) == 0
        for name in ("Anna", "Ben"):
            assert league(config, "player", "add", name) == 0
        assert league(config, "register", "Anna", "Ben") == 0
        capsys.readouterr()
        assert league(config, "pair") == 0
        assert "home: table 1 sent, ok" in capsys.readouterr().out

        table = {"event": "Two cafés", "round": 1, "table": 1}
        south_sees = watchers["south"]
        for name in running:  # south's café sees both boards seated for the table
            south_sees.state(name, lambda s: s["league"] == table and s["players"] == ["Anna", "Ben"])
        running["home"].press("ok")
        south_sees.state("friend", lambda s: s["league"] == table and s["ready"] == "Ben: press OK")
        running["friend"].press("ok")
        for name in running:
            south_sees.state(name, lambda s: s["league"] == table and s["ready"] is None)
        for ply, move in enumerate(MOVES, 1):
            mover, other = ("home", "friend") if ply % 2 else ("friend", "home")
            running[mover].place(move)
            latest(
                south_sees,
                f"reedboard/{other}/events",
                lambda e, m=move: e.get("move") == m and e["event"] == "expect",
            )
            running[other].place(move)
            south_sees.state(other, lambda s, ply=ply: s["ply"] == ply)

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
    finally:
        for watcher in watchers.values():
            watcher.close()
        for link, server in served:
            link.stop()
            server.stop()
        north.stop()
        south.stop()
