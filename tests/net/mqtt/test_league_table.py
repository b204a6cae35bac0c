"""Players at a board's seats and a league round at a table, as a café sets them up: the
config's ``[players] names``, the ``players`` and ``table`` commands over a real Mosquitto to
``reedboard run --sim``, what the state says, and the finished game's record with its players
and league for the archive."""

from __future__ import annotations

import json

from firmware_host.net.cafe.archive import Archive, read_record
from testbed.broker import board_config
from tests.net.mqtt.test_paired_games import latest

COMMAND, REPLY, STATE = "reedboard/t1/command", "reedboard/t1/reply", "reedboard/t1/state"
TABLE = {
    "command": "table",
    "table": 3,
    "names": ["Anna", "Ben"],
    "game": "antipalos",
    "size": 3,
    "variant": None,
    "control": "300+3",
    "event": "Thursday league",
    "round": 2,
}


def test_the_config_names_the_players_and_the_players_command_changes_them(tmp_path, broker, watcher, boards):
    top = '[players]\nnames = ["Anna", "Ben"]\n'
    board = boards(board_config(tmp_path, broker.port, top=top))
    first = watcher.state("t1")
    assert first["players"] == ["Anna", "Ben"] and first["league"] is None
    assert first["status"] == "Anna to move"
    board.place("B2*")
    assert watcher.state("t1", lambda s: s["ply"] == 1)["status"] == "Ben to move"
    watcher.publish(COMMAND, json.dumps({"command": "players", "names": ["Cleo", "Dan"], "id": "p"}))
    assert json.loads(watcher.wait(REPLY, lambda t: '"p"' in t))["ok"]
    named = watcher.state("t1", lambda s: s["players"] == ["Cleo", "Dan"])
    assert named["status"] == "Dan to move" and named["ply"] == 1  # the game goes on
    watcher.publish(COMMAND, json.dumps({"command": "players", "names": ["", "Dan"], "id": "bad"}))
    refused = json.loads(watcher.wait(REPLY, lambda t: '"bad"' in t))
    assert refused["error"] == "players: name 1 is empty (a name is 1 to 24 printable characters)"
    watcher.publish(COMMAND, json.dumps({"command": "players", "names": []}))
    assert watcher.state("t1", lambda s: s["players"] == [])["status"] == "Black to move"


def test_a_league_round_waits_for_each_player_s_ok_then_its_record_names_them(
    tmp_path, broker, watcher, boards
):
    board = boards(board_config(tmp_path, broker.port, size=3))
    board.wait_running()
    watcher.state("t1")
    watcher.publish(COMMAND, json.dumps({**TABLE, "id": "r2t3"}))
    assert json.loads(watcher.wait(REPLY, lambda t: '"r2t3"' in t))["ok"]
    table = watcher.state("t1", lambda s: s["league"] is not None)
    assert table["league"] == {"event": "Thursday league", "round": 2, "table": 3}
    assert table["players"] == ["Anna", "Ben"] and table["ready"] == "Anna: press OK"
    assert table["screen"][:2] == ["Table 3: Anna – Ben", "Anna: press OK"]
    board.place("A1*")  # before the OKs nothing counts
    board.press("ok")
    assert watcher.state("t1", lambda s: s["ready"] == "Ben: press OK")["ply"] == 0
    board.lift("A1*")
    board.press("ok")
    # A1* read off before it is placed again (the OK may be read before the lift is settled)
    begun = watcher.cleared("t1", lambda s: s["ready"] is None and "Anna to move" in s["screen"])
    assert begun["ply"] == 0 and begun["screen"][0] == "Table 3 · Antipalos 3"  # A1* was no move
    for site in ("A1*", "A3*", "B2*", "C1*", "C3*"):
        board.place(site)
        watcher.state("t1", lambda s, site=site: site in s["moves"])
    over = watcher.state("t1", lambda s: s["winner"] is not None)
    assert over["league"]["table"] == 3 and over["players"] == ["Anna", "Ben"]
    record = watcher.wait("reedboard/t1/record")
    game = read_record(record.encode())
    assert game["players"] == ["Anna", "Ben"]
    assert game["league"] == {"event": "Thursday league", "round": 2, "table": 3}
    assert '[Player1 "Anna"]' in game["text"] and '[Player2 "Ben"]' in game["text"]
    assert '[Event "Thursday league"]' in game["text"] and '[Table "3"]' in game["text"]
    archive = Archive.open(f"sqlite:///{tmp_path / 'cafe.db'}")
    archive.store("t1", game)
    found = archive.league_game("Thursday league", 2, 3)
    assert found is not None and found["board"] == "t1" and found["winner"] == over["winner"]
    assert found["players"] == ["Anna", "Ben"]


