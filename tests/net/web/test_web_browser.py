"""The simulator page in Debian's chromium: games played by clicks, the spectator view, the
token. Each waits for what the page shows, never for a fixed time."""

from __future__ import annotations

import json
import math
import re
import sqlite3
from pathlib import Path

import pytest

from engines import GAME_NAMES
from testbed.tools import require
from tests.net.web.web_tools import screenshot

# A short Antipalos game on the 3x3 board: eight placements, then a Phase Two move that wins.
PLACEMENTS = ["A3*", "B1*", "*C3", "C1*", "A2*", "C2*", "A1*", "*B3"]
CHAIN = ["A1*", "*A2", "A3*"]


def site(page, label):
    """Where a click on a site lands: its hit area (a segment's: the first of the corner
    quarters of its square nearer to it than to the segment crossing it)."""
    return page.locator(f'[data-site="{label}"]:not(g), g[data-site="{label}"] > *').first


def open_panel(page, name):
    """Open the side panel ``name`` (New game, Settings, ...) unless it is open."""
    panel = page.locator(f"details#{name}")
    if not panel.evaluate("(d) => d.open"):
        panel.locator("summary").click()


def centroid(page, label):
    """The viewport point of a site's centre (a triangle's box centre lies on its edge)."""
    return page.evaluate(
        """(label) => {
        const hit = document.querySelector(`[data-site="${label}"]`);
        const pts = hit.getAttribute('points').trim().split(/\\s+/).map((p) => p.split(',').map(Number));
        const mean = (i) => pts.reduce((a, q) => a + q[i], 0) / pts.length;
        const p = new DOMPoint(mean(0), mean(1)).matrixTransform(hit.getScreenCTM());
        return [p.x, p.y];
    }""",
        label,
    )


def events(page, kind):
    items = page.locator(f'#log li[data-event="{kind}"]')
    return [json.loads(t) for t in items.evaluate_all("(items) => items.map((i) => i.dataset.json)")]


def wait_event(page, kind, count=1):
    page.wait_for_function(
        "([kind, n]) => document.querySelectorAll(`#log li[data-event='${kind}']`).length >= n",
        arg=[kind, count],
    )
    return events(page, kind)


def lit(page, label):
    return page.locator(f'[data-site="{label}"]').evaluate(
        "(hit) => { const led = document.querySelectorAll('.leds > *')"
        "[[...document.querySelectorAll('[data-site]')].indexOf(hit)];"
        " return led.classList.contains('lit') ? [led.dataset.colour, led.getAttribute('class')] : null; }"
    )


def new_game(page, game, size=None):
    open_panel(page, "new-game")
    page.select_option("#pick-game", game)
    if size is not None:
        page.select_option("#pick-size", str(size))
    page.click("#picker button[type=submit]")
    title = page.locator("#pick-game option:checked").text_content()
    page.wait_for_function("(t) => document.getElementById('title').textContent.startsWith(t)", arg=title)
    if size is not None:
        page.wait_for_function(
            "(t) => document.getElementById('title').textContent.endsWith(t)", arg=f" {size}"
        )


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
    assert lines[0] == {
        "setup": "start",
        "game": "antipalos",
        "size": 3,
        "variant": "two",
        "moves": [],
    }  # the file names its game: replay needs no options
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
    watcher.wait_for_selector(".figures .figure:not(.missing)")
    site(watcher, "A1*").click()  # nothing happens
    screenshot(watcher, "watch")
    assert watcher.locator(".figures .figure").count() == 1
    assert watcher.locator(".pieces .on").count() == 0  # every reading is a piece of the game
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
    page.wait_for_selector("#new-game", state="visible")
    site(page, "A1*").click()
    assert wait_event(page, "move")[-1]["move"] == "A1*"


@pytest.mark.parametrize("game", [g for g in GAME_NAMES if g != "antipode"])
def test_board_screenshots(serve, page, game):
    served = serve(game)
    page.goto(served.url)
    page.wait_for_selector("[data-site]")
    page.wait_for_selector("#oled[src^='data:image/png']", state="attached")
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


