"""Antipode against the computer: the players set back by hand their last turn and the
computer's answer, turning back on the way the tokens those moves turned. Written from the
players' side: the board's ``guide`` events (and, with speech on, what the voice says) ask
only what is still to do, never a token the players already turned back, and each is what the
OLED then asks."""

from __future__ import annotations

import random
import re

import pytest

from firmware_host.board.controller import Game
from firmware_host.board.turn import STEPS
from firmware_host.ui.speech import site
from testbed.board_under_test import BoardUnderTest
from testbed.robot import Robot
from testbed.setback import ORDERS, hands, set_back
from testbed.streams import of

from .test_set_back_computer import _played

VARIANTS = [("rulebook", 45), ("no-full-board-turn", 61), ("standard", 62)]


def _turned(board: BoardUnderTest, tokens: set[str], since: float, t: float) -> set[str]:
    """The ``tokens`` set down again (turned back) from ``since`` until before ``t`` ms."""
    return {
        line["site"]
        for line in board.lines
        if line.get("on") and line["site"] in tokens and since <= line["t"] < t
    }


def _shown(events: list[dict], t: float) -> list[str]:
    """What the OLED showed once the board's step at ``t`` ms was done (its ``display`` events)."""
    return [e for e in events if e["event"] == "display" and e["t"] <= t][-1]["lines"]


def _asks(guide: dict, lines: list[str]) -> bool:
    """Whether the OLED's ``lines`` ask what ``guide`` does: each of its sites named (a carry
    is worded by the game: "Blue pawn: e4 back to e1"), a flip in the flip's own words."""
    text = " ".join(lines)
    named = all(re.search(rf"(?<![\w*]){re.escape(s)}(?![\w*])", text) for s in guide["sites"])
    return named and (guide["action"] != "flip" or STEPS["flip"].words(guide["sites"]) in text)


@pytest.mark.parametrize("pause", [0, 1000])
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("variant, seed", VARIANTS)
def test_tokens_turned_back_by_hand_are_never_asked_again(variant, seed, order, pause):
    """Set back quickly or pausing a second halfway: every ``guide`` written after the set-back
    began asks a step the players have still to do (no token they turned back already; the
    pawns to carry home), the OLED shows it when it is written (its ``display`` event), and the
    voice never asks to turn a token already turned back."""
    board = BoardUnderTest(Game.of("antipode", None, variant), computer="second", speech=True)
    try:
        robot = Robot(board, random.Random(seed), kinds=())
        _played(robot, 2)
        moves, states = list(board.held()), robot.states
        tokens = set(hands(states[-3], moves[-2])[2] + hands(states[-2], moves[-1])[2])
        assert tokens, "the set-back turns tokens back"
        begun, t0 = len(board.events), board.now_ms
        set_back(board, states, moves, order, pause)
        board.settle(), board.run(2000), board.settle()
        since = board.events[begun:]
        assert [t["move"] for t in of(since, "takeback")] == moves[:-3:-1]
        guides = [e for e in since if e["event"] == "guide"]
        assert guides, "the pawns are to carry home"
        for guide in guides:
            assert not set(guide["sites"]) & _turned(board, tokens, t0, guide["t"]), guide
        assert [_asks(guide, _shown(board.events, guide["t"])) for guide in guides] == [True] * len(guides)
        turns = [e for e in since if e["event"] == "say" and "Turn the token" in e["text"]]
        again = [
            s["text"] for s in turns if any(site(t) in s["text"] for t in _turned(board, tokens, t0, s["t"]))
        ]
        assert again == []
        assert not any(line.startswith("Flip") for line in board.screen())
    finally:
        board.close()
