"""Takebacks of what the sensors cannot see (Antipode's token faces and pawns) are guided in
full: the tokens to turn back are lit and tracked by their lifts, each pawn's way back is named
and lit, and OK (or the next side's first action) confirms the pawn."""

from firmware_host.board.game import Game
from firmware_host.board.phase import Following
from firmware_host.board.turn import STEPS
from firmware_host.board.view import LIGHTS
from firmware_host.ui.menu import GameChoice, Menu, game_choices
from testbed.drive import Drive
from testbed.streams import kinds, of, run_file, shown


def test_taking_back_by_lifting_the_placed_token_guides_the_flip_back_and_the_pawn_home():
    # Red placed h9, flipped i9, landed on i9; then lifts h9 off again: the move is taken back.
    events = run_file("antipode_takeback_undo.jsonl", "antipode")
    assert of(events, "takeback") == [{"move": "h9:i9"}]
    after = events[[e["event"] for e in events].index("takeback") :]
    assert of(after, "guide") == [{"action": "flip", "sites": ["i9"]}, {"action": "carry", "sites": ["i9"]}]
    assert ["Antipode", "Red to move", "Flip i9", "Pawns: blue b1, red e9", "Pool: 54 tokens"] in shown(after)
    assert [
        "Antipode",
        "Red to move",
        "Red pawn: i9 back to e9, then OK",
        "Pawns: blue b1, red e9",
        "Pool: 54 tokens",
    ] in shown(after)
    assert shown(after)[-1] == [
        "Antipode",
        "Red to move",
        "Place a token",
        "Pawns: blue b1, red e9",
        "Pool: 54 tokens",
    ]
    assert events[-1]["moves"] == ["b1:b1"] and "out_of_sync" not in kinds(events)


def test_menu_take_back_lights_the_token_to_lift_off_the_token_to_turn_and_the_pawn_to_carry():
    current = GameChoice("antipode", None, "standard", "Antipode")
    d = Drive(Game.of("antipode"), menu=Menu([current, *game_choices()[:3]], current))
    d.run(50).place("b1").run(500)  # Blue places b1: flip a1, then tap the landing
    d.lift("a1").run(300).place("a1").run(600)
    d.lift("b1").run(100).place("b1").run(600)
    assert d.ctl.moves == ["b1:b1"]
    d.press("menu")
    labels = [line.lstrip("> ") for line in d.ctl.screen().text_lines()[1:]]
    for _ in range(labels.index("Take back")):
        d.press("menu")
    d.press("ok")
    assert d.ctl.moves == [] and d.kinds()[-3:] == ["takeback", "guide", "out_of_sync"]
    assert d.lit("b1") == LIGHTS["extra"] and d.lit("a1") == LIGHTS[STEPS["flip"].light]
    d.lift("b1").run(500)  # the token off, then a1 turned back
    d.lift("a1").run(300).place("a1").run(600)
    assert (d.last("guide")["action"], d.last("guide")["sites"]) == ("carry", ["b1"])
    assert d.ctl.screen().text_lines()[2] == "Blue pawn: b1 back to e1, then OK"
    d.press("ok")
    assert not isinstance(d.ctl.phase, Following) and d.ctl.screen().text_lines()[1] == "Blue to move"
