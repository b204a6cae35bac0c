"""The league's wall shows a board's live state under a table only while that board plays
the table (its state names the event, round and table): a board still busy with a game of
its own is "waiting" there, not a game of the league."""

from __future__ import annotations

import pytest

from testbed.broker import board_config
from tests.net.cafe.test_league_night import _wait, cafe, league

__all__ = ["cafe"]  # the dashboard's fixture, shared with the evening's test

pytestmark = pytest.mark.slow


def test_a_board_playing_another_game_is_waiting_on_the_wall(
    tmp_path, broker, watcher, boards, cafe, page
) -> None:
    config, url = cafe
    board = boards(board_config(tmp_path, broker.port, "table-1", size=3))
    board.wait_running()
    board.place("A1*")  # a casual game, before the league's round
    casual = watcher.state("table-1", lambda s: "A1*" in s["moves"] and s["status"])
    assert casual["league"] is None
    assert league(config, "new", "Friday league", "--game", "antipalos", "--size", "3", "--rounds", "1") == 0
    for name in ("Anna", "Ben"):
        assert league(config, "player", "add", name) == 0
    assert league(config, "register", "Anna", "Ben") == 0
    assert league(config, "pair", "--no-send") == 0  # the tables told by voice: the board plays on

    page.goto(url + "/league")
    first = page.locator("#tables li").nth(0)
    first.locator(".result:has-text('waiting')").wait_for()
    assert casual["status"] not in first.inner_text()

    assert league(config, "pair", "--again") == 0  # now sent: the board takes table 1
    seated = watcher.state("table-1", lambda s: s["league"] is not None and s["ready"] is not None)
    assert seated["league"] == {"event": "Friday league", "round": 1, "table": 1}
    _wait(lambda: seated["status"] in first.inner_text(), 10, first.inner_text)
