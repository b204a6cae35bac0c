"""Issue 51's page defects, measured in the DOM of Debian's chromium at desktop and phone size
for every game: coordinates that never collide, twin names that agree, the notices, the
story's words, /watch's move list, the colour-blind palette and the set-up page."""

from __future__ import annotations

import itertools
import re

import pytest

from engines import GAME_NAMES, new_game
from testbed.colours import APART, distance
from testbed.tools import require
from tests.net.web.test_web_browser import AXE, centroid, events, site, wait_event
from tests.net.web.web_tools import screenshot

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
BOARDS = [(g, None) for g in GAME_NAMES] + [("antipod", 10), ("antipod", 6)]

#: Per label: [text, its line, whether it overlaps another label, whether it covers a site].
MEASURE = """() => {
    const texts = [...document.querySelectorAll('#board .coords text')];
    const inner = (t) => { const r = t.getBoundingClientRect(), dy = r.height * 0.18;
        return {l: r.left + 1, r: r.right - 1, t: r.top + dy, b: r.bottom - dy}; };
    const boxes = texts.map(inner);
    const meet = (a, b) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
    const onSite = (b) => {
        for (const u of [0, 0.25, 0.5, 0.75, 1]) for (const v of [0, 0.5, 1]) {
            const x = b.l + u * (b.r - b.l), y = b.t + v * (b.b - b.t);
            if (document.elementsFromPoint(x, y).some((e) => e.closest('#board .cells'))) return true;
        }
        return false; };
    return texts.map((t, i) => [t.textContent, t.dataset.line,
        boxes.some((b, j) => j !== i && meet(b, boxes[i])), onSite(boxes[i])]);
}"""


def play(page, label):
    """Click a site as a player does; on a phone a small board's first tap zooms in there."""
    site(page, label).click()
    if not page.locator("#zoom-out").is_disabled():
        page.locator(f'.hits [data-site="{label}"]').scroll_into_view_if_needed()
        site(page, label).click()


def lines_of(state):
    """Every row and column a label names: its letters and its number (each board's own)."""
    keys = set()
    for s in state.sites():
        m = re.search(r"([A-Za-z]+)(\d+)", s.label)
        if m:
            keys |= {m.group(1), m.group(2)}
    return keys


@pytest.mark.parametrize("game,size", BOARDS)
def test_coordinates_never_collide_and_name_every_line(serve, page, game, size):
    """Desktop and phone: no label overlaps another or a site, and every row and column (on
    each hemisphere of Antipod) has its label."""
    served = serve(game, size)
    state = served.daemon.controller.state
    for where, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.goto(served.url)
        page.wait_for_selector("[data-site]")
        page.wait_for_selector("#oled[src^='data:image/png']", state="attached")
        labels = page.evaluate(MEASURE)
        name = f"{game}-{size or 'default'}-{where}"
        screenshot(page, f"coordinates-{name}")
        assert [t for t, _, over, _ in labels if over] == [], name
        assert [t for t, _, _, on in labels if on] == [], name
        assert {t for t, *_ in labels} == lines_of(state), name
        if game == "antipod":  # each hemisphere names its own rows a..: both have every letter
            parts = {}
            for text, line, *_ in labels:
                if text.isalpha():
                    parts.setdefault(line.split(":")[1], set()).add(text)
            assert len(parts) == 2 and len(set(map(frozenset, parts.values()))) == 1, parts


# ---------------------------------------------------------------------------- colour


