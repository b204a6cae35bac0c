"""The dashboard's fleet on its own: what a board publishes is checked before it is shown, a
broker that comes back is not every table offline, alerts, names, the day's games."""

from __future__ import annotations

import contextlib
import json
import random
from datetime import datetime, timezone

import pytest

from engines import GAME_NAMES, game_info, new_game
from firmware_host.net.cafe import fleet as fleet_module
from firmware_host.net.cafe.archive import Archive
from firmware_host.net.cafe.clock import Clock, zone
from firmware_host.net.cafe.fleet import Fleet
from firmware_host.net.cafe.server import Dashboard
from firmware_host.net.mqtt import topics
from firmware_host.net.mqtt.topics import day_json
from firmware_host.net.mqtt.untrusted import Bad
from firmware_host.store.storage import Storage
from firmware_host.ui.screens import status_screen
from firmware_host.ui.stats import today

STATE = {
    "game": "antipalos",
    "title": "Antipalos 3",
    "size": 3,
    "variant": "two",
    "moves": ["A1*"],
    "ply": 1,
    "to_move": "black",
    "sync": "in_sync",
    "screen": ["a", "b"],
    "today": {"played": 1, "results": {}, "running": 1, "last": None},
    "brightness": 0.5,
}
RECORD = {
    "id": 4,
    "game": "antipalos",
    "size": 3,
    "variant": "two",
    "started": "2026-11-23T20:01:00Z",
    "finished": "2026-11-23T20:09:00Z",
    "result": "white wins by connection",
    "winner": "white",
    "moves": ["A1*", "A3*", "B2*", "C1*", "C3*"],
}


def _fleet(archive=None) -> tuple[Fleet, list]:
    fleet, seen = Fleet(archive), []
    fleet.listener = seen.append
    fleet.receive("reedboard/t1/availability", b"online")
    fleet.receive("reedboard/t1/state", json.dumps(STATE).encode())
    return fleet, seen


@pytest.mark.parametrize(
    "change",
    [
        {"moves": 5},
        {"moves": [5]},
        {"screen": "oops"},
        {"screen": [["x"]]},
        {"ply": -1},
        {"ply": "1"},
        {"ply": True},
        {"brightness": 7},
        {"brightness": "0.5"},
        {"sync": "maybe"},
        {"today": {"played": "many"}},
        {"today": []},
        {"today": {"played": 1, "results": {"w": -1}, "running": 0, "last": None}},
        {"title": "x" * 500},
        {"moves": ["A" * 100]},
        {"moves": ["ok"] * 30_000},
        {"last_move_at": "yesterday"},
        {"game": None},
        {"game": 3},
        {"missing": {"a": 1}},
        {"status": "line\nbreak"},
        {"hardware": ["broken"]},
    ],
)
def test_a_bad_state_is_dropped_whole_and_the_table_keeps_what_it_had(change):
    fleet, seen = _fleet()
    with pytest.raises(Bad):
        fleet.receive("reedboard/t1/state", json.dumps({**STATE, **change}).encode())
    assert seen[-1]["state"]["ply"] == 1 and fleet.tables["t1"].pieces


PLAYABLE = [
    {"game": "antipalos", "size": 3, "variant": "two", "title": "Antipalos 3"},
    {"game": "antipode", "size": None, "variant": "rulebook", "title": "Antipode rulebook"},
]


@pytest.mark.parametrize(
    "playable",
    [
        "every game",
        [{"game": "antipalos"}],
        [{"game": "antipalos", "title": "A", "size": "3"}],
        [{"game": "antipalos", "title": "x" * 500}],
        PLAYABLE * 200,
    ],
)
def test_the_games_a_board_plays_are_checked_too(playable):
    fleet, seen = _fleet()
    with pytest.raises(Bad):
        fleet.receive("reedboard/t1/games", json.dumps({"playable": playable}).encode())
    fleet.receive("reedboard/t1/games", json.dumps({"playable": PLAYABLE}).encode())
    assert seen[-1]["state"]["playable"] == PLAYABLE
    good = {**STATE, "games": ["antipalos", "antipode"], "choice": "Antipalos 3"}
    fleet.receive("reedboard/t1/state", json.dumps(good).encode())
    # A state's change leaves the list out (the page keeps it); a page opened now has it.
    assert "playable" not in seen[-1]["state"] and seen[-1]["state"]["choice"] == "Antipalos 3"
    assert fleet.views()[0]["state"]["playable"] == PLAYABLE
    fleet.receive("reedboard/t1/games", b"")  # retired: cleared
    assert seen[-1]["state"]["playable"] == [] == fleet.views()[0]["state"]["playable"]


