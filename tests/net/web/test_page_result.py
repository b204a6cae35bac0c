"""The result of a game over ("Blue wins: connection") stands above the board: it never
covers a site, the coordinates beside the rows and columns or the zoom buttons, on a desktop
or a phone, and the board keeps its whole size while the game is played."""

from __future__ import annotations

import pytest

from engines import GAME_NAMES
from tests.net.web.web_tools import screenshot

#: The boxes of the coordinates, the sites and the zoom buttons, each [name, left, top, right,
#: bottom].
BOXES = """() => [...document.querySelectorAll('.coords text, [data-site], .zoom button')].map((n) => {
    const r = n.getBoundingClientRect();
    return [n.textContent || n.dataset.site, r.left, r.top, r.right, r.bottom]; })"""
#: The result shown as a status with one does (app.js): its words, unhidden.
OVER = """(words) => { const r = document.getElementById('result');
    r.textContent = words; r.hidden = false; document.body.dataset.over = 'yes'; }"""


#: The board's drawn box: the union of its sites' boxes [left, top, right, bottom].
DRAWN = """() => [...document.querySelectorAll('[data-site]')].map((n) => n.getBoundingClientRect())
    .reduce((a, r) => [Math.min(a[0], r.left), Math.min(a[1], r.top), Math.max(a[2], r.right),
        Math.max(a[3], r.bottom)], [Infinity, Infinity, -Infinity, -Infinity])"""


def played_as_without_result(page) -> bool:
    """Whether the board during play is drawn where and as large as with no result line at
    all (no space is kept for a result to come)."""
    playing = page.evaluate(DRAWN)
    alone = page.evaluate(f"""() => {{ const r = document.getElementById('result');
        const [parent, next] = [r.parentNode, r.nextSibling]; r.remove();
        const drawn = ({DRAWN})(); parent.insertBefore(r, next); return drawn; }}""")
    return max(abs(a - b) for a, b in zip(playing, alone)) < 0.5


def overlap(a: list[float], b: list[float]) -> bool:
    """Whether boxes [left, top, right, bottom] share more than a pixel's edge."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def uncovered(page) -> list[str]:
    """The coordinates, sites and zoom buttons the result's box covers."""
    box = page.locator("#result").bounding_box()
    result = [box["x"], box["y"], box["x"] + box["width"], box["y"] + box["height"]]
    return [name for name, *other in page.evaluate(BOXES) if overlap(result, other)]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_result_covers_no_site_and_no_coordinate(serve, page, game):
    served = serve(game)
    for width, height, where in ((390, 844, "phone"), (1280, 800, "desktop")):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(served.url)
        page.wait_for_selector("[data-site]")
        assert played_as_without_result(page), (game, where)
        page.evaluate(OVER, "Blue wins: connection")
        page.wait_for_selector("#result:not([hidden])")
        assert uncovered(page) == [], (game, where)
        screenshot(page, f"result-{game}-{where}")
