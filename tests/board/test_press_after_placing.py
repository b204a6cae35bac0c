"""A button pressed as a piece lands, before the board has settled: the placing is judged
first, then the press acts on what it showed (a player places and presses OK at once)."""

from __future__ import annotations

import json

import pytest

from testbed.streams import STREAMS, moves, of, run


def stream(name: str, until: int, *rest: dict) -> list[str]:
    """The recorded stream ``name`` up to ``until`` ms, then ``rest``."""
    lines = [json.loads(line) for line in (STREAMS / name).read_text().splitlines()]
    return [json.dumps(obj) for obj in [o for o in lines if o["t"] <= until] + list(rest)]


@pytest.mark.parametrize("after", [5, 30, 100, 400])
def test_ok_right_after_a_pawn_lands_in_antipode_counts_the_flip(after):
    """The pawn set on h9 (its neighbour i9 to flip), OK pressed ``after`` ms later stands in
    for the flip (the pick shown), a second OK takes h9."""
    lines = stream(
        "antipode_pick.jsonl",
        3700,
        {"t": 3700 + after, "button": "ok"},
        {"t": 4500},
        {"t": 5000, "button": "ok"},
        {"t": 5500},
    )
    events = run(lines, "antipode")
    assert moves(events) == ["b1:a1", "h9:h9"]
    assert of(events, "guide")[-2:] == [
        {"action": "flip", "sites": ["i9"]},
        {"action": "pick", "sites": ["h9", "i9"]},
    ]
    assert events[-1]["position"]["to_move"] == "blue"


@pytest.mark.parametrize("after", [5, 30, 600])
def test_ok_right_after_the_captured_piece_is_lifted_in_anti_grid_ends_the_chain(after):
    """The capture's piece f8 lifted, OK pressed ``after`` ms later: the chain ends (the OK
    move), blue to move."""
    lines = stream("antigrid_chain_ok.jsonl", 6400, {"t": 6400 + after, "button": "ok"}, {"t": 7500})
    events = run(lines, "anti-grid", variant="chain")
    assert moves(events)[-2:] == ["a9-f9", "ok"]
    assert events[-1]["position"]["to_move"] == "blue"


def chattering(site: str, start: int, ms: int = 4000) -> list[dict]:
    """``site``'s switch chattering from ``start`` for ``ms`` (never debounced, and ending
    open): the board does not settle meanwhile."""
    return [{"t": start + 20 * i, "site": site, "on": i % 2 == 0} for i in range(ms // 20)]


def test_a_press_on_a_board_that_never_settles_goes_through_in_the_end():
    """A switch chattering for seconds keeps the board unsettled: MENU still opens the menu."""
    chatter = chattering("c5", 200)
    events = run([json.dumps(o) for o in [{"t": 100, "button": "menu"}, *chatter]], "antipode")
    menu = [e["t"] for e in events if e["event"] == "display" and e["lines"][0] == "Menu"]
    assert menu and menu[0] < chatter[-1]["t"]  # opened while the switch still chatters


def test_ok_as_a_piece_lands_on_a_board_that_never_settles_is_judged_at_its_settle():
    """b1 placed (a1 to flip, two landings) amid seconds of chatter, OK pressed at once: let
    through after the bound with a hand still over the board, OK waits for the settle and is
    judged there before the placing is, so it stands in for no flip: a1 is still to flip."""
    chatter = chattering("c5", 50)
    lines = [*chatter, {"t": 100, "site": "b1", "on": True}, {"t": 150, "button": "ok"}, {"t": 6000}]
    events = run([json.dumps(o) for o in sorted(lines, key=lambda o: o["t"])], "antipode")
    assert moves(events) == []
    assert [(e["t"] > chatter[-1]["t"], e["action"]) for e in events if e["event"] == "guide"] == [
        (True, "flip")
    ]
    assert of(events, "guide") == [{"action": "flip", "sites": ["a1"]}]


def test_ok_with_a_piece_lifted_on_a_board_that_never_settles_ends_the_chain_at_its_settle():
    """A capture chain's OK pressed while f9 is lifted amid chatter, f9 set back only after the
    bound: OK waits for the settle and ends the chain there (the OK move), blue to move."""
    chatter = chattering("e5", 6950)
    rest = [{"t": 7000, "site": "f9", "on": False}, {"t": 7050, "button": "ok"}]
    rest += [{"t": 9500, "site": "f9", "on": True}, {"t": 12000}]
    lines = stream("antigrid_chain_ok.jsonl", 6900, *sorted([*chatter, *rest], key=lambda o: o["t"]))
    events = run(lines, "anti-grid", variant="chain")
    assert moves(events)[-2:] == ["a9-f9", "ok"]
    assert [e["t"] > chatter[-1]["t"] for e in events if e["event"] == "move"][-1]
    assert events[-1]["position"]["to_move"] == "blue"
