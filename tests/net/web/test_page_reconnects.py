"""The board's page keeps its controls when the board starts again: a restart (SIGTERM, a
while off, started again with the same config) is no refusal of the controls, so the page
reconnects to them by itself and the next click on a site is a move again."""

from __future__ import annotations

import re
import subprocess
import time

import pytest

from testbed.stopping import stop
from testbed.tools import REEDBOARD, sim_config, wait_until

pytestmark = pytest.mark.browser

LIVE = "() => document.getElementById('conn').dataset.state === 'live'"


def _run(config, said) -> subprocess.Popen:
    """``reedboard run --sim`` on ``config``, once it says it is running (stderr to ``said``)."""
    before = said.read_text().count("is running") if said.exists() else 0
    with open(said, "a") as err:
        proc = subprocess.Popen(
            [*REEDBOARD, "run", "--sim", "--config", str(config)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    assert wait_until(lambda: proc.poll() is not None or said.read_text().count("is running") > before, 30)
    assert proc.poll() is None, said.read_text()
    return proc


def test_the_page_keeps_its_controls_when_the_board_starts_again(tmp_path, page):
    config, said = sim_config(tmp_path), tmp_path / "said.txt"
    url = "http://127.0.0.1:{}/".format(re.search(r"(?m)^port = (\d+)$", config.read_text())[1])
    proc = _run(config, said)
    try:
        page.goto(url)
        page.wait_for_function(LIVE)
        page.wait_for_selector("#new-game", state="visible")
        assert stop(proc) == 0
        page.wait_for_function("() => document.getElementById('conn').dataset.state === 'down'")
        time.sleep(1.5)  # off longer than the page's first tries to reconnect
        proc = _run(config, said)
        page.wait_for_function(LIVE, timeout=20_000)
        page.wait_for_selector("#new-game", state="visible")  # the controls, not the spectators' view
        assert "token" not in page.locator("#notice").inner_text()
        page.locator('g[data-site="A1*"] > *').first.click()
        page.wait_for_function("() => view.history.length === 1")
    finally:
        assert stop(proc) == 0
