"""The set-up wizard on the page, at the same time as on the OLED and stdin: `reedboard setup`
on a scrambled simulated board, its config naming the layout file it is to write, driven by
clicks in Debian's chromium."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import engines
from firmware_host.store.layout import default_layout, layout_toml
from testbed.tools import free_port, wait_until
from tests.net.web.web_tools import screenshot

REEDBOARD = Path(sys.executable).with_name("reedboard")


def test_the_wizard_on_the_page(tmp_path, page):
    sites = engines.new_game("antipode", None, None).sites()
    layout = default_layout(sites)
    scrambled = type(layout)({s: 63 - ch for s, ch in layout.sensor.items()}, layout.led)
    (tmp_path / "wiring.toml").write_text(layout_toml(scrambled, "antipode", None, None))
    port = free_port()
    (tmp_path / "config.toml").write_text(  # naming the layout it is to write, as docs/build.md
        f'game = "antipode"\nlayout = "{tmp_path}/layout.toml"\nstorage = "{tmp_path}/games.db"\n'
        f'[web]\nport = {port}\n[sensors]\nbackend = "sim"\nwiring = "wiring.toml"\n'
    )
    said = tmp_path / "stderr"
    with open(said, "w") as err:
        proc = subprocess.Popen(
            [str(REEDBOARD), "setup", "--config", str(tmp_path / "config.toml")],
            stdout=subprocess.PIPE,
            stderr=err,
            stdin=subprocess.DEVNULL,
            text=True,
        )
    try:
        assert wait_until(lambda: "is at http" in said.read_text(), timeout=30), said.read_text()
        page.goto(f"http://127.0.0.1:{port}/")
        oled = "() => document.getElementById('oled').alt"
        page.wait_for_function(f"() => ({oled})().includes('Sensor check')")
        page.click("[data-button=ok]")  # nothing swept yet: the check is asked again
        page.wait_for_function(f"() => ({oled})().includes('None closed! Again')")
        for on in (True, False):  # a piece on a1 and off again, each shown (so scanned) before the next
            page.locator('[data-site="a1"]').click()
            page.wait_for_function("(on) => view.pieces.has('a1') === on", arg=on)
        page.click("[data-button=ok]")
        page.wait_for_function(f"() => ({oled})().includes('Piece on a1')")
        assert page.evaluate("() => view.leds['a1']") == ["#3fa7ff", "pulse"]  # lit to find
        page.locator('[data-site="a1"]').click()  # puts a piece on a1: channel 63 closes
        page.wait_for_function(f"() => ({oled})().includes('Piece on a2')")
        # Nothing of a game's that does nothing here: take back, hint, moves, new or stored games,
        # the players at the seats, what the buttons do in a game (the wizard's screen says it).
        for name in ("Take back", "Hint"):
            assert page.get_by_role("button", name=name).count() == 0
        for selector in (
            "#story",
            "#moves",
            "#new-game",
            "#stored",
            "#players",
            "#first-hint",
            ".button-help",
        ):
            assert page.locator(selector).is_hidden(), selector
        assert page.locator('[data-button="ok"]').is_visible()
        screenshot(page, "setup-page")
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.locator("#stored").is_hidden() and page.locator("#new-game").is_hidden()
        screenshot(page, "setup-page-phone")
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
        assert '{"event": "setup", "learned": "a1", "channel": 63}' in out  # its own order: fine
    finally:
        if proc.poll() is None:
            proc.kill()
