"""The docs' tables of the lights say what the board shows: every colour and blink a table of
docs/play/README.md or of docs/daemon.md names is one the LEDs show for that kind of light
(``LIGHTS``), and the players' table names every light the board has."""

from __future__ import annotations

import re

from firmware_host.board.view import LIGHTS
from testbed.docs import ROOT

#: The colours' names in the docs, as the LEDs show them.
COLOURS = {
    "amber": (255, 200, 0),
    "sky blue": (30, 140, 255),
    "crimson": (255, 0, 60),
    "white": (255, 255, 255),
    "violet": (100, 0, 255),
}
#: The docs' words for the LEDs' patterns.
PATTERNS = {
    "steady": "steady",
    "pulsing": "pulse",
    "pulse": "pulse",
    "blinking slowly": "slow",
    "slow blink": "slow",
    "blinking fast": "fast",
    "fast blink": "fast",
}


def lights_in(doc: str) -> list[tuple[str, tuple[int, int, int], str]]:
    """Each table row of ``doc`` whose cell says "colour, pattern": (row, colour, pattern)."""
    found = []
    for row in (ROOT / doc).read_text().splitlines():
        for cell in row.split("|")[1:-1]:
            said = re.fullmatch(r"\s*([a-z ]+), ([a-z ]+?)\s*", cell)
            if said and said[1] in COLOURS:
                assert said[2] in PATTERNS, f"{doc}: {row!r} names no pattern the LEDs have"
                found.append((row, COLOURS[said[1]], PATTERNS[said[2]]))
    return found


def test_the_players_table_names_every_light_as_the_board_shows_it():
    shown = {(led.colour, led.pattern) for led in LIGHTS.values()}
    said = lights_in("docs/play/README.md")
    for row, colour, pattern in said:
        assert (colour, pattern) in shown, f"docs/play/README.md: {row!r} is no light of the board"
    assert {(colour, pattern) for _, colour, pattern in said} == shown


def test_the_follow_ups_table_names_each_steps_light():
    kinds = set()
    for row, colour, pattern in lights_in("docs/daemon.md"):
        kind = row.split("|")[1].strip()
        assert (LIGHTS[kind].colour, LIGHTS[kind].pattern) == (colour, pattern), row
        kinds.add(kind)
    assert kinds == {"remove", "twin", "flip", "carry"}


def test_no_doc_names_a_light_in_a_colour_the_board_has_not():
    """ "Lights yellow", "blinks red", "lit cyan": words a board that shows amber, crimson or
    white would belie."""
    said = re.compile(
        r"\b(lights?|lit|blinks?|blinking|pulses?|pulsing)\b[^.|]{0,20}?"
        r"\b(yellow|orange|cyan|magenta|red|blue|green)\b",
        re.I,
    )
    for doc in ["README.md", *sorted((ROOT / "docs").glob("**/*.md"))]:
        text = (ROOT / doc).read_text().replace("sky blue", "skyblue")
        for line, row in enumerate(text.splitlines(), 1):
            assert not said.search(row), f"{doc}:{line}: {row.strip()}"
