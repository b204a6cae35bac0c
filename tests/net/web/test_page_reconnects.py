"""The board's page keeps its controls when the board starts again: a restart (SIGTERM, a
while off, started again with the same config) is no refusal of the controls, so the page
reconnects to them by itself and the next click on a site is a move again."""

from __future__ import annotations

import re
import time

import pytest

from testbed.running import Running
from testbed.tools import sim_config

pytestmark = pytest.mark.browser

LIVE = "() => document.getElementById('conn').dataset.state === 'live'"


def _run(config) -> Running:
    """``reedboard run --sim`` on ``config``, once it says it is running."""
    board = Running(config)
    assert board.said("is running") and board.proc.poll() is None
    return board


def test_the_page_keeps_its_controls_when_the_board_starts_again(tmp_path, page):
    config = sim_config(tmp_path)
    url = "http://127.0.0.1:{}/".format(re.search(r"(?m)^port = (\d+)$", config.read_text())[1])
    board = _run(config)
    try:
        page.goto(url)
        page.wait_for_function(LIVE)
        page.wait_for_selector("#new-game", state="visible")
        assert board.stop() == 0
        page.wait_for_function("() => document.getElementById('conn').dataset.state === 'down'")
        time.sleep(1.5)  # off longer than the page's first tries to reconnect
        board = _run(config)
        page.wait_for_function(LIVE, timeout=20_000)
        page.wait_for_selector("#new-game", state="visible")  # the controls, not the spectators' view
        assert "token" not in page.locator("#notice").inner_text()
        page.locator('g[data-site="A1*"] > *').first.click()
        page.wait_for_function("() => view.history.length === 1")
    finally:
        assert board.stop() == 0
