"""The game clocks set and corrected over the café network, as a café's software would: a real
board (``reedboard run --sim`` with a config as docs/config.md shows) on a real Mosquitto. A new
game names its time control, the state shows each side's time, an arbiter pauses, adjusts and
resumes, and a bad control or correction is refused with its reason and changes nothing."""

from __future__ import annotations

import json
import time

import pytest

from testbed.broker import board_config

pytestmark = pytest.mark.broker

COMMAND, REPLY, STATE = "reedboard/t1/command", "reedboard/t1/reply", "reedboard/t1/state"


def _ask(watcher, command: dict) -> dict:
    """Send ``command`` with an id of its own; the board's reply to it."""
    ident = f"c{time.monotonic_ns()}"
    watcher.publish(COMMAND, json.dumps({**command, "id": ident}))
    return json.loads(watcher.wait(REPLY, lambda t: json.loads(t)["id"] == ident))


def _c(state: dict) -> dict:
    """A state's clocks (empty: none; the watcher sees the states from the start)."""
    return state["clock"] or {"paused": False, "running": None, "left": {}}


def test_a_new_game_with_a_control_then_an_arbiter_s_pause_and_correction(tmp_path, broker, watcher, boards):
    board = boards(board_config(tmp_path, broker.port, top='[clock]\ncontrol = "-"\n'))
    board.wait_running()
    assert watcher.state("t1")["clock"] is None  # the config's "-": no clock
    new = {"command": "new_game", "game": "antipalos", "size": 5, "control": "300+3", "delay": "bronstein:2"}
    assert _ask(watcher, new)["ok"]
    state = watcher.state("t1", lambda s: s["clock"] is not None)
    assert state["clock"]["control"] == "300+3"
    assert state["clock"]["left"] == {"white": 300_000, "black": 300_000}
    board.place("B2*")  # White's first move: Black's clock runs
    state = watcher.state("t1", lambda s: s["ply"] == 1 and _c(s)["running"] == "black")
    assert state["clock"]["left"]["black"] <= 300_000  # running since the move's change
    assert state["clock"]["left"]["white"] <= 303_000  # at most 2 s given back (bronstein), +3

    assert _ask(watcher, {"command": "clock", "action": "pause"})["ok"]
    paused = watcher.state("t1", lambda s: _c(s)["paused"])["clock"]
    assert _ask(watcher, {"command": "clock", "action": "adjust", "side": 1, "seconds": 30})["ok"]
    adjusted = watcher.state("t1", lambda s: _c(s)["left"].get("black") == paused["left"]["black"] + 30_000)
    assert adjusted["clock"]["paused"] and "||" in adjusted["screen"][1]  # the OLED shows the pause
    assert _ask(watcher, {"command": "clock", "action": "adjust", "side": "white", "seconds": -60})["ok"]
    watcher.state("t1", lambda s: _c(s)["left"].get("white") == paused["left"]["white"] - 60_000)
    since = watcher.seen("t1")  # Black's clock ran before the pause too: a state after it
    assert _ask(watcher, {"command": "clock", "action": "resume"})["ok"]
    watcher.state("t1", lambda s: not _c(s)["paused"] and _c(s)["running"] == "black", since=since)
    assert board.proc.poll() is None


#: (command, what the refusal says).
BAD = [
    ({"command": "new_game", "game": "antipalos", "size": 5, "control": "3 minutes"}, "bad 'control'"),
    ({"command": "new_game", "game": "antipalos", "size": 5, "control": "40/5400:"}, "no time control"),
    ({"command": "new_game", "game": "antipalos", "size": 5, "control": 300}, "bad 'control'"),
    (
        {"command": "new_game", "game": "antipalos", "size": 5, "control": "60", "delay": "fischer:2"},
        "no delay",
    ),
    ({"command": "new_game", "control": "1" * 50}, "too long"),
    ({"command": "clock", "action": "stop"}, "'action' must be one of pause, resume, adjust"),
    ({"command": "clock", "action": "adjust", "side": 0}, "needs 'side' and 'seconds'"),
    ({"command": "clock", "action": "adjust", "side": 7, "seconds": 3}, "'side' must be a number"),
    ({"command": "clock", "action": "adjust", "side": "red", "seconds": 3}, "no side 'red'"),
    ({"command": "clock", "action": "adjust", "side": 0, "seconds": 1e9}, "'seconds' must be from"),
    ({"command": "clock", "action": "adjust", "side": 0, "seconds": "30"}, "bad 'seconds'"),
    ({"command": "clock", "action": "pause", "when": 3}, "unexpected field 'when'"),
]


def test_a_bad_control_or_correction_is_refused_and_changes_nothing(tmp_path, broker, watcher, boards):
    board = boards(board_config(tmp_path, broker.port, top='[clock]\ncontrol = "60+1"\n'))
    board.wait_running()
    board.place("B2*")
    before = watcher.state("t1", lambda s: s["ply"] == 1)
    for command, why in BAD:
        reply = _ask(watcher, command)
        assert reply["ok"] is False and why in reply["error"], (command, reply)
    assert _ask(watcher, {"command": "brightness", "value": 0.3})["ok"]
    now = watcher.state("t1", lambda s: s["brightness"] == 0.3)
    assert now["moves"] == before["moves"] and now["clock"]["control"] == "60+1"
    assert not now["clock"]["paused"]
    assert "Traceback" not in board.errors()


