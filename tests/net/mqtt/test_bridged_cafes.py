"""Two cafés whose brokers are bridged as docs/cafe.md ("Two cafés bridged") configures them:
two real Mosquittos on this machine, north's bridge logging in to south's TLS listener with its
own login and trusting a throwaway CA made for the test; a board behind north paired with a
board behind south (docs/cafe.md's pair) plays a game to its end, each café's dashboard shows
both tables, and the one archive both dashboards write to keeps both boards' records."""

from __future__ import annotations

import json
import time

from firmware_host.net.cafe.archive import Archive
from testbed.bridged import bridged_cafes
from testbed.pairs import MOVES, play_across, small_pair


def test_a_paired_game_across_two_bridged_cafes(tmp_path, boards, postgres):
    database = postgres.database()
    with bridged_cafes(tmp_path, database) as cafes:
        north, south = cafes.brokers.values()
        watchers = cafes.watchers
        running = small_pair(tmp_path, boards, {"home": north.port, "friend": south.port})
        for cafe, watcher in watchers.items():  # each café sees both boards, paired
            for name in running:
                state = watcher.state(name, lambda s: s["size"] == 3 and s["opponent"] is not None)
                assert state["opponent"].startswith("board ")
        play_across(
            running,
            MOVES,
            hears=lambda other: watchers["south"],
            moved=lambda mover, ply: watchers["north"].state(mover, lambda s: s["ply"] == ply),
        )
        for watcher in watchers.values():
            for name in running:
                over = watcher.state(name, lambda s: s["winner"] is not None)
                assert over["winner"] == "white" and over["moves"] == list(MOVES)
        # A command sent in south reaches the board behind north, and both cafés see its answer.
        players = {"command": "players", "names": ["Anna", "Ben"], "id": "from-south"}
        watchers["south"].publish("reedboard/home/command", json.dumps(players))
        for watcher in watchers.values():
            assert watcher.state("home", lambda s: s["players"] == ["Anna", "Ben"])["winner"] == "white"
        views = [{v["id"] for v in server.pages.fleet.views()} for _, server in cafes.served.values()]
        assert views == [{"home", "friend"}, {"home", "friend"}]  # each café's dashboard, both tables
        archive = Archive.open(database)
        deadline = time.monotonic() + 15
        while set(archive.boards()) != {"home", "friend"}:
            assert time.monotonic() < deadline, archive.boards()
            time.sleep(0.2)
        for name in running:
            (game,) = archive.games(name)
            assert game["winner"] == "white" and game["plies"] == len(MOVES)
