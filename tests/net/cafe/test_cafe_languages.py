"""The café dashboard in the café's language (``language =`` in its config; here the process's
language, as ``reedboard cafe`` sets it) and in the one a reader keeps in the browser: a real
Mosquitto, a board on it and Chromium."""

from __future__ import annotations

import signal

from testbed.broker import board_config
from testbed.language import speaking
from tests.net.web.web_tools import screenshot


def test_the_dashboard_speaks_the_cafes_language(tmp_path, broker, watcher, boards, cafe, page):
    boards(board_config(tmp_path, broker.port, "t1", size=3))
    watcher.state("t1")
    with speaking("de"):
        page.goto(cafe())
        tile = page.locator('article[data-board="t1"]')
        tile.locator(".turn").filter(has_text="Weiß am Zug · Zug 1").wait_for()
        assert page.evaluate("document.documentElement.lang") == "de"
        assert page.locator("#summary").inner_text() == "1 Tisch · 0 brauchen Aufmerksamkeit"
        assert page.locator("#broker").inner_text() == "Broker verbunden"
        assert tile.locator("button.new").inner_text() == "Neue Partie"  # the tile's template
        assert tile.locator(".since").inner_text() == "noch kein Zug"
        screenshot(page, "cafe-de")
        page.evaluate("localStorage.setItem('reedboard-language', 'fr')")  # a French reader
        page.reload()
        tile.locator(".turn").filter(has_text="Blanc joue · coup 1").wait_for()
        assert page.locator("#summary").inner_text() == "1 table · 0 à surveiller"
        assert tile.locator("button.takeback").inner_text() == "Reprendre"
        counted = page.evaluate(  # the pages' counts, by French's rule: 0 and 1 take the singular
            """async () => { const { ngettext } = await import("/shared/i18n.js");
              return [0, 1, 2].map((n) => ngettext("{n} move", "{n} moves", n)); }"""
        )
        assert counted == ["0 coup", "1 coup", "2 coups"]


def test_the_alerts_are_in_the_readers_language(tmp_path, broker, watcher, boards, cafe, page):
    board = boards(board_config(tmp_path, broker.port, "t1", size=3))
    watcher.state("t1")
    with speaking("fr"):
        page.goto(cafe())
        page.locator('article[data-board="t1"]').wait_for()
        board.proc.send_signal(signal.SIGKILL)  # the table's Pi loses its power
        page.locator("#alerts li").filter(has_text="t1: hors ligne").wait_for()


def test_a_tile_s_clocks_name_the_players_in_the_readers_language(
    tmp_path, broker, watcher, boards, cafe, page
):
    top = '[players]\nnames = ["Anna", "Ben"]\n[clock]\ncontrol = "300+3"\n'
    boards(board_config(tmp_path, broker.port, "t1", size=3, top=top))
    boards(board_config(tmp_path, broker.port, "t2", size=3, top='[clock]\ncontrol = "300+3"\n'))
    for board in ("t1", "t2"):
        watcher.state(board, lambda s: s["clock"] is not None)
    with speaking("fr"):
        page.goto(cafe())
        named = page.locator('article[data-board="t1"] .clocks')
        named.filter(has_text="Anna").wait_for()
        assert "Ben" in named.inner_text() and "White" not in named.inner_text()
        sides = page.locator('article[data-board="t2"] .clocks')
        sides.filter(has_text="Blanc").wait_for()  # nobody named: the sides, in French
        assert "Noir" in sides.inner_text()
