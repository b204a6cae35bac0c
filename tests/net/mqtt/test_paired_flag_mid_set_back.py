"""Paired Antipode boards on 15 s clocks (the in-memory bus): Blue's players at t1 play h5:i5,
t2's players carry it out and answer with a token of their own, which t1's players carry out.
Then t1's players set both turns back by hand: the other side's token lifted first, and their
flag falls while it is in the hand; they lift h5 too, which leaves the start position showing.
That is the set-back finished, no new game set up on either board: both keep the game, lost on
time (the one-board case: tests/board/test_flag_mid_set_back.py)."""

from __future__ import annotations

import random

from firmware_host.board.controller import Game
from firmware_host.store.config import ClockConfig
from testbed.pair import Pair
from testbed.streams import kinds
from tests.board.test_flag_mid_set_back import carry_out


def told(board) -> None:
    """Wait for the other board's move to be lit."""
    for _ in range(50):
        if {"fill", "flip"} & set(board.lit().values()):
            return
        board.run(100)
    raise AssertionError(f"nothing lit: {board.screen()}")


def test_a_set_back_finished_after_the_flag_is_no_new_game_on_either_board():
    pair = Pair(Game.of("antipode", None, "rulebook"), random.Random(1), kinds=(), clock=ClockConfig("15"))
    one, two = pair.boards
    try:
        one.settle()
        one.place("h5")
        one.settle()
        carry_out(one)
        told(two)
        carry_out(two)
        two.place("h9")
        two.settle()
        carry_out(two)  # i9 turned over
        two.press("ok")  # the pawn lands on h9
        two.settle()
        carry_out(two)
        told(one)
        placed = carry_out(one)
        assert one.held() == two.held() and len(one.held()) == 2, (one.held(), two.held(), placed)
        one.lift(placed)
        one.run(300)
        while not one.timed_out():
            one.run(50)
        one.run(200)
        one.lift("h5")
        one.settle()
        one.run(3000)
        two.run(1000)
        pair.check()
        assert "new_game" not in kinds(one.events) + kinds(two.events)
        assert one.held() == two.held() and len(one.held()) == 2
        assert one.timed_out() and two.timed_out()
        assert one.screen()[2] == two.screen()[2] == "Red wins: time"
    finally:
        pair.close()
