"""Every command from the broker, with every kind of bad argument, to a real board (``reedboard
run`` with a layout file, as every real board has) on a real Mosquitto: each is answered with
its ``id`` and a reason, none changes the game, and the daemon goes on playing."""

from __future__ import annotations

import json
import subprocess
import time

from testbed.broker import Broker, Watcher, board_config, layout_file
from testbed.tools import wait_until
from tests.net.mqtt.test_board_on_broker import docs_acl

COMMAND, REPLY = "reedboard/t1/command", "reedboard/t1/reply"

#: (command, what the refusal says): every command, every kind of bad argument.
BAD = [
    # games the layout does not wire, or the engine does not have
    ({"command": "new_game", "game": "phalanx"}, "layout cannot play Phalanx"),
    ({"command": "new_game", "game": "antipod", "size": 4}, "layout cannot play Antipod 4"),
    ({"command": "new_game", "game": "antipalos", "size": 14}, "layout cannot play Antipalos 14"),
    (
        {"command": "new_game", "game": "antipalos", "size": 20, "variant": "team"},
        "layout cannot play Antipalos 20",
    ),
    ({"command": "new_game", "game": "antipalos", "size": 999}, "size"),
    ({"command": "new_game", "game": "antipalos", "size": -1}, "size"),
    ({"command": "new_game", "game": "antipalos", "variant": "nope"}, "variant"),
    ({"command": "new_game", "game": "chess"}, "no game 'chess'"),
    ({"command": "new_game", "game": "ANTIPALOS"}, "no game 'ANTIPALOS'"),
    ({"command": "new_game", "game": ""}, "no game ''"),
    # arguments of the wrong type
    ({"command": "new_game", "game": 7}, "bad 'game'"),
    ({"command": "new_game", "game": None}, "bad 'game'"),
    ({"command": "new_game", "game": "antipalos", "size": "12"}, "bad 'size'"),
    ({"command": "new_game", "game": "antipalos", "size": 12.5}, "bad 'size'"),
    ({"command": "new_game", "game": "antipalos", "size": True}, "bad 'size'"),
    ({"command": "new_game", "game": "antipalos", "variant": 2}, "bad 'variant'"),
    ({"command": "new_game", "game": "antipalos", "computer": "third"}, "'computer' must be"),
    ({"command": "new_game", "game": "antipalos", "level": 0}, "'level' must be 1 to 5"),
    ({"command": "new_game", "game": "antipalos", "level": 6}, "'level' must be 1 to 5"),
    ({"command": "new_game", "game": "antipalos", "level": "3"}, "bad 'level'"),
    ({"command": "new_game", "game": "antipalos", "board": "x"}, "unexpected field 'board'"),
    ({"command": "takeback", "moves": 3}, "unexpected field 'moves'"),
    ({"command": "brightness"}, "missing 'value'"),
    ({"command": "brightness", "value": -0.1}, "must be from 0 to 1"),
    ({"command": "brightness", "value": 1.5}, "must be from 0 to 1"),
    ({"command": "brightness", "value": 1e308}, "must be from 0 to 1"),
    ({"command": "brightness", "value": "0.5"}, "bad 'value'"),
    ({"command": "brightness", "value": None}, "bad 'value'"),
    ({"command": "brightness", "value": False}, "bad 'value'"),
    ({"command": "brightness", "value": [0.5]}, "bad 'value'"),
    # no command, or not one
    ({}, "unknown command None"),
    ({"command": 5}, "unknown command 5"),
    ({"command": "reboot"}, "unknown command 'reboot'"),
    ({"command": ["takeback"]}, "unknown command"),
]

#: Messages that are no command at all: refused with the reason, the id unknown.
NOT_COMMANDS = [
    (b"{nope", "not a JSON message"),
    (b"\xff\xfe", "not a JSON message"),
    (b"[1, 2]", "expected a JSON object"),
    (b"[" * 5000, "a command is at most 4096 bytes"),
    (b"[" * 2000, "nested too deeply"),
    (b'"takeback"', "expected a JSON object"),
    (json.dumps({"command": "takeback", "pad": "x" * 5000}).encode(), "at most 4096 bytes"),
    (b'{"command": "brightness", "value": NaN}', "not a JSON message"),
    (b'{"command": "brightness", "value": Infinity}', "not a JSON message"),
    (b'{"command": "takeback", "id": [1]}', "'id' must be a string"),
    (b'{"command": "takeback", "id": 1.5}', "'id' must be a string"),
    (b'{"command": "takeback", "id": "' + b"i" * 65 + b'"}', "'id' must be a string"),
    (b'{"command": "takeback", "id": 99999999999999999999}', "'id' must be a string"),
]


