"""What one frame of the café wall costs Chromium's renderer, in CPU time (Chrome's trace),
free of the boards, the broker and the dashboard that share the machine in bench/cafe.py: 200
tiles of the wall (the tile of cafe.html and the wall's styles, without the controls), each board
built by ``/shared/board.js`` for Antipalos 12 with 24 pieces, and the tiles out of view marked
as the wall marks them (``far``, over 200 px from the screen); then ``--changed`` tiles in view
given another position and move line in each of 120 frames. Printed: the building of the 200
boards (ms a board, and the page's elements), and per frame the renderer's task in all and its
scripts, style, layout, pre-paint, paint, layerize and commit (CPU ms, the mean of the frames).
The page's files come from ``--root`` (another tree's, to compare), and ``--css`` adds a rule
(to try one). On a loaded machine run each side in turn; the CPU figures move far less with the
load than the wall clock's.

Usage: .venv/bin/python -m bench.wall_frames [--changed 8] [--root DIR] [--css RULE]
The last line is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import mimetypes
import random
from collections import defaultdict
from pathlib import Path

from bench.page_cost import TRACE_CATEGORIES, _spans
from engines import new_game
from firmware_host.net.web.drawn import drawn, figures

CHROMIUM = "/usr/bin/chromium"
ORIGIN = "http://wall.bench"
FRAMES = 120
#: The kinds of work summed per frame, as Chrome's trace names them.
KINDS = ("RunTask", "FunctionCall", "UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "Commit")

PAGE = """<!doctype html><html><head><link rel="stylesheet" href="/shared/board.css">
<link rel="stylesheet" href="/static/cafe.css"><style>%(css)s</style></head><body>
<main id="tables" class="tables"></main>
<script type="module">
import { Board } from "/shared/board.js";
const data = await (await fetch("/data.json")).json();
const wall = new DOMParser().parseFromString(await (await fetch("/static/cafe.html")).text(), "text/html");
const tile = wall.getElementById("tile").content.firstElementChild;
const tiles = [], boards = [];
for (let i = 0; i < 200; i++) {
  const el = document.importNode(tile, true);
  const words = { name: `table-${i}`, title: "Antipalos 12", turn: "White to move",
                  since: "last move 10 s ago", status: "Place a trirod · Phase 1" };
  for (const [cls, text] of Object.entries(words)) el.querySelector(`.${cls}`).textContent = text;
  document.getElementById("tables").append(el);
  tiles.push(el);
}
const far = new IntersectionObserver((entries) => {
  for (const e of entries) e.target.classList.toggle("far", !e.isIntersecting);
}, { rootMargin: "200px" });
const began = performance.now();
for (const el of tiles) {
  const under = el.querySelector(".under");  // the cells' frame (none in a tree before it)
  const board = new Board(el.querySelector(".mini"), { interactive: false, under });
  board.sides = ["white", "black"];
  board.build(data.layout.sites, data.layout.drawing);
  board.showFigures(data.figures[24]);
  board.showPieces(data.figures[24].flatMap((f) => f.sites));
  boards.push(board);
}
window.buildMs = performance.now() - began;
tiles.forEach((el) => far.observe(el));
window.run = (frames) => new Promise((done) => {
  let n = 0;
  const step = () => {
    for (let k = 0; k < %(changed)d; k++) {
      const i = (n * %(changed)d + k) %% 12, shown = data.figures[(n + k) %% data.figures.length];
      boards[i].showFigures(shown);
      boards[i].showPieces(shown.flatMap((f) => f.sites));
      boards[i].showLast({ from: [], to: shown.length ? shown[shown.length - 1].sites : [] });
      tiles[i].querySelector(".turn").textContent = `White to move · move ${n}`;
    }
    n += 1;
    if (n < frames) requestAnimationFrame(step); else setTimeout(done, 100);
  };
  requestAnimationFrame(step);
});
window.ready = true;
</script></body></html>"""


def positions(count: int = 30, seed: int = 1) -> dict:
    """Antipalos 12's board and the pieces of ``count`` positions of a seeded game."""
    state, rng, shown = new_game("antipalos", 12), random.Random(seed), []
    for _ in range(count):
        shown.append(figures(state))
        if state.outcome():
            break
        state = state.apply(rng.choice(list(state.legal_moves())))
    return {"layout": drawn(state), "figures": shown}


def measure(root: Path, changed: int, css: str) -> dict:
    """The figures of one page (see the module's docstring)."""
    from playwright.sync_api import sync_playwright

    data = json.dumps(positions())
    page_html = PAGE % {"css": css, "changed": changed}
    folders = {
        "/shared/": root / "firmware_host/net/web/shared",
        "/static/": root / "firmware_host/net/cafe/static",
    }

    def serve(route) -> None:
        path = route.request.url.removeprefix(ORIGIN).split("?")[0]
        if path == "/":
            return route.fulfill(body=page_html, content_type="text/html")
        if path == "/data.json":
            return route.fulfill(body=data, content_type="application/json")
        prefix = next(p for p in folders if path.startswith(p))
        file = folders[prefix] / path.removeprefix(prefix)
        route.fulfill(body=file.read_bytes(), content_type=mimetypes.guess_type(file.name)[0] or "text/plain")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.route(ORIGIN + "/**", serve)
        page.goto(ORIGIN + "/")
        page.wait_for_function("window.ready", timeout=120_000)
        page.wait_for_timeout(500)
        build_ms, elements = page.evaluate("[buildMs / 200, document.querySelectorAll('*').length]")
        browser.start_tracing(categories=TRACE_CATEGORIES)
        page.evaluate(f"run({FRAMES})")
        trace = json.loads(browser.stop_tracing())
        browser.close()
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    threads = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
    }
    spans = max((_spans(events, *t) for t in threads), key=lambda s: sum(1 for x in s if x[0] == "Layerize"))
    cpu: dict[str, float] = defaultdict(float)
    for name, _, _, ms in spans:
        cpu[name] += ms
    frames = max(1, sum(1 for s in spans if s[0] == "Layerize"))
    return {
        "changed_a_frame": changed,
        "build_ms_a_board": round(build_ms, 1),
        "elements": elements,
        "frames": frames,
        **{f"frame_{k}_ms": round(cpu[k] / frames, 2) for k in KINDS},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changed", type=int, default=8, help="tiles in view changed in each frame")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--css", default="", help="a rule added to the wall's styles")
    args = parser.parse_args()
    f = measure(args.root, args.changed, args.css)
    print(f"200 boards of Antipalos 12 built: {f['build_ms_a_board']} ms a board, {f['elements']} elements")
    print(
        f"a frame changing {f['changed_a_frame']} tiles in view, the renderer's CPU ms "
        f"(mean of {f['frames']}):"
    )
    for k in KINDS:
        print(f"  {'the task in all' if k == 'RunTask' else k:<20}{f[f'frame_{k}_ms']:>8}")
    print(json.dumps(f))


if __name__ == "__main__":
    main()