def test_pieces_coordinates_names_and_hit_areas(serve, page):
    """Phalanx as it stands on the table: pieces in their sides' colours as outlines, the
    file letters and rank numbers along the edges, every site named by its label, and a
    hovered site's hit area no larger than its outline."""
    served = serve("phalanx")
    page.goto(served.url)
    page.wait_for_selector(".figures .figure")
    state = served.daemon.controller.state
    assert page.locator(".figures .figure").count() == len(state.figures())
    sides = set(page.locator(".figures .figure").evaluate_all("(gs) => gs.map((g) => g.dataset.side)"))
    assert sides == set(state.sides)
    assert page.locator(".figures .outline").count() > 0  # drawn as outlines, not discs
    coords = page.locator(".coords text").all_text_contents()
    assert {"a", "h", "1", "8"} <= set(coords)
    names = page.locator(".hits [data-site]").evaluate_all(
        "(hs) => hs.map((h) => h.getAttribute('aria-label'))"
    )
    assert sorted(names) == sorted(s.label for s in state.sites())
    # Hover a triangle, then probe just outside its outline: the neighbour is hit.
    box = site(page, "d4nw").bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.5)
    probe = page.evaluate("""() => {
        const hit = document.querySelector('[data-site="d4nw"]');
        const r = hit.getBoundingClientRect();
        const at = (x, y) => document.elementFromPoint(x, y)?.closest('[data-site]')?.dataset.site;
        return [at(r.left + r.width * 0.3, r.top + r.height * 0.5), at(r.right + 2, r.top + r.height * 0.5)];
    }""")
    assert probe[0] == "d4nw" and probe[1] not in (None, "d4nw")
    for size, name in (((1280, 800), "desktop"), ((390, 844), "phone")):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        screenshot(page, f"phalanx-{name}")


def test_a_phalanx_piece_is_dragged_as_a_whole(serve, page):
    served = serve("phalanx")
    page.goto(served.url)
    page.wait_for_selector(".figures .figure:not(.missing)")
    state = served.daemon.controller.state

    def shape(sites):  # a move that carries the piece without turning its triangles
        return sorted(s[-2:] for s in sites)

    move = next(
        m
        for m in state.legal_moves()
        for r in state.realisations(m)[:1]
        if len(r.emptied) > 1
        and not r.follow_ups
        and not r.emptied & r.filled
        and shape(r.emptied) == shape(r.filled)
    )
    source, target = move.frm, move.to
    page.mouse.move(*centroid(page, source))
    page.mouse.down()
    page.mouse.move(*centroid(page, target), steps=8)
    page.mouse.up()
    assert wait_event(page, "move")[-1]["move"] == str(move)
    assert not events(page, "out_of_sync")


def test_keys_work_whatever_has_focus_and_a_new_game_asks_first(serve, page):
    served = serve("antipalos", 3)
    page.goto(served.url)
    page.wait_for_selector('[data-site="A1*"]')
    site(page, "B2*").click()
    wait_event(page, "move")
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    open_panel(page, "new-game")
    page.click("#picker button[type=submit]")  # a game is in progress: it asks; dismissed
    page.wait_for_function("() => true")
    assert asked and served.daemon.controller.moves == ["B2*"]
    page.focus("#pick-game")
    page.keyboard.press("m")  # MENU, though the picker has focus
    page.wait_for_function("() => document.getElementById('oled').alt.includes('New game')")
    page.keyboard.press("Escape")
    page.focus("#picker button[type=submit]")
    page.keyboard.press("Enter")  # OK, never the picker again
    page.wait_for_timeout(300)
    assert len(asked) == 1 and served.daemon.controller.moves == ["B2*"]
    assert page.get_by_role("button", name="MENU").count() == 1
    assert page.get_by_role("button", name="OK").count() == 1
    assert page.get_by_role("status").count() >= 1
    log = page.locator('#log li[data-event="move"]').first.text_content()
    assert "White played B2*" in log and "{" not in log  # plain words; raw JSON on demand
    open_panel(page, "events")
    page.check("#raw")
    assert page.locator('#log li[data-event="move"]').first.text_content().startswith("{")