def test_a_game_without_a_clock_refuses_an_arbiter(tmp_path, broker, watcher, boards):
    board = boards(board_config(tmp_path, broker.port, top='[clock]\ncontrol = "60+1"\n'))
    board.wait_running()
    watcher.state("t1", lambda s: s["clock"] is not None)
    since = watcher.seen("t1")
    assert _ask(watcher, {"command": "new_game", "game": "antipalos", "size": 5, "control": "-"})["ok"]
    watcher.state("t1", lambda s: s["clock"] is None, since=since)
    reply = _ask(watcher, {"command": "clock", "action": "pause"})
    assert reply == {"id": reply["id"], "ok": False, "error": "this game has no clock"}
    assert board.proc.poll() is None


def test_home_assistant_has_a_sensor_for_each_side_s_time(tmp_path, broker, watcher, boards):
    """Each side's time left in seconds, read from the state as its template says (the clock's
    players in turn order)."""
    board = boards(board_config(tmp_path, broker.port, top='[clock]\ncontrol = "600+5"\n'))
    board.wait_running()
    sensors = [
        json.loads(watcher.wait(f"homeassistant/sensor/reedboard_t1/clock_{n}/config")) for n in (1, 2, 3, 4)
    ]
    assert [s["name"] for s in sensors] == [f"Time left {n}" for n in (1, 2, 3, 4)]
    assert all(s["unit_of_measurement"] == "s" for s in sensors)
    state = watcher.state("t1", lambda s: s["clock"] is not None)
    assert list(state["clock"]["left"]) == state["sides"] == ["white", "black"]
    assert state["clock"]["left"]["black"] == 600_000
    # what each sensor reads: the n-th player's time on its topic, unknown past the players
    times = [json.loads(watcher.wait(s["state_topic"]))["left"] for s in sensors]
    assert 590 < times[0] <= 600 and times[1:] == [600.0, None, None]
    assert board.proc.poll() is None


def test_a_control_a_new_game_named_is_kept_through_a_restart(tmp_path, broker, watcher, boards):
    """A board whose config has no clock plays a game on the control the café's new game named;
    switched off and on after a move, it goes on with that game's clocks."""
    config = board_config(tmp_path, broker.port)
    board = boards(config)
    board.wait_running()
    new = {"command": "new_game", "game": "antipalos", "size": 5, "control": "600+5", "delay": "simple:2"}
    assert _ask(watcher, new)["ok"]
    board.place("B2*")
    before = watcher.state("t1", lambda s: s["ply"] == 1 and _c(s)["running"] == "black")["clock"]
    board.stop()
    watcher.wait("reedboard/t1/availability", lambda t: t == "offline")  # after its last state
    since = watcher.seen("t1")
    again = boards(config)
    again.wait_running()
    after = watcher.state("t1", lambda s: s["ply"] == 1, since=since)
    assert after["clock"]["control"] == "600+5"
    assert after["clock"]["left"]["white"] == before["left"]["white"]  # as kept after the move
    assert after["clock"]["left"]["black"] <= 600_000
    assert again.proc.poll() is None


def test_a_team_game_has_a_clock_per_player_and_a_sensor_for_each(tmp_path, broker, watcher, boards):
    """Team play: the state's clock has the four players, A1 first and running; Home
    Assistant's four Time left sensors read them in that order."""
    top = 'variant = "team"\n[clock]\ncontrol = "600"\n'
    board = boards(board_config(tmp_path, broker.port, top=top))
    board.wait_running()
    state = watcher.state("t1", lambda s: s["clock"] is not None)
    assert list(state["clock"]["left"]) == ["A1", "B1", "A2", "B2"] and state["sides"] == ["white", "black"]
    assert state["clock"]["running"] == "A1"
    board.place("B2*")
    state = watcher.state("t1", lambda s: s["clock"]["running"] == "B1")
    assert state["clock"]["left"]["A1"] < 600_000 == state["clock"]["left"]["A2"]
    assert json.loads(watcher.wait("reedboard/t1/clock/4")) == {"left": 600.0}  # B2's, Time left 4


def test_home_assistant_s_time_left_counts_down_while_the_clock_runs(tmp_path, broker, watcher, boards):
    """While White thinks, Home Assistant's Time left 1 goes down about once a second, with no
    move made; Time left 2 (Black's clock, standing) is sent once, and 3 and 4 are unknown."""
    board = boards(board_config(tmp_path, broker.port, top='[clock]\ncontrol = "600"\n'))
    board.wait_running()
    sensors = [
        json.loads(watcher.wait(f"homeassistant/sensor/reedboard_t1/clock_{n}/config")) for n in (1, 2, 3, 4)
    ]
    assert [s["state_topic"] for s in sensors] == [f"reedboard/t1/clock/{n}" for n in (1, 2, 3, 4)]
    assert all(s["value_template"] == "{{ value_json.left }}" for s in sensors)
    white = "reedboard/t1/clock/1"
    # Three ticks at least (a loaded machine's loop may send two seconds' fall in one).
    watcher.wait(white, lambda t: json.loads(t)["left"] <= 597 and len(watcher.texts(white)) >= 3)
    lefts = [json.loads(t)["left"] for t in watcher.texts(white)]
    assert lefts == sorted(lefts, reverse=True) and len(lefts) >= 3 and lefts[0] <= 600
    assert [json.loads(t) for t in watcher.texts("reedboard/t1/clock/2")] == [{"left": 600.0}]
    assert json.loads(watcher.wait("reedboard/t1/clock/4")) == {"left": None}
    assert board.proc.poll() is None
