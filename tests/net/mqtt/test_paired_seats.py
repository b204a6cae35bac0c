"""Two boards paired as docs/cafe.md configures them (``testbed/pair.py``: each names the seat
the other board takes) play every game and every two-sided variant: each board's players play
their own seat's side, and the other board carries out their moves."""

from __future__ import annotations

import random

import pytest

import engines
from firmware_host.board.game import Game
from testbed.pair import Pair

TWO_SIDED = [
    (name, variant)
    for name in engines.GAME_NAMES
    for variant in engines.game_info(name).variants or (None,)
    if len(engines.new_game(name, None, variant).sides) == 2
]


@pytest.mark.parametrize("name, variant", TWO_SIDED)
def test_each_board_plays_its_seat_and_carries_out_the_others_moves(name, variant):
    pair = Pair(Game.of(name, None, variant), random.Random(7), kinds=())
    try:
        sides = pair.boards[0].position().sides
        # t1's config: t2 takes the second seat; t2's: t1 takes the first
        assert [board.remote_side() for board in pair.boards] == [sides[1], sides[0]]
        for _ in range(3):  # the first side at t1, the second at t2, then t1 again
            pair.act("move")
        held = [board.held() for board in pair.boards]
        assert held[0] == held[1] and len(held[0]) == 3, held
    finally:
        pair.close()