@pytest.mark.parametrize(
    "topic, payload",
    [
        ("reedboard/t1/state", b"\xff\xfe"),
        ("reedboard/t1/state", b"[" * 5000),
        ("reedboard/t1/state", b'"text"'),
        ("reedboard/t1/state", b"NaN"),
        ("reedboard/t1/availability", b"maybe"),
        ("reedboard/t1/reply", b'{"ok": "yes"}'),
        ("reedboard/t1/reply", b'{"ok": true, "id": [1]}'),
        ("reedboard/T1/state", b"{}"),
        ("reedboard/#/state", b"{}"),
        ("reedboard/t1/record", b'{"id": 1}'),
        ("reedboard/t1/record", json.dumps({**RECORD, "moves": ["A1*", "A1*"]}).encode()),
        ("reedboard/t1/record", json.dumps({**RECORD, "game": "chess"}).encode()),
        ("reedboard/t1/record", json.dumps({**RECORD, "size": 99}).encode()),
    ],
)
def test_anything_else_not_a_board_would_send_is_dropped(topic, payload):
    fleet, seen = _fleet()
    with pytest.raises(Bad):
        fleet.receive(topic, payload)
    assert len(seen) == 2 and fleet.tables["t1"].online and set(fleet.tables) == {"t1"}


class Timer:
    """The fleet's monotonic clock, moved on by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _timed_fleet(boards=("t1",)) -> tuple[Fleet, list, list, Timer]:
    """A fleet on its broker with ``boards`` online, its timer, what it showed and alerted."""
    timer = Timer()
    fleet, seen, alerts = Fleet(timer=timer), [], []
    fleet.listener, fleet.on_alert = seen.append, alerts.append
    fleet.broker(True)
    for board in boards:
        fleet.receive(f"reedboard/{board}/availability", b"online")
        fleet.receive(f"reedboard/{board}/state", json.dumps(STATE).encode())
    return fleet, seen, alerts, timer


def _flags(fleet: Fleet) -> dict[str, str]:
    return {
        board: "offline" if not v["online"] else "reconnecting" if v["reconnecting"] else "online"
        for board, v in ((v["id"], v) for v in fleet.views())
    }


def test_a_broker_restart_is_no_table_offline_from_the_wills_to_the_grace_after_it_is_back():
    """The broker going down sends the boards' last wills a moment before the dashboard
    notices its own link is gone: no table is called offline, nothing alerted, until the grace
    period counted from the dashboard's return; then a board that stayed away is, whether its
    will reached the dashboard (t3) or not (t4)."""
    fleet, seen, alerts, timer = _timed_fleet(("t1", "t2", "t3", "t4"))
    for board in ("t1", "t2", "t3"):  # the wills, as the broker shuts down (t4's is lost)
        fleet.receive(f"reedboard/{board}/availability", b"offline")
    timer.now += 0.5
    fleet.broker(False)  # then the dashboard notices
    for _ in range(20):  # 20 s of outage
        timer.now += 1
        fleet.tick()
    assert _flags(fleet) == {**dict.fromkeys(("t1", "t2", "t3"), "reconnecting"), "t4": "online"}
    assert not alerts
    fleet.broker(True)
    fleet.receive("reedboard/t3/availability", b"offline")  # a will the broker kept
    timer.now += 5
    fleet.receive("reedboard/t1/availability", b"online")  # the boards come back
    fleet.receive("reedboard/t2/availability", b"online")
    timer.now += fleet_module.GRACE - 6
    fleet.tick()
    assert _flags(fleet) == {"t1": "online", "t2": "online", "t3": "reconnecting", "t4": "reconnecting"}
    assert not alerts
    timer.now += 1.5  # the grace since the dashboard came back is over: t3 and t4 stayed away
    fleet.tick()
    assert _flags(fleet) == {"t1": "online", "t2": "online", "t3": "offline", "t4": "offline"}
    assert [(a["board"], a["kind"]) for a in alerts] == [("t3", "offline"), ("t4", "offline")]
    assert not seen[-1]["online"] and seen[-1]["id"] == "t4"


def test_a_board_that_goes_while_the_broker_stays_is_offline_after_a_moment():
    fleet, seen, alerts, timer = _timed_fleet()
    fleet.receive("reedboard/t1/availability", b"offline")
    assert seen[-1]["reconnecting"] and not alerts
    timer.now += fleet_module.WINDOW
    fleet.tick()
    assert not seen[-1]["online"] and [a["what"] for a in alerts] == ["went offline"]
    fleet.tick()
    assert len(alerts) == 1


def test_first_connection_gives_no_grace_and_alerts_say_what_happened():
    fleet, seen, alerts, timer = _timed_fleet()
    fleet.receive("reedboard/t1/state", json.dumps({**STATE, "sync": "out_of_sync"}).encode())
    fleet.receive("reedboard/t1/state", json.dumps({**STATE, "result": "white wins by connection"}).encode())
    fleet.receive("reedboard/t1/availability", b"offline")
    timer.now += fleet_module.WINDOW
    fleet.tick()
    assert [(a["kind"], a["what"]) for a in alerts] == [
        ("sync", "out of sync"),
        ("finished", "white wins by connection"),
        ("offline", "went offline"),
    ]
    assert not seen[-1]["online"] and fleet.alerts[0]["kind"] == "offline"


def test_times_and_the_day_are_the_cafes_and_the_day_turns_at_its_midnight():
    """A café in New York: a game finished at 23:43 UTC is shown at 18:43 EST, and is today's
    until New York's midnight, when the day's list empties by itself, newest first until then."""
    now = [datetime(2026, 12, 5, 23, 50, tzinfo=timezone.utc)]
    fleet = Fleet(clock=Clock(zone("America/New_York"), lambda: now[0]))
    seen, alerts = [], []
    fleet.listener, fleet.on_alert = seen.append, alerts.append
    fleet.receive("reedboard/t1/availability", b"online")
    for n, finished in enumerate(("2026-12-05T23:43:00Z", "2026-12-06T00:20:00Z"), 1):
        fleet.receive("reedboard/t1/record", json.dumps({**RECORD, "id": n, "finished": finished}).encode())
    assert [g["time"] for g in seen[-1]["games"]] == ["19:20 EST", "18:43 EST"]
    fleet.receive("reedboard/t1/state", json.dumps({**STATE, "sync": "out_of_sync"}).encode())
    assert alerts[0]["time"].endswith(" EST")
    now[0] = datetime(2026, 12, 6, 4, 59, tzinfo=timezone.utc)  # 23:59 in New York
    fleet.tick()
    assert len(fleet.tables["t1"].games) == 2
    now[0] = datetime(2026, 12, 6, 5, 0, 1, tzinfo=timezone.utc)  # New York's midnight
    fleet.tick()
    assert seen[-1]["games"] == []


def test_the_tile_shows_the_screens_lines_without_page_numbers():
    fleet, seen = _fleet()
    long = status_screen(
        "Antipalos 12",
        "three",
        "white",
        None,
        2,
        ["In hand: White 6 · Black 7 · Red 5", "Captured: 3"],
        "Remove the 2 lit pieces now please",
        "Board differs: put back 12 pieces",
        None,
    )
    first = long.pages()[0].text_lines()  # the title made room: the page number ends the screen
    assert first[-1] == "p1/5"
    fleet.receive(
        "reedboard/t1/state", json.dumps({**STATE, "screen": first, "status": "White to move"}).encode()
    )
    assert seen[-1]["lines"] == [
        "Board differs: put back 12 pieces",
        "Remove the 2 lit pieces now please",
        "Phase 2",
    ]


def test_names_and_the_days_games_survive_a_restart_in_the_archive(tmp_path):
    archive = Archive.open(None, str(tmp_path))
    fleet, seen = _fleet(archive)
    finished = {**RECORD, "finished": topics.utc_now()}  # now, not at import: a run may span midnight
    fleet.receive("reedboard/t1/record", json.dumps(finished).encode())
    fleet.rename("t1", "Window table")
    assert archive.flush()
    assert seen[-1]["name"] == "Window table" and seen[-1]["games"][0]["result"] == RECORD["result"]
    again, seen = _fleet(Archive.open(None, str(tmp_path)))  # the dashboard restarted
    assert seen[-1]["name"] == "Window table"
    assert [g["result"] for g in seen[-1]["games"]] == ["white wins by connection"]
    assert again.retire("t1") and "t1" not in again.tables


def _long_game(seed: int, plies: int) -> list[str]:
    """A legal Anti-Grid 8 game of ``plies`` random moves (its games run that long)."""
    state, rng, moves = new_game("anti-grid", 8, None), random.Random(seed), []
    while len(moves) < plies:
        move = rng.choice(list(state.legal_moves()))
        moves.append(str(move))
        state = state.apply(move)
    return moves


def test_a_board_flooding_long_histories_delays_no_other_table():
    """t1 sends two long legal games in turn, five times in a second (each a whole replay): what
    its budget does not pay for waits, the newest kept, and is shown when it does; t2's move
    meanwhile is shown at once. A game longer than any game is refused unread."""
    fleet, seen, _, timer = _timed_fleet(("t1", "t2"))
    games = [
        {"game": "anti-grid", "size": 8, "variant": "plain", "moves": _long_game(seed, 2000)}
        for seed in (1, 2)
    ]
    for n in range(5):
        fleet.receive("reedboard/t1/state", json.dumps(games[n % 2]).encode())
    shown = [view for view in seen if view["layout"] == "anti-grid/8/plain"]
    assert len(shown) == 2  # the first two: 4,000 moves of the 5,000 it may replay at once
    fleet.receive("reedboard/t2/state", json.dumps(STATE).encode())
    assert seen[-1]["id"] == "t2" and seen[-1]["pieces"] == ["A1*"]
    fleet.tick()
    assert seen[-1]["id"] == "t2"  # t1's newest still waits for its budget
    timer.now += 2.0  # 1,000 moves a second: enough for the 2,000 waiting
    fleet.tick()
    last = seen[-1]
    position = new_game("anti-grid", 8, None)
    for move in games[0]["moves"]:  # the fifth state is the first game again
        position = position.apply(position.parse_move(move))
    assert last["id"] == "t1" and last["pieces"] == sorted(position.occupied())
    with pytest.raises(Bad, match="moves"):
        fleet.receive("reedboard/t1/state", json.dumps({**games[0], "moves": games[0]["moves"] * 3}).encode())


def test_a_board_that_played_every_game_today_has_its_tally_taken_with_each_games_sides():
    db = Storage(":memory:")
    for name in GAME_NAMES:
        for variant in game_info(name).variants:
            for side in (*new_game(name, None, variant).sides, "draw"):
                game = db.start(name, None, variant)
                db.add_move(game, 1, "x")
                db.finish(game, f"{side} wins", side)
    day = day_json(today(db))
    fleet, seen = _fleet()
    fleet.receive("reedboard/t1/state", json.dumps({**STATE, "today": day}).encode())
    results = seen[-1]["state"]["today"]["results"]
    assert results["Phalanx green"] == 1 and results["Antipode blue"] == 4
    assert results["Antipalos blue"] == 1 and "white" not in results


def test_a_retired_tables_cleared_topics_heard_back_at_once_draw_no_tile_again():
    """The dashboard hears its own clearing of a retired table's retained topics (it listens
    to every board's): even when the broker answers before the retirement is over (a loaded
    machine), no tile of the table is sent to the pages again."""
    fleet, seen = _fleet()
    fleet.receive("reedboard/t1/availability", b"offline")
    drawn = len(seen)

    def heard_back(topic: str, payload: str, retain: bool) -> None:
        with contextlib.suppress(Bad):  # what it listens to (a player's clock topic: dropped)
            fleet.receive(topic, payload.encode())

    Dashboard(fleet, heard_back, None, "127.0.0.1")._retire("t1", {})
    assert "t1" not in fleet.tables and seen[drawn:] == []
