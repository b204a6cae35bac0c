"""Every house rule of the games' rulings (docs/games/) is a named option (``--option
NAME=VALUE``, the config's ``options``), with the default the rulings give; each option changes
what it says."""

from __future__ import annotations

import pytest

from engines import GAME_NAMES, game_info, new_game
from engines.core import OptionError

CYCLE = ["B2* - *B2", "*B3 - B3*", "*B2 - B2*", "B3* - *B3"]


def play(state, moves):
    for move in moves:
        state = state.play(move)
    return state


def test_every_game_lists_its_options_with_defaults():
    named = {name: {o.name: o.default for o in game_info(name).options} for name in GAME_NAMES}
    assert named["antipalos"] == {"supply": None, "first": "white", "repetition-draw": True}
    assert named["anti-grid"] == {"first": "red", "trapped": True}
    assert named["phalanx"] == {"repetition-draw": True, "quiet-plies": 200}
    assert named["antipode"] == {} and named["antipod"] == {}  # Antipode's are variants


def test_antipalos_repetition_draw_on_by_default_and_off_by_option():
    opening = ["B2*", "*B3", "C3*", "*C2"]
    drawn = play(new_game("antipalos", 4, options={"supply": 2}), opening + CYCLE * 2)
    assert drawn.outcome().result == "repetition"
    off = {"supply": "2", "repetition-draw": "no"}
    assert play(new_game("antipalos", 4, options=off), opening + CYCLE * 3).outcome() is None


def test_antipalos_smaller_supply_and_first_side():
    state = new_game("antipalos", 4, options={"supply": 2, "first": "black"})
    assert state.to_move == "black"
    assert play(state, ["A1*", "A3*", "C1*", "C3*"]).phase == 2  # 2 each, then Phase Two
    assert new_game("antipalos", 4).phase == 1 and sum(new_game("antipalos", 4).left) == 12


def test_anti_grid_first_side_and_trapped_rule():
    assert new_game("anti-grid", 6).to_move == "red"
    assert new_game("anti-grid", 6, options={"first": "blue"}).to_move == "blue"
    assert new_game("anti-grid", 6).trapped_rule
    assert not new_game("anti-grid", 6, options={"trapped": "off"}).trapped_rule


def test_phalanx_quiet_plies_and_repetition():
    moves = ["a1se-a2sw", "h8se-h7sw", "a2sw-a1se", "h7sw-h8se"]
    short = new_game("phalanx", options={"quiet-plies": "4", "repetition-draw": "no"})
    assert play(short, moves[:3]).outcome() is None
    assert play(short, moves).outcome().result == "no-captures"
    thrice = play(new_game("phalanx"), moves * 2)
    assert thrice.outcome().result == "repetition"
    assert play(new_game("phalanx", options={"repetition-draw": False}), moves * 2).outcome() is None


@pytest.mark.parametrize(
    "game, options, message",
    [
        ("antipalos", {"suply": 2}, "no option 'suply' (options: supply, first, repetition-draw)"),
        ("antipalos", {"supply": "many"}, "option supply is a whole number, not 'many'"),
        ("antipalos", {"supply": 0}, "option supply is a whole number from 1, not 0"),
        ("antipalos", {"supply": 99}, "supply must be 1 to 6 Trirods per side on 4x4"),
        ("anti-grid", {"first": "green"}, "option first is one of red, blue, not 'green'"),
        ("anti-grid", {"trapped": "maybe"}, "option trapped is yes or no, not 'maybe'"),
        ("antipode", {"first": "red"}, "no option 'first' (options: none)"),
    ],
)
def test_bad_options_are_refused_in_one_line(game, options, message):
    with pytest.raises(OptionError) as info:
        new_game(game, 4 if game == "antipalos" else None, options=options)
    assert str(info.value) == message
