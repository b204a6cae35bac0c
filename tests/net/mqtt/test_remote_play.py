"""Board-to-board play through a real Mosquitto: two ``reedboard run --sim`` daemons, each
playing one side, each carrying out the other's moves under guidance."""

from __future__ import annotations

import json

from firmware_host.store.storage import Storage
from testbed.broker import board_config
from testbed.pairs import OPPONENT, t1_and_t2


def pair(tmp_path, broker, boards):
    """t1 plays white against t2 (black); both running."""
    return t1_and_t2(tmp_path, broker.port, boards)


def events(watcher, board: str, kind: str) -> list[dict]:
    return [json.loads(t) for t in watcher.texts(f"reedboard/{board}/events") if f'"{kind}"' in t]


def test_two_boards_play_each_others_moves_and_survive_duplicates_and_an_absence(
    tmp_path, broker, watcher, boards
):
    one, two = pair(tmp_path, broker, boards)
    one.place("B2*")  # White at t1
    expect = json.loads(watcher.wait("reedboard/t2/events", lambda t: '"expect"' in t))
    assert expect["move"] == "B2*" and expect["fill"] == ["B2*"]
    watcher.wait("reedboard/t2/events", lambda t: "Opponent plays B2*: place B2*" in t)
    two.place("A1*")  # not the move: refused, never taken as White's
    watcher.wait("reedboard/t2/events", lambda t: '"out_of_sync"' in t)
    two.lift("A1*")
    two.place("B2*")  # carried out at t2, then Black's own move there
    watcher.state("t2", lambda s: s["moves"] == ["B2*"])
    two.place("C3*")
    watcher.state("t2", lambda s: s["moves"] == ["B2*", "C3*"])
    assert json.loads(watcher.wait("reedboard/t1/events", lambda t: '"expect"' in t))["move"] == "C3*"
    one.place("C3*")
    watcher.state("t1", lambda s: s["moves"] == ["B2*", "C3*"])
    assert watcher.state("t1")["opponent"] == "board t2, black"

    # The same list again (a duplicate, a reconnection) changes nothing.
    latest = watcher.texts("reedboard/t2/moves")[-1]
    watcher.client.publish("reedboard/t2/moves", latest, qos=1, retain=True).wait_for_publish(2)
    one.place("D4*")
    watcher.state("t1", lambda s: s["moves"] == ["B2*", "C3*", "D4*"])

    # t2 goes away: t1 says so; back, it resumes the stored game and catches up.
    assert two.stop() == 0
    watcher.wait("reedboard/t1/events", lambda t: "Opponent offline" in t)
    heard = len(watcher.texts("reedboard/t2/events"))  # it may have asked for D4* before it went
    two = boards(board_config(tmp_path, broker.port, "t2", OPPONENT.format(other="t1", side="white")))
    two.wait_running()
    assert json.loads(
        watcher.wait("reedboard/t2/events", lambda t: '"D4*"' in t and '"expect"' in t, since=heard)
    )
    two.place("D4*")
    watcher.state("t2", lambda s: s["moves"] == ["B2*", "C3*", "D4*"])
    # The first game after a start names its opponent too (the records export writes).
    for board, other in (("t1", "board t2, black"), ("t2", "board t1, white")):
        storage = Storage(str(tmp_path / f"{board}.db"), read_only=True)
        try:
            assert storage.games()[0].opponent == other
        finally:
            storage.close()


def two_moves(one, two, watcher) -> None:
    """White's B2* at t1 and Black's C3* at t2, each carried out on the other board."""
    one.place("B2*")
    watcher.wait("reedboard/t2/events", lambda t: '"expect"' in t)
    two.place("B2*")
    watcher.state("t2", lambda s: s["moves"] == ["B2*"])
    two.place("C3*")
    watcher.wait("reedboard/t1/events", lambda t: '"expect"' in t and "C3*" in t)
    one.place("C3*")
    watcher.state("t1", lambda s: s["moves"] == ["B2*", "C3*"])