def _ask(watcher, payload: bytes | str, count: int) -> dict:
    """Publish ``payload`` and wait for the board's ``count``-th reply."""
    watcher.client.publish(COMMAND, payload, qos=1).wait_for_publish(5)
    deadline = time.monotonic() + 10
    while len(replies := watcher.texts(REPLY)) < count:
        assert time.monotonic() < deadline, f"no reply to {payload[:80]!r}"
        time.sleep(0.01)
    return json.loads(replies[count - 1])


def test_every_bad_command_is_answered_with_its_id_and_changes_nothing(tmp_path, broker, watcher, boards):
    layout = layout_file(tmp_path, "antipalos", 12)
    board = boards(board_config(tmp_path, broker.port, size=12, top=f'layout = "{layout}"\n'))
    board.wait_running()
    watcher.state("t1")
    board.place("B2*")
    before = watcher.state("t1", lambda s: s["ply"] == 1)
    count = 0
    for n, (command, why) in enumerate(BAD):
        count += 1
        reply = _ask(watcher, json.dumps({**command, "id": f"bad-{n}"}), count)
        assert reply["id"] == f"bad-{n}" and reply["ok"] is False, (command, reply)
        assert why in reply["error"], (command, reply)
    for payload, why in NOT_COMMANDS:
        count += 1
        reply = _ask(watcher, payload, count)
        assert reply["ok"] is False and why in reply["error"], (payload[:60], reply)
        assert reply["id"] is None
    # Nothing changed: the same game, its move, the board still playing and answering.
    count += 1
    assert _ask(watcher, '{"command": "brightness", "value": 0.3, "id": 1}', count) == {"id": 1, "ok": True}
    now = watcher.state("t1", lambda s: s["brightness"] == 0.3)
    assert {k: now[k] for k in ("game", "size", "moves")} == {k: before[k] for k in ("game", "size", "moves")}
    board.place("C3*")
    watcher.state("t1", lambda s: s["ply"] == 2)
    # A game the layout does wire is taken.
    count += 1
    since = len(watcher.texts("reedboard/t1/state"))
    ok = _ask(watcher, '{"command": "new_game", "game": "antipalos", "size": 12, "id": "g"}', count)
    assert ok == {"id": "g", "ok": True}
    watcher.newer("reedboard/t1/state", since, lambda s: s["ply"] == 0)
    assert board.proc.poll() is None
    errors = board.errors()
    assert "Traceback" not in errors and "refused" in errors


def test_a_flood_of_new_games_starts_one_a_second(tmp_path, broker, watcher, boards):
    board = boards(board_config(tmp_path, broker.port))
    board.wait_running()
    watcher.state("t1")
    for n in range(2000):
        watcher.client.publish(
            COMMAND, json.dumps({"command": "new_game", "game": "antipalos", "size": 5, "id": n}), qos=0
        )

    def counts() -> tuple[int, int, int]:
        """New games started, taken, and refused for the rate, as seen so far."""
        started = [t for t in watcher.texts("reedboard/t1/events") if '"new_game"' in t]
        replies = [json.loads(t) for t in watcher.texts(REPLY)]
        taken = [r for r in replies if r["ok"]]
        rated = [r for r in replies if not r["ok"] and "one new game every 1 s" in r["error"]]
        return len(started), len(taken), len(rated)

    # Each new game taken was started, and the rate refused most of those the flood asked for
    # (waited for: a loaded machine's board may take seconds to get through the flood).
    wait_until(lambda: (n := counts())[0] >= 1 and n[1] < n[2], 30)
    started, taken, rated = counts()
    assert 1 <= started <= taken < rated
    refused = [json.loads(t)["error"] for t in watcher.texts(REPLY) if '"ok": false' in t]
    assert any("too many commands" in why for why in refused)
    assert board.proc.poll() is None


