"""The simulator page in Debian's chromium: games played by clicks, the spectator view, the
token. Each waits for what the page shows, never for a fixed time."""

from __future__ import annotations

import json

import pytest
from tests.web.web_tools import screenshot

from engines import GAME_NAMES

# A short Antipalos game on the 3x3 board: eight placements, then a Phase Two move that wins.
PLACEMENTS = ["A3*", "B1*", "*C3", "C1*", "A2*", "C2*", "A1*", "*B3"]
CHAIN = ["A1*", "*A2", "A3*"]


def site(page, label):
    """Where a click on a site lands: its hit area (a segment's first stub, away from the
    middle where another segment crosses it)."""
    return page.locator(f'[data-site="{label}"]:not(g), g[data-site="{label}"] > line').first


def events(page, kind):
    return [json.loads(t) for t in page.locator(f'#log li[data-event="{kind}"]').all_text_contents()]


def wait_event(page, kind, count=1):
    page.wait_for_function(
        "([kind, n]) => document.querySelectorAll(`#log li[data-event='${kind}']`).length >= n",
        arg=[kind, count])
    return events(page, kind)


def lit(page, label):
    return page.locator(f'[data-site="{label}"]').evaluate(
        "(hit) => { const led = document.querySelectorAll('.leds > *')"
        "[[...document.querySelectorAll('[data-site]')].indexOf(hit)];"
        " return led.classList.contains('lit') ? [led.dataset.colour, led.getAttribute('class')] : null; }")


def new_game(page, game, size=None):
    page.select_option("#pick-game", game)
    if size is not None:
        page.select_option("#pick-size", str(size))
    page.click("#picker button[type=submit]")
    title = page.locator("#pick-game option:checked").text_content()
    page.wait_for_function("(t) => document.getElementById('title').textContent.startsWith(t)",
                           arg=title)
    if size is not None:
        page.wait_for_function("(t) => document.getElementById('title').textContent.endsWith(t)",
                               arg=f" {size}")


def test_antipalos_game_by_clicks(serve, page):
    served = serve("antipalos", 3)
    page.goto(served.url)
    page.wait_for_selector('[data-site="A1*"]')
    oled = page.locator("#oled").get_attribute("alt")
    for n, label in enumerate(PLACEMENTS, 1):
        site(page, label).click()
        assert wait_event(page, "move", n)[-1]["move"] == label
    page.wait_for_function("(old) => document.getElementById('oled').alt !== old", arg=oled)
    # Phase Two: lifting a Trirod lights its targets at once.
    site(page, "A2*").click()
    page.wait_for_function("() => document.querySelectorAll('.leds .lit').length > 0")
    assert lit(page, "*A2") and lit(page, "B2*")
    assert wait_event(page, "targets")[-1]["sites"]
    site(page, "*A2").click()
    over = wait_event(page, "game_over")[-1]
    assert over["winner"] == "white" and sorted(over["sites"]) == sorted(CHAIN)
    page.wait_for_selector("#result:not([hidden])")
    for label in CHAIN:  # the winning chain glows
        assert "pulse" in lit(page, label)[1]
    assert "white wins" in page.locator("#oled").get_attribute("alt").lower()
    screenshot(page, "antipalos-won")

    # The recorded session replays to the same moves.
    text = page.request.get(served.url + "replay.jsonl").text()
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[0] == {"setup": "start"}
    assert [line["site"] for line in lines[1:] if line.get("on")] == PLACEMENTS + ["*A2"]
    assert set(lines[-1]) == {"t"}


def test_illegal_placement_shows_out_of_sync(serve, page):
    served = serve("antipalos", 3)
    page.goto(served.url)
    site(page, "*C1").click()
    wait_event(page, "move")
    site(page, "C1*").click()  # the square already holds a Trirod
    out = wait_event(page, "out_of_sync")[-1]
    assert out["extra"] == ["C1*"]
    assert wait_event(page, "illegal")[-1]["sites"] == ["C1*"]
    assert "fast" in lit(page, "C1*")[1]  # an extra piece blinks fast
    screenshot(page, "antipalos-out-of-sync")
    site(page, "C1*").click()
    wait_event(page, "in_sync")
    page.wait_for_function("() => document.querySelectorAll('.leds .lit').length === 0")