def test_a_takeback_asked_on_one_board_is_made_on_both_once_the_other_agrees(
    tmp_path, broker, watcher, boards
):
    one, two = pair(tmp_path, broker, boards)
    two_moves(one, two, watcher)
    one.lift("C3*")  # Black's stone off again at t1: being set right, nothing is asked yet
    one.lift("B2*")  # White's own too: asks to take back Black's turn and White's
    watcher.wait("reedboard/t1/events", lambda t: '"waiting"' in t and "wait for the opponent's OK" in t)
    watcher.wait("reedboard/t2/events", lambda t: "Take back?" in t and "undo 2 moves" in t)
    assert not events(watcher, "t1", "takeback")  # nothing taken back before the answer
    assert not events(watcher, "t1", "illegal")  # a question asked, not a move refused
    two.press("ok")
    watcher.wait("reedboard/t1/events", lambda t: '"takeback"' in t and "B2*" in t)
    watcher.wait("reedboard/t2/events", lambda t: '"takeback"' in t and "B2*" in t)
    undone = [e["move"] for e in events(watcher, "t2", "takeback")]
    assert undone == ["C3*", "B2*"]
    out = json.loads(watcher.wait("reedboard/t2/events", lambda t: '"out_of_sync"' in t))
    assert sorted(out["extra"]) == ["B2*", "C3*"]  # t2's players are shown what to take off
    one.press("menu")
    one.press("ok")  # MENU, OK: a new game at t1 ...
    watcher.wait("reedboard/t1/events", lambda t: '"new_game"' in t)
    watcher.wait("reedboard/t2/events", lambda t: '"new_game"' in t)  # ... and at t2


def test_a_refused_takeback_leaves_the_game_and_the_asking_board_is_told(tmp_path, broker, watcher, boards):
    one, two = pair(tmp_path, broker, boards)
    two_moves(one, two, watcher)
    one.lift("C3*")
    one.lift("B2*")
    watcher.wait("reedboard/t2/events", lambda t: "Take back?" in t)
    two.press("back")
    watcher.wait("reedboard/t1/events", lambda t: "refused the take back" in t)
    synced = len(events(watcher, "t1", "in_sync"))
    one.place("B2*")
    one.place("C3*")  # the stones back (nothing read as a move meanwhile) ...
    watcher.wait("reedboard/t1/events", lambda _: len(events(watcher, "t1", "in_sync")) > synced)
    one.place("D4*")  # ... the game goes on where it was
    watcher.state("t1", lambda s: s["moves"] == ["B2*", "C3*", "D4*"])
    assert not events(watcher, "t1", "takeback") and not events(watcher, "t2", "takeback")
    watcher.wait("reedboard/t2/events", lambda t: '"expect"' in t and "D4*" in t)


def test_a_move_corrected_after_the_other_board_carried_it_out_is_corrected_there_too(
    tmp_path, broker, watcher, boards
):
    one, two = pair(tmp_path, broker, boards)
    one.place("B2*")
    watcher.wait("reedboard/t2/events", lambda t: '"expect"' in t and "B2*" in t)
    two.place("B2*")  # carried out at t2 ...
    watcher.state("t2", lambda s: s["moves"] == ["B2*"])
    one.lift("B2*")  # ... while at t1 the stone slides on to C2*: corrected in place
    one.place("C2*")
    watcher.wait("reedboard/t1/events", lambda t: '"correction"' in t)
    watcher.state("t1", lambda s: s["moves"] == ["C2*"])
    said = watcher.wait("reedboard/t2/events", lambda t: "Opponent changed to C2*: place C2*" in t)
    assert said
    assert [e["move"] for e in events(watcher, "t2", "takeback")] == ["B2*"]
    two.lift("B2*")
    two.place("C2*")
    watcher.state("t2", lambda s: s["moves"] == ["C2*"])
    two.place("D4*")  # and play goes on: Black's D4* carried out at t1
    watcher.state("t2", lambda s: s["moves"] == ["C2*", "D4*"])
    assert json.loads(watcher.wait("reedboard/t1/events", lambda t: '"expect"' in t and "D4*" in t))
    one.place("D4*")
    watcher.state("t1", lambda s: s["moves"] == ["C2*", "D4*"])


def test_a_takeback_sent_over_the_network_is_asked_of_the_other_board_too(tmp_path, broker, watcher, boards):
    one, two = pair(tmp_path, broker, boards)
    two_moves(one, two, watcher)
    watcher.publish("reedboard/t1/command", '{"command": "takeback", "id": 1}')
    watcher.wait("reedboard/t2/events", lambda t: "Take back?" in t and "undo 2 moves" in t)
    assert not events(watcher, "t1", "takeback")
    since = {board: watcher.seen(board) for board in ("t1", "t2")}
    two.press("ok")
    for board in ("t1", "t2"):  # both began with no moves: a state from after the OK
        watcher.state(board, lambda s: s["moves"] == [], since=since[board])
    out = json.loads(watcher.wait("reedboard/t1/events", lambda t: '"out_of_sync"' in t))
    assert sorted(out["extra"]) == ["B2*", "C3*"]  # the pieces still stand: take them off
