"""Random and mutated messages on every topic of a real Mosquitto, with two real boards (one
paired with a board that is not there, so it reads that board's topics) and the dashboard
listening: nothing stops a daemon, paho's threads or the dashboard, and afterwards the boards
still answer commands and the dashboard still shows their moves.

``bench/fuzz_mqtt.py`` runs the same for longer ($REEDBOARD_FUZZ_EXAMPLES batches)."""

from __future__ import annotations

import io
import json
import os
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.net.cafe.archive import Archive
from firmware_host.net.cafe.run import start
from firmware_host.store.config import Mqtt
from testbed.broker import Board, Broker, Watcher, board_config

pytestmark = pytest.mark.broker  # every test plays on the network fixture's Mosquitto

KINDS = ("state", "availability", "command", "reply", "record", "events", "moves")
#: The boards' topics and some that only look like them.
TOPICS = [f"reedboard/{board}/{kind}" for board in ("t1", "t2", "t3") for kind in KINDS] + [
    "reedboard/t1",
    "reedboard//state",
    "reedboard/T1/state",
    "reedboard/t1/state/x",
    "reedboard/-/state",
    "reedboard/" + "x" * 200 + "/state",
    "homeassistant/select/reedboard_t1/game/config",
]
#: Messages as boards send them, to mutate.
VALID = [
    {
        "game": "antipalos",
        "title": "Antipalos 5",
        "size": 5,
        "variant": "two",
        "ply": 1,
        "moves": ["B2*"],
        "to_move": "black",
        "sync": "in_sync",
        "screen": ["a", "b", "c"],
        "today": {"played": 1, "results": {"white": 1}, "running": 1, "last": None},
        "brightness": 0.5,
        "hardware": "ok",
        "last_move_at": "2026-11-23T21:14:03Z",
    },
    {
        "id": 3,
        "game": "antipalos",
        "size": 3,
        "variant": "two",
        "started": "2026-11-23T20:01:00Z",
        "finished": "2026-11-23T20:09:00Z",
        "result": "white wins by connection",
        "winner": "white",
        "moves": ["A1*", "A3*", "B2*", "C1*", "C3*"],
    },
    {
        "game": "antipalos",
        "size": 5,
        "variant": "two",
        "token": "1:t3",
        "moves": ["B2*"],
        "takebacks": 0,
        "ask": None,
        "refused": 0,
    },
    {"command": "new_game", "game": "antipalos", "size": 5, "id": 1},
    {"command": "brightness", "value": 0.4},
    {"id": 1, "ok": False, "error": "no"},
]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def mutated(draw) -> bytes:
    message = dict(draw(st.sampled_from(VALID)))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(sorted(message) + ["extra"]))
        action = draw(st.sampled_from(["replace", "delete", "nest", "huge"]))
        if action == "delete":
            message.pop(key, None)
        elif action == "nest":
            message[key] = json.loads("[" * 60 + "1" + "]" * 60)
        elif action == "huge":
            message[key] = draw(st.sampled_from([10**30, -1, "x" * 5000, ["B2*"] * 3000, 1e308]))
        else:
            message[key] = draw(json_values)
    return json.dumps(message).encode()


payloads = st.one_of(
    st.binary(max_size=200),
    mutated(),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.sampled_from([b"online", b"offline", b"", b"[" * 3000, b"\xff\xfe", b"NaN", b"{}"]),
)


@pytest.fixture(scope="module")
def network(tmp_path_factory):
    """A broker, board t1, board t2 paired with the absent t3, and the dashboard."""
    folder = tmp_path_factory.mktemp("fuzz")
    broker = Broker(folder).start()
    one = Board(board_config(folder, broker.port, "t1"))
    two = Board(
        board_config(
            folder, broker.port, "t2", '\n[opponent]\nkind = "remote"\nboard = "t3"\nside = "black"\n'
        )
    )
    link, server = start(
        Mqtt(),
        "127.0.0.1",
        broker.port,
        "127.0.0.1",
        0,
        None,
        out=io.StringIO(),
        archive=Archive.open(None, str(folder / "cafe")),
    )
    watcher = Watcher(broker.port, "reedboard/#")
    one.wait_running()
    two.wait_running()
    yield broker, (one, two), link, server.pages, watcher
    watcher.close()
    link.stop()
    server.stop()
    for board in (one, two):
        board.stop()
    broker.stop()


#: Batches of messages the suite publishes (bench/fuzz_mqtt.py asks for more).
EXAMPLES = int(os.environ.get("REEDBOARD_FUZZ_EXAMPLES", "40"))


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    messages=st.lists(st.tuples(st.sampled_from(TOPICS), payloads, st.booleans()), min_size=1, max_size=25)
)
def test_random_and_mutated_messages_stop_nothing(network, messages):
    broker, boards, link, dashboard, watcher = network
    for topic, payload, retain in messages:
        watcher.client.publish(topic, payload, qos=0, retain=retain)
    time.sleep(0.05)
    for board in boards:
        assert board.proc.poll() is None, board.errors()
    assert link.client._thread is not None and link.client._thread.is_alive()


def test_after_the_fuzz_boards_answer_and_the_dashboard_shows_their_moves(network):
    broker, (one, two), link, dashboard, watcher = network
    for topic in TOPICS:  # the retained garbage cleared, as a café owner would
        if not topic.startswith(("reedboard/t1/", "reedboard/t2/")):
            watcher.client.publish(topic, b"", qos=1, retain=True)
    for board in ("t1", "t2"):
        watcher.publish(
            f"reedboard/{board}/command",
            json.dumps({"command": "brightness", "value": 0.3, "id": f"after-{board}"}),
        )
        watcher.wait(f"reedboard/{board}/reply", lambda t, b=board: f'"after-{b}"' in t)
    time.sleep(1.1)  # one new game a second
    new_game = '{"command": "new_game", "game": "antipalos", "size": 5, "id": "fresh"}'
    watcher.publish("reedboard/t1/command", new_game)
    # Its reply, not a state (the new game's may equal the last one, never sent again): begun.
    assert '"ok": true' in watcher.wait("reedboard/t1/reply", lambda t: '"fresh"' in t)
    one.place("B2*")  # a move of the new game, never a piece the new game finds on its board
    deadline = time.monotonic() + 15
    while not any(
        v["id"] == "t1"
        and v["state"].get("moves") is None
        and v["state"].get("ply") == 1
        and v["pieces"] == ["B2*"]
        for v in dashboard.fleet.views()
    ):
        assert time.monotonic() < deadline, [v for v in dashboard.fleet.views() if v["id"] == "t1"]
        time.sleep(0.05)
    assert link.bad > 0  # the fuzz's malformed messages were dropped, and counted
    errors = one.errors() + two.errors()
    assert "Traceback" not in errors, errors[errors.find("Traceback") - 300 :][:3000]
