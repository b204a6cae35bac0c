"""``reedboard run`` on a real Mosquitto: availability, state, events, the last will,
commands, a broker that is down, restarted or silent, passwords, Home Assistant discovery."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import time
from pathlib import Path

from firmware_host.store.storage import Storage
from testbed.broker import Broker, Watcher, board_config, gone, layout_file, wired_for

ONLINE = "reedboard/t1/availability"


def test_state_events_and_availability(tmp_path, broker, watcher, boards):
    board = boards(board_config(tmp_path, broker.port))
    watcher.wait(ONLINE, lambda t: t == "online")
    first = watcher.state("t1")
    assert (first["game"], first["size"], first["ply"], first["to_move"]) == ("antipalos", 5, 0, "white")
    assert first["sync"] == "in_sync" and first["hardware"] == "ok" and first["opponent"] is None
    assert first["status"] == "White to move" and first["last_move_at"] is None
    board.place("B2*")
    move = json.loads(watcher.wait("reedboard/t1/events", lambda t: '"move"' in t))
    assert move["move"] == "B2*" and move["side"] == "white" and isinstance(move["t"], int)
    after = watcher.state("t1", lambda s: s["ply"] == 1)
    assert after["moves"] == ["B2*"] and after["to_move"] == "black"
    assert after["last_move_at"].endswith("Z") and after["today"]["played"] == 1
    # The retained state and availability are what a newcomer gets at once.
    late = Watcher(broker.port, "reedboard/t1/#")
    assert json.loads(late.wait("reedboard/t1/state"))["moves"] == ["B2*"]
    late.close()
    assert board.stop() == 0
    watcher.wait(ONLINE, lambda t: t == "offline")


def test_last_move_at_survives_a_restart_and_starts_again_with_a_new_game(tmp_path, broker, watcher, boards):
    config = board_config(tmp_path, broker.port)
    board = boards(config)
    board.wait_running()
    board.place("B2*")
    at = watcher.state("t1", lambda s: s["ply"] == 1)["last_move_at"]
    assert board.stop() == 0
    before = len(watcher.texts("reedboard/t1/state"))
    again = boards(config)
    again.wait_running()
    deadline = time.monotonic() + 10
    while len(watcher.texts("reedboard/t1/state")) == before:
        assert time.monotonic() < deadline, "the restarted board published no state"
        time.sleep(0.05)
    restarted = json.loads(watcher.texts("reedboard/t1/state")[before])
    assert restarted["ply"] == 1 and restarted["last_move_at"] == at  # from the games file
    time.sleep(1.1)
    since = len(watcher.texts("reedboard/t1/state"))
    watcher.publish("reedboard/t1/command", '{"command": "new_game"}')
    fresh = watcher.newer("reedboard/t1/state", since, lambda s: s["ply"] == 0 and s["moves"] == [])
    assert fresh["last_move_at"] is None  # not the last game's


def test_the_last_will_says_offline_when_the_daemon_is_killed(tmp_path, broker, watcher, boards):
    board = boards(board_config(tmp_path, broker.port))
    watcher.wait(ONLINE, lambda t: t == "online")
    board.proc.send_signal(signal.SIGKILL)
    watcher.wait(ONLINE, lambda t: t == "offline", timeout=20)


def test_commands_valid_and_invalid(tmp_path, broker, watcher, boards):
    board = boards(board_config(tmp_path, broker.port))
    watcher.wait(ONLINE, lambda t: t == "online")
    watcher.state("t1")
    command = "reedboard/t1/command"
    replies = "reedboard/t1/reply"
    watcher.publish(command, '{"command": "brightness", "value": 0.2, "id": "b"}')
    assert json.loads(watcher.wait(replies, lambda t: '"b"' in t)) == {"id": "b", "ok": True}
    assert watcher.state("t1", lambda s: s["brightness"] == 0.2)
    watcher.publish(command, '{"command": "takeback", "id": 1}')
    assert json.loads(watcher.wait(replies, lambda t: '"id": 1' in t))["error"] == "no move to take back"
    for bad, why in [
        ("{nope", "not a JSON message"),
        ('{"command": "brightness", "value": 2}', "'value' must be from 0 to 1"),
        ('{"command": "new_game", "game": "chess"}', "no game 'chess'"),
        ('{"command": "takeback", "extra": 1}', "unexpected field 'extra'"),
        ('{"command": "reboot"}', "unknown command 'reboot'"),
    ]:
        watcher.publish(command, bad)
        watcher.wait(replies, lambda t, why=why: why in t)
    board.place("B2*")
    watcher.state("t1", lambda s: s["ply"] == 1)
    since = len(watcher.texts("reedboard/t1/state"))
    watcher.publish(command, '{"command": "takeback", "id": 2}')
    watcher.wait("reedboard/t1/events", lambda t: '"takeback"' in t and "B2*" in t)
    assert watcher.newer("reedboard/t1/state", since, lambda s: s["ply"] == 0)["moves"] == []
    watcher.publish(command, '{"command": "new_game", "game": "phalanx", "id": 3}')
    watcher.wait("reedboard/t1/events", lambda t: '"new_game"' in t and "phalanx" in t)
    assert watcher.state("t1", lambda s: s["game"] == "phalanx")["ply"] == 0
    assert "refused" in board.errors()


def test_kiosk_mode_refuses_commands_unless_the_config_allows(tmp_path, broker, watcher, boards):
    kiosk = "[kiosk]\nenabled = true\n"
    refusing = boards(board_config(tmp_path, broker.port, "t1", top="", extra="\n" + kiosk))
    boards(board_config(tmp_path, broker.port, "t2", extra="kiosk_commands = true\n" + kiosk))
    for board in ("t1", "t2"):
        watcher.state(board)
        watcher.publish(f"reedboard/{board}/command", '{"command": "brightness", "value": 0.1}')
    refused = json.loads(watcher.wait("reedboard/t1/reply"))
    assert refused["ok"] is False and "kiosk" in refused["error"]
    assert json.loads(watcher.wait("reedboard/t2/reply"))["ok"] is True
    assert watcher.state("t2", lambda s: s["brightness"] == 0.1)
    refusing.place("B2*")  # a state of t1's from after the refusal
    assert watcher.state("t1", lambda s: s["ply"] == 1)["brightness"] == 0.5
    assert all(json.loads(s)["brightness"] == 0.5 for s in watcher.texts("reedboard/t1/state"))


def test_broker_down_at_start_then_up_and_restarted(tmp_path, boards):
    broker = Broker(tmp_path)  # not started yet
    config = board_config(tmp_path, broker.port)
    board = boards(config)
    board.wait_running()
    board.place("B2*")  # played while the broker is away: the board does not wait for it
    _wait_for_moves(tmp_path / "t1.db", 1, board)
    broker.start()
    watcher = Watcher(broker.port, "reedboard/#")
    try:
        watcher.wait(ONLINE, lambda t: t == "online", timeout=20)
        assert watcher.state("t1", lambda s: s["ply"] == 1)["moves"] == ["B2*"]
        broker.stop()  # nothing persisted: the restarted broker knows nothing retained
        board.place("C3*")
        _wait_for_moves(tmp_path / "t1.db", 2)
        broker.start()
    finally:
        watcher.close()
    again = Watcher(broker.port, "reedboard/#")
    try:
        again.wait(ONLINE, lambda t: t == "online", timeout=40)
        assert again.state("t1")["moves"] == ["B2*", "C3*"]
    finally:
        again.close()
        broker.stop()


def test_a_silent_broker_never_holds_up_play(tmp_path, boards):
    """A listener that accepts the connection and never answers: moves are still saved."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        board = boards(board_config(tmp_path, silent.getsockname()[1]))
        board.wait_running()
        for n, site in enumerate(("B2*", "C3*", "A1*"), 1):
            board.place(site)
            _wait_for_moves(tmp_path / "t1.db", n)  # saved as a move before the next piece goes down
        assert board.stop() == 0


