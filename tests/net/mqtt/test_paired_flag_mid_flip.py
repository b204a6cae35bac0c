"""Paired Antipode boards on 5 s clocks (the in-memory bus): Blue's players at t1 play b1:a1
(b1 placed, a1 turned over and tapped as the pawn's landing; then "Flip b1", the token the pawn
passed). Blue's flag falls before b1 is turned. Turning b1 leaves the pieces as at the start
while it is in the hand: t1 had begun a new game at once, which t2 then joined, the game lost
on time gone and the players' flips read as the next game's first move (``bench/robot.py
--paired --clock 5 --seed 707 --from 14``). Now the flip is no set-up: both boards keep the
game, lost on time."""

from __future__ import annotations

import random

from firmware_host.board.controller import Game
from firmware_host.board.phase import TOKEN_HOLD_MS
from firmware_host.store.config import ClockConfig
from testbed.pair import Pair
from testbed.streams import kinds
from tests.board.test_flag_mid_flip import play_to_the_last_flip


def test_the_last_flip_made_as_the_flag_falls_is_no_new_game_on_either_board():
    pair = Pair(Game.of("antipode", None, "rulebook"), random.Random(1), kinds=(), clock=ClockConfig("5"))
    one, two = pair.boards
    try:
        play_to_the_last_flip(one)
        while not one.timed_out():
            one.run(50)
        one.lift("b1")
        one.run(800)
        one.place("b1")  # turned over
        one.settle()
        one.run(TOKEN_HOLD_MS)
        pair.check()
        assert "new_game" not in kinds(one.events) + kinds(two.events)
        assert one.held() == two.held() == ("b1:a1",)
        assert one.timed_out() and two.timed_out()
        assert one.screen()[2] == two.screen()[2] == "Red wins: time"
    finally:
        pair.close()
