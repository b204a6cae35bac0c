"""Match play through the registry: which games offer it, ``engines.new_match`` and its errors."""

from __future__ import annotations

import pytest

import engines
from engines.antipalos import TARGETS, Match
from engines.core import MatchPlay, OptionError


def test_only_antipalos_offers_match_targets():
    offered = {name: engines.game_info(name).match_targets for name in engines.GAME_NAMES}
    assert offered.pop("antipalos") == TARGETS == (6, 9, 15)
    assert set(offered.values()) == {()}


@pytest.mark.parametrize("target", TARGETS)
def test_new_match_fills_in_the_game_options(target):
    match = engines.new_match("antipalos", target=target)
    assert match == Match(target=target, size=12, variant="two")
    assert match.totals == {"white": 0, "black": 0} and match.winner is None
    assert match.new_game() == engines.new_game("antipalos")


def test_new_match_passes_size_and_variant_and_defaults_the_target():
    match = engines.new_match("antipalos", 14, "cut-throat-3")
    assert (match.target, match.size, match.variant) == (6, 14, "cut-throat-3")
    assert list(match.totals) == ["white", "black", "red"]


def test_the_match_is_a_match_play_value():
    match: MatchPlay = engines.new_match("antipalos", 3, target=6)
    state = match.new_game()
    for move in ["B1*", "A1*", "*B2", "C1*", "B3*"]:
        state = state.play(move)
    after = match.record(state)
    assert after.totals == {"white": 3, "black": 0} and after.new_game().to_move == "black"
    assert match.totals == {"white": 0, "black": 0}  # the value before is unchanged


@pytest.mark.parametrize(
    "name, size, variant, target, message",
    [
        ("phalanx", None, None, 6, "phalanx has no match play"),
        ("antipode", None, None, None, "antipode has no match play"),
        ("antipalos", None, None, 7, "antipalos matches go to 6, 9 or 15 points, not 7"),
        ("antipalos", None, None, 0, "not 0"),
        ("antipalos", 2, None, 6, "antipalos has no size 2"),
        ("antipalos", None, "solo", 6, "antipalos has no variant 'solo'"),
        ("chess", None, None, 6, "unknown game 'chess'"),
    ],
)
def test_new_match_refuses_what_is_not_offered(name, size, variant, target, message):
    with pytest.raises(OptionError, match=message):
        engines.new_match(name, size, variant, target)