def test_a_broker_gone_mid_connect_never_holds_up_the_stop(tmp_path, boards):
    """The broker's machine gone (its connections neither taken nor refused): stopped while
    it tries to connect, the board ends cleanly, not at its closing deadline."""
    with gone() as port:
        board = boards(board_config(tmp_path, port))
        board.wait_running(online=False)  # stopped while its first connect waits
        assert board.stop() == 0, board.errors()
    assert "stopping took more than" not in board.errors()


def test_a_password_and_an_acl(tmp_path, boards):
    passwords = tmp_path / "passwd"
    for create, user in (["-c"], "t1"), ([], "cafe"):
        subprocess.run(
            ["mosquitto_passwd", *create, "-b", str(passwords), user, f"{user}-secret"],
            check=True,
            capture_output=True,
        )
    acl = tmp_path / "acl"
    acl.write_text(docs_acl())
    broker = Broker(tmp_path, f"password_file {passwords}\nacl_file {acl}\n").start()
    (tmp_path / "t1.password").write_text("t1-secret\n")
    config = board_config(
        tmp_path, broker.port, extra=f'username = "t1"\npassword_file = "{tmp_path / "t1.password"}"\n'
    )
    board = boards(config)
    cafe = Watcher(broker.port, "reedboard/#", username="cafe", password="cafe-secret")
    try:
        cafe.wait(ONLINE, lambda t: t == "online")
        cafe.publish("reedboard/t1/command", '{"command": "brightness", "value": 0.3}')
        assert cafe.state("t1", lambda s: s["brightness"] == 0.3)
        board.place("B2*")
        assert cafe.state("t1", lambda s: s["ply"] == 1)["moves"] == ["B2*"]
    finally:
        cafe.close()
        broker.stop()


