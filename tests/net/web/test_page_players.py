"""The players on the board's page and /watch, in the real browser, from a real ``reedboard
run --sim`` on a real broker: the config's names say who is to move, the page's Players
control names others, and a league round sent by the café shows "Table 3: Anna – Ben" and waits
for each player's OK, pressed on the page."""

from __future__ import annotations

import json
import re
from pathlib import Path

from testbed.broker import board_config

OUTPUT = Path(__file__).resolve().parents[3] / "test-output"
TABLE = {
    "command": "table",
    "table": 3,
    "names": ["Anna", "Ben"],
    "game": "antipalos",
    "size": 5,
    "control": "-",
    "event": "Thursday league",
    "round": 2,
}


def text_is(page, selector: str, text: str) -> None:
    page.wait_for_function(
        "([s, t]) => document.querySelector(s).textContent === t", arg=[selector, text], timeout=10000
    )


def test_the_page_names_the_players_and_presses_ok_for_a_league_round(
    tmp_path, broker, watcher, boards, page
):
    top = '[players]\nnames = ["Cleo", "Dan"]\n'
    config = board_config(tmp_path, broker.port, top=top)
    port = re.search(r"\[web\]\nport = (\d+)", config.read_text())[1]
    boards(config).wait_running()
    url = f"http://127.0.0.1:{port}/"
    page.goto(url)
    text_is(page, "#turn", "Cleo to move")
    page.click("#players summary")
    inputs = page.locator("#seat-names input")
    inputs.nth(0).fill("Eve")
    inputs.nth(1).fill("Finn")
    page.click("#players-form button[type=submit]")
    text_is(page, "#turn", "Eve to move")
    assert watcher.state("t1", lambda s: s["players"] == ["Eve", "Finn"])["league"] is None
    watch = page.context.new_page()
    watch.goto(url + "watch")
    text_is(watch, "#turn", "Eve to move")
    watcher.publish("reedboard/t1/command", json.dumps(TABLE))
    text_is(page, "#table", "Table 3: Anna – Ben · Anna: press OK")
    text_is(watch, "#table", "Table 3: Anna – Ben · Anna: press OK")
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "page-league-table.png"))
    page.click('[data-button="ok"]')
    text_is(page, "#table", "Table 3: Anna – Ben · Ben: press OK")
    page.click('[data-button="ok"]')
    text_is(page, "#table", "Table 3: Anna – Ben")
    text_is(page, "#turn", "Anna to move")
    text_is(watch, "#turn", "Anna to move")
    watch.screenshot(path=str(OUTPUT / "watch-league-table.png"))
    assert watcher.state("t1", lambda s: s["ready"] is None and s["league"] is not None)["players"] == [
        "Anna",
        "Ben",
    ]
