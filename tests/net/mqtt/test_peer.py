"""A peer's messages read as untrusted input (firmware_host/net/mqtt/peer.py): whatever arrives,
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
from firmware_host.net.mqtt.peer import Peer, peer_board, peer_moves, peer_token, read_peer
from firmware_host.net.mqtt.untrusted import Bad

NOW_NS = 1_764_050_000_000_000_000
TOKEN = f"{NOW_NS - 10**9:020d}:t2"

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=15,
)
FIELDS = (
    "v",
    "game",
    "size",
    "variant",
    "token",
    "moves",
    "rewrites",
    "ask",
    "again",
    "answer",
    "answer_again",
)


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
    for payload in (json.dumps({"v": 2, **fields}).encode(), json.dumps(fields).encode(), junk):
        try:
            peer = read_peer(payload, NOW_NS)
        except Bad as exc:
            assert "\n" not in str(exc)
        else:
            assert isinstance(peer, Peer) and peer.game.name in engines.GAME_NAMES


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.sampled_from(["upper", "space", "lower"]), min_size=8, max_size=8))
def test_a_game_in_any_case_or_spacing_reads_as_its_canonical_moves(seed, styles):
    moves = _game(seed)
    written = [{"upper": m.upper(), "space": f" {m} ", "lower": m}[style] for m, style in zip(moves, styles)]
    assert peer_moves(engines.new_game("antipod", 4), written) == moves


@pytest.mark.parametrize(
    "change, why",
    [
        ({"token": "~~~~"}, "token"),
        ({"token": f"{NOW_NS * 10}:t2"}, "token"),
        ({"token": f"{NOW_NS + 10**12:020d}:t2"}, "in the future"),
        ({"token": f"{NOW_NS:020d}:#"}, "token"),
        ({"ask": [10**18, 0, 2]}, "whole number"),
        ({"answer": [10**30, 2, "no"]}, "whole number"),
        ({"answer": [0, 2, "yes"]}, "answer"),
        ({"ask": [0, 3, 2]}, "fewer kept"),
        ({"ask": [0, 2, 2]}, "fewer kept"),
        ({"rewrites": [[-1, "white"]]}, "whole number"),
        ({"rewrites": [[10**18, "white"]]}, "whole number"),
        ({"rewrites": [[1, "x" * 40]]}, "at most 32"),
        ({"rewrites": [[1]]}, "moves kept, side"),
        ({"moves": ["a2"] * 6000}, "at most 5000"),
        ({"moves": ["x" * 41]}, "at most 40"),
        ({"game": "chess"}, "unknown game"),
        ({"size": 99}, "antipod"),
        ({"size": "4"}, "whole number"),
        ({"v": 1}, "v"),
        ({"again": -1}, "again"),
        ({"answer_again": "1"}, "answer_again"),
        ({"used": [1000, -5]}, "used"),
        ({"used": [1000, "2s"]}, "used"),
        ({"used": 5}, "used"),
        ({"running": 10**12}, "running"),
        ({"running": 1.5}, "running"),
    ],
)
def test_forged_fields_are_refused(change, why):
    payload = {
        "v": 2,
        "game": "antipod",
        "size": 4,
        "variant": None,
        "token": TOKEN,
        "moves": ["a2", "b3"],
        "rewrites": [],
        "ask": None,
        "answer": None,
        **change,
    }
    with pytest.raises(Bad, match=why):
        read_peer(json.dumps(payload).encode(), NOW_NS)


def test_a_request_asked_again_is_told_apart_and_a_board_that_does_not_count_asks_first():
    """``again`` and ``answer_again`` end the ask and the answer; a board that sends neither
    (protocol 2 as it began) reads as asking and answering for the first time."""
    payload = {
        "v": 2,
        "game": "antipod",
        "size": 4,
        "variant": None,
        "token": TOKEN,
        "moves": ["a2", "b3"],
        "rewrites": [],
        "ask": [0, 1, 2],
        "answer": [0, 2, "no"],
    }
    first = read_peer(json.dumps(payload).encode(), NOW_NS)
    assert first.ask == (0, 1, 2, 0) and first.answer == (0, 2, 0)
    again = read_peer(json.dumps({**payload, "again": 2, "answer_again": 1}).encode(), NOW_NS)
    assert again.ask == (0, 1, 2, 2) and again.answer == (0, 2, 1)


def test_each_move_s_time_and_the_running_turn_are_read_and_a_board_without_a_clock_sends_none():
    payload = {"v": 2, "game": "antipod", "size": 4, "token": TOKEN, "moves": ["a2", "b3"], "rewrites": []}
    timed = read_peer(json.dumps({**payload, "used": [2100, None], "running": 300}).encode(), NOW_NS)
    assert (timed.used, timed.running) == ((2100, None), 300)
    untimed = read_peer(json.dumps(payload).encode(), NOW_NS)
    assert (untimed.used, untimed.running) == ((), None)


def test_a_move_that_is_not_legal_where_it_stands_is_refused():
    with pytest.raises(Bad, match="not legal"):
        peer_moves(engines.new_game("antipod", 4), ["a2", "a2"])


def test_the_pieces_check_alone():
    assert peer_moves(engines.new_game("antipalos", 5), ["b2*", " C3* "]) == ["B2*", "C3*"]
    assert peer_token(TOKEN, NOW_NS) == TOKEN
    for bad in ("+", "#", "a/b", "", "T2", 5, None):
        with pytest.raises(Bad):
            peer_board(bad)
    assert peer_board("table-7") == "table-7"