def test_a_table_command_that_does_not_read_is_refused_and_changes_nothing(tmp_path, broker, watcher, boards):
    boards(board_config(tmp_path, broker.port, size=3))
    watcher.state("t1")
    for bad, why in [
        ({"names": ["Anna"]}, "table: 1 names for a game of 2 seats"),
        ({"control": "5 minutes"}, "table: bad 'control': '5 minutes' is no time control"),
        ({"table": 0}, "table: 'table' and 'round' must be 1 to 999"),
    ]:
        ident = why[:20]
        watcher.publish(COMMAND, json.dumps({**TABLE, **bad, "id": ident}))
        reply = json.loads(watcher.wait(REPLY, lambda t, ident=ident: json.dumps(ident) in t))
        assert reply["error"].startswith(why)
    # A command taken after them: its state shows what they left (no table, no players).
    watcher.publish(COMMAND, json.dumps({"command": "brightness", "value": 0.3}))
    after = watcher.state("t1", lambda s: s["brightness"] == 0.3)
    assert after["league"] is None and after["players"] == [] and after["ready"] is None


def test_the_menu_offers_the_cafe_s_players_for_each_seat(tmp_path, broker, watcher, boards):
    roster = {"players": [{"name": "Anna", "tag": "A"}, {"name": "Ben"}, {"name": "Cleo"}]}
    watcher.client.publish("reedboard/cafe/players", json.dumps(roster), qos=1, retain=True).wait_for_publish(
        5
    )
    board = boards(board_config(tmp_path, broker.port))
    board.wait_running()
    shown = watcher.state("t1")

    def press(button: str, until: str) -> None:
        """Press ``button`` until the screen shows ``until`` (the menu's chosen item)."""
        nonlocal shown
        for _ in range(20):
            before = len(watcher.texts("reedboard/t1/state"))
            board.press(button)
            watcher.state("t1", lambda s: len(watcher.texts("reedboard/t1/state")) > before)  # a new one
            shown = json.loads(watcher.texts("reedboard/t1/state")[-1])
            if until in shown["screen"]:
                return
        raise AssertionError(f"no {until!r} on the screen: {shown['screen']}")

    press("menu", "> New game")
    press("menu", "> Names")
    press("ok", "> white: -")
    press("ok", "> Anna")
    assert "Cleo" in shown["screen"] and "Player 1" not in shown["screen"]
    press("menu", "> Cleo")
    board.press("ok")
    named = watcher.state("t1", lambda s: s["players"] == ["Cleo", "Player 2"])
    assert named["status"] == "Cleo to move"


def test_a_restart_keeps_the_players_and_the_round_and_asks_again_for_the_oks(
    tmp_path, broker, watcher, boards
):
    config = board_config(tmp_path, broker.port, size=3)
    board = boards(config)
    board.wait_running()
    watcher.state("t1")
    watcher.publish(COMMAND, json.dumps({**TABLE, "control": "-"}))
    watcher.state("t1", lambda s: s["ready"] == "Anna: press OK")
    assert board.stop() == 0
    watcher.wait("reedboard/t1/availability", lambda t: t == "offline")
    since = len(watcher.texts(STATE))
    again = boards(config)
    again.wait_running()
    back = latest(watcher, STATE, lambda s: True, since)  # the restarted board's first state
    assert back["ready"] == "Anna: press OK" and back["league"]["table"] == 3
    since = len(watcher.texts(STATE))
    again.press("ok")
    again.press("ok")
    watcher.newer(STATE, since, lambda s: s["ready"] is None and s["league"] is not None)  # both OKs in
    again.place("A1*")
    watcher.state("t1", lambda s: s["ply"] == 1)
    assert again.stop() == 0
    since = len(watcher.texts(STATE))
    third = boards(config)
    third.wait_running()
    resumed = latest(watcher, STATE, lambda s: True, since)
    assert resumed["ply"] == 1 and resumed["ready"] is None and "Ben to move" in resumed["screen"]
    assert resumed["players"] == ["Anna", "Ben"] and resumed["league"]["round"] == 2
