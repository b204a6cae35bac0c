"""The dashboard's fleet on its own: what a board publishes is checked before it is shown, a
broker that comes back is not every table offline, alerts, names, the day's games."""

from __future__ import annotations

import json

import pytest

from firmware_host.net.cafe import fleet as fleet_module
from firmware_host.net.cafe.archive import Archive
from firmware_host.net.cafe.fleet import Fleet
from firmware_host.net.mqtt import topics
from firmware_host.net.mqtt.untrusted import Bad

STATE = {"game": "antipalos", "title": "Antipalos 3", "size": 3, "variant": "two",
         "moves": ["A1*"], "ply": 1, "to_move": "black", "sync": "in_sync", "screen": ["a", "b"],
         "today": {"played": 1, "results": {}, "running": 1, "last": None}, "brightness": 0.5}
RECORD = {"id": 4, "game": "antipalos", "size": 3, "variant": "two",
          "started": "2026-11-23T20:01:00Z", "finished": "2026-11-23T20:09:00Z",
          "result": "white wins by connection", "winner": "white",
          "moves": ["A1*", "A3*", "B2*", "C1*", "C3*"]}


def _fleet(archive=None) -> tuple[Fleet, list]:
    fleet, seen = Fleet(archive), []
    fleet.listener = seen.append
    fleet.receive("reedboard/t1/availability", b"online")
    fleet.receive("reedboard/t1/state", json.dumps(STATE).encode())
    return fleet, seen


@pytest.mark.parametrize("change", [
    {"moves": 5}, {"moves": [5]}, {"screen": "oops"}, {"screen": [["x"]]}, {"ply": -1},
    {"ply": "1"}, {"ply": True}, {"brightness": 7}, {"brightness": "0.5"}, {"sync": "maybe"},
    {"today": {"played": "many"}}, {"today": []}, {"today": {"played": 1, "results": {"w": -1},
                                                            "running": 0, "last": None}},
    {"title": "x" * 500}, {"moves": ["A" * 100]}, {"moves": ["ok"] * 30_000},
    {"last_move_at": "yesterday"}, {"game": None}, {"game": 3}, {"missing": {"a": 1}},
    {"status": "line\nbreak"}, {"hardware": ["broken"]},
])
def test_a_bad_state_is_dropped_whole_and_the_table_keeps_what_it_had(change):
    fleet, seen = _fleet()
    with pytest.raises(Bad):
        fleet.receive("reedboard/t1/state", json.dumps({**STATE, **change}).encode())
    assert seen[-1]["state"]["ply"] == 1 and fleet.tables["t1"].pieces


PLAYABLE = [{"game": "antipalos", "size": 3, "variant": "two", "title": "Antipalos 3"},
            {"game": "antipode", "size": None, "variant": "rulebook", "title": "Antipode rulebook"}]


@pytest.mark.parametrize("playable", [
    "every game", [{"game": "antipalos"}], [{"game": "antipalos", "title": "A", "size": "3"}],
    [{"game": "antipalos", "title": "x" * 500}], PLAYABLE * 200,
])
def test_the_games_a_board_plays_are_checked_too(playable):
    fleet, seen = _fleet()
    with pytest.raises(Bad):
        fleet.receive("reedboard/t1/state", json.dumps({**STATE, "playable": playable}).encode())
    good = {**STATE, "games": ["antipalos", "antipode"], "playable": PLAYABLE, "choice": "Antipalos 3"}
    fleet.receive("reedboard/t1/state", json.dumps(good).encode())
    assert seen[-1]["state"]["playable"] == PLAYABLE and seen[-1]["state"]["choice"] == "Antipalos 3"


@pytest.mark.parametrize("topic, payload", [
    ("reedboard/t1/state", b"\xff\xfe"), ("reedboard/t1/state", b"[" * 5000),
    ("reedboard/t1/state", b'"text"'), ("reedboard/t1/state", b"NaN"),
    ("reedboard/t1/availability", b"maybe"), ("reedboard/t1/reply", b'{"ok": "yes"}'),
    ("reedboard/t1/reply", b'{"ok": true, "id": [1]}'), ("reedboard/T1/state", b"{}"),
    ("reedboard/#/state", b"{}"), ("reedboard/t1/record", b'{"id": 1}'),
    ("reedboard/t1/record", json.dumps({**RECORD, "moves": ["A1*", "A1*"]}).encode()),
    ("reedboard/t1/record", json.dumps({**RECORD, "game": "chess"}).encode()),
    ("reedboard/t1/record", json.dumps({**RECORD, "size": 99}).encode()),
])
def test_anything_else_not_a_board_would_send_is_dropped(topic, payload):
    fleet, seen = _fleet()
    with pytest.raises(Bad):
        fleet.receive(topic, payload)
    assert len(seen) == 2 and fleet.tables["t1"].online and set(fleet.tables) == {"t1"}


def test_a_broker_that_comes_back_is_not_every_table_offline(monkeypatch):
    fleet, seen = _fleet()
    alerts = []
    fleet.on_alert = alerts.append
    for up in (True, False, True):  # the dashboard's link: up, the broker gone, back
        fleet.broker(up)
    fleet.receive("reedboard/t1/availability", b"offline")  # the will the broker kept
    assert seen[-1]["online"] and seen[-1]["reconnecting"] and not alerts
    fleet.receive("reedboard/t1/availability", b"online")  # the board reconnected
    assert seen[-1]["online"] and not seen[-1]["reconnecting"]
    fleet.receive("reedboard/t1/availability", b"offline")
    monkeypatch.setattr(fleet_module, "GRACE", 0.0)
    fleet.tables["t1"].reconnecting_until = 1.0  # the grace ran out: offline after all
    fleet.tick()
    assert not seen[-1]["online"] and [a["kind"] for a in alerts] == ["offline"]


def test_first_connection_gives_no_grace_and_alerts_say_what_happened():
    fleet, seen = _fleet()
    alerts = []
    fleet.on_alert = alerts.append
    fleet.broker(True)
    fleet.receive("reedboard/t1/state", json.dumps({**STATE, "sync": "out_of_sync"}).encode())
    fleet.receive("reedboard/t1/state", json.dumps(
        {**STATE, "result": "white wins by connection"}).encode())
    fleet.receive("reedboard/t1/availability", b"offline")
    assert [(a["kind"], a["what"]) for a in alerts] == [
        ("sync", "out of sync"), ("finished", "white wins by connection"), ("offline", "went offline")]
    assert not seen[-1]["online"] and fleet.alerts[0]["kind"] == "offline"


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
