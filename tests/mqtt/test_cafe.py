"""``reedboard cafe``: the dashboard over a real Mosquitto, in Debian's Chromium (Playwright),
and its safety rules (Host, Origin, the token for commands)."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import aiohttp
import pytest

from firmware_host.net.cafe import broker_address
from firmware_host.net.cafe.archive import Archive
from testbed.broker import REEDBOARD, Watcher, board_config
from testbed.tools import free_port

OUTPUT = Path(__file__).resolve().parents[2] / "test-output"
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
    tile.locator("select.game").select_option("phalanx")
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


def test_commands_need_the_token_and_the_host_and_origin_are_checked(
        tmp_path, broker, watcher, boards, cafe):
    boards(board_config(tmp_path, broker.port, "t1"))
    watcher.state("t1")
    url = cafe(token="s3cret")

    async def talk(query: str, messages: list[dict]) -> list[dict]:
        """The hello (once the dashboard knows t1), then the answer to each message."""
        async with aiohttp.ClientSession() as session:
            for _ in range(100):
                ws = await session.ws_connect(url + "ws" + query)
                hello = json.loads((await ws.receive()).data)
                if any(t["id"] == "t1" for t in hello["tables"]):
                    break
                await ws.close()
                await asyncio.sleep(0.1)
            answers = [hello]
            for message in messages:
                await ws.send_str(json.dumps(message))
                while (answer := json.loads((await ws.receive()).data))["type"] not in ("error", "sent"):
                    pass  # table updates meanwhile
                answers.append(answer)
            await ws.close()
            return answers

    brightness = {"type": "command", "board": "t1", "command": {"command": "brightness", "value": 0.1}}
    hello, refused = run(talk("", [brightness]))
    assert hello["controls"] is False and "need the token" in refused["error"]
    answers = run(talk("?token=s3cret", [
        {**brightness, "board": "t9"},
        {**brightness, "command": {"command": "brightness", "value": 7}},
        {"type": "command", "board": "t1"},
        brightness,
    ]))
    assert answers[0]["controls"] is True
    assert [a.get("error", a["type"]) for a in answers[1:]] == [
        "no table 't9'", "brightness: 'value' must be from 0 to 1 (got 7)",
        'expected {"type": "command", "board": ..., "command": {...}}', "sent"]
    assert watcher.state("t1", lambda s: s["brightness"] == 0.1)
    assert watcher.texts("reedboard/t1/command") == [json.dumps(brightness["command"])]

    async def status(path: str, headers: dict) -> int:
        async with aiohttp.ClientSession() as session:
            async with session.get(url + path, headers=headers) as response:
                return response.status

    assert run(status("", {"Host": "evil.test"})) == 421
    assert run(status("", {})) == 200
    assert run(status("ws?token=s3cret", {"Origin": "http://evil.test", "Connection": "Upgrade",
                                                  "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                                                  "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})) == 403
    assert run(status("layouts/chess/8/None", {})) == 404


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
    for board, layout in (("t1", "antipalos/3/two"), ("t2", "antipalos/3/two"),
                          ("t3", "phalanx/None/standard")):
        page.locator(f'article[data-board="{board}"][data-drawn="{layout}"]').wait_for()
    tile = page.locator('article[data-board="t1"]')
    assert tile.locator("select.game").input_value() == "antipalos"
    one.place("A1*")
    page.locator('article[data-board="t1"][data-ply="1"]').wait_for()
    page.screenshot(path=str(OUTPUT / "cafe-tables.png"))
    tile.locator("button.new").click()  # a game under way: asked first
    dialog = page.locator("#ask")
    assert "End that game" in dialog.inner_text()
    dialog.locator("button", has_text="Cancel").click()
    tile.locator("button.new").click()
    dialog.locator("#ask-ok").click()
    page.locator("#toast").filter(has_text="t1: done").wait_for()
    assert json.loads(watcher.texts("reedboard/t1/command")[-1]) == {
        "command": "new_game", "game": "antipalos", "size": 3, "variant": "two"}
    assert len(watcher.texts("reedboard/t1/command")) == 1  # the cancelled one was never sent
    watcher.state("t1", lambda s: s["ply"] == 0)
    tile.locator("input.brightness").evaluate(
        "(e) => { e.value = 20; e.dispatchEvent(new Event('change')); }")
    watcher.state("t1", lambda s: s["brightness"] == 0.2)
    tile.locator("button.rename").click()
    page.locator("#ask-name").fill("Window table")
    dialog.locator("#ask-ok").click()
    tile.locator(".name").filter(has_text="Window table").wait_for()
    # Table 2 goes: the alert, a command refused at once, then retired.
    two.proc.send_signal(signal.SIGKILL)
    page.locator("#alerts").filter(has_text="t2: went offline").wait_for()
    gone = page.locator('article[data-board="t2"]')
    assert gone.locator("button.new").is_disabled()
    answer = run(_talk(page.url, {"type": "command", "board": "t2", "command": {"command": "takeback"}}))
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


def test_the_archive_keeps_every_finished_game_and_replays_it(tmp_path, broker, watcher, boards,
                                                             cafe, page):
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
    exported = subprocess.run([*REEDBOARD, "export", "--config", str(config), "--game-id",
                               str(record["id"])], capture_output=True, text=True, check=True)
    assert Path(download.value.path()).read_text() == exported.stdout
    # The dashboard restarted: the day's games come back from the archive.
    again = cafe(archive=Archive.open(None, str(tmp_path / "cafe")))
    page.goto(again)
    day = page.locator('article[data-board="t1"] .day')
    day.locator("summary").click()
    day.locator("ol a").filter(has_text="white wins by connection (5 moves)").wait_for()


def test_a_broker_that_goes_down_is_shown_as_that_not_every_table_offline(
        tmp_path, broker, watcher, boards, cafe, page):
    boards(board_config(tmp_path, broker.port, "t1"))
    boards(board_config(tmp_path, broker.port, "t2"))
    for board in ("t1", "t2"):
        watcher.state(board)
    page.goto(cafe())
    page.locator('article[data-board="t2"]').wait_for()
    broker.stop()
    page.locator("#broker-down").wait_for()
    assert page.locator(".flag.offline").count() == 0
    assert page.locator("#summary").inner_text() == "2 tables · 0 need attention"
    page.screenshot(path=str(OUTPUT / "cafe-broker-down.png"))
    broker.start()
    page.locator("#broker-down").wait_for(state="hidden", timeout=40000)
    page.locator("#broker").filter(has_text="broker connected").wait_for()
    assert page.locator(".flag.offline").count() == 0


def test_a_hung_database_holds_up_no_tile_and_loses_no_game(tmp_path, broker, watcher, boards,
                                                             cafe, postgres):
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
        assert run(_get(url))[:2] == (200, "text/html")
        status, _, text = run(_get(url + "api/tables/t1/games"))
        assert status == 503 and text.startswith("the archive is unavailable")
    finally:
        postgres.resume()
    assert archive.flush(30)
    assert [g["plies"] for g in archive.games("t1")] == [len(WIN)]


def test_a_dashboard_started_with_its_database_away_plays_and_archives_when_it_is_back(
        tmp_path, broker, watcher, boards, postgres):
    """``reedboard cafe`` with its PostgreSQL down: it starts, says so once, shows the tables;
    the game finished meanwhile is archived once PostgreSQL is started."""
    pytest.importorskip("psycopg")
    database = postgres.database()
    config = tmp_path / "cafe.toml"
    config.write_text(f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n\n'
                      f'[archive]\nurl = "{database}"\n')
    port, journal = free_port(), tmp_path / "cafe.log"
    postgres.stop()
    started = False
    dashboard = subprocess.Popen([*REEDBOARD, "cafe", "--config", str(config), "--port", str(port)],
                                 stderr=journal.open("w"))
    try:
        url = f"http://127.0.0.1:{port}/"
        _wait(lambda: "dashboard is at" in journal.read_text() or dashboard.poll() is not None)
        assert dashboard.poll() is None, journal.read_text()
        _play_a_game(tmp_path, broker, watcher, boards)
        tile = _tile(url, lambda t: t["state"].get("ply") == len(WIN) and t["games"])
        assert tile["games"][0]["result"] == "white wins by connection"
        postgres.start_again()
        started = True
        _wait(lambda: run(_get(url + "api/tables/t1/games"))[0] == 200, 60, journal.read_text)
        listed = json.loads(run(_get(url + "api/tables/t1/games"))[2])["games"]
        assert [g["result"] for g in listed] == ["white wins by connection"]
    finally:
        if not started:
            postgres.start_again()
        dashboard.send_signal(signal.SIGTERM)
        dashboard.wait(15)
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
        assert run(_get(url))[:2] == (200, "text/html") and not archive.flush(0.5)
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
    _wait(lambda: bool(found.extend(t for t in run(hello())["tables"] if t["id"] == "t1" and test(t))
                       or found))
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
            while (answer := json.loads((await ws.receive()).data))["type"] not in ("error", "sent"):
                pass
            return answer


def run(coroutine):
    """Run ``coroutine`` in a thread of its own (Playwright's sync API holds this one's loop)."""
    result = []
    thread = threading.Thread(target=lambda: result.append(asyncio.run(coroutine)))
    thread.start()
    thread.join(30)
    return result[0]


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
    unwritable = tmp_path / "file"
    unwritable.write_text("")
    assert main(["cafe", "--mqtt", "broker", "--state", str(unwritable / "sub")]) == 2
    assert "reedboard cafe:" in capsys.readouterr().err