ENTITIES = [
    ("sensor", "game"),
    ("sensor", "to_move"),
    ("sensor", "status"),
    ("sensor", "ply"),
    ("sensor", "last_result"),
    *(("sensor", f"clock_{n}") for n in range(1, 5)),
    ("binary_sensor", "connectivity"),
    ("binary_sensor", "out_of_sync"),
    ("binary_sensor", "attention"),
    ("button", "new_game"),
    ("select", "game"),
]


def test_home_assistant_discovery(tmp_path, broker, watcher, boards):
    board = boards(
        board_config(
            tmp_path, broker.port, size=3, extra='configuration_url = "http://cafe.lan:8090/watch/t1"\n'
        )
    )
    configs = {}
    for component, name in ENTITIES:
        text = watcher.wait(f"homeassistant/{component}/reedboard_t1/{name}/config")
        configs[component, name] = json.loads(text)
    late = Watcher(broker.port, "homeassistant/#")  # Home Assistant starting later
    late.wait("homeassistant/select/reedboard_t1/game/config")
    assert len(late.messages) == len(ENTITIES) and all(retained for _, _, retained in late.messages)
    late.close()
    devices = {json.dumps(c["device"], sort_keys=True) for c in configs.values()}
    assert len(devices) == 1 and configs["sensor", "game"]["device"]["identifiers"] == ["reedboard_t1"]
    device = configs["sensor", "game"]["device"]
    assert device["configuration_url"] == "http://cafe.lan:8090/watch/t1" and device["sw_version"]
    assert len({c["unique_id"] for c in configs.values()}) == len(ENTITIES)
    connectivity = configs["binary_sensor", "connectivity"]
    assert connectivity["state_topic"] == ONLINE and connectivity["device_class"] == "connectivity"
    assert (connectivity["payload_on"], connectivity["payload_off"]) == ("online", "offline")
    assert "state_class" not in configs["sensor", "ply"]  # a count that starts again: no statistics
    state = watcher.state("t1", lambda s: "choice" in s)  # once the games are listed
    for name, key in [("game", "title"), ("status", "status"), ("ply", "ply")]:
        sensor = configs["sensor", name]
        assert sensor["state_topic"] == "reedboard/t1/state"
        assert sensor["value_template"] == f"{{{{ value_json.{key} }}}}" and key in state
    for name in ("out_of_sync", "attention"):
        sensor = configs["binary_sensor", name]
        assert sensor["device_class"] == "problem" and sensor["state_topic"] == "reedboard/t1/state"
    select = configs["select", "game"]
    assert select["value_template"] == "{{ value_json.choice }}" and "Phalanx" in select["options"]
    assert state["choice"] == "Antipalos 3" and "Antipalos 3" in select["options"]  # no menu size
    # A whole game: "To move" says the game is over, "Last result" gives the result.
    for ply, site in enumerate(("A1*", "A3*", "B2*", "C1*", "C3*"), 1):
        board.place(site)
        watcher.state("t1", lambda s, ply=ply: s["ply"] == ply)
    over = watcher.state("t1", lambda s: s["result"] is not None)
    assert over["to_move"] is None and over["last_result"] == "white wins by connection"
    assert "value_json.to_move or 'game over'" in configs["sensor", "to_move"]["value_template"]
    # What Home Assistant sends: the select's template with the chosen option, the button's payload.
    watcher.publish(select["command_topic"], select["command_template"].replace("{{ value }}", "Phalanx"))
    watcher.wait("reedboard/t1/events", lambda t: '"new_game"' in t and '"phalanx"' in t)
    time.sleep(1.1)  # one new game a second
    button = configs["button", "new_game"]
    games = len(_new_games(watcher))
    watcher.publish(button["command_topic"], button["payload_press"])
    watcher.wait(
        "reedboard/t1/reply",
        lambda t: (
            t.count('"ok": true')
            and watcher.texts("reedboard/t1/reply").count('{"id": null, "ok": true}') == 2
        ),
    )
    watcher.wait("reedboard/t1/events", lambda _: len(_new_games(watcher)) > games)  # begun again
    assert _new_games(watcher)[-1]["game"] == "phalanx"


