"""A café owner starts a timed game from the dashboard and follows the clocks on its tile: a real
board (``reedboard run --sim``) and the dashboard on a real Mosquitto, in Debian's Chromium."""

from __future__ import annotations

import json
import re

import pytest

from testbed.broker import board_config
from tests.net.cafe.test_cafe import OUTPUT, start_new_game

pytestmark = [pytest.mark.broker, pytest.mark.browser]


def test_new_game_on_a_clock_from_the_dashboard_and_the_tile_shows_the_clocks(
    tmp_path, broker, watcher, boards, cafe, page
):
    board = boards(board_config(tmp_path, broker.port))
    board.wait_running()
    watcher.state("t1")
    page.goto(cafe())
    tile = page.locator('article[data-board="t1"]')
    tile.locator(".title").filter(has_text="Antipalos 5").wait_for()
    assert tile.locator(".clocks").is_hidden()  # no clock yet
    tile.locator("select.clock").select_option("300+3")
    start_new_game(page, tile)
    state = watcher.state("t1", lambda s: s["clock"] is not None)
    assert state["clock"]["control"] == "300+3"
    assert json.loads(watcher.texts("reedboard/t1/command")[-1])["control"] == "300+3"
    clocks = tile.locator(".clocks")
    clocks.filter(has_text=re.compile(r"▶ White [45]:\d\d")).wait_for()
    assert "Black 5:00" in clocks.inner_text() and clocks.get_attribute("title") == "Time control 300+3"
    assert not any(re.search(r"\d:\d\d \d:\d\d", line) for line in tile.locator(".status").all_inner_texts())
    board.place("B2*")  # White moves: Black's clock runs, counted down on the tile
    clocks.filter(has_text=re.compile(r"▶ Black 4:5\d")).wait_for(timeout=15000)
    watcher.publish("reedboard/t1/command", '{"command": "clock", "action": "pause"}')
    clocks.filter(has_text="Paused · ").wait_for()
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "cafe-clocks.png"))