def test_the_palette_stays_apart_for_the_colour_blind(serve, page):
    """Every two sides of a game, every two meanings of the lights and a target against every
    side differ by CIE76 > 40 under normal vision and simulated protanopia and deuteranopia;
    each meaning has its own mark, each side its own shape."""
    served = serve("phalanx")
    page.goto(served.url)
    page.wait_for_selector(".figures .figure")
    palette = page.evaluate("""async () => { const b = await import('/shared/board.js');
        return [b.SIDE_COLOURS, b.LIGHT_COLOURS, b.LIGHT_MARKS, b.SIDE_SHAPES]; }""")
    sides, lights, marks, shapes = palette
    for game in GAME_NAMES:
        game_sides = new_game(game).sides
        for a, b in itertools.combinations(game_sides, 2):
            assert distance(sides[a], sides[b]) > APART, (game, a, b)
        for side in game_sides:
            assert distance(lights["target"], sides[side]) > APART, (game, side)
    meanings = sorted(set(lights.values()))
    for a, b in itertools.combinations(meanings, 2):
        assert distance(a, b) > APART, (a, b)
    # One colour and mark, one meaning: no two kinds of light share both unless they mean alike.
    alike = {
        ("target", "fill"),
        ("remove", "extra"),
        ("remove", "empty"),
        ("extra", "empty"),
        ("pick", "picked"),
        ("win", "marker"),
        ("marker", "carry"),
        ("win", "carry"),
    }
    for a, b in itertools.combinations(sorted(lights), 2):
        if (a, b) not in alike and (b, a) not in alike:
            assert (lights[a], marks[a]) != (lights[b], marks[b]), (a, b)
    assert len(set(shapes)) == len(shapes)
    # The page draws them: the sides' pieces in their colours and shapes, a target in amber.
    drawn = page.evaluate("""() => [...document.querySelectorAll('.figures .figure')].map(
        (g) => [g.dataset.side, g.dataset.shape, getComputedStyle(g.querySelector('.fill, .body')).fill,
                g.querySelectorAll('.side-mark, .hatch').length > 0])""")
    by_side = {side: (shape, fill, marked) for side, shape, fill, marked in drawn}
    assert {shape for shape, _, _ in by_side.values()} == set(shapes[:2])
    assert all(marked == (shape != "circle") for shape, _, marked in by_side.values())
    for side, (_, fill, _) in by_side.items():
        assert fill == rgb(sides[side])
    for label in ["c2ne", "c2sw"]:
        page.evaluate("(label) => send({type: 'lift', site: label})", label)
    page.wait_for_selector(".leds .lit.target")
    glow = page.evaluate("() => getComputedStyle(document.querySelector('.leds .lit.target .glow')).stroke")
    assert glow == rgb(lights["target"])
    for where, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        screenshot(page, f"palette-phalanx-{where}")
    print(
        {
            f"{a}/{b}": round(distance(sides[a], sides[b]), 1)
            for a, b in (("red", "green"), ("red", "blue"), ("white", "black"))
        },
        {f"{a}/{b}": round(distance(a, b), 1) for a, b in itertools.combinations(meanings, 2)},
    )


def rgb(hex_colour: str) -> str:
    """A "#rrggbb" colour as getComputedStyle writes it."""
    return "rgb({}, {}, {})".format(*(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)))


# ---------------------------------------------------------------------------- antipod's twins
@pytest.mark.parametrize("where", SIZES)
def test_antipods_twin_is_named_alike_on_the_oled_and_the_page(serve, page, where):
    """A stone on the edge point c1: the OLED asks for the twin on c12 (its own name on the
    right board, as the engine names it), and the lit cell on the page reads c12 too."""
    served = serve("antipod", 6)
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[where])))
    page.goto(served.url)
    page.wait_for_selector('[data-site="c1"]')
    play(page, "c1")
    guide = wait_event(page, "guide")[-1]
    assert guide["action"] == "twin" and guide["sites"] == ["c12"]
    page.wait_for_function("() => document.getElementById('oled').alt.includes('c12')")
    assert page.evaluate("() => view.leds['c12']") is not None
    assert page.locator('.twins text[data-for="c12"]').text_content() == "c12"
    names = page.locator(".twins text").all_text_contents()
    assert "c1" not in names and all(
        n == t
        for n, t in zip(
            names, page.locator(".twins text").evaluate_all("(ts) => ts.map((t) => t.dataset.for)")
        )
    )
    screenshot(page, f"antipod-twin-{where}")


