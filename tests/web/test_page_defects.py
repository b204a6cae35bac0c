"""Issue 51's page defects, measured in the DOM of Debian's chromium at desktop and phone size
for every game: coordinates that never collide, twin names that agree, the notices, the
story's words, /watch's move list, the colour-blind palette and the set-up page."""

from __future__ import annotations

import re

import pytest

from engines import GAME_NAMES
from tests.web.test_web_browser import site, wait_event
from tests.web.web_tools import screenshot

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
