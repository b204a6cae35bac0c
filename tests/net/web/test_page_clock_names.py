"""The board's page names the players over their clocks, as the café's tile does: a real
``reedboard run --sim`` with ``[players] names`` and ``[clock]``, Debian's chromium."""

from __future__ import annotations

import re
import subprocess

import pytest

from testbed.stopping import stop
from testbed.tools import REEDBOARD, wait_until, write_config

pytestmark = pytest.mark.browser


@pytest.fixture
def named(tmp_path):
    """`reedboard run --sim` whose config names the players and a clock: the page's address."""
    body = 'game = "antipalos"\n[players]\nnames = ["Cleo", "Dan"]\n[clock]\ncontrol = "300+3"'
    config = write_config(tmp_path, body)
    port = re.search(r"port = (\d+)", config.read_text())[1]
    said = tmp_path / "stderr"
    with open(said, "w") as err:
        proc = subprocess.Popen(
            [*REEDBOARD, "run", "--sim", "--config", str(config)],
            stdout=subprocess.DEVNULL,
            stderr=err,
            stdin=subprocess.DEVNULL,
        )
    try:
        assert wait_until(lambda: "is at http" in said.read_text() or proc.poll() is not None, 30)
        assert proc.poll() is None, said.read_text()
        yield f"http://127.0.0.1:{port}/"
    finally:
        stop(proc)


def clocks_say(page, *names: str) -> None:
    page.wait_for_function(
        "names => [...document.querySelectorAll('#clocks .clock')].map(c => c.textContent"
        ".replace(/^[▶⚑] /, '').split(' ')[0]).join() === names.join()",
        arg=list(names),
        timeout=10000,
    )


def test_the_clocks_name_the_players_and_follow_new_names(named, page):
    page.goto(named)
    clocks_say(page, "Cleo", "Dan")
    assert re.search(r"Cleo [45]:[0-5][0-9]", page.locator("#clocks").inner_text())  # its clock may run
    page.click("#players summary")
    inputs = page.locator("#seat-names input")
    inputs.nth(0).fill("Eve")
    inputs.nth(1).fill("Finn")
    page.click("#players-form button[type=submit]")
    clocks_say(page, "Eve", "Finn")