# ---------------------------------------------------------------------------- phalanx
def phalanx_move(state):
    """A move of a piece over several sites that needs nothing more."""
    return next(
        (m, r)
        for m in state.legal_moves()
        for r in state.realisations(m)[:1]
        if len(r.emptied) > 1 and not r.follow_ups and not r.emptied & r.filled
    )


@pytest.mark.parametrize("where", SIZES)
def test_a_notice_never_moves_or_covers_take_back(serve, page, where):
    """Tapping a Phalanx piece lifts it with a notice: Take back stays where it was, uncovered;
    a second click on it puts it back (a tap, as the help says), and nothing is played."""
    served = serve("phalanx")
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[where])))
    page.goto(served.url)
    page.wait_for_selector(".figures .figure:not(.missing)")
    move, _ = phalanx_move(served.daemon.controller.state)
    before = page.locator("#takeback").bounding_box()
    page.locator("#board").scroll_into_view_if_needed()
    page.mouse.click(*centroid(page, move.frm))
    page.wait_for_function("() => document.getElementById('notice').textContent.includes('Lifted')")
    after = page.locator("#takeback").bounding_box()
    note = page.locator("#notice").bounding_box()
    assert after == before
    assert note["y"] + note["height"] <= after["y"] or note["y"] >= after["y"] + after["height"]
    text_fits = page.evaluate(
        "() => { const n = document.getElementById('notice');"
        " return [n.scrollHeight, n.clientHeight, n.textContent]; }"
    )
    assert text_fits[0] <= text_fits[1] + 1, text_fits
    screenshot(page, f"phalanx-lifted-notice-{where}")
    help_text = page.locator("#sim-help").text_content()
    assert "twice quickly to tap" in help_text and "on it again to put it back (a tap)" in help_text
    page.mouse.click(*centroid(page, move.frm))  # the second click of a double click
    page.wait_for_function("() => document.getElementById('notice').textContent.includes('a tap')")
    page.wait_for_function("() => document.querySelectorAll('.leds .lit.target').length === 0")
    assert not served.daemon.controller.moves and not events(page, "out_of_sync")


@pytest.mark.parametrize("where", SIZES)
def test_a_piece_lifted_out_of_turn_is_never_said_to_go_anywhere(serve, page, where):
    """After Green's move, Red is to move: Green's piece lifted is out of turn. The story says
    so (its last moved piece may only correct that move; any other goes back), never "it can
    go to ... lit sites"."""
    served = serve("phalanx")
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[where])))
    page.goto(served.url)
    page.locator("#board").scroll_into_view_if_needed()
    page.wait_for_selector(".figures .figure:not(.missing)")
    move, real = phalanx_move(served.daemon.controller.state)
    page.mouse.click(*centroid(page, move.frm))
    page.wait_for_function("() => document.querySelectorAll('.leds .lit.target').length > 0")
    page.mouse.click(*centroid(page, move.to))
    wait_event(page, "move")
    page.wait_for_function("() => document.getElementById('turn').textContent === 'Red to move'")
    moved = sorted(real.filled)[0]
    page.evaluate("(label) => send({type: 'lift', site: label})", moved)
    page.wait_for_function("() => document.querySelectorAll('#log li[data-event=targets]').length > 1")
    said = page.locator('#log li[data-event="targets"]').last.text_content()
    assert "out of turn" in said and "can go to" not in said, said
    page.evaluate("(label) => send({type: 'place', site: label})", moved)
    page.evaluate("() => send({type: 'lift', site: 'h1ne'})")  # another of Green's pieces
    wait_event(page, "out_of_sync")
    stories = page.locator("#log li").all_text_contents()
    assert not any(
        "can go to" in s for s in stories[stories.index(next(s for s in stories if "Green played" in s)) :]
    ), stories


