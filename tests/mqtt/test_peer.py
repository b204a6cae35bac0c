"""A peer's messages read as untrusted input (firmware_host/mqtt/peer.py): whatever arrives,
the reader answers with a normalised game or one Bad line, never another exception; a legal
game written in any case or spacing reads as the canonical one; no forged token, stamp or count
gets past its bounds."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from firmware_host.mqtt.peer import peer_board, peer_moves, peer_token, read_peer, stamp
from firmware_host.mqtt.untrusted import Bad

NOW_NS = 1_764_050_000_000_000_000
TOKEN = f"{NOW_NS - 10**9:020d}:t2"

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=15)
FIELDS = ("game", "size", "variant", "token", "moves", "takebacks", "ask", "refused")


def _game(seed: int, name: str = "antipod", size: int | None = 4, plies: int = 8) -> list[str]:
    rng, state, moves = random.Random(seed), engines.new_game(name, size), []
    while len(moves) < plies and not state.outcome():
        move = rng.choice(list(state.legal_moves()))
        moves.append(state.notation(move))
        state = state.apply(move)
    return moves


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS), values), st.binary(max_size=60))
def test_anything_reads_as_a_game_or_one_bad_line(fields, junk):
    for payload in (json.dumps(fields).encode(), junk):
        try:
            peer = read_peer(payload, NOW_NS)
        except Bad as exc:
            assert "\n" not in str(exc)
        else:
            assert peer["game"] in engines.GAME_NAMES and isinstance(peer["moves"], list)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.sampled_from(["upper", "space", "lower"]), min_size=8,
                                        max_size=8))
def test_a_game_in_any_case_or_spacing_reads_as_its_canonical_moves(seed, styles):
    moves = _game(seed)
    written = [{"upper": m.upper(), "space": f" {m} ", "lower": m}[style]
               for m, style in zip(moves, styles)]
    payload = {"game": "antipod", "size": 4, "token": TOKEN, "moves": written, "takebacks": 0}
    assert read_peer(json.dumps(payload).encode(), NOW_NS)["moves"] == moves


@pytest.mark.parametrize("change, why", [
    ({"token": "~~~~"}, "token"), ({"token": f"{NOW_NS * 10}:t2"}, "token"),
    ({"token": f"{NOW_NS + 10**12:020d}:t2"}, "in the future"),
    ({"token": f"{NOW_NS:020d}:#"}, "token"), ({"ask": [10**18, 0, 2]}, "a stamp from 2020"),
    ({"refused": 10**30}, "a stamp from 2020"), ({"ask": [NOW_NS // 10**6, 3, 2]}, "out of order"),
    ({"ask": [NOW_NS // 10**6, 0, 9]}, "out of order"), ({"takebacks": -1}, "whole number"),
    ({"takebacks": 10**18}, "whole number"), ({"moves": ["a2", "a2"]}, "not legal"),
    ({"moves": ["a2"] * 6000}, "at most 5000"), ({"moves": ["x" * 41]}, "at most 40"),
    ({"game": "chess"}, "unknown game"), ({"size": 99}, "antipod"), ({"size": "4"}, "whole number"),
])
def test_forged_fields_are_refused(change, why):
    payload = {"game": "antipod", "size": 4, "token": TOKEN, "moves": ["a2", "b3"], "takebacks": 0,
               **change}
    with pytest.raises(Bad, match=why):
        read_peer(json.dumps(payload).encode(), NOW_NS)


def test_the_pieces_check_alone():
    assert peer_moves(engines.new_game("antipalos", 5), ["b2*", " C3* "]) == ["B2*", "C3*"]
    assert stamp(NOW_NS // 10**6, NOW_NS // 10**6) == NOW_NS // 10**6
    assert peer_token(TOKEN, NOW_NS) == TOKEN
    for bad in ("+", "#", "a/b", "", "T2", 5, None):
        with pytest.raises(Bad):
            peer_board(bad)
    assert peer_board("table-7") == "table-7"
