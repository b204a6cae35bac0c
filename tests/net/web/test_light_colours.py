"""The page draws each light in the colour the board's LED shows it: the page's
``LIGHT_COLOURS`` (shared/board.js) and the LEDs' ``LIGHTS`` (board/view.py) agree kind by kind,
the page's a little lighter where a pure LED colour would be too dark on the dark screen."""

from __future__ import annotations

import colorsys
import json
import re
from pathlib import Path

from firmware_host.board.view import LIGHTS

BOARD_JS = Path(__file__).parents[3] / "firmware_host/net/web/shared/board.js"


def page_colours() -> dict[str, tuple[int, int, int]]:
    """``LIGHT_COLOURS`` as the page's script writes it, each "#rrggbb" as (r, g, b)."""
    body = re.search(r"export const LIGHT_COLOURS = \{(.*?)\};", BOARD_JS.read_text(), re.S)
    assert body, f"no LIGHT_COLOURS in {BOARD_JS}"
    colours = json.loads("{" + re.sub(r"(\w+):", r'"\1":', body.group(1)).rstrip().rstrip(",") + "}")
    return {kind: tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for kind, c in colours.items()}


def hls(rgb: tuple[int, ...]) -> tuple[float, float, float]:
    """Hue in degrees, lightness and saturation (0-1) of an (r, g, b)."""
    h, lightness, s = colorsys.rgb_to_hls(*(c / 255 for c in rgb))
    return h * 360, lightness, s


def test_the_page_draws_every_light_in_its_leds_colour():
    """Every kind of light the board has, the page has; kinds one LED colour shows share one
    page colour (and the other way round); each page colour is the LED's hue (within 10°, or
    both white), as light or lighter."""
    page = page_colours()
    assert set(page) == set(LIGHTS)
    pairs = {(LIGHTS[kind].colour, page[kind]) for kind in LIGHTS}
    assert len({led for led, _ in pairs}) == len({shown for _, shown in pairs}) == len(pairs), pairs
    for led, shown in pairs:
        (led_hue, led_light, led_sat), (hue, light, sat) = hls(led), hls(shown)
        if led_sat == 0 or sat == 0:
            assert led == shown == (255, 255, 255), (led, shown)
            continue
        assert min(abs(hue - led_hue), 360 - abs(hue - led_hue)) < 10, (led, shown)
        assert light >= led_light, (led, shown)
