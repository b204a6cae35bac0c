"""The seating a paired board's message carries (players at both boards' seats, the league
table, whose OK is awaited) is read as untrusted input: one line saying what is wrong."""

from __future__ import annotations

import json

import pytest

from firmware_host.board.seating import Seating
from firmware_host.net.mqtt.peer import read_peer
from firmware_host.net.mqtt.untrusted import Bad
from firmware_host.store.players import League

NOW = 1764050000000000000
STAMP = "01764049999000000000:home"


def _message(seating) -> bytes:
    game = {
        "v": 2,
        "game": "antipalos",
        "size": 3,
        "variant": "two",
        "token": "",
        "moves": [],
        "rewrites": [],
    }
    return json.dumps({**game, "seating": seating}).encode()


def test_a_league_table_is_read_with_its_stamp() -> None:
    seating = {"stamp": STAMP, "players": ["Anna", "Ben"], "league": {"event": "E", "round": 1, "table": 3}}
    peer = read_peer(_message({**seating, "ready": 1}), NOW)
    assert peer.seating == (STAMP, Seating(("Anna", "Ben"), League("E", 1, 3), 1))
    assert read_peer(_message(None), NOW).seating is None


@pytest.mark.parametrize(
    "seating, why",
    [
        ("Anna", "seating: expected stamp, players, league and ready"),
        (
            {"stamp": STAMP, "players": ["Anna"], "league": None},
            "seating: expected stamp, players, league and ready",
        ),
        ({"stamp": "99999999999999999999:x", "players": [], "league": None, "ready": None}, "in the future"),
        (
            {"stamp": STAMP, "players": ["\x00"], "league": None, "ready": None},
            "'players' must be a name per seat",
        ),
        ({"stamp": STAMP, "players": ["A"], "league": {"event": 1}, "ready": None}, "'league' must be"),
        (
            {"stamp": STAMP, "players": ["A", "B"], "league": None, "ready": 2},
            "'ready' must be a seat (0 to 1)",
        ),
    ],
)
def test_a_seating_that_does_not_read_is_refused_in_one_line(seating, why) -> None:
    with pytest.raises(Bad) as refused:
        read_peer(_message(seating), NOW)
    assert why in str(refused.value) and "\n" not in str(refused.value)
