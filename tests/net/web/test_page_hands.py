"""A player's hands on the simulated board's pages, in Debian's chromium: a button pressed
right after a click acts after the placing, and a drag lifts a piece and puts it down
elsewhere (the game's page and the set-up page alike)."""

from __future__ import annotations

import pytest

from tests.net.web.test_web_browser import open_panel, wait_event
from tests.net.web.test_web_setup import OLED, sensor_check
from tests.net.web.web_tools import click_then_key, screenshot


def test_ok_right_after_a_placing_acts_on_what_the_placing_showed(serve, page):
    """Blue places b1 and presses OK at once: the placing is judged first (a1 to turn over),
    then OK stands in for a1 turned without lifting, and the landing is asked."""
    served = serve("antipode")
    page.goto(served.url)
    page.wait_for_selector('[data-site="b1"]')
    click_then_key(page, "b1", "Enter")
    guides = wait_event(page, "guide", 2)
    assert [g["action"] for g in guides[:2]] == ["flip", "pick"], guides
    page.wait_for_function("() => view.pieces.has('b1')")


def test_menu_right_after_a_click_in_the_set_up_skips_the_next_site(tmp_path, page):
    """Asked for a1, the maker clicks a1 and presses MENU at once: a1 is learned, then the site
    asked next is skipped as dead (not a1 skipped and its channel taken for the next)."""
    with sensor_check(tmp_path, page) as board:
        page.locator('[data-site="a1"]').click()
        page.wait_for_function("() => view.pieces.has('a1')")
        page.locator('[data-site="a1"]').click()
        page.wait_for_function("() => !view.pieces.has('a1')")
        page.click("[data-button=ok]")
        page.wait_for_function(f"() => ({OLED})().includes('Piece on a1')")
        click_then_key(page, "a1", "m")
        page.wait_for_function(f"() => ({OLED})().includes('Piece on a3')")
        said = board.events.text(drained=True)
        assert '"learned": "a1", "channel": 63' in said and '"dead": "a2"' in said, said


def drag(page, source: str, target: str) -> None:
    """Press on ``source``, move the pointer to ``target`` and let go, as a hand does."""
    for label, step in ((source, page.mouse.down), (target, page.mouse.up)):
        box = page.locator(f'[data-site="{label}"]').bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=8)
        step()


@pytest.mark.parametrize("noise", [False, True])
def test_a_drag_on_the_set_up_page_lifts_the_piece_and_puts_it_down_elsewhere(tmp_path, page, noise):
    """In the sensor check a piece dragged from a1 to a2 leaves a1 and lands on a2, as on the
    game's page: the check's words say one switch closed now, two seen; with the page's noise
    on, slid across (the set-up page took neither the noise nor the drag)."""
    with sensor_check(tmp_path, page):
        if noise:
            open_panel(page, "simulator")
            page.locator("#noise").check()
        page.locator('[data-site="a1"]').click()
        page.wait_for_function("() => view.pieces.has('a1')")
        drag(page, "a1", "a2")
        page.wait_for_function("() => view.pieces.has('a2') && !view.pieces.has('a1')")
        page.wait_for_function(f"() => /1 closed now.*2 channels seen/s.test(({OLED})())")
        assert page.locator("#noise").is_checked() is noise
        screenshot(page, f"setup-page-dragged{'-noise' if noise else ''}")
