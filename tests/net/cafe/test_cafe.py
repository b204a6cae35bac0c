"""``reedboard cafe``: the dashboard over a real Mosquitto, in Debian's Chromium (Playwright),
and its safety rules (Host, Origin, the token for commands)."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import sqlite3
import subprocess
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import aiohttp
import pytest

from firmware_host.net.cafe import broker_address
from firmware_host.net.cafe import fleet as fleet_module
from firmware_host.net.cafe.archive import Archive
from firmware_host.ui.screens import status_screen
from testbed.broker import Watcher, board_config, wired_for
from testbed.stopping import stop
from testbed.tools import REEDBOARD, free_port, run_async

OUTPUT = Path(__file__).resolve().parents[3] / "test-output"
WIN = ("A1*", "A3*", "B2*", "C1*", "C3*")  # Antipalos 3: white connects


def test_tiles_live_flagged_first_commands_and_watch(tmp_path, broker, watcher, boards, cafe, page):
    one = boards(board_config(tmp_path, broker.port, "t1", size=3))
    two = boards(board_config(tmp_path, broker.port, "t2"))
    for board in ("t1", "t2"):
        watcher.state(board)
    page.goto(cafe())
    tile = page.locator('article[data-board="t1"]')
    tile.locator(".turn").filter(has_text="White to move").wait_for()
    assert page.locator("article.tile").count() == 2
    for ply, site in enumerate(WIN, 1):  # a whole game on table 1, seen on its tile
        one.place(site)
        watcher.state("t1", lambda s, ply=ply: s["ply"] == ply)
        page.locator(f'article[data-board="t1"][data-ply="{ply}"]').wait_for()
    tile.locator(".turn").filter(has_text="White wins by connection").wait_for()
    assert "1 game today" in tile.locator(".day summary").inner_text()
    tile.locator(".day summary").click()
    assert "white wins by connection (5 moves)" in tile.locator(".day ol").inner_text()
    assert "last move" in tile.locator(".since").inner_text()
    # Table 2 goes dark: flagged offline and sorted first.
    two.proc.send_signal(signal.SIGKILL)
    page.locator('article[data-board="t2"] .flag.offline').wait_for()
    assert page.locator("article.tile").first.get_attribute("data-board") == "t2"
    page.screenshot(path=str(OUTPUT / "cafe-dashboard.png"))
    # A command from the page: a new game of Phalanx on table 1.
    tile.locator("select.game").focus()  # the owner opens the list
    tile.locator("select.game").select_option("Phalanx")
    tile.locator("button.new").click()
    tile.locator(".title").filter(has_text="Phalanx").wait_for()
    page.locator("#toast").filter(has_text="t1: done").wait_for()
    tile.locator("button.takeback").click()
    page.locator("#toast").filter(has_text="t1: no move to take back").wait_for()
    # One table on a café screen: no controls.
    page.goto(cafe() + "watch/t1")
    page.locator('article[data-board="t1"] .title').filter(has_text="Phalanx").wait_for()
    assert page.locator("article.tile").count() == 1
    assert page.locator(".controls").is_hidden()
    page.screenshot(path=str(OUTPUT / "cafe-watch.png"))
    # A café screen: the board fills the height, the status is large, nothing scrolls.
    page.set_viewport_size({"width": 1920, "height": 1080})
    board = page.locator("article .mini").bounding_box()
    assert board["height"] >= 0.8 * 1080 and board["y"] + board["height"] <= 1080
    turn = page.locator("article .turn")
    assert turn.bounding_box()["x"] > board["x"] + board["width"]  # beside the board
    assert float(turn.evaluate("(t) => parseFloat(getComputedStyle(t).fontSize)")) >= 48
    assert page.evaluate("() => document.documentElement.scrollHeight") <= 1080
    page.screenshot(path=str(OUTPUT / "cafe-watch-1920.png"))


def test_commands_need_the_token_and_the_host_and_origin_are_checked(tmp_path, broker, watcher, boards, cafe):
    boards(board_config(tmp_path, broker.port, "t1"))
    watcher.state("t1")
    url = cafe(token="s3cret")

    async def talk(query: str, messages: list[dict]) -> list[dict]:
        """The hello (once the dashboard knows t1 is online), then the answer to each message."""
        async with aiohttp.ClientSession() as session:
            for _ in range(100):
                ws = await session.ws_connect(url + "ws" + query)
                hello = json.loads((await ws.receive()).data)
                if any(t["id"] == "t1" and t["online"] for t in hello["tables"]):
                    break
                await ws.close()
                await asyncio.sleep(0.1)
            answers = [hello]
            for message in messages:
                await ws.send_str(json.dumps(message))
                answers.append(await _answered(ws))
            await ws.close()
            return answers

    brightness = {"type": "command", "board": "t1", "command": {"command": "brightness", "value": 0.1}}
    hello, refused = run_async(talk("", [brightness]))
    assert hello["controls"] is False and "need the token" in refused["error"]
    answers = run_async(
        talk(
            "?token=s3cret",
            [
                {**brightness, "board": "t9"},
                {**brightness, "command": {"command": "brightness", "value": 7}},
                {"type": "command", "board": "t1"},
                brightness,
            ],
        )
    )
    assert answers[0]["controls"] is True
    assert [a.get("error", a["type"]) for a in answers[1:]] == [
        "no table 't9'",
        "brightness: 'value' must be from 0 to 1 (got 7)",
        'expected {"type": "command", "board": ..., "command": {...}}',
        "sent",
    ]
    assert watcher.state("t1", lambda s: s["brightness"] == 0.1)
    assert watcher.texts("reedboard/t1/command") == [json.dumps(brightness["command"])]

    async def status(path: str, headers: dict) -> int:
        async with aiohttp.ClientSession() as session:
            async with session.get(url + path, headers=headers) as response:
                return response.status

    assert run_async(status("", {"Host": "evil.test"})) == 421
    assert run_async(status("", {})) == 200
    assert (
        run_async(
            status(
                "ws?token=s3cret",
                {
                    "Origin": "http://evil.test",
                    "Connection": "Upgrade",
                    "Upgrade": "websocket",
                    "Sec-WebSocket-Version": "13",
                    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                },
            )
        )
        == 403
    )
    assert run_async(status("layouts/chess/8/None", {})) == 404


def test_a_days_work_at_the_dashboard(tmp_path, broker, watcher, boards, cafe, page):
    """Three tables, two of one game: every tile draws; New game offers the table's game and
    asks before ending one under way; brightness from the tile; a rename; a table gone offline
    is said at once when commanded, alerted, then retired (its retained topics and Home
    Assistant device cleared)."""
    one = boards(board_config(tmp_path, broker.port, "t1", size=3))
    two = boards(board_config(tmp_path, broker.port, "t2", size=3))
    boards(_phalanx(tmp_path, broker.port))
    for board in ("t1", "t2", "t3"):
        watcher.state(board)
    page.goto(cafe())
    for board, layout in (
        ("t1", "antipalos/3/two"),
        ("t2", "antipalos/3/two"),
        ("t3", "phalanx/None/standard"),
    ):
        page.locator(f'article[data-board="{board}"][data-drawn="{layout}"]').wait_for()
    tile = page.locator('article[data-board="t1"]')
    assert tile.locator("select.game").input_value() == "Antipalos 3"
    one.place("A1*")
    page.locator('article[data-board="t1"][data-ply="1"]').wait_for()
    page.screenshot(path=str(OUTPUT / "cafe-tables.png"))
    watcher.state("t1", lambda s: s["ply"] == 1)
    since = watcher.seen("t1")  # the game began at ply 0 too: a state after the new game
    tile.locator("button.new").click()  # a game under way: asked first
    dialog = page.locator("#ask")
    assert "End that game" in dialog.inner_text()
    dialog.locator("button", has_text="Cancel").click()
    tile.locator("button.new").click()
    dialog.locator("#ask-ok").click()
    page.locator("#toast").filter(has_text="t1: done").wait_for()  # the board has answered
    assert json.loads(watcher.wait("reedboard/t1/command")) == {  # the watcher may not have it yet
        "command": "new_game",
        "game": "antipalos",
        "size": 3,
        "variant": "two",
    }
    watcher.state("t1", lambda s: s["ply"] == 0, since=since)
    assert len(watcher.texts("reedboard/t1/command")) == 1  # the cancelled one was never sent
    tile.locator("input.brightness").evaluate(
        "(e) => { e.value = 20; e.dispatchEvent(new Event('change')); }"
    )
    watcher.state("t1", lambda s: s["brightness"] == 0.2)
    tile.locator("button.rename").click()
    page.locator("#ask-name").fill("Window table")
    dialog.locator("#ask-ok").click()
    tile.locator(".name").filter(has_text="Window table").wait_for()
    # Table 2 goes: the alert, a command refused at once, then retired.
    two.proc.send_signal(signal.SIGKILL)
    page.locator("#alerts").filter(has_text="t2: went offline").wait_for()
    gone = page.locator('article[data-board="t2"]')
    gone.locator("button.new[disabled]").wait_for()  # its tile drawn offline in the next frame
    takeback = {"type": "command", "board": "t2", "command": {"command": "takeback"}}
    answer = run_async(_talk(page.url, takeback))
    assert answer == {"type": "error", "error": "t2 is offline: nothing was sent", "board": "t2"}
    gone.locator("button.retire").click()
    dialog.locator("#ask-ok").click()
    gone.wait_for(state="detached")
    for name in ("reedboard/t2/state", "homeassistant/select/reedboard_t2/game/config"):
        watcher.wait(name, lambda text: text == "")
    late = Watcher(broker.port, "reedboard/t2/#", "homeassistant/+/reedboard_t2/#")
    time.sleep(0.5)
    assert [m[0] for m in late.messages if m[1]] == []  # nothing retained is left of t2
    late.close()
    page.screenshot(path=str(OUTPUT / "cafe-day.png"))


def _buttons_are(page, board: str, disabled: bool) -> None:
    """Wait until every button of ``board``'s tile that needs it online is ``disabled`` (a
    tile is drawn in the frame after the message that changed it)."""
    page.wait_for_function(
        "([board, disabled]) => [...document.querySelectorAll(`article[data-board='${board}'] "
        ".needs-online`)].every((b) => b.disabled === disabled)",
        arg=[board, disabled],
    )


def start_new_game(page, tile) -> None:
    """Press the tile's New game until the board answers "done", as an owner presses it again
    when the board says it takes one new game a second at most."""
    toast = page.locator("#toast")
    for _ in range(5):
        page.evaluate("document.getElementById('toast').hidden = true")  # no answer read twice
        tile.locator("button.new").click()
        toast.filter(has_text=re.compile(r": (done|one new game every)")).wait_for()
        if toast.inner_text().endswith(": done"):
            return
        page.wait_for_timeout(1000)
    raise AssertionError(f"New game was refused: {toast.inner_text()}")


def test_new_game_offers_every_size_and_variant_the_board_plays(
    tmp_path, broker, watcher, boards, cafe, page
):
    """A board wired for Antipalos 5 and Anti-Grid 6, playing Antipalos 5 (started by a
    command): its tile shows Antipalos 5 chosen, in a New game list as wide as it is once opened;
    opened, the list offers each size and variant by title, and starts exactly the one picked."""
    layout = wired_for(tmp_path, ("antipalos", 5), ("anti-grid", 6))
    boards(board_config(tmp_path, broker.port, top=f'layout = "{layout}"\n', game="anti-grid", size=6))
    watcher.state("t1")
    watcher.publish("reedboard/t1/command", '{"command": "new_game", "game": "antipalos", "size": 5}')
    watcher.state("t1", lambda s: s["game"] == "antipalos")
    titles = [p["title"] for p in watcher.playable("t1")]
    page.goto(cafe())
    tile = page.locator('article[data-board="t1"]')
    tile.locator(".title").filter(has_text="Antipalos 5").wait_for()
    select = tile.locator("select.game")
    assert select.input_value() == "Antipalos 5"
    assert select.locator("option:not([hidden])").all_inner_texts() == ["Antipalos 5"]  # filled once opened
    closed = select.bounding_box()["width"]
    tile.screenshot(path=str(OUTPUT / "cafe-tile-new-game-list.png"))
    select.focus()
    assert select.locator("option").all_inner_texts() == titles
    assert select.bounding_box()["width"] == closed  # as wide closed: it looks like the list it is
    assert select.input_value() == "Antipalos 5"
    select.select_option("Anti-Grid 6 chain")
    start_new_game(page, tile)
    chain = watcher.state("t1", lambda s: s["variant"] == "chain")
    assert (chain["game"], chain["size"]) == ("anti-grid", 6)
    page.locator('article[data-board="t1"][data-drawn="anti-grid/6/chain"]').wait_for()
    assert select.input_value() == "Anti-Grid 6 chain"  # the table's game now
    select.select_option("Antipalos 5")
    start_new_game(page, tile)
    watcher.state("t1", lambda s: s["game"] == "antipalos" and s["ply"] == 0)
    assert json.loads(watcher.texts("reedboard/t1/command")[-1]) == {
        "command": "new_game",
        "game": "antipalos",
        "size": 5,
        "variant": "two",
    }


def test_the_archive_keeps_every_finished_game_and_replays_it(tmp_path, broker, watcher, boards, cafe, page):
    """A game finished at a table is kept as it arrives; the table's page lists it, replays it
    move by move and downloads the record ``reedboard export`` writes; a restarted dashboard
    still shows the day's games."""
    config = board_config(tmp_path, broker.port, "t1", size=3)
    one = boards(config)
    watcher.state("t1")
    url = cafe(archive=Archive.open(None, str(tmp_path / "cafe")))
    for ply, site in enumerate(WIN, 1):
        one.place(site)
        watcher.state("t1", lambda s, ply=ply: s["ply"] == ply)
    record = json.loads(watcher.wait("reedboard/t1/record"))
    page.goto(url + "tables/t1")
    row = page.locator("table.games tbody tr")
    row.filter(has_text="white wins by connection").wait_for()
    assert row.count() == 1 and "board t" not in row.inner_text()
    row.locator("a", has_text="replay").click()
    page.locator("#step-text").filter(has_text="Move 5 of 5: C3*").wait_for()
    page.locator("#first").click()
    assert page.locator("#step-text").inner_text() == "The start"
    for _ in range(2):
        page.locator("#next").click()
    assert page.locator("#step-text").inner_text() == "Move 2 of 5: A3*"
    page.screenshot(path=str(OUTPUT / "cafe-replay.png"))
    with page.expect_download() as download:
        page.locator("#download").click()
    exported = subprocess.run(
        [*REEDBOARD, "export", "--config", str(config), "--game-id", str(record["id"])],
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(download.value.path()).read_text() == exported.stdout
    # The dashboard restarted: the day's games come back from the archive.
    again = cafe(archive=Archive.open(None, str(tmp_path / "cafe")))
    page.goto(again)
    day = page.locator('article[data-board="t1"] .day')
    day.locator("summary").click()
    day.locator("ol a").filter(has_text="white wins by connection (5 moves)").wait_for()


#: Records in ``window.flagged`` every table whose tile was ever flagged (needs attention).
FLAGGED_JS = """() => {
  window.flagged = new Set();
  const note = () => document.querySelectorAll("article.tile.flagged")
    .forEach((t) => window.flagged.add(t.dataset.board));
  new MutationObserver(note).observe(document.body, {subtree: true, attributes: true, childList: true});
}"""


def test_a_broker_restart_is_one_banner_no_table_offline_and_no_alert(
    tmp_path, broker, watcher, boards, cafe, page, monkeypatch
):
    """Mosquitto stopped and started again on its port with the boards and the dashboard on it:
    the page shows one banner, no tile is flagged or offers Retire, no alert is raised or
    published; a board that stays away is flagged once the grace after the dashboard's return
    is over (shortened here from 40 s)."""
    monkeypatch.setattr(fleet_module, "GRACE", 8.0)
    started = {board: boards(board_config(tmp_path, broker.port, board)) for board in ("t1", "t2", "t3")}
    for board in started:
        watcher.state(board)
    page.goto(cafe())
    page.locator('article[data-board="t3"]').wait_for()
    page.evaluate(FLAGGED_JS)
    broker.stop()  # it sends every board's last will as it goes
    page.locator("#broker-down").wait_for()
    page.locator("#broker").filter(has_text="broker unreachable").wait_for()
    # A café screen with the banner over its table: the board shrinks to fit, nothing scrolls.
    screen = page.context.browser.new_page(viewport={"width": 1920, "height": 1080})
    screen.goto(page.url + "watch/t1")
    screen.locator("#broker-down").wait_for()
    screen.locator('article[data-board="t1"][data-drawn]').wait_for()
    board = screen.locator("article .mini").bounding_box()
    assert board["height"] >= 0.8 * 1080 and board["y"] + board["height"] <= 1080
    assert screen.evaluate("() => document.documentElement.scrollHeight") <= 1080
    screen.screenshot(path=str(OUTPUT / "cafe-watch-broker-down.png"))
    screen.close()
    started["t3"].proc.send_signal(signal.SIGKILL)  # one board goes for good meanwhile
    started["t3"].proc.wait(5)
    assert page.locator(".flag").count() == 0 and page.locator("button.retire:visible").count() == 0
    tile_buttons = page.locator('article[data-board="t1"] .needs-online')
    assert tile_buttons.count()
    _buttons_are(page, "t1", disabled=True)  # the tile drawn so in the next frame
    assert page.locator("#summary").inner_text() == "3 tables · 0 need attention"
    page.screenshot(path=str(OUTPUT / "cafe-broker-down.png"))
    broker.start()
    alerts = Watcher(broker.port, "reedboard-cafe/alerts", "reedboard/+/availability")
    page.locator("#broker").filter(has_text="broker connected").wait_for(timeout=40000)
    for board in ("t1", "t2"):
        alerts.wait(f"reedboard/{board}/availability", lambda text: text == "online", timeout=40)
    page.locator('article[data-board="t3"] .flag.offline').wait_for(timeout=40000)
    _buttons_are(page, "t1", disabled=False)
    assert page.evaluate("() => [...window.flagged]") == ["t3"]
    assert page.locator(".flag.offline").count() == 1
    assert [text.split(" ", 2)[2] for text in page.locator("#alerts li").all_inner_texts()] == [
        "t3: went offline"
    ]
    said = [json.loads(text) for text in alerts.texts("reedboard-cafe/alerts")]
    assert [(a["board"], a["what"]) for a in said] == [("t3", "went offline")]
    alerts.close()


def test_two_dashboards_on_one_broker_both_stay_connected(tmp_path, broker, watcher, boards, cafe, page):
    """Two dashboards started in one process (the same pid, as two containers' dashboards have)
    on one broker: neither takes the other's place, neither page ever says the broker is away."""
    boards(board_config(tmp_path, broker.port, "t1", size=3))
    watcher.state("t1")
    pages = [page, page.context.browser.new_page()]
    for shown, url in zip(pages, (cafe(), cafe())):
        shown.goto(url)
        shown.locator("#broker").filter(has_text="broker connected").wait_for()
        shown.evaluate("""() => { window.said = [];
            new MutationObserver(() => said.push(document.getElementById('broker').textContent))
                .observe(document.getElementById('broker'), {childList: true, characterData: true,
                                                             subtree: true}); }""")
    pages[0].wait_for_timeout(3000)  # a takeover would recur every second (the link's backoff)
    assert [shown.evaluate("() => said") for shown in pages] == [[], []]
    assert [shown.locator("#broker").inner_text() for shown in pages] == ["broker connected"] * 2
    pages[1].close()


def test_a_cafe_in_new_york_sees_its_own_times_newest_first_and_no_page_numbers(
    tmp_path, broker, watcher, boards, page
):
    """``reedboard cafe --config`` with ``[cafe] timezone = "America/New_York"``: two games
    finished at a table are listed newest first on its tile and in its archive, at New York's
    time with its zone; the alerts too; a tile shows the OLED's lines without the page number
    of a long screen's page."""
    config = tmp_path / "cafe.toml"
    config.write_text(
        f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n\n[cafe]\ntimezone = "America/New_York"\n'
    )
    port = free_port()
    dashboard = subprocess.Popen(
        [
            *REEDBOARD,
            "cafe",
            "--config",
            str(config),
            "--port",
            str(port),
            "--state",
            str(tmp_path / "state"),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        while "dashboard is at" not in (line := dashboard.stderr.readline()):
            assert line, "the dashboard did not start"
        one = boards(board_config(tmp_path, broker.port, "t1", size=3))
        watcher.state("t1")
        states, finished = Follow(watcher, "reedboard/t1/state"), Follow(watcher, "reedboard/t1/record")
        records = []
        for n in (1, 2):
            for ply, site in enumerate(WIN, 1):
                one.place(site)
                states.next(lambda s, ply=ply: s["ply"] == ply)
            records.insert(0, finished.next())
            if n == 1:  # a new game: the board asks for its pieces off
                watcher.publish("reedboard/t1/command", '{"command": "new_game"}')
                states.next(lambda s: s["ply"] == 0 and s["sync"] == "out_of_sync")
                for site in WIN:
                    one.lift(site)
                states.next(lambda s: s["sync"] == "in_sync")
        long = status_screen(
            "Antipalos 12",
            "three",
            "white",
            None,
            2,
            ["In hand: White 6 · Black 7 · Red 5", "Captured: 3"],
            "Remove the 2 lit pieces now please",
            "Board differs: put back 12 pieces",
            None,
        )
        screen = long.pages()[0].text_lines()  # the OLED's first page: its number on the last line
        watcher.publish("reedboard/t9/availability", "online")
        watcher.publish(
            "reedboard/t9/state",
            json.dumps(
                {
                    "game": "antipalos",
                    "size": 5,
                    "ply": 0,
                    "to_move": "white",
                    "moves": [],
                    "status": screen[0],
                    "screen": screen,
                }
            ),
        )
        page.goto(f"http://127.0.0.1:{port}/")
        tile = page.locator('article[data-board="t1"]')
        tile.locator(".day summary").filter(has_text="2 games today").wait_for()
        tile.locator(".day summary").click()
        listed = [
            f"{_new_york(r['finished'])} Antipalos 3: white wins by connection (5 moves)" for r in records
        ]
        assert tile.locator(".day li").all_inner_texts() == listed
        alerts = page.locator("#alerts li").all_inner_texts()
        assert len(alerts) >= 2 and all(re.match(r"\d\d:\d\d E[SD]T t1: ", text) for text in alerts)
        status = page.locator('article[data-board="t9"] .status')
        assert status.inner_text() == (
            "Board differs: put back 12 pieces · Remove the 2 lit pieces now please · Phase 2"
        )
        page.goto(f"http://127.0.0.1:{port}/tables/t1")
        rows = page.locator("table.games tbody tr")
        rows.nth(1).wait_for()
        assert [rows.nth(i).locator("td").first.inner_text() for i in range(2)] == [
            _new_york(r["finished"], "%Y-%m-%d %H:%M %Z") for r in records
        ]
    finally:
        stop(dashboard)


class Follow:
    """A watcher's JSON messages on one topic read in order: each :meth:`next` is a later one."""

    def __init__(self, watcher: Watcher, topic: str) -> None:
        self.watcher, self.topic, self.read = watcher, topic, 0

    def next(self, test=lambda _: True) -> dict:
        """The first message after those read so far that passes ``test``."""
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            texts = self.watcher.texts(self.topic)
            for n in range(self.read, len(texts)):
                if test(value := json.loads(texts[n])):
                    self.read = n + 1
                    return value
            time.sleep(0.05)
        raise AssertionError(f"nothing new on {self.topic} passed the test")


def _new_york(stamp: str, form: str = "%H:%M %Z") -> str:
    """A stored time as a clock in New York reads it."""
    return (
        datetime.fromisoformat(stamp.replace("Z", "+00:00"))
        .astimezone(ZoneInfo("America/New_York"))
        .strftime(form)
    )


def test_a_hung_database_holds_up_no_tile_and_loses_no_game(
    tmp_path, broker, watcher, boards, cafe, postgres
):
    """PostgreSQL stops answering (SIGSTOP, as a network that drops packets) while a new board
    plays a whole game: the page and its feed answer, the tile follows the game and lists it,
    the archive's page says it is unavailable; the database back, the game is archived."""
    pytest.importorskip("psycopg")
    archive = Archive.open(postgres.database())
    url = cafe(archive=archive)
    postgres.pause()
    try:
        _play_a_game(tmp_path, broker, watcher, boards)
        tile = _tile(url, lambda t: t["state"].get("ply") == len(WIN) and t["games"])
        assert tile["games"][0]["result"] == "white wins by connection"
        assert run_async(_get(url))[:2] == (200, "text/html")
        status, _, text = run_async(_get(url + "api/tables/t1/games"))
        assert status == 503 and text.startswith("the archive is unavailable")
    finally:
        postgres.resume()
    assert archive.flush(30)
    assert [g["plies"] for g in archive.games("t1")] == [len(WIN)]


def test_a_dashboard_started_with_its_database_away_plays_and_archives_when_it_is_back(
    tmp_path, broker, watcher, boards, postgres
):
    """``reedboard cafe`` with its PostgreSQL down: it starts, says so once, shows the tables;
    the game finished meanwhile is archived once PostgreSQL is started."""
    pytest.importorskip("psycopg")
    database = postgres.database()
    config = tmp_path / "cafe.toml"
    config.write_text(f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n\n[archive]\nurl = "{database}"\n')
    port, journal = free_port(), tmp_path / "cafe.log"
    postgres.stop()
    started = False
    dashboard = subprocess.Popen(
        [*REEDBOARD, "cafe", "--config", str(config), "--port", str(port)], stderr=journal.open("w")
    )
    try:
        url = f"http://127.0.0.1:{port}/"
        _wait(lambda: "dashboard is at" in journal.read_text() or dashboard.poll() is not None)
        assert dashboard.poll() is None, journal.read_text()
        _play_a_game(tmp_path, broker, watcher, boards)
        tile = _tile(url, lambda t: t["state"].get("ply") == len(WIN) and t["games"])
        assert tile["games"][0]["result"] == "white wins by connection"
        postgres.start_again()
        started = True
        _wait(lambda: run_async(_get(url + "api/tables/t1/games"))[0] == 200, 60, journal.read_text)
        listed = json.loads(run_async(_get(url + "api/tables/t1/games"))[2])["games"]
        assert [g["result"] for g in listed] == ["white wins by connection"]
    finally:
        if not started:
            postgres.start_again()
        stop(dashboard)
    said = journal.read_text()
    assert said.count("is unavailable:") == 1 and said.count("is back:") == 1, said


def test_a_locked_sqlite_archive_holds_up_no_tile(tmp_path, broker, watcher, boards, cafe):
    """Another program holds the archive file's lock (an exclusive transaction): the tile
    follows the game; the lock released, the game is archived."""
    archive = Archive.open(None, str(tmp_path / "cafe"))
    url = cafe(archive=archive)
    other = sqlite3.connect(tmp_path / "cafe" / "cafe.db", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        _play_a_game(tmp_path, broker, watcher, boards)
        _tile(url, lambda t: t["state"].get("ply") == len(WIN) and t["games"])
        assert run_async(_get(url))[:2] == (200, "text/html") and not archive.flush(0.5)
    finally:
        other.execute("COMMIT")
        other.close()
    assert archive.flush(30)
    assert [g["plies"] for g in archive.games("t1")] == [len(WIN)]


def _play_a_game(folder, broker, watcher, boards) -> None:
    """A new board, t1, plays a whole game of Antipalos 3 (white connects)."""
    one = boards(board_config(folder, broker.port, "t1", size=3))
    watcher.state("t1")
    for ply, site in enumerate(WIN, 1):
        one.place(site)
        watcher.state("t1", lambda s, ply=ply: s["ply"] == ply)
    watcher.wait("reedboard/t1/record")


def _tile(url: str, test) -> dict:
    """Table t1 as the page's feed shows it, once ``test(table)`` holds (each hello within
    the request's 5 s time-out)."""

    async def hello() -> dict:
        timeout = aiohttp.ClientTimeout(total=5)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            async with session.ws_connect(url + "ws") as ws:
                return json.loads((await ws.receive(timeout=5)).data)

    found: list[dict] = []
    _wait(
        lambda: bool(
            found.extend(t for t in run_async(hello())["tables"] if t["id"] == "t1" and test(t)) or found
        )
    )
    return found[0]


async def _get(url: str) -> tuple[int, str, str]:
    """The status, type and text of a GET, within a 5 s time-out (status 0: none came)."""
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as session:
            async with session.get(url) as response:
                return response.status, response.content_type, await response.text()
    except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
        return 0, "", repr(exc)


def _wait(test, seconds: float = 30, why=lambda: "gave up waiting") -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, why()
        time.sleep(0.2)


def _phalanx(folder, port):
    path = board_config(folder, port, "t3", game="phalanx")
    path.write_text(path.read_text().replace("size = 5\n", ""))
    return path


async def _talk(url: str, message: dict) -> dict:
    """Send one message from a page's websocket; the dashboard's answer to it."""
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(url.split("#")[0].rstrip("/") + "/ws") as ws:
            await ws.receive()  # hello
            await ws.send_str(json.dumps(message))
            return await _answered(ws)


async def _answered(ws) -> dict:
    """The dashboard's answer to what a page sent, past the table updates meanwhile (each a
    message, or a list of those that queued up)."""
    while True:
        data = json.loads((await ws.receive()).data)
        for answer in data if isinstance(data, list) else [data]:
            if answer["type"] in ("error", "sent"):
                return answer


def test_bad_arguments_and_archive_addresses_say_what_is_wrong(tmp_path, capsys):
    from firmware_host.cli.main import main

    assert broker_address("10.0.0.5:1884", 1883) == ("10.0.0.5", 1884)
    for bad in ("host:port", "host:0", ":1883", "[::1]:99999"):
        with pytest.raises(ValueError):
            broker_address(bad, 1883)
    assert main(["cafe", "--mqtt", "host:x"]) == 2
    assert capsys.readouterr().err == "reedboard cafe: --mqtt must be HOST or HOST:PORT (got 'host:x')\n"
    bad = tmp_path / "cafe.toml"
    bad.write_text('[archive]\nurl = "mysql://db/cafe"\n')
    assert main(["cafe", "--config", str(bad), "--mqtt", "broker"]) == 2
    assert "cafe.toml: [archive] url must be postgresql://... or sqlite:///path" in capsys.readouterr().err
    zone = tmp_path / "zone.toml"
    zone.write_text('[cafe]\ntimezone = "Mars/Olympus_Mons"\n')
    assert main(["cafe", "--config", str(zone), "--mqtt", "broker"]) == 2
    assert capsys.readouterr().err == (
        f"reedboard cafe: {zone}: [cafe] timezone must be an IANA zone "
        "name such as \"America/New_York\" (got 'Mars/Olympus_Mons')\n"
    )
    unwritable = tmp_path / "file"
    unwritable.write_text("")
    assert main(["cafe", "--mqtt", "broker", "--state", str(unwritable / "sub")]) == 2
    assert "reedboard cafe:" in capsys.readouterr().err
