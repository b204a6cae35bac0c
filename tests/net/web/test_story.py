"""What the page shows besides the sensors (firmware_host/net/web/story.py), on real controllers at
moments of a turn (tests/ui/scenes.py): the placed token in its colour, a flip shown once the
board counted it, the computer's move as a move to make, the moves so far, the losses."""

from __future__ import annotations

from engines import new_game
from firmware_host.net.web import story
from tests.ui.scenes import SCENES, finish


def at(figures, site):
    """The (side, mark) of the non-pawn figure on ``site``."""
    (found,) = [(f["side"], f.get("mark")) for f in figures if site in f["sites"] and f["kind"] != "pawn"]
    return found


def pawns(figures):
    return sorted((f["side"], f["sites"][0]) for f in figures if f["kind"] == "pawn")


def test_a_placed_token_shows_in_its_colour_and_a_flip_once_counted():
    drive = SCENES["antipode-flip"]()  # Blue placed b1; a1 is to flip; the landing not tapped
    shown = story.expected(drive.ctl.snapshot())
    assert at(shown, "b1") == ("blue", "flip")  # as placed (the pawn's path flips it later)
    assert at(shown, "a1") == ("red", "flip")  # not flipped yet
    assert pawns(shown) == [("blue", "e1"), ("red", "e9")]  # the pawn has not landed
    drive.lift("a1").run(300).place("a1").run(800)  # the flip, counted
    shown = story.expected(drive.ctl.snapshot())
    assert at(shown, "a1") == ("blue", None)
    drive.lift("a1").run(150).place("a1").run(800)  # the landing tapped: the move is made
    shown = story.expected(drive.ctl.snapshot())
    assert at(shown, "b1") == ("blue", "flip") and ("blue", "a1") in pawns(shown)
    finish(drive)
    assert at(story.expected(drive.ctl.snapshot()), "b1") == ("red", None)


def test_the_computers_move_is_a_move_to_make_not_made():
    drive = SCENES["anti-grid-computer"]()
    snap = drive.ctl.snapshot()
    plan = story.plan(snap)
    assert plan["from"] == ["c1"] and plan["to"] == ["c2"]
    assert [(f["sites"], f["mark"]) for f in plan["figures"]] == [(["c2"], "plan")]
    assert any(f["sites"] == ["c1"] for f in story.expected(snap))  # still where it stands


def test_history_and_losses():
    state = new_game("anti-grid", 6)
    after = state.play("c1-c2")
    assert story.history([state], ["c1-c2"]) == [
        {"move": "c1-c2", "side": "red", "from": ["c1"], "to": ["c2"]}
    ]
    assert story.losses(state, after) == {"red": 0, "blue": 0}
    assert story.losses(new_game("antipode"), new_game("antipode")) is None  # nothing is taken there
