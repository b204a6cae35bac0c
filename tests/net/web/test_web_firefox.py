"""The simulator page in Debian's Firefox ESR, driven through Firefox's own Marionette protocol
(marionette-driver; no downloaded browser or driver): a short Antipalos game by clicks, the
winning chain lit. The Chromium tests cover the page in depth; this one shows it works in
Firefox too."""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest

from testbed.tools import free_port, require
from tests.net.web.test_page_languages import ENGLISH, SAYS, SIDES, board
from tests.net.web.web_tools import OUTPUT

FIREFOX = shutil.which("firefox-esr") or shutil.which("firefox")
#: Where a click on a site lands, in viewport pixels: the centre of its hit area's first part
#: (a segment's: the first corner quarter of its square, nearer to it than to the other).
CLICK_POINT = """
const hit = document.querySelector(`.hits [data-site="${arguments[0]}"]`);
const box = (hit.tagName === "g" ? hit.firstElementChild : hit).getBoundingClientRect();
return [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)];
"""


@pytest.fixture(scope="module")
def firefox(tmp_path_factory):
    try:
        from marionette_driver import marionette
    except ImportError:
        marionette = None
    require(marionette is not None, "marionette-driver (the [test] extra)")
    require(FIREFOX is not None, "Debian's firefox-esr")
    profile, port = tmp_path_factory.mktemp("firefox"), free_port()
    (profile / "user.js").write_text(f'user_pref("marionette.port", {port});\n')
    process = subprocess.Popen(
        [FIREFOX, "--headless", "--marionette", "--no-remote", "--profile", str(profile)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = marionette.Marionette(host="127.0.0.1", port=port, startup_timeout=60)
    try:
        client.start_session()
        client.set_window_rect(width=1280, height=800)
        yield client
        client.delete_session()
    finally:
        process.kill()
        process.wait()


def wait_until(client, script: str, *args, seconds: float = 10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = client.execute_script(script, script_args=args)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not true within {seconds} s: {script}")


def click(client, label: str) -> None:
    x, y = client.execute_script(CLICK_POINT, script_args=[label])
    pointer = client.actions.sequence("pointer", "mouse", {"pointerType": "mouse"})
    pointer.pointer_move(x, y).pointer_down().pause(30).pointer_up().perform()


def test_antipalos_game_by_clicks_in_firefox(serve, firefox):
    served = serve("antipalos", 3)
    firefox.navigate(served.url)
    wait_until(firefox, "return document.querySelectorAll('[data-site]').length === 18")
    for n, label in enumerate(["A1*", "A3*", "B2*", "C1*", "C3*"], 1):
        click(firefox, label)
        wait_until(
            firefox,
            "return document.querySelectorAll(`#log li[data-event='move']`).length >= arguments[0]",
            n,
        )
    over = wait_until(
        firefox,
        "const li = document.querySelector(`#log li[data-event='game_over']`); return li && li.dataset.json",
    )
    assert '"winner":"white"' in over.replace(" ", "")
    lit = firefox.execute_script("return document.querySelectorAll('.leds .lit').length")
    assert lit == 3  # the winning chain A1* B2* C3*
    turn = firefox.execute_script("return document.getElementById('turn').textContent")
    assert turn == "White wins: connection"
    # The pieces as the game has them, in the sides' colours; sites named by their labels;
    # the log in words.
    sides = firefox.execute_script(
        "return [...document.querySelectorAll('.figures .figure')].map((g) => g.dataset.side)"
    )
    assert sorted(sides) == ["black", "black", "white", "white", "white"]
    names = firefox.execute_script(
        "return [...document.querySelectorAll('.hits [data-site]')].map((h) => h.getAttribute('aria-label'))"
    )
    assert len(names) == 18 and "A1*" in names
    assert firefox.execute_script("return document.querySelectorAll('.coords text').length") == 12
    words = firefox.execute_script("return document.querySelector(`#log li[data-event='move']`).textContent")
    assert "White played A1*" in words and "{" not in words
    over_words = firefox.execute_script(
        "return document.querySelector(`#log li[data-event='game_over']`).textContent"
    )
    assert "White wins: connection" in over_words
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / "firefox-antipalos-won.png").write_bytes(firefox.screenshot(format="binary"))


SMALLEST_TARGET = """return Math.min(...[...document.querySelectorAll('.hits [data-site]')]
    .map((h) => h.getBoundingClientRect()).map((r) => Math.min(r.width, r.height)))"""


def test_phone_board_whole_then_a_tap_zooms_in_firefox(serve, firefox):
    """Antipod 10 on a phone-sized window: the board opens whole with its coordinates in view;
    a first tap zooms in where it lands (every site at least 24 px), a tap then places; Zoom
    out shows the whole ball."""
    served = serve("antipod", 10)
    firefox.set_window_rect(width=390, height=844)
    try:
        firefox.navigate(served.url)
        wait_until(firefox, "return document.querySelectorAll('.hits [data-site]').length > 0")
        inside = firefox.execute_script("""return [...document.querySelectorAll('.coords text')]
            .map((t) => t.getBoundingClientRect())
            .every((r) => r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight)""")
        assert inside and firefox.execute_script(SMALLEST_TARGET) < 24
        (OUTPUT / "firefox-phone-antipod-10.png").write_bytes(firefox.screenshot(format="binary"))
        state = served.daemon.controller.state
        placed = next(str(m) for m in state.legal_moves() if not state.realisations(m)[0].follow_ups)
        click(firefox, placed)  # zooms in there
        assert wait_until(firefox, f"const m = (() => {{ {SMALLEST_TARGET} }})(); return m >= 24 && m")
        firefox.execute_script(
            "document.querySelector(`.hits [data-site='${arguments[0]}']`)"
            ".scrollIntoView({block: 'center', inline: 'center'})",
            script_args=[placed],
        )
        click(firefox, placed)
        moved = wait_until(
            firefox,
            "const li = document.querySelector(`#log li[data-event='move']`); return li && li.dataset.json",
        )
        assert placed in moved
        for _ in range(6):
            firefox.execute_script("document.getElementById('zoom-out').click()")
        assert firefox.execute_script("return document.getElementById('zoom-out').disabled")
        assert firefox.execute_script(SMALLEST_TARGET) < 24
    finally:
        firefox.set_window_rect(width=1280, height=800)


CENTROID = """
const hit = document.querySelector(`.hits [data-site="${arguments[0]}"]`);
const pts = hit.getAttribute('points').trim().split(/\\s+/).map((p) => p.split(',').map(Number));
const mean = (i) => pts.reduce((s, p) => s + p[i], 0) / pts.length;
const c = new DOMPoint(mean(0), mean(1));
const p = c.matrixTransform(hit.getScreenCTM());
return [Math.round(p.x), Math.round(p.y)];
"""


def test_phalanx_piece_dragged_onto_turned_triangles_in_firefox(serve, firefox):
    """A whole Phalanx piece dragged to squares whose diagonals run the other way: one move,
    exactly the sites it fills, nothing out of sync."""
    served = serve("phalanx")
    firefox.navigate(served.url)
    wait_until(firefox, "return document.querySelectorAll('.figures .figure:not(.missing)').length > 0")
    state = served.daemon.controller.state

    def shape(sites):
        return sorted(s[-2:] for s in sites)

    move = next(
        m
        for m in state.legal_moves()
        for r in state.realisations(m)[:1]
        if len(r.emptied) > 1
        and not r.follow_ups
        and not r.emptied & r.filled
        and shape(r.emptied) != shape(r.filled)
    )
    (x0, y0), (x1, y1) = (
        firefox.execute_script(CENTROID, script_args=[label]) for label in (move.frm, move.to)
    )
    pointer = firefox.actions.sequence("pointer", "mouse", {"pointerType": "mouse"})
    pointer.pointer_move(x0, y0).pointer_down()
    for i in range(1, 9):
        pointer.pointer_move(x0 + (x1 - x0) * i // 8, y0 + (y1 - y0) * i // 8)
    pointer.pointer_up().perform()
    moved = wait_until(
        firefox,
        "const li = document.querySelector(`#log li[data-event='move']`); return li && li.dataset.json",
    )
    assert f'"{move}"' in moved
    assert not firefox.execute_script("return document.querySelector(`#log li[data-event='out_of_sync']`)")


def test_phalanx_piece_moves_by_two_taps_in_firefox(serve, firefox):
    """Tap a Phalanx piece, tap where it goes: one move, the whole piece."""
    served = serve("phalanx")
    firefox.navigate(served.url)
    wait_until(firefox, "return document.querySelectorAll('.figures .figure:not(.missing)').length > 0")
    state = served.daemon.controller.state
    move = next(
        m
        for m in state.legal_moves()
        for r in state.realisations(m)[:1]
        if len(r.emptied) > 1 and not r.follow_ups and not r.emptied & r.filled
    )
    for label in (move.frm, move.to):
        x, y = firefox.execute_script(CENTROID, script_args=[label])
        firefox.actions.sequence("pointer", "mouse", {"pointerType": "mouse"}).pointer_move(
            x, y
        ).pointer_down().pause(30).pointer_up().perform()
        if label == move.frm:
            wait_until(firefox, "return document.querySelectorAll('.leds .lit.target').length > 0")
    moved = wait_until(
        firefox,
        "const li = document.querySelector(`#log li[data-event='move']`); return li && li.dataset.json",
    )
    assert f'"{move}"' in moved
    assert not firefox.execute_script("return document.querySelector(`#log li[data-event='out_of_sync']`)")


@pytest.mark.parametrize(
    "game, language",
    [("antipalos", "de"), ("antipode", "fr"), ("antipod", "fr"), ("anti-grid", "de"), ("phalanx", "fr")],
)
def test_the_page_speaks_the_boards_language_in_firefox(tmp_path, firefox, game, language):
    """A board set to German (French) in its config: Firefox shows the page in it, as Chromium
    does (tests/net/web/test_page_languages.py), with none of the page's English left."""
    says = SAYS[language]
    with board(tmp_path, game, language) as url:
        firefox.navigate(url)
        turn = says["turn"].format(side=SIDES[game, language])
        wait_until(firefox, "return document.getElementById('turn').textContent === arguments[0]", turn)
        assert firefox.execute_script("return document.documentElement.lang") == language
        summaries = firefox.execute_script(
            "return [...document.querySelectorAll('summary')].map((s) => s.textContent.trim())"
        )
        assert all(panel in summaries for panel in says["panels"]), summaries
        shown = " ".join(firefox.execute_script("return document.body.textContent").split())
        assert not [word for word in ENGLISH if word in shown], shown
        (OUTPUT / f"firefox-{game}-{language}.png").write_bytes(firefox.screenshot(format="binary"))