def expected_coordinates(state):
    """The letters and numbers the page must show beside rows and columns: those of every
    site label (each of Antipod's boards names its own)."""
    keys = set()
    for site in state.sites():
        m = re.search(r"([A-Za-z]+)(\d+)", site.label)
        if m:
            keys |= {m.group(1), m.group(2)}
    return keys


def coordinates_in_view(page, state, where):
    """Every row and column labelled (a straight one at both ends), every label inside the
    viewport and the board's frame, at least 8.5 px tall."""
    labels = page.locator(".coords text").evaluate_all("""(ts) => ts.map((t) => {
        const r = t.getBoundingClientRect();
        return [t.textContent, r.left, r.top, r.right, r.bottom]; })""")
    letters = {t for t, *_ in labels if t.isalpha()}
    size = page.viewport_size
    frame = page.locator("#board-wrap").bounding_box()
    shown = {}
    for text, left, top, right, bottom in labels:
        shown[text] = shown.get(text, 0) + 1
        assert 0 <= left and right <= size["width"] and 0 <= top and bottom <= size["height"], (where, text)
        assert frame["x"] - 1 <= left and right <= frame["x"] + frame["width"] + 1, (where, text)
        assert bottom - top >= 8.5, (where, text, bottom - top)
    assert set(shown) == expected_coordinates(state), where
    assert all(n >= 2 for t, n in shown.items() if t in letters or not letters), (where, shown)


BOARDS = [(g, None) for g in GAME_NAMES] + [("antipod", 10), ("antipalos", 20)]


@pytest.mark.parametrize("game,size", BOARDS)
def test_every_board_opens_whole_with_its_coordinates_and_the_buttons_in_view(serve, page, game, size):
    """Desktop and phones (a tall one, and one whose browser bars leave 664 px): the board
    whole, every row and column labelled at both ends inside the view; on the phones the OLED,
    MENU and OK above the screen's edge. /watch on a café screen: the board large."""
    served = serve(game, size)
    state = served.daemon.controller.state
    name = f"{game}-{size}" if size else game
    for width, height, where in ((390, 844, "phone"), (390, 664, "phone-short"), (1280, 800, "desktop")):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(served.url)
        page.wait_for_selector("[data-site]")
        page.wait_for_selector("#oled[src^='data:image/png']", state="attached")
        coordinates_in_view(page, state, f"{name} {where}")
        for selector in ("#board", "#oled", '[data-button="menu"]', '[data-button="ok"]'):
            box = page.locator(selector).bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, (where, selector)
        for button in ("MENU", "BACK", "OK"):
            box = page.get_by_role("button", name=button, exact=True).bounding_box()
            assert box["height"] >= 24 and box["width"] >= 24
        screenshot(page, f"{where}-{name}")
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(served.url + "watch")
    page.wait_for_selector("[data-site]")
    assert page.locator("#board").bounding_box()["height"] >= 0.7 * 1080  # the board large
    coordinates_in_view(page, state, f"{name} watch")
    screenshot(page, f"watch-1920-{name}")


#: axe-core, installed by tests/run.sh with npm into a git-ignored folder, given to the test
#: page from this machine (never from elsewhere).
AXE = Path(__file__).resolve().parents[3] / ".axe" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.mark.parametrize("path", ["", "watch"])
def test_no_serious_accessibility_violations(serve, browser, path):
    require(AXE.exists(), f"axe-core in {AXE.parent} (tests/run.sh installs it with npm)")
    served = serve("antipode")
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(served.url + path)
        page.wait_for_selector("[data-site]")
        if not path:  # the OLED (/watch shows none), every panel open: the settings, ...
            page.wait_for_selector("#oled[src^='data:image/png']", state="attached")
            page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            page.wait_for_selector("#stored-none:not([hidden]), #stored-list li")
        page.add_script_tag(path=str(AXE))
        found = page.evaluate("""async () => (await axe.run(document)).violations
            .filter((v) => ['serious', 'critical'].includes(v.impact))
            .map((v) => `${v.id}: ${v.nodes.length} (${v.nodes[0].target})`)""")
        assert found == []
    finally:
        context.close()


