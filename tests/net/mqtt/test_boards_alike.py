"""One board, four views, drawn alike: a board of every game playing on a real Mosquitto, seen on
its own page (``/``), its spectators' view (``/watch``), its tile on the café dashboard and the
dashboard's ``/watch/<id>`` for a café screen. The board-drawing module (web/shared/board.js) is
the same everywhere, so the sites, guide lines, coordinates and pieces come out with the same
shapes, sizes (in site spacings) and colours, whatever the size on the screen."""

from __future__ import annotations

import time

import pytest

from engines import GAME_NAMES, game_info
from testbed.broker import board_config
from tests.net.web.web_tools import OUTPUT

#: What the module drew in an SVG (or a café tile's two, its cells beneath its pieces), in units of
#: the board's site spacing (so that a small tile and a café screen compare): every cell, guide
#: line and piece with its shape's size and its colours, the coordinates' names (once each: a
#: board drawn in parts, one above the other, names a row at both ends of each part; a board too
#: small on the screen for readable ones has none).
SUMMARY = """(svg) => {
  const unit = parseFloat((svg.querySelector("svg.mini") || svg).style.getPropertyValue("--unit"));
  const round = (v) => Math.round((v / unit) * 100) / 100;
  const css = (el, name) => (el ? getComputedStyle(el).getPropertyValue(name).trim() : "");
  const paint = (el) => [css(el, "fill"), css(el, "stroke"), round(parseFloat(css(el, "stroke-width")) || 0)];
  const size = (el) => { const b = el.getBBox(); return [round(b.width), round(b.height)]; };
  const all = (selector, describe) => [...svg.querySelectorAll(selector)]
    .map((el) => JSON.stringify(describe(el))).sort();
  return {
    cells: all("g.cells > *", (el) => [el.tagName, el.getAttribute("class"), ...paint(el), ...size(el)]),
    lines: all("g.lines > *", (el) => [el.getAttribute("stroke"), ...paint(el)]),
    coords: [...new Set([...svg.querySelectorAll("g.coords text")].map((el) => el.textContent))].sort(),
    figures: all("g.figures > g", (g) => [
      g.getAttribute("class"), g.dataset.side, css(g, "--side"), css(g, "--edge"), ...size(g),
      g.querySelector(".kind-mark")?.textContent || "",
      ...[...g.querySelectorAll(".body, .rod, .rod-edge, .fill, .outline")].flatMap(paint)]),
  };
}"""


def summary(page, selector: str) -> dict:
    """What the board in ``selector`` shows, once it is drawn with pieces on it."""
    svg = page.locator(selector)
    svg.locator("g.figures > g").first.wait_for(state="attached")
    return svg.evaluate(SUMMARY)


def settled(page, selector: str, expected: dict | None = None, seconds: float = 10) -> dict:
    """The board's summary once two readings 0.2 s apart agree (or it equals ``expected``)."""
    deadline, last = time.monotonic() + seconds, None
    while time.monotonic() < deadline:
        now = summary(page, selector)
        if now == expected or (expected is None and now == last):
            return now
        last = now
        time.sleep(0.2)
    return now


def web_port(config) -> int:
    section = config.read_text().split("[web]\n", 1)[1]
    return int(section.split("port = ", 1)[1].split("\n", 1)[0])


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_board_is_drawn_alike_on_its_page_watch_and_the_dashboard(
    tmp_path, broker, watcher, boards, cafe, page, game
):
    size = game_info(game).default_size
    config = board_config(tmp_path, broker.port, "t1", game=game, size=size or 0)
    if size is None:
        config.write_text(config.read_text().replace("size = 0\n", ""))
    board = boards(config)
    watcher.state("t1")
    if game == "antipalos":  # a game that begins with an empty board: one piece placed first
        board.place("F6*")
        watcher.state("t1", lambda s: s["ply"] == 1)
    own = f"http://127.0.0.1:{web_port(config)}/"
    dashboard = cafe()
    views = {
        "page": (own, "#board", (1280, 800)),
        "watch": (own + "watch", "#board", (1920, 1080)),
        "tile": (dashboard, 'article[data-board="t1"]', (1280, 800)),
        "cafe-watch": (dashboard + "watch/t1", 'article[data-board="t1"]', (1920, 1080)),
    }
    seen = {}
    for name, (url, selector, (width, height)) in views.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(url)
        seen[name] = settled(page, selector, seen.get("page"))
        shown = page.locator('article[data-board="t1"]') if name == "tile" else page
        shown.screenshot(path=str(OUTPUT / f"alike-{game}-{name}.png"))
    reference = seen["page"]
    assert reference["cells"] and reference["figures"], reference
    for name, drawn in seen.items():
        for part in reference:
            if part != "coords" or drawn[part]:
                assert drawn[part] == reference[part], f"{game}: {name}'s {part} differ from the page's"
    assert seen["cafe-watch"]["coords"], "a café screen names the rows and columns"
