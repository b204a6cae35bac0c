"""The page in the board's language (``language =`` in the config) and in the one a reader
picks on it (kept in the browser): a real ``reedboard run --sim`` and Chromium, German and French
for two games. The board's own words (the OLED, who is to move) and the page's (its panels, the
newcomer's hint, the lights' legend) are the language's; none of the page's English is left."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest

from testbed.running import Running
from testbed.tools import free_port, require
from tests.net.web.test_web_browser import AXE
from tests.net.web.web_tools import screenshot

#: What the page says in each language: who is to move (by the first side), the panels' titles,
#: the newcomer's first hint, the lights' legend; and English the page no longer shows.
SAYS = {
    "de": {
        "turn": "{side} am Zug",
        "panels": ["Neue Partie", "Einstellungen", "Gespeicherte Partien", "Simuliertes Brett", "Hilfe"],
        "hint": "Klicke auf ein Feld, um einen Stein daraufzusetzen",
        "legend": "Lichter auf dem Brett",
    },
    "fr": {
        "turn": "{side} joue",
        "panels": ["Nouvelle partie", "Réglages", "Parties enregistrées", "Plateau simulé", "Aide"],
        "hint": "Cliquez sur une case pour y poser une pièce",
        "legend": "Les lumières du plateau",
    },
}
SIDES = {
    ("antipalos", "de"): "Weiß",
    ("antipalos", "fr"): "Blanc",
    ("antipode", "de"): "Blau",
    ("antipode", "fr"): "Bleu",
    ("antipod", "de"): "Weiß",
    ("antipod", "fr"): "Blanc",
    ("anti-grid", "de"): "Rot",
    ("anti-grid", "fr"): "Rouge",
    ("phalanx", "de"): "Grün",
    ("phalanx", "fr"): "Vert",
}
ENGLISH = [
    "Settings",
    "Stored games",
    "Simulated board",
    "Help",
    "Click a site",
    "Lights on the board",
    "to move",
]


@contextmanager
def board(tmp_path: Path, game: str, language: str):
    """``reedboard run --sim`` on ``game`` with ``language = ...`` in its config: its page's URL."""
    port = free_port()
    config = tmp_path / "config.toml"
    storage = tmp_path / "games.db"
    config.write_text(
        f'game = "{game}"\nlanguage = "{language}"\nstorage = "{storage}"\n[web]\nport = {port}\n'
    )
    running = Running(config)
    try:
        assert running.said("is at http://127.0.0.1")
        yield f"http://127.0.0.1:{port}/"
    finally:
        running.stop()


def reads(page, game: str, language: str) -> None:
    """The page, loaded, speaks ``language`` throughout (but for the OLED: the board's)."""
    says = SAYS[language]
    turn = says["turn"].format(side=SIDES[game, language])
    page.wait_for_function("(t) => document.getElementById('turn')?.textContent === t", arg=turn)  # loaded
    assert page.evaluate("document.documentElement.lang") == language
    summaries = page.locator("summary").all_inner_texts()
    assert all(panel in summaries for panel in says["panels"]), summaries
    assert page.locator("#first-hint").inner_text().startswith(says["hint"])
    assert page.locator("#legend").text_content().startswith(says["legend"])
    shown = " ".join(page.locator("body").text_content().split())  # the closed panels too
    assert not [word for word in ENGLISH if word in shown], shown
    assert page.locator("#language").input_value() == language


def test_the_page_speaks_the_boards_language_and_the_one_picked_on_it(tmp_path, page):
    with board(tmp_path, "antipalos", "de") as url:
        page.goto(url)
        reads(page, "antipalos", "de")
        assert "Weiß am Zug" in page.locator("#oled").get_attribute("alt")  # the board's words
        page.evaluate("document.getElementById('help').open = true")
        screenshot(page, "page-de-antipalos")
        page.locator("#language").select_option("fr")  # a French visitor: the page reloads
        page.wait_for_load_state()
        reads(page, "antipalos", "fr")
        assert "Weiß am Zug" in page.locator("#oled").get_attribute("alt")  # still the board's
        screenshot(page, "page-fr-antipalos")


def test_a_french_board_and_a_german_reader(tmp_path, page):
    with board(tmp_path, "antipode", "fr") as url:
        page.goto(url)
        reads(page, "antipode", "fr")
        assert "Bleu joue" in page.locator("#oled").get_attribute("alt")
        screenshot(page, "page-fr-antipode")
        page.evaluate("document.getElementById('help').open = true")
        page.locator("#language").select_option("de")
        page.wait_for_load_state()
        reads(page, "antipode", "de")
        screenshot(page, "page-de-antipode")
        page.goto(url + "setup")  # the maker's page, in the language this browser keeps
        page.wait_for_function("() => document.title === 'Ein Brett einrichten · reedboard'")
        assert page.locator("h1").inner_text() == "Der Einrichtungsassistent"
        assert page.locator("li code").first.inner_text() == "sudo systemctl stop reedboard"


@pytest.mark.parametrize(
    "game, first, then", [("antipod", "de", "fr"), ("anti-grid", "fr", "de"), ("phalanx", "de", "fr")]
)
def test_every_other_game_reads_in_both_languages(tmp_path, page, game, first, then):
    """The games the tests above leave out, each in the board's language and then in the one
    a reader picks: every game is read in German and in French."""
    with board(tmp_path, game, first) as url:
        page.goto(url)
        reads(page, game, first)
        page.evaluate("document.getElementById('help').open = true")
        page.locator("#language").select_option(then)
        page.wait_for_load_state()
        reads(page, game, then)
        screenshot(page, f"page-{then}-{game}")


def test_the_german_page_has_no_serious_accessibility_violation(tmp_path, browser):
    require(AXE.exists(), f"axe-core in {AXE.parent} (tests/run.sh installs it with npm)")
    with board(tmp_path, "phalanx", "de") as url:
        context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        page = context.new_page()
        try:
            page.goto(url)
            page.wait_for_function("() => document.getElementById('turn')?.textContent === 'Grün am Zug'")
            page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            page.add_script_tag(path=str(AXE))
            found = page.evaluate("""async () => (await axe.run(document)).violations
                .filter((v) => ['serious', 'critical'].includes(v.impact))
                .map((v) => `${v.id}: ${v.nodes.length} (${v.nodes[0].target})`)""")
            assert found == []
        finally:
            context.close()
