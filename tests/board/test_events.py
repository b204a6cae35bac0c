"""Every event a board tells is one of the typed kinds of ``firmware_host.board.events``, with
its fields in the order the kind lists them (the JSON lines print them in that order)."""

from __future__ import annotations

import json
from typing import get_args, get_type_hints

from firmware_host.board.events import Event
from firmware_host.store.config import Config
from testbed.drive import Drive
from testbed.streams import Stream, run
from tests.board.test_controller import toy
from tests.board.toy_game import move

#: Kind -> its fields, read from the union.
KINDS = {
    kind: list(get_type_hints(cls))
    for cls in get_args(Event)
    for kind in get_args(get_type_hints(cls)["event"])
}


def check(events: list) -> set[str]:
    """Each event's fields are its kind's, in order; the kinds seen."""
    for event in events:
        assert list(event) == KINDS[event["event"]], event
        assert json.loads(json.dumps(event)) == event
    return {e["event"] for e in events}


def test_the_kinds_are_each_named_once():
    assert len(KINDS) == sum(len(get_args(get_type_hints(c)["event"])) for c in get_args(Event))
    assert {"move", "guide", "display", "out_of_sync", "game_over", "match"} <= set(KINDS)


def test_a_game_with_steps_a_stray_piece_and_a_takeback_tells_typed_events():
    d = Drive(
        toy(
            [move("m", ["s0"], ["s1"], ("remove", ["s2"]), ("flip", ["s3"]))],
            [move("n", [], ["s5"])],
            start=["s0", "s2", "s3"],
        )
    )
    d.run(50).lift("s0").run(50).place("s1").run(500).lift("s2").run(500)
    d.lift("s3").run(100).place("s3").run(500)
    d.place("s9").run(500).lift("s9").run(500)
    d.lift("s5").run(50)
    d.lift("s1").place("s0").place("s2").run(3000)
    seen = check(d.events)
    assert {"targets", "move", "guide", "display"} <= seen


def test_a_match_game_won_and_taken_back_tells_typed_events():
    """Antipalos 3 to 6 points: white wins by connection, the menu takes the last move back
    (its fifth item) and it is played again."""
    stream = Stream()
    for text in ["B1*", "A1*", "*B2", "C1*", "B3*"]:
        stream.place(text).settle()
    for _ in range(5):
        stream.press("menu", after=50)
    stream.press("ok").settle().lift("B3*").settle().place("B3*").settle()
    events = run(stream.text(), "antipalos", 3, config=Config(match=6))
    assert events.pop()["event"] == "end"  # the replay's own last line
    assert {"game_over", "match", "takeback", "out_of_sync", "in_sync"} <= check(events)