def test_the_picker_starts_a_game_against_the_computer(serve, page):
    served = serve("antipod", 4)
    page.goto(served.url)
    page.wait_for_selector("#new-game:not([hidden])")
    open_panel(page, "new-game")
    assert page.locator("#pick-level-label").is_hidden()
    page.select_option("#pick-players", "first")
    assert page.locator("#pick-level-label").is_visible()
    page.select_option("#pick-level", "2")
    page.get_by_role("button", name="New game").click()
    expect = wait_event(page, "expect")[-1]  # the computer moves first: its move is lit
    assert expect["fill"] and "Computer plays" in page.locator("#oled").get_attribute("alt")
    with sqlite3.connect(served.config.storage) as db:
        (opponent,) = db.execute("SELECT opponent FROM games ORDER BY id DESC LIMIT 1").fetchone()
    assert opponent == "computer white, level 2"
    page.reload()  # the picker shows the game's players, so New game keeps them
    page.wait_for_selector("#new-game:not([hidden])")
    open_panel(page, "new-game")
    assert page.locator("#pick-players").input_value() == "first"
    assert page.locator("#pick-level").input_value() == "2"
    assert page.locator("#pick-level-label").is_visible()


def test_hexagon_rows_are_lettered_at_both_ends(serve, page):
    """Antipode names its cells row letter and place ("e5"): each row's letter stands at both
    of its ends, level with the row."""
    page.goto(serve("antipode").url)
    page.wait_for_selector('[data-site="e5"]')
    labels = page.locator(".coords text").evaluate_all(
        "(ts) => ts.map((t) => [t.textContent, t.getBoundingClientRect().y])"
    )
    rows = {}
    for text, y in labels:
        rows.setdefault(text, []).append(y)
    rows = {text: ys for text, ys in rows.items() if text.isalpha()}
    assert set(rows) == set("abcdefghi") and all(len(ys) == 2 for ys in rows.values())
    cell = site(page, "e5").bounding_box()
    assert abs(rows["e"][0] - cell["y"]) < cell["height"]  # level with row e
    screenshot(page, "antipode-coordinates")


def smallest_target(page) -> float:
    """The smallest side of any site's box on the screen, in px."""
    return page.evaluate("""() => Math.min(...[...document.querySelectorAll('.hits [data-site]')]
        .map((h) => h.getBoundingClientRect()).map((r) => Math.min(r.width, r.height)))""")


@pytest.mark.parametrize("game,size", [(g, None) for g in GAME_NAMES] + [("antipod", 10)])
def test_phone_a_small_board_zooms_in_where_tapped_then_takes_taps(serve, page, game, size):
    """On a phone every board opens whole; where its sites are smaller than 24 px a first tap
    zooms in where it lands (every site at least 24 px, nothing played), then a tap plays;
    Zoom out shows the whole board again."""
    served = serve(game, size)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(served.url)
    page.wait_for_function("() => document.querySelectorAll('.hits [data-site]').length > 0")
    if page.locator(".zoom").is_visible():  # offered where the sites are small
        for name in ("Zoom in", "Zoom out"):
            box = page.get_by_role("button", name=name).bounding_box()
            assert box["width"] >= 24 and box["height"] >= 24
    else:
        assert smallest_target(page) >= 30
    assert page.locator("#zoom-out").is_disabled()  # whole
    placed = (
        next(
            str(m)
            for m in served.daemon.controller.state.legal_moves()
            if len(served.daemon.controller.state.realisations(m)[0].filled) == 1
            and not served.daemon.controller.state.realisations(m)[0].emptied
        )
        if size
        else None
    )
    if smallest_target(page) < 24:
        site(page, placed or page.locator(".hits [data-site]").first.get_attribute("data-site")).click()
        page.wait_for_function("() => !document.getElementById('zoom-out').disabled")
        assert smallest_target(page) >= 24 and not served.daemon.controller.moves
    assert smallest_target(page) >= 24
    screenshot(page, f"phone-targets-{game}-{size or 'default'}")
    if size:
        page.locator(f'.hits [data-site="{placed}"]').scroll_into_view_if_needed()
        site(page, placed).click()
        assert wait_event(page, "move")[-1]["move"] == placed
        zoom_out = page.get_by_role("button", name="Zoom out")
        for _ in range(6):
            if not zoom_out.is_disabled():
                zoom_out.click()
        assert zoom_out.is_disabled() and smallest_target(page) < 24  # the whole ball again


