"""The board's own page on real hardware: `reedboard run` on a board whose microcontroller
speaks the serial protocol over a pty (hardware/mcu_sim.py), in Debian's chromium. The page
shows the board as sensed, the OLED and the buttons, with a link and QR code for phones, and
refuses the simulator's piece controls."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hardware.mcu_sim import SimMcu
from hardware.sim import SimBoard
from testbed.stopping import stop
from testbed.tools import free_port, wait_until
from tests.net.web.web_tools import screenshot

REEDBOARD = Path(sys.executable).with_name("reedboard")


@pytest.fixture
def board(tmp_path):
    """``reedboard run`` on a serial board with antipode's 61 sites; yields (url, sim board)."""
    sim = SimBoard(channels=64, leds=64)
    mcu = SimMcu(sim, str(tmp_path / "ttyBOARD"), heartbeat=0.2)
    port = free_port()
    config = tmp_path / "config.toml"
    config.write_text(f"""
game = "antipode"
storage = "{tmp_path}/games.db"
[timing]
settle_ms = 150
[sensors]
backend = "serial"
port = "{mcu.path}"
channels = 64
[leds]
backend = "serial"
port = "{mcu.path}"
count = 64
[display]
backend = "dummy"
[buttons]
backend = "sim"
[web]
port = {port}
""")
    err = open(tmp_path / "stderr", "w")
    proc = subprocess.Popen(
        [str(REEDBOARD), "run", "--config", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=err,
        stdin=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    said = tmp_path / "stderr"
    try:
        wait_until(
            lambda: "the board's page is at" in said.read_text() or proc.poll() is not None, timeout=30
        )
        assert proc.poll() is None, said.read_text()
        assert f"the board's page is at {url}" in said.read_text()
        yield url, sim
    finally:
        stop(proc)
        mcu.close()
        err.close()


def test_the_page_shows_the_real_board_and_refuses_piece_controls(board, page):
    url, sim = board
    page.goto(url)
    page.wait_for_function("() => document.body.classList.contains('hardware')")
    # The simulator's controls are not offered; the buttons, picker and phone link are.
    for hidden in ("#noise", "#set-up", "#clear"):
        assert not page.locator(hidden).is_visible()
    assert page.locator("[data-button=menu]").is_visible()
    assert page.locator("#new-game").is_visible() and page.locator("#takeback").is_visible()
    page.locator("#help summary").click()
    assert page.locator("#qr svg").is_visible()
    assert page.locator("#address").text_content() == url
    # A piece put on the real board shows at its site (antipode's e5 is channel 30).
    sim.place(30)
    page.wait_for_function("() => view.pieces.has('e5')")
    page.wait_for_function("() => document.querySelector('#log li[data-event=out_of_sync]')")
    # A click on a site moves nothing; a toggle sent anyway is refused by the board.
    page.locator('[data-site="a1"]').click()
    reply = page.evaluate(
        """(url) => new Promise((done) => {
        const ws = new WebSocket(url.replace('http', 'ws') + 'ws');
        ws.onmessage = (e) => { const m = JSON.parse(e.data);
            if (m.type === 'error') { done(m.error); ws.close(); } };
        ws.onopen = () => ws.send(JSON.stringify({type: 'toggle', site: 'a1'}));
    })""",
        url,
    )
    assert reply == "this is a real board: move its pieces by hand"
    assert sim.pieces() == {30}
    # MENU on the page opens the board's menu, shown on the OLED.
    page.click("[data-button=menu]")
    page.wait_for_function("() => document.getElementById('oled').alt.includes('> New game')")
    screenshot(page, "hardware-page")
    page.click("[data-button=back]")
    page.wait_for_function("() => !document.getElementById('oled').alt.startsWith('Menu')")