# ---------------------------------------------------------------------------- /watch
def play_plain(page, served, count):
    """Play up to ``count`` moves that need no follow-up, by the sites they empty and fill;
    returns how many were played."""
    for n in range(1, count + 1):
        state = served.daemon.controller.state
        found = next(
            (
                (m, r)
                for m in state.legal_moves()[:400]
                for r in state.realisations(m)[:1]
                if not r.follow_ups
            ),
            None,
        )
        if found is None:
            return n - 1
        _, real = found
        for label in sorted(real.emptied):
            page.evaluate("(label) => send({type: 'lift', site: label})", label)
        for label in sorted(real.filled):
            page.evaluate("(label) => send({type: 'place', site: label})", label)
        wait_event(page, "move", n)
    return count


@pytest.mark.parametrize("game", GAME_NAMES)
def test_watch_lists_the_moves_in_reading_order_apart(serve, page, browser, game):
    """/watch on a café screen (1920x1080) and on a phone: the rounds read 1, 2, 3 from the
    top, and no move's name runs into the next or past the list."""
    served = serve(game)
    page.goto(served.url)
    page.wait_for_selector("[data-site]")
    played = play_plain(page, served, 7)
    assert played >= 2 or game == "antipode"
    watcher = browser.new_page()
    try:
        for width, height, where in ((1920, 1080, "cafe"), (390, 844, "phone"), (1280, 800, "desktop")):
            watcher.set_viewport_size({"width": width, "height": height})
            watcher.goto(served.url + "watch")
            watcher.wait_for_function(
                "(n) => document.querySelectorAll('#moves span').length === n", arg=played
            )
            rows = watcher.evaluate("""() => [...document.querySelectorAll('#moves li')].map((li) => {
                const r = li.getBoundingClientRect();
                return [r.top, r.left, [...li.querySelectorAll('span')].map((s) => {
                    const b = s.getBoundingClientRect();
                    return [b.left, b.right, s.scrollWidth, s.clientWidth]; })]; })""")
            box = watcher.locator("#moves").bounding_box()
            tops = [top for top, _, _ in rows]
            assert tops == sorted(tops) and len(set(tops)) == len(tops), (where, tops)  # one column
            for _, _, spans in rows:
                for (_, r1, _, _), (l2, _, _, _) in zip(spans, spans[1:]):
                    assert r1 < l2, (where, spans)
                for _, r, scroll, client in spans:
                    assert scroll <= client + 1 and r <= box["x"] + box["width"] + 1, (where, spans)
            screenshot(watcher, f"watch-moves-{game}-{where}")
    finally:
        watcher.close()


# ---------------------------------------------------------------------------- antipode's pawn
def antipode_first_move(page):
    """Blue places on b1, flips a1, taps a1 (its pawn goes there), flips b1: "b1:a1"."""
    play(page, "b1")
    wait_event(page, "guide")
    play(page, "a1")  # the neighbour turned over: lifted and set back
    play(page, "a1")
    wait_event(page, "guide", 2)
    play(page, "a1")  # a tap: lift and put back quickly
    play(page, "a1")
    assert wait_event(page, "move")[-1]["move"] == "b1:a1"
    wait_event(page, "guide", 3)
    play(page, "b1")
    play(page, "b1")
    page.wait_for_function("() => document.getElementById('turn').textContent === 'Red to move'")


