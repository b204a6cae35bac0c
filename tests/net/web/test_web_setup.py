"""The set-up wizard on the page, at the same time as on the OLED and stdin: `reedboard setup`
on a scrambled simulated board, its config naming the layout file it is to write, driven by
clicks in Debian's chromium."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import engines
from firmware_host.store.layout import default_layout, layout_toml
from testbed.running import Running
from testbed.tools import free_port
from tests.net.web.test_web_browser import open_panel
from tests.net.web.web_tools import screenshot

#: The words of the wizard's screen on the page (the OLED's picture's text).
OLED = "() => document.getElementById('oled').alt"
#: Keeps every text the OLED's picture is given in ``window.shown``, in order.
KEEP_SHOWN = """() => {
  const oled = document.getElementById('oled');
  window.shown = [];
  new MutationObserver(() => shown.push(oled.alt)).observe(oled, {attributeFilter: ['alt']});
}"""


def scrambled_board(tmp_path: Path, more: str = "") -> tuple[Path, int]:
    """A config for `reedboard setup` on a simulated Antipode board whose switches are wired
    in an order of their own, naming the layout it is to write (as docs/build.md); ``more``:
    more of the config's tables. The config and the page's port."""
    sites = engines.new_game("antipode", None, None).sites()
    layout = default_layout(sites)
    scrambled = type(layout)({s: 63 - ch for s, ch in layout.sensor.items()}, layout.led)
    (tmp_path / "wiring.toml").write_text(layout_toml(scrambled, "antipode", None, None))
    port = free_port()
    (tmp_path / "config.toml").write_text(
        f'game = "antipode"\nlayout = "{tmp_path}/layout.toml"\nstorage = "{tmp_path}/games.db"\n'
        f'[web]\nport = {port}\n[sensors]\nbackend = "sim"\nwiring = "wiring.toml"\n{more}'
    )
    return tmp_path / "config.toml", port


@contextmanager
def sensor_check(tmp_path: Path, page, more: str = "") -> Iterator[Running]:
    """`reedboard setup` on :func:`scrambled_board` (``more``: more of its config), its page
    open at the wizard's first screen, the sensor check; stopped after."""
    config, port = scrambled_board(tmp_path, more)
    board = Running(config, "setup")
    try:
        assert board.said("is at http", timeout=30), board.stderr()
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_function(f"() => ({OLED})().includes('Sensor check')")
        yield board
    finally:
        board.stop()


def test_the_wizard_on_the_page(tmp_path, page):
    with sensor_check(tmp_path, page) as board:
        page.click("[data-button=ok]")  # nothing swept yet: the check is asked again
        page.wait_for_function(f"() => ({OLED})().includes('None closed! Again')")
        for on in (True, False):  # a piece on a1 and off again, each shown (so scanned) before the next
            page.locator('[data-site="a1"]').click()
            page.wait_for_function("(on) => view.pieces.has('a1') === on", arg=on)
        page.click("[data-button=ok]")
        page.wait_for_function(f"() => ({OLED})().includes('Piece on a1')")
        assert page.evaluate("() => view.leds['a1']") == ["#3fa7ff", "pulse"]  # lit to find
        page.locator('[data-site="a1"]').click()  # puts a piece on a1: channel 63 closes
        page.wait_for_function(f"() => ({OLED})().includes('Piece on a2')")
        # Nothing of a game's that does nothing here: take back, hint, moves, new or stored games,
        # the players at the seats, what the buttons do in a game (the wizard's screen says it),
        # the simulated board's set-up, clearing and replay.
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
        open_panel(page, "simulator")  # a game's set-up, clearing and replay: none here
        for selector in ("#set-up", "#clear", "#download"):
            assert page.locator(selector).is_hidden(), selector
        assert page.locator("#noise").is_visible()
        screenshot(page, "setup-page")
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.locator("#stored").is_hidden() and page.locator("#new-game").is_hidden()
        screenshot(page, "setup-page-phone")
        assert board.stop() == 130  # interrupted: its progress saved
        learned = '{"event": "setup", "learned": "a1", "channel": 63}'
        assert learned in board.events.text(drained=True)  # its own order: fine


def test_two_quick_clicks_on_one_site_are_both_seen(tmp_path, page):
    """A maker double-clicks a1 in the sensor check: the piece put on and the piece taken off
    are each scanned, and the check's words say so after each. (A board scanned 20 times a
    second: both clicks reach it within one scan, where a placing and a lift are never seen.)"""
    with sensor_check(tmp_path, page, "[timing]\nscan_hz = 20\n"):
        assert "0 closed now" in page.evaluate(OLED)
        page.evaluate(KEEP_SHOWN)
        page.locator('[data-site="a1"]').click(click_count=2)  # no wait between the two
        page.wait_for_function("() => /1 closed now.*0 closed now/.test(shown.join())")
        shown = page.evaluate("() => shown")
        assert "1 channel seen" in shown[-1], shown  # a1's, whose piece is off again
        assert page.evaluate("() => view.pieces.has('a1')") is False