def test_antipode_place_flip_tap_flip_without_ok(serve, page):
    served = serve("antipode")
    page.goto(served.url)
    page.wait_for_selector('[data-site="b1"]')
    screenshot(page, "board-antipode")
    site(page, "b1").click()
    flip = wait_event(page, "guide")[-1]
    assert flip == {**flip, "action": "flip", "sites": ["a1"]}
    site(page, "a1").click()  # the neighbour turned over: lifted and set back
    site(page, "a1").click()
    guide = wait_event(page, "guide", 2)[-1]
    assert guide["action"] == "pick" and guide["sites"] == ["a1", "b1"]
    assert lit(page, "a1") and lit(page, "b1")
    site(page, "a1").click()  # a tap: lift and put back quickly
    site(page, "a1").click()
    assert wait_event(page, "move")[-1]["move"] == "b1:a1"
    flip = wait_event(page, "guide", 3)[-1]
    assert flip == {**flip, "action": "flip", "sites": ["b1"]}
    site(page, "b1").click()
    site(page, "b1").click()
    page.wait_for_function("() => document.getElementById('turn').textContent === 'Red to move'")
    page.wait_for_function("() => document.querySelectorAll('.leds .lit').length === 2")  # the pawns

def test_spectator_follows_and_cannot_play(serve, page, browser):
    served = serve("antipalos", 3)
    watcher = browser.new_page()
    watcher.goto(served.url + "watch")
    watcher.wait_for_selector('[data-site="A1*"]')
    assert watcher.locator("#picker").is_hidden() and watcher.locator("#log").is_hidden()
    assert watcher.locator("#turn").text_content() == "White to move"
    page.goto(served.url)
    site(page, "B2*").click()
    wait_event(page, "move")
    watcher.wait_for_function("() => document.getElementById('turn').textContent === 'Black to move'")
    watcher.wait_for_selector(".pieces .on")
    site(watcher, "A1*").click()  # nothing happens
    screenshot(watcher, "watch")
    assert watcher.locator(".pieces .on").count() == 1
    watcher.close()


def test_controls_need_the_token_beyond_loopback(serve, page):
    served = serve("antipalos", 3, host="0.0.0.0", token="s3cret")
    base = served.url.replace("0.0.0.0", "127.0.0.1")
    assert page.request.get(base + "replay.jsonl").status == 403
    page.goto(base)
    page.wait_for_function("() => document.getElementById('notice').textContent.includes('token')")
    assert page.locator("#picker").is_hidden()
    page.wait_for_selector('[data-site="A1*"]')  # still shows the board, read-only
    page.goto(base + "?token=s3cret")
    page.wait_for_selector("#picker", state="visible")
    site(page, "A1*").click()
    assert wait_event(page, "move")[-1]["move"] == "A1*"


@pytest.mark.parametrize("game", [g for g in GAME_NAMES if g != "antipode"])
def test_board_screenshots(serve, page, game):
    served = serve(game)
    page.goto(served.url)
    page.wait_for_selector("[data-site]")
    page.wait_for_selector("#oled[src^='data:image/png']")
    screenshot(page, f"board-{game}")
    count = page.locator("[data-site]").count()
    assert count == len(served.daemon.controller.state.sites())


def test_buttons_short_and_long_presses(serve, page):
    served = serve("antipalos", 3)
    page.goto(served.url)
    page.wait_for_selector('[data-site="A1*"]')
    oled = "(text) => document.getElementById('oled').alt.includes(text)"
    page.locator('[data-button="menu"]').click()
    page.wait_for_function(oled, arg="New game")
    page.keyboard.press("Escape")  # BACK closes the menu
    page.wait_for_function(oled, arg="White to move")
    menu = page.locator('[data-button="menu"]')
    menu.hover()
    page.mouse.down()
    page.wait_for_function(oled, arg="Power off")  # held: a long press, before the release
    page.mouse.up()
    page.keyboard.press("Escape")
    page.wait_for_function(oled, arg="White to move")
    page.keyboard.press("Shift+M")
    page.wait_for_function(oled, arg="Power off")
    replay = page.request.get(served.url + "replay.jsonl").text()
    lines = [json.loads(line) for line in replay.splitlines()]
    assert sum(line.get("button") == "menu" and line.get("long") is True for line in lines) == 2
