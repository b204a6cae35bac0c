"""A game lost on time is over wherever a board is read: the page's status, the café network's
state and the service's STATUS name the result "time" and nobody to move, as the screen does."""

from __future__ import annotations

from dataclasses import replace

from firmware_host.board.controller import Game
from firmware_host.net.mqtt.topics import board_state
from firmware_host.net.web.bridge import _status
from firmware_host.runtime.service import status_text
from firmware_host.store.config import ClockConfig, Config
from testbed.board_under_test import BoardUnderTest


def test_a_flag_ends_the_game_on_the_page_the_network_and_the_status():
    board = BoardUnderTest(Game.of("antipalos", 3), config=replace(Config(), clock=ClockConfig("2")))
    assert board.settle()
    board.run(2500)
    controller = board.controller
    assert "Black wins: time" in controller.screen().text_lines()  # as the screen says it
    page = _status(controller)
    assert (page["result"], page["winner"], page["to_move"]) == ("Black wins: time", "black", None)
    state = board_state(controller)
    assert (state["result"], state["winner"], state["to_move"]) == ("black wins by time", "black", None)
    assert status_text(controller) == "Antipalos 3: black wins by time"
