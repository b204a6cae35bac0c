"""The league's wall and desk speak the café's language (``language =`` in the dashboard's
config), and a reader's own one kept in the browser, as the rest of the dashboard does (the
desk's answers too: the page says which it reads in): a real
``reedboard cafe`` process and Chromium."""

from __future__ import annotations

import subprocess

from testbed.league_desk import league_pages
from testbed.tools import REEDBOARD


def test_the_wall_and_the_desk_speak_the_cafe_s_language(tmp_path, page):
    with league_pages(
        tmp_path,
        ["new", "Donnerstagsliga", "--game", "anti-grid", "--rounds", "3"],
        *(["player", "add", name] for name in ("Anna", "Ben", "Cleo")),
        ["register", "Anna", "Ben", "Cleo"],
        ["pair", "--no-send"],
        top='language = "de"\n\n',
    ) as url:
        page.goto(f"{url}/league")
        page.wait_for_selector("#standings tr")
        assert page.evaluate("document.documentElement.lang") == "de"
        assert page.inner_text("#round") == "Runde 1 von 3"
        assert page.inner_text("#standings-title") == "Tabelle"
        head = page.locator("#standings-head th").all_inner_texts()
        assert head == ["", "Spieler", "Punkte", "Buchholz", "S-B", "Direktvergleich", "Wertung"]
        tables = page.locator("#tables li")
        assert "Tisch 1" in tables.nth(0).inner_text() and "wartet" in tables.nth(0).inner_text()
        assert "Spielfrei" in tables.nth(1).inner_text()
        assert page.inner_text("#updated").startswith("aktualisiert ")

        page.goto(f"{url}/league/players/Cleo")  # her bye, on her page
        page.wait_for_selector("#games tr")
        assert page.inner_text("#ratings-title") == "Wertungen"
        assert "spielfrei" in page.inner_text("#games")

        page.goto(f"{url}/league/desk")
        page.wait_for_selector("#round-state:has-text('Tisch')")
        assert page.inner_text("#round-state") == "1 von 1 Tisch ohne Ergebnis"
        assert page.inner_text("#new h2") == "Neues Turnier"
        assert "Runde 1 von 3" in page.inner_text("#event")
        page.fill("#player input[name=name]", "Dora")  # the desk answers in the café's words
        page.click("#player button")
        page.wait_for_selector("#said:has-text('Dora')")
        assert page.inner_text("#said") == "Dora hinzugefügt"
        page.fill("#player input[name=name]", "dora")
        page.click("#player button")
        page.wait_for_selector("#said.bad")
        assert page.inner_text("#said") == "es gibt schon einen Spieler namens 'dora'"

        page.evaluate("localStorage.setItem('reedboard-language', 'fr')")  # a French reader
        page.reload()
        page.wait_for_selector("#round-state:has-text('table')")
        assert page.inner_text("#round-state") == "1 sur 1 table sans résultat"
        page.fill("#new input[name=name]", "Ligue du vendredi")
        page.select_option("#new select[name=format]", label="toutes rondes")  # sent as round-robin
        page.click("#new button")
        page.wait_for_selector("#said:has-text('Ligue du vendredi')")
        assert page.inner_text("#said") == "Ligue du vendredi créé"  # in the reader's words
        assert "bad" not in (page.get_attribute("#said", "class") or "")
        page.click("#new button")  # the same event again: refused, still in French
        page.wait_for_selector("#said.bad")
        assert page.inner_text("#said") == "un tournoi s'appelle déjà 'Ligue du vendredi'"
    config = tmp_path / "cafe.toml"
    out = subprocess.run(
        [*REEDBOARD, "league", "standings", "--json", "--config", str(config), "--state", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert '"event": "Ligue du vendredi"' in out.stdout