@pytest.mark.parametrize("where", SIZES)
def test_antipodes_pawn_walk_has_an_arrow_and_a_takeback_shows_it_still_to_carry(serve, page, where):
    """The last move's pawn walk (e1 to a1) has its arrow; Take back: the pawn is drawn where it
    stands (a1) while the OLED asks to carry it back to e1, with a ghost on e1 and an arrow."""
    served = serve("antipode")
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[where])))
    page.goto(served.url)
    page.wait_for_selector('[data-site="b1"]')
    antipode_first_move(page)
    assert page.locator("#board .arrows .pawn-walk.head").count() == 1
    screenshot(page, f"antipode-pawn-arrow-{where}")
    page.get_by_role("button", name="Take back").click()
    wait_event(page, "takeback")
    play(page, "b1")  # its token off
    wait_event(page, "in_sync")
    play(page, "a1")  # the token it turned, turned back
    play(page, "a1")
    page.wait_for_function("() => document.getElementById('oled').alt.includes('back to e1')")
    page.wait_for_function("() => document.querySelectorAll('#board .plan .ghost-piece').length > 0")
    pawns = """(layer) => [...document.querySelectorAll(`#board .${layer} .figure.pawn`)]
        .map((g) => [g.dataset.side, g.dataset.sites])"""
    assert page.evaluate(pawns, "plan") == [["blue", "e1"]]  # a ghost where it goes
    assert page.locator("#board .plan .plan-arrow.head").count() == 1
    assert ["blue", "a1"] in page.evaluate(pawns, "figures")  # drawn where it still stands
    screenshot(page, f"antipode-takeback-{where}")
    page.locator('[data-button="ok"]').click()  # carried back: OK, and the ghost goes
    page.wait_for_function("() => document.querySelectorAll('#board .plan .ghost-piece').length === 0")
    assert ["blue", "e1"] in page.evaluate(pawns, "figures")


# ---------------------------------------------------------------------------- a newcomer
@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_newcomer_is_told_to_click_a_site_until_the_first_move(serve, page, game):
    """Desktop and phone: before the first move the page says, in view without opening a
    panel, that a click (a tap on the phone) on a site puts a piece there; after it, no more."""
    served = serve(game)
    for where, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.goto(served.url)
        page.wait_for_selector("#first-hint:not([hidden])")
        hint = page.locator("#first-hint")
        box = hint.bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= h
        act = "Tap" if where == "phone" else "Click"
        assert hint.text_content().startswith(f"{act} a site to put a piece on it")
        screenshot(page, f"first-hint-{game}-{where}")
    if play_plain(page, served, 1):
        page.wait_for_selector("#first-hint", state="hidden")


# ---------------------------------------------------------------------------- axe-core
@pytest.mark.parametrize("game", ["phalanx", "antipod"])
def test_the_palette_and_hints_keep_axe_clean(serve, browser, game):
    """axe-core finds nothing serious with every panel open (the legend, the first hint, the
    sides' shapes and hatching), on desktop and phone."""
    require(AXE.exists(), f"axe-core in {AXE.parent} (tests/run.sh installs it with npm)")
    served = serve(game)
    for where, (w, h) in SIZES.items():
        context = browser.new_context(viewport={"width": w, "height": h}, bypass_csp=True)
        page = context.new_page()
        try:
            page.goto(served.url)
            page.wait_for_selector("#first-hint:not([hidden])")
            page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            page.wait_for_selector("#stored-none:not([hidden]), #stored-list li")
            page.add_script_tag(path=str(AXE))
            found = page.evaluate("""async () => (await axe.run(document)).violations
                .filter((v) => ['serious', 'critical'].includes(v.impact))
                .map((v) => `${v.id}: ${v.nodes.length} (${v.nodes[0].target})`)""")
            assert found == [], where
        finally:
            context.close()


def test_the_connection_mark_differs_in_shape_and_colour_when_the_board_goes_away(serve, page):
    """Live and away are told apart without colour: a dot, then a cross (and blue, then crimson)."""
    served = serve("anti-grid")
    page.goto(served.url)
    conn = page.locator("#conn")
    conn.filter(has_text="live").wait_for()
    mark = """(e) => { const s = getComputedStyle(e, '::before');
        const hex = s.color.match(/\\d+/g).slice(0, 3).map((n) => (+n).toString(16).padStart(2, "0"));
        return [s.content, "#" + hex.join("")]; }"""
    live = conn.evaluate(mark)
    served.stop()
    conn.filter(has_text="reconnecting").wait_for()
    away = conn.evaluate(mark)
    assert live[0] != away[0] and "✕" in away[0]
    assert distance(live[1], away[1]) >= APART
