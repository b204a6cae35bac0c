"""The players at the café's tables, in the real browser: a tile names them ("Anna – Ben",
"Anna to move"; a league round's "Table 3: Anna – Ben" and whose OK it waits for), the table's
archive lists a finished game with its players, and its record, as ``reedboard export`` writes
it from the board's own games file, names them too."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from firmware_host.net.cafe.archive import Archive
from testbed.broker import board_config
from testbed.tools import REEDBOARD

OUTPUT = Path(__file__).resolve().parents[3] / "test-output"
WIN = ("A1*", "A3*", "B2*", "C1*", "C3*")  # Antipalos 3: White wins by connection


def test_tiles_and_the_archive_name_the_players(tmp_path, broker, watcher, boards, cafe, page):
    config = board_config(tmp_path, broker.port, "t1", size=3, top='[players]\nnames = ["Anna", "Ben"]\n')
    board = boards(config)
    watcher.state("t1")
    url = cafe(archive=Archive.open(None, str(tmp_path / "cafe")))
    page.goto(url)
    tile = page.locator("article.tile")
    tile.locator(".players", has_text="Anna – Ben").wait_for()
    tile.locator(".turn", has_text="Anna to move").wait_for()
    for ply, site in enumerate(WIN, 1):
        board.place(site)
        watcher.state("t1", lambda s, ply=ply: s["ply"] == ply)
    record = json.loads(watcher.wait("reedboard/t1/record"))
    assert record["players"] == ["Anna", "Ben"] and record["league"] is None
    table = {"command": "table", "table": 3, "names": ["Cleo", "Dan"], "game": "antipalos", "size": 3}
    watcher.publish("reedboard/t1/command", json.dumps({**table, "event": "Thursday league", "round": 1}))
    tile.locator(".players", has_text="Table 3: Cleo – Dan").wait_for()
    tile.locator(".turn", has_text="Cleo: press OK").wait_for()
    tile.locator(".status", has_text="take 5 off").wait_for()  # the last game's pieces drawn
    watcher.state("t1", lambda s: s["ready"] == "Cleo: press OK")
    since = watcher.seen("t1")  # the first game began as cleared: a state after the round's
    page.screenshot(path=str(OUTPUT / "cafe-tile-players.png"))
    for site in WIN:  # the last game's pieces off, then the round begun after each player's OK
        board.lift(site)
    board.press("ok")
    board.press("ok")
    tile.locator(".turn", has_text="Cleo to move").wait_for()
    watcher.cleared("t1", lambda s: s["ready"] is None, since)  # the lifts read before A1* is placed again
    for ply, site in enumerate(WIN, 1):
        board.place(site)
        watcher.state("t1", lambda s, ply=ply: s["ply"] == ply and s["league"] is not None)
    page.goto(url + "tables/t1")
    rows = page.locator("table.games tbody tr")
    rows.filter(has_text="Thursday league · round 1 · table 3").wait_for()
    assert "Cleo – Dan" in rows.first.inner_text()  # the latest first
    assert "Anna – Ben" in rows.nth(1).inner_text() and "Thursday" not in rows.nth(1).inner_text()
    exported = subprocess.run(
        [*REEDBOARD, "export", "--config", str(config), "--game-id", str(record["id"])],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert '[Player1 "Anna"]\n[Player2 "Ben"]\n' in exported
