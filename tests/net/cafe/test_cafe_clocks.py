"""A café owner starts a timed game from the dashboard and follows the clocks on its tile: a real
board (``reedboard run --sim``) and the dashboard on a real Mosquitto, in Debian's Chromium."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
from pathlib import Path

import pytest

from firmware_host.net.cafe.archive import Archive, read_record
from firmware_host.net.mqtt.untrusted import Bad
from firmware_host.store.timecontrol import CONTROLS
from testbed.broker import board_config
from testbed.tools import REEDBOARD
from tests.net.cafe.test_cafe import OUTPUT, WIN, start_new_game


@pytest.mark.broker
@pytest.mark.browser
def test_new_game_on_a_clock_from_the_dashboard_and_the_tile_shows_the_clocks(
    tmp_path, broker, watcher, boards, cafe, page
):
    board = boards(board_config(tmp_path, broker.port))
    board.wait_running()
    watcher.state("t1")
    page.goto(cafe())
    tile = page.locator('article[data-board="t1"]')
    tile.locator(".title").filter(has_text="Antipalos 5").wait_for()
    assert tile.locator(".clocks").is_hidden()  # no clock yet
    tile.locator("select.clock").focus()  # the owner opens the list
    offered = tile.locator("select.clock option").evaluate_all("os => os.map(o => o.value)")
    assert offered == ["", *CONTROLS]  # the board menu's list, as /controls.json serves it
    tile.locator("select.clock").select_option("300+3")
    start_new_game(page, tile)
    state = watcher.state("t1", lambda s: s["clock"] is not None)
    assert state["clock"]["control"] == "300+3"
    assert json.loads(watcher.texts("reedboard/t1/command")[-1])["control"] == "300+3"
    clocks = tile.locator(".clocks")
    clocks.filter(has_text=re.compile(r"▶ White [45]:\d\d")).wait_for()
    assert "Black 5:00" in clocks.inner_text() and clocks.get_attribute("title") == "Time control 300+3"
    assert not any(re.search(r"\d:\d\d \d:\d\d", line) for line in tile.locator(".status").all_inner_texts())
    board.place("B2*")  # White moves: Black's clock runs, counted down on the tile
    clocks.filter(has_text=re.compile(r"▶ Black 4:5\d")).wait_for(timeout=15000)
    watcher.publish("reedboard/t1/command", '{"command": "clock", "action": "pause"}')
    clocks.filter(has_text="Paused · ").wait_for()
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "cafe-clocks.png"))


@pytest.mark.broker
@pytest.mark.browser
def test_a_tile_s_clocks_name_the_players(tmp_path, broker, watcher, boards, cafe, page):
    """A board whose config names its players and a clock: its tile's clocks say who plays."""
    top = '[players]\nnames = ["Cleo", "Dan"]\n[clock]\ncontrol = "300+3"\n'
    boards(board_config(tmp_path, broker.port, top=top)).wait_running()
    watcher.state("t1", lambda s: s["clock"] is not None)
    page.goto(cafe())
    clocks = page.locator('article[data-board="t1"] .clocks')
    clocks.filter(has_text=re.compile(r"Cleo [45]:\d\d +Dan 5:00")).wait_for()


@pytest.mark.broker
@pytest.mark.browser
def test_the_archive_keeps_each_move_s_clock_and_replays_and_exports_it(
    tmp_path, broker, watcher, boards, cafe, page
):
    """A timed game finished at a table: the archive keeps each move's clock; its replay says the
    mover's time left after each move, and its record has [TimeControl] and each move's %clk, as
    ``reedboard export`` writes them."""
    config = board_config(tmp_path, broker.port, "t1", size=3, top='[clock]\ncontrol = "300+3"\n')
    one = boards(config)
    watcher.state("t1")
    url = cafe(archive=Archive.open(None, str(tmp_path / "cafe")))
    for ply, site in enumerate(WIN, 1):
        one.place(site)
        watcher.state("t1", lambda s, ply=ply: s["ply"] == ply)
    record = json.loads(watcher.wait("reedboard/t1/record"))
    assert len(record["clocks"]) == len(WIN)
    page.goto(url + "tables/t1")
    row = page.locator("table.games tbody tr").filter(has_text="white wins by connection")
    row.locator("a", has_text="replay").click()
    step = page.locator("#step-text")
    step.filter(has_text=re.compile(r"^Move 5 of 5: C3\* · 0:0[45]:\d\d left$")).wait_for()
    page.locator("#first").click()
    page.locator("#next").click()
    assert re.fullmatch(r"Move 1 of 5: A1\* · 0:0[45]:\d\d left", step.inner_text())
    text = page.locator("#record").inner_text()
    assert '[TimeControl "300+3"]' in text and len(re.findall(r"\{\[%clk \d:\d\d:\d\d\]\}", text)) == len(WIN)
    with page.expect_download() as download:
        page.locator("#download").click()
    exported = subprocess.run(
        [*REEDBOARD, "export", "--config", str(config), "--game-id", str(record["id"])],
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(download.value.path()).read_text() == exported.stdout


def test_an_archive_made_before_the_clocks_were_kept_gets_their_column(tmp_path):
    """An older café database (no clocks column) is opened, given it, and keeps timed games."""
    path = tmp_path / "cafe" / "cafe.db"
    path.parent.mkdir()
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE games (n INTEGER PRIMARY KEY, board TEXT NOT NULL, key TEXT NOT NULL, "
            "game_id INTEGER NOT NULL, game TEXT NOT NULL, size INTEGER, variant TEXT, "
            "started TEXT NOT NULL, finished TEXT, result TEXT, winner TEXT, first TEXT, "
            "options TEXT, opponent TEXT, match_of INTEGER, match_target INTEGER, plies INTEGER NOT NULL, "
            "moves TEXT NOT NULL, text TEXT NOT NULL, received TEXT NOT NULL, UNIQUE (board, key))"
        )
    archive = Archive.open(None, str(tmp_path / "cafe"))
    kept = json.dumps(
        {
            "control": "60",
            "left": {"white": 58400, "black": 60000},
            "moves": {"white": 1, "black": 0},
            "mover": "white",
        }
    )
    game = read_record(
        json.dumps(
            {
                "id": 1,
                "game": "antipalos",
                "size": 3,
                "started": "2026-11-23T20:01:00Z",
                "finished": None,
                "moves": ["A1*"],
                "clocks": [kept],
            }
        ).encode()
    )
    archive.store("t1", game)
    assert archive.game("t1", game["key"])["clocks"] == ["0:00:58"]
    bad = json.dumps(
        {
            "id": 2,
            "game": "antipalos",
            "size": 3,
            "started": "2026-11-23T20:01:00Z",
            "moves": ["A1*"],
            "clocks": [kept.replace('"white": 1', '"red": 1').replace("white", "red")],
        }
    )
    with pytest.raises(Bad, match="clocks after move 1"):
        read_record(bad.encode())
