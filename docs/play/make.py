"""Make the pictures of the players' guides (docs/play/*.md) from the real page and the real OLED:

    .venv/bin/python -m docs.play.make            # every game (from the repository's root)
    .venv/bin/python -m docs.play.make phalanx    # one

For each game the daemon runs on the simulated board (as `reedboard run --sim`), Debian's
chromium shows its page (Playwright, as the browser tests do), pieces are put and lifted as a
player's hands would, and the board (and the OLED beside its buttons) is photographed at each
moment the guide shows. The OLED screens of every kind of instruction come from
tests/ui/scenes.py, drawn by the daemon's own screen code. Pictures go to docs/play/img/ as
small palette PNGs (a few tens of KB each). Needs the [test] extra and chromium.
"""

from __future__ import annotations

import io
import sys
import tempfile
from pathlib import Path

from PIL import Image

from tests.net.web.conftest import CHROMIUM, Served
from tests.ui.scenes import SCENES

HERE = Path(__file__).resolve().parent
IMG = HERE / "img"
#: The widest a board picture is kept (px), and the colours a picture keeps.
WIDTH, COLOURS = 460, 64

# A moment: (picture name or None, [(command, site or button), ...], event to wait for or None).
# Commands are the page's own (firmware_host/net/web/commands.py), as a hand on the board makes them.
MOMENTS = {
    ("antipalos", 6): [
        ("antipalos-start", [], None),
        ("antipalos-placed", [("place", s) for s in ("B2*", "*E5", "C3*", "*D3")], ("move", 4)),
        ("antipalos-refused", [("place", "*C3")], ("illegal", 1)),
    ],
    ("antipalos", 3): [
        (None, [("place", s) for s in ("A3*", "B1*", "*C3", "C1*", "A2*", "C2*", "A1*", "*B3")], ("move", 8)),
        ("antipalos-lifted", [("lift", "A2*")], ("targets", 1)),
        ("antipalos-won", [("place", "*A2")], ("game_over", 1)),
    ],
    ("antipode", None): [
        ("antipode-start", [], None),
        ("antipode-flip", [("place", "b1")], ("guide", 1)),
        ("antipode-choice", [("lift", "a1"), ("place", "a1")], ("guide", 2)),
        ("antipode-path-flip", [("lift", "a1"), ("place", "a1")], ("guide", 3)),
    ],
    ("antipod", None): [
        ("antipod-start", [], None),
        ("antipod-twin", [("place", "c1")], ("guide", 1)),
        ("antipod-twin-placed", [("place", "c12")], None),
    ],
    ("anti-grid", None): [
        ("anti-grid-start", [], None),
        ("anti-grid-lifted", [("lift", "c1")], ("targets", 1)),
        ("anti-grid-moved", [("place", "c4")], ("move", 1)),
    ],
    ("phalanx", None): [
        ("phalanx-start", [], None),
        ("phalanx-lifted", [("lift", "a1nw"), ("lift", "a1se")], ("targets", 1)),
        ("phalanx-moved", [("place", "a3nw"), ("place", "a3se")], ("move", 1)),
    ],
}


def small(png: bytes, width: int = WIDTH) -> Image.Image:
    """A screenshot made small: at most ``width`` wide, a palette of COLOURS."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    if image.width > width:
        image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
    return image.quantize(COLOURS, method=Image.Quantize.FASTOCTREE)


def save(image: Image.Image, name: str) -> Path:
    path = IMG / f"{name}.png"
    image.save(path, optimize=True)
    return path


def wait_for(page, event: tuple[str, int] | None) -> None:
    if event:
        page.wait_for_function(
            "([kind, n]) => document.querySelectorAll(`#log li[data-event='${kind}']`).length >= n",
            arg=list(event),
            timeout=15000,
        )
    page.wait_for_timeout(900)  # the board settled, the lights and the OLED sent


def photograph(browser, game: str, size: int | None, moments, made: list[Path]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        served = Served(Path(tmp) / "board", game, size, "127.0.0.1", None)
        try:
            context = browser.new_context(viewport={"width": 1100, "height": 720}, device_scale_factor=1)
            page = context.new_page()
            page.goto(served.url)
            page.wait_for_selector("[data-site]")
            page.evaluate("() => { document.querySelector('.zoom').hidden = true; }")  # not in the pictures
            wait_for(page, None)
            for name, commands, event in moments:
                for command, site in commands:
                    page.evaluate("([type, site]) => send({type, site})", [command, site])
                    page.wait_for_timeout(450)  # a hand at a time: each change settles
                wait_for(page, event)
                if name:
                    made.append(save(small(page.locator("#board").screenshot()), name))
                if name and name.endswith("-start"):  # the OLED beside the buttons, once a game
                    made.append(save(small(page.locator(".device").screenshot(), 300), f"{name}-oled"))
            context.close()
        finally:
            served.stop()


def oled_scenes(made: list[Path]) -> None:
    """Every kind of instruction, as the OLED draws it (2x)."""
    from luma.core.device import dummy

    from firmware_host.ui.screens import SIZE

    for name, make in SCENES.items():
        for number, page in enumerate(make().ctl.screen().pages()):
            image = page.render(dummy(*SIZE, mode="1")).resize((SIZE[0] * 2, SIZE[1] * 2))
            made.append(save(image.convert("1"), f"say-{name}{f'-{number + 1}' if number else ''}"))


def main(games: list[str]) -> list[Path]:
    from playwright.sync_api import sync_playwright

    IMG.mkdir(exist_ok=True)
    made: list[Path] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for (game, size), moments in MOMENTS.items():
            if not games or game in games:
                photograph(browser, game, size, moments, made)
        browser.close()
    if not games:
        oled_scenes(made)
    return made


if __name__ == "__main__":
    for path in main(sys.argv[1:]):
        print(f"{path.relative_to(HERE.parents[1])}: {path.stat().st_size // 1024} KB")
