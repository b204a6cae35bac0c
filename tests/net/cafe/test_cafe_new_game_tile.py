"""A table's tile at a new game, from the café owner's side, in the real browser: a league round
begins at a board whose last game's pieces still stand, and the tile draws those pieces (as the
board's sensors see them, as its own page does) with what the players are asked to take off,
not the new game's empty board; once they are off, the tile's board is empty."""

from __future__ import annotations

import json
from pathlib import Path

from testbed.broker import board_config

OUTPUT = Path(__file__).resolve().parents[3] / "test-output"
WIN = ("A1*", "A3*", "B2*", "C1*", "C3*")  # Antipalos 3: White wins by connection
ROUND = {"command": "table", "table": 3, "names": ["Cleo", "Dan"], "game": "antipalos", "size": 3}


def standing(page) -> int:
    """How many pieces the tile's board draws as its sensors see them (figures or readings)."""
    mini = "article.tile .mini"
    return page.evaluate(
        f"() => document.querySelectorAll('{mini} .piece.on, {mini} .figure:not(.missing)').length"
    )


def test_a_new_game_s_tile_shows_the_last_game_s_pieces_until_they_are_off(
    tmp_path, broker, watcher, boards, cafe, page
):
    board = boards(board_config(tmp_path, broker.port, "t1", size=3))
    watcher.state("t1")
    page.goto(cafe())
    tile = page.locator("article.tile")
    for ply, site in enumerate(WIN, 1):
        board.place(site)
        watcher.state("t1", lambda s, ply=ply: s["ply"] == ply)
    assert watcher.state("t1", lambda s: s["result"] is not None)["pieces"] is None  # as the game has them
    watcher.publish("reedboard/t1/command", json.dumps({**ROUND, "event": "Thursday league", "round": 1}))

    begun = watcher.state("t1", lambda s: s["ready"] == "Cleo: press OK")  # the first state of the round
    assert begun["moves"] == [] and begun["pieces"] == sorted(WIN)
    tile.locator(".status", has_text="take 5 off").wait_for()
    page.wait_for_function("() => document.querySelectorAll('article.tile .mini .piece.on').length === 5")
    assert standing(page) == 5 and tile.locator(".mini .figure").count() == 0  # no piece of the new game
    page.screenshot(path=str(OUTPUT / "cafe-tile-new-game.png"))

    for site in WIN:
        board.lift(site)
    watcher.state("t1", lambda s: s["ready"] == "Cleo: press OK" and s["pieces"] is None and not s["extra"])
    page.wait_for_function("() => !document.querySelector('article.tile .mini .piece.on')")
    assert standing(page) == 0


def test_an_antipode_table_s_tile_asks_for_the_start_s_faces_until_its_first_move(
    tmp_path, broker, watcher, boards, cafe, page
):
    board = boards(board_config(tmp_path, broker.port, "t1", game="antipode"))
    watcher.state("t1")
    page.goto(cafe())
    status = page.locator("article.tile .status")
    status.filter(has_text="Place a token · Blue face up: a5 e1 i9 · Red face up: a1 e9 i5").wait_for()
    board.place("b1")  # the first move begun: its token down, its neighbour to turn over
    status.filter(has_text="Flip a1").wait_for()
    assert "face up" not in status.inner_text()