def test_a_phalanx_piece_dragged_onto_turned_triangles_lands_as_a_hand_puts_it(serve, page):
    """A move whose target squares have their diagonals the other way: the piece's triangles
    land turned, exactly on the sites the move fills, and nothing else changes."""
    served = serve("phalanx")
    page.goto(served.url)
    page.wait_for_selector(".figures .figure:not(.missing)")
    state = served.daemon.controller.state

    def shape(sites):
        return sorted(s[-2:] for s in sites)

    move, real = next(
        (m, r)
        for m in state.legal_moves()
        for r in state.realisations(m)[:1]
        if len(r.emptied) > 1
        and not r.follow_ups
        and not r.emptied & r.filled
        and shape(r.emptied) != shape(r.filled)
    )
    page.mouse.move(*centroid(page, move.frm))
    page.mouse.down()
    page.mouse.move(*centroid(page, move.to), steps=8)
    page.mouse.up()
    assert wait_event(page, "move")[-1]["move"] == str(move)
    assert not events(page, "out_of_sync")


def test_the_event_log_speaks_plain_words_and_is_cleared_per_game(serve, page):
    served = serve("antipalos", 3)
    page.goto(served.url)
    page.wait_for_selector('[data-site="A1*"]')
    site(page, "*C1").click()
    wait_event(page, "move")
    site(page, "C1*").click()  # the square already holds a Trirod
    wait_event(page, "illegal")
    said = page.locator('#log li[data-event="out_of_sync"]').last.text_content()
    assert "Board differs from the game: take off C1*" in said
    assert "Refused: " in page.locator('#log li[data-event="illegal"]').last.text_content()
    site(page, "C1*").click()
    wait_event(page, "in_sync")
    assert "Board matches the game again" in page.locator('#log li[data-event="in_sync"]').last.text_content()
    page.on("dialog", lambda dialog: dialog.accept())
    open_panel(page, "new-game")
    page.click("#picker button[type=submit]")  # a new game, confirmed: the log starts afresh
    page.wait_for_function("() => !document.querySelector('#log li[data-event=\"move\"]')")
    page.wait_for_function("() => document.querySelector('#log li')?.textContent.includes('New game')")


def lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of a CSS "rgb(r, g, b)" colour."""
    rgb = [int(v) / 255 for v in re.findall(r"[\d.]+", colour)[:3]]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


@pytest.mark.parametrize("game,lift", [("phalanx", ["c2ne", "c2sw"]), ("anti-grid", ["c1"])])
def test_targets_are_lit_in_a_colour_no_side_has(serve, page, game, lift):
    """A lifted piece's targets are drawn in a colour far from every side's (CIE76 distance
    over 40), as marks in the sites rather than filled sites."""
    served = serve(game)
    page.goto(served.url)
    page.wait_for_selector(".figures .figure:not(.missing)")
    for label in lift:
        page.evaluate("(label) => send({type: 'lift', site: label})", label)
    page.wait_for_function("() => document.querySelectorAll('.leds .lit.target').length > 0")
    colours = page.evaluate("""() => ({
        targets: [...document.querySelectorAll('.leds .lit.target .glow')]
            .map((n) => getComputedStyle(n).stroke),
        sides: [...document.querySelectorAll('.figures .figure')].map(
            (g) => getComputedStyle(g.querySelector('.body, .fill')).fill),
        filled: [...document.querySelectorAll(
            '.leds .lit.target polygon:not(.glow), .leds .lit.target .mark.ring')]
            .map((n) => getComputedStyle(n).fill)})""")
    assert colours["targets"] and set(colours["sides"]) and len(set(colours["sides"])) >= 2
    for target in set(colours["targets"]):
        for side in set(colours["sides"]):
            assert math.dist(lab(target), lab(side)) > 40, (target, side)
    assert all(fill == "none" for fill in colours["filled"])  # a ring, never a filled site
    screenshot(page, f"targets-{game}")


def test_a_phalanx_piece_moves_by_two_taps(serve, page):
    """Tap a piece: all its triangles lift (its targets light); tap where it goes: it lands
    there whole. One move, never a board that differs in between."""
    served = serve("phalanx")
    page.goto(served.url)
    page.wait_for_selector(".figures .figure:not(.missing)")
    state = served.daemon.controller.state
    move, real = next(
        (m, r)
        for m in state.legal_moves()
        for r in state.realisations(m)[:1]
        if len(r.emptied) > 1 and not r.follow_ups and not r.emptied & r.filled
    )
    page.mouse.click(*centroid(page, move.frm))
    page.wait_for_function("() => document.querySelectorAll('.leds .lit.target').length > 0")
    assert sorted(events(page, "targets")[-1]["sites"])  # every triangle of it lifted at once
    page.mouse.click(*centroid(page, move.to))
    assert wait_event(page, "move")[-1]["move"] == str(move)
    assert not events(page, "out_of_sync")
    screenshot(page, "phalanx-two-taps")


def test_stored_games_are_listed_replayed_and_downloaded(serve, page):
    from firmware_host.store.export import record_text
    from firmware_host.store.storage import Storage

    served = serve("antipalos", 3)
    page.goto(served.url)
    for n, label in enumerate(["B2*", "A1*"], 1):
        site(page, label).click()
        wait_event(page, "move", n)
    open_panel(page, "stored")
    page.wait_for_selector("#stored-list li")
    assert "2 moves" in page.locator("#stored-list li").first.text_content()
    page.get_by_role("button", name="Replay game 1").click()
    page.wait_for_selector("#viewer[open] #viewer-board [data-site]")
    assert "Move 2 of 2" in page.locator("#viewer-move").text_content()
    assert page.locator("#viewer-board .figures .figure").count() == 2
    page.get_by_role("button", name="One move back").click()
    assert page.locator("#viewer-board .figures .figure").count() == 1
    assert "Move 1 of 2: White B2*" in page.locator("#viewer-move").text_content()
    screenshot(page, "stored-game-replay")
    page.get_by_role("button", name="Close").click()
    text = page.request.get(served.url + "games/1.txt").text()
    storage = Storage(served.config.storage, read_only=True)
    assert text == record_text(storage.games(game_id=1)[0])
    assert page.request.get(served.url + "games.txt").text().startswith('[Game "antipalos"]')
    assert page.request.get(served.url + "games/99.json").status == 404


def test_take_back_brightness_and_house_rules_from_the_page(serve, page):
    served = serve("anti-grid")
    page.goto(served.url)
    page.wait_for_selector(".figures .figure")
    state = served.daemon.controller.state
    move = str(state.legal_moves()[0])
    real = state.realisations(state.parse_move(move))[0]
    for label in sorted(real.emptied):
        page.evaluate("(label) => send({type: 'lift', site: label})", label)
    for label in sorted(real.filled):
        page.evaluate("(label) => send({type: 'place', site: label})", label)
    wait_event(page, "move")
    page.get_by_role("button", name="Take back").click()
    assert wait_event(page, "takeback")[-1]["move"] == move
    open_panel(page, "settings")
    page.select_option("#brightness", "0.25")
    page.wait_for_function("() => view.settings && view.settings.brightness === 0.25")
    assert served.daemon.controller.brightness == 0.25
    page.locator("#rules select").first.select_option("blue")  # first: who begins
    page.wait_for_function("() => (view.settings.rules['anti-grid'] || {}).first === 'blue'")
    page.on("dialog", lambda dialog: dialog.accept())
    new_game(page, "anti-grid")
    page.wait_for_function("() => document.getElementById('turn').textContent === 'Blue to move'")
