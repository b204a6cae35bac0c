"""A player sets the game clocks from the page's New game and watches them, as a café's guest
would: a real ``reedboard run --sim`` process, Debian's chromium, the page and /watch."""

from __future__ import annotations

import pytest

from firmware_host.store.timecontrol import CONTROLS
from tests.net.web.test_web_new_games import running  # noqa: F401 - the board's process
from tests.net.web.web_tools import screenshot

pytestmark = pytest.mark.browser

CLOCKS = "() => document.getElementById('clocks').innerText"


def test_a_new_game_on_a_clock_from_the_page_shows_on_the_page_and_on_watch(running, page, browser):  # noqa: F811
    page.goto(running)
    page.wait_for_selector('[data-site="A1*"]')
    assert page.locator("#clocks").is_hidden()  # the config names no clock
    page.locator("details#new-game summary").click()
    assert page.locator("#pick-clock").input_value() == ""  # "As it is"
    offered = page.eval_on_selector_all("#pick-clock option", "os => os.map(o => [o.value, o.text])")
    assert offered == [["", "As it is"], *(list(c) for c in CONTROLS.items())]  # the menu's list
    page.select_option("#pick-clock", "300+3")
    page.click("#picker button[type=submit]")
    page.wait_for_function(f"() => ({CLOCKS})().includes('White 5:00') || ({CLOCKS})().includes('White 4:5')")
    assert "Black 5:00" in page.locator("#clocks").inner_text()
    assert page.locator("#clocks").get_attribute("title") == "Time control 300+3"
    assert page.locator("#clocks .clock.running").get_attribute("data-side") == "white"
    watcher = browser.new_page()
    watcher.goto(running + "watch")
    watcher.wait_for_function(f"() => ({CLOCKS})().includes('Black 5:00')")  # spectators see them
    page.locator('g[data-site="B2*"] > *').first.click()  # White's move: Black's clock runs
    page.wait_for_function("() => document.querySelector('#clocks .clock.running')?.dataset.side === 'black'")
    watcher.wait_for_function(
        "() => document.querySelector('#clocks .clock.running')?.dataset.side === 'black'"
    )
    screenshot(page, "page-clocks")
    page.select_option("#pick-clock", "-")  # no clock from the next game on
    page.on("dialog", lambda dialog: dialog.accept())  # "Abandon the game in progress?"
    page.wait_for_timeout(1100)  # the board starts one new game a second
    page.click("#picker button[type=submit]")
    page.wait_for_selector("#clocks", state="hidden")
    watcher.close()