def test_home_assistant_sees_only_what_a_board_takes(tmp_path, broker, watcher, boards):
    """A board with a layout file offers only its games; a kiosk board that refuses commands
    clears the button and select an earlier start announced."""
    layout = layout_file(tmp_path, "antipod", 4)
    config = board_config(tmp_path, broker.port, top=f'layout = "{layout}"\n', game="antipod", size=4)
    board = boards(config)
    select = json.loads(watcher.wait("homeassistant/select/reedboard_t1/game/config"))
    assert select["options"] == ["Antipod 4"]
    board.stop()
    config.write_text(config.read_text() + "[kiosk]\nenabled = true\n")
    boards(config)
    for name in ("select/reedboard_t1/game", "button/reedboard_t1/new_game"):
        watcher.wait(f"homeassistant/{name}/config", lambda t: t == "")
    late = Watcher(broker.port, "homeassistant/#")  # Home Assistant starting later
    try:
        late.wait("homeassistant/binary_sensor/reedboard_t1/attention/config")
        time.sleep(0.5)
        assert len(late.messages) == len(ENTITIES) - 2
    finally:
        late.close()


def test_a_board_plays_every_size_its_layout_covers(tmp_path, broker, watcher, boards):
    """A board wired for Antipalos 5 and Anti-Grid 6 (a size no menu lists), playing Antipalos 5
    started by a command: its state lists both, each size and variant titled; Home Assistant's
    select offers those titles with the game now chosen, and starts the one picked."""
    layout = wired_for(tmp_path, ("antipalos", 5), ("anti-grid", 6))
    boards(board_config(tmp_path, broker.port, top=f'layout = "{layout}"\n', game="anti-grid", size=6))
    watcher.state("t1")
    command = "reedboard/t1/command"
    watcher.publish(command, '{"command": "new_game", "game": "antipalos", "size": 5}')
    state = watcher.state("t1", lambda s: s["game"] == "antipalos")
    playable = watcher.playable("t1")
    titles = [p["title"] for p in playable]
    assert state["games"] == ["antipalos", "anti-grid"] and state["choice"] == "Antipalos 5"
    assert "playable" not in state  # on its own topic: not sent again with every move
    assert {"Antipalos 5", "Antipalos 5 cut-throat-3", "Anti-Grid 6", "Anti-Grid 6 chain"} <= set(titles)
    assert {p["game"] for p in playable} == {"antipalos", "anti-grid"}
    assert {"game": "antipalos", "size": 5, "variant": "two", "title": "Antipalos 5"} in playable
    assert not any(p["size"] > 5 for p in playable if p["game"] == "antipalos")
    select = json.loads(watcher.wait("homeassistant/select/reedboard_t1/game/config"))
    assert select["options"] == titles and state["choice"] in select["options"]
    time.sleep(1.1)  # one new game a second
    watcher.publish(command, select["command_template"].replace("{{ value }}", "Anti-Grid 6 chain"))
    chain = watcher.state("t1", lambda s: s["variant"] == "chain")
    assert (chain["game"], chain["size"], chain["choice"]) == ("anti-grid", 6, "Anti-Grid 6 chain")
    watcher.publish(command, '{"command": "new_game", "title": "Anti-Grid 8", "id": 4}')
    assert "no game titled 'Anti-Grid 8'" in watcher.wait("reedboard/t1/reply", lambda t: '"id": 4' in t)