def _latest(watcher, test) -> dict:
    """Until the last state published passes ``test``."""
    deadline = time.monotonic() + 10
    while not test(state := json.loads(watcher.texts("reedboard/t1/state")[-1])):
        assert time.monotonic() < deadline, state
        time.sleep(0.02)
    return state


def _logins(tmp_path, *users: str) -> Broker:
    """Mosquitto with the docs' ACL and a login (password ``<user>-secret``) for each user."""
    passwords = tmp_path / "passwd"
    for n, user in enumerate(users):
        subprocess.run(
            ["mosquitto_passwd", *(["-c"] if n == 0 else []), "-b", str(passwords), user, f"{user}-secret"],
            check=True,
            capture_output=True,
        )
    (tmp_path / "acl").write_text(docs_acl())
    return Broker(tmp_path, f"password_file {passwords}\nacl_file {tmp_path / 'acl'}\n").start()


def test_a_retained_command_is_acted_on_once_not_at_every_restart(tmp_path, boards):
    """A Home Assistant automation that publishes with ``retain: true``: the board starts the
    new game once; restarted (or reconnected), it does not start another over the game under
    way, says why, and removes the command from the broker (the docs' ACL lets it)."""
    broker = _logins(tmp_path, "t1", "homeassistant", "cafe")
    (tmp_path / "t1.password").write_text("t1-secret\n")
    config = board_config(
        tmp_path, broker.port, extra=f'username = "t1"\npassword_file = "{tmp_path / "t1.password"}"\n'
    )
    ha = Watcher(broker.port, username="homeassistant", password="homeassistant-secret")
    cafe = Watcher(broker.port, "reedboard/#", username="cafe", password="cafe-secret")
    try:
        board = boards(config)
        board.wait_running()
        board.place("B2*")
        cafe.state("t1", lambda s: s["ply"] == 1)
        ha.client.publish(
            COMMAND, '{"command": "new_game", "id": "ha"}', qos=1, retain=True
        ).wait_for_publish(5)
        cafe.wait(REPLY, lambda t: json.loads(t) == {"id": "ha", "ok": True})
        cafe.state("t1", lambda s: s["extra"] == ["B2*"])
        board.lift("B2*")  # the new game's board cleared
        _latest(cafe, lambda s: s["ply"] == 0 and s["sync"] == "in_sync")
        board.place("C3*")
        cafe.state("t1", lambda s: s["ply"] == 1 and s["moves"] == ["C3*"])
        assert board.stop() == 0
        board = boards(config)
        board.wait_running()
        refusal = json.loads(cafe.wait(REPLY, lambda t: "retained" in t))
        assert refusal["id"] == "ha" and refusal["ok"] is False
        board.place("D4*")
        assert cafe.state("t1", lambda s: s["ply"] == 2)["moves"] == ["C3*", "D4*"]
        later = Watcher(broker.port, COMMAND, username="cafe", password="cafe-secret")
        time.sleep(0.5)  # a kept command would come at once on subscribing
        assert later.messages == []
        later.close()
        assert "Traceback" not in board.errors()
    finally:
        ha.close()
        cafe.close()
        broker.stop()


def test_a_command_whose_id_was_taken_is_not_taken_again(tmp_path, broker, watcher, boards):
    """A command sent twice with one id (a sender retrying, a bridge delivering twice): the
    second takeback takes back nothing; a new id is taken."""
    board = boards(board_config(tmp_path, broker.port))
    board.wait_running()
    for ply, site in enumerate(("B2*", "C3*"), 1):
        board.place(site)
        watcher.state("t1", lambda s: s["ply"] == ply)
    assert _ask(watcher, '{"command": "takeback", "id": "undo-1"}', 1) == {"id": "undo-1", "ok": True}
    second = _ask(watcher, '{"command": "takeback", "id": "undo-1"}', 2)
    assert second["ok"] is False and "taken already" in second["error"]
    assert _ask(watcher, '{"command": "brightness", "value": 0.2, "id": 2}', 3)["ok"] is True
    state = watcher.state("t1", lambda s: s["brightness"] == 0.2)
    assert state["moves"] == ["B2*"]  # one move taken back, not two
