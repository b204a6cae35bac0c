"""The wiring sheets of every game as Chromium draws them, saved for a person to look at
(test-output/plan-<game>-<sheet>.png, 4 pixels a millimetre): the pins, the board's pages and,
for Antipalos 12, the Mega build's. Every sheet loads as an image of its size in millimetres,
and the text on it stays inside the page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_host.cli.main import main
from tests.net.web.web_tools import OUTPUT

GAMES = [
    ("antipalos", 12, "serial"),
    ("antipode", None, "74hc165"),
    ("antipod", 6, "74hc165"),
    ("anti-grid", 8, "mcp23017"),
    ("phalanx", None, "mcp23017"),
]
#: Pixels a millimetre in the saved pictures.
SCALE = 4


@pytest.mark.parametrize("game,size,scanner", GAMES)
def test_every_games_wiring_sheets_render(tmp_path, capsys, page, game, size, scanner):
    out = tmp_path / f"{game}.svg"
    args = ["plan", game, "--pitch", "32", "--scanner", scanner, "--out", str(out)]
    assert main(args + (["--size", str(size)] if size else [])) == 0
    sheets = [
        Path(p) for p in capsys.readouterr().out.split() if re.search(r"-(pins|wiring(-\d+)?)\.svg$", p)
    ]
    assert len(sheets) >= 2
    OUTPUT.mkdir(exist_ok=True)
    for sheet in sheets:
        text = sheet.read_text()
        width, height = (float(v) for v in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', text).groups())
        page.set_viewport_size({"width": round(width * SCALE), "height": round(height * SCALE)})
        page.goto(sheet.as_uri())
        page.evaluate(f"""() => {{ const svg = document.documentElement;
            svg.setAttribute('width', '{width * SCALE}px');
            svg.setAttribute('height', '{height * SCALE}px'); }}""")
        # Every word drawn lies on the page (none runs off an edge).
        outside = page.evaluate("""() => [...document.querySelectorAll('text')].filter(t => {
            const b = t.getBBox(), s = t.ownerSVGElement.viewBox.baseVal;
            return b.x < 0 || b.y < 0 || b.x + b.width > s.width || b.y + b.height > s.height;
        }).map(t => t.textContent)""")
        assert outside == []
        name = sheet.stem.removeprefix(game).lstrip("-")
        page.screenshot(path=str(OUTPUT / f"plan-{game}-{name}.png"))