def test_home_assistant_offers_a_game_started_outside_the_menus_sizes(tmp_path, broker, watcher, boards):
    """A board without a layout file lists the menu's sizes; a command starts Antipalos 7: the
    state and Home Assistant's select offer it too, so the select's value is among its options."""
    boards(board_config(tmp_path, broker.port))
    watcher.state("t1")
    watcher.publish("reedboard/t1/command", '{"command": "new_game", "game": "antipalos", "size": 7}')
    state = watcher.state("t1", lambda s: s["size"] == 7)
    assert state["choice"] == "Antipalos 7"
    watcher.playable("t1", lambda games: "Antipalos 7" in [p["title"] for p in games])
    watcher.wait(
        "homeassistant/select/reedboard_t1/game/config", lambda t: "Antipalos 7" in json.loads(t)["options"]
    )


def test_a_paired_board_plays_only_games_of_two_sides(tmp_path, broker, watcher, boards):
    """Paired with another board as docs/cafe.md shows: its state and Home Assistant offer no
    game of three or four sides, and a command for one is refused with the reason."""
    pair = '[opponent]\nkind = "remote"\nboard = "home"\nside = "white"\n'
    boards(board_config(tmp_path, broker.port, "friend", extra=pair))
    playable = watcher.playable("friend")
    variants = {p["variant"] for p in playable if p["game"] == "antipalos"}
    assert variants == {"two", "team"} and "Antipalos 12" in [p["title"] for p in playable]
    select = json.loads(watcher.wait("homeassistant/select/reedboard_friend/game/config"))
    assert not any("cut-throat" in title for title in select["options"])
    watcher.publish(
        "reedboard/friend/command",
        '{"command": "new_game", "game": "antipalos", "variant": "cut-throat-3", "id": 5}',
    )
    reply = json.loads(watcher.wait("reedboard/friend/reply", lambda t: '"id": 5' in t))
    assert reply["error"] == (
        "this board plays board home: only games of two sides (Antipalos 12 cut-throat-3 has 3)"
    )


def docs_acl() -> str:
    """The ACL docs/cafe.md gives, as written there."""
    text = (Path(__file__).resolve().parents[3] / "docs" / "cafe.md").read_text(encoding="utf-8")
    start = text.index("# every board: %u")
    return text[start : text.index("```", start)]


def _wait_for_moves(db, count: int, board=None, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if db.exists():
            storage = Storage(str(db), read_only=True)
            try:
                game = storage.unfinished()
                if game and len(game.moves) >= count:
                    return
            finally:
                storage.close()
        time.sleep(0.1)
    raise AssertionError(f"{count} moves were not saved in {timeout} s; {board.errors() if board else ''}")


def _new_games(watcher: Watcher) -> list[dict]:
    """The ``new_game`` events t1 has sent so far."""
    return [e for e in map(json.loads, watcher.texts("reedboard/t1/events")) if e["event"] == "new_game"]
