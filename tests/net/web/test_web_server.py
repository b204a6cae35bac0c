"""The simulator page's server and bridge without a browser: message checks, the token, the
origin check, and a session recorded by the bridge that replays to the same moves."""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

import engines
from firmware_host.actions.reading import CommandError
from firmware_host.board.game import Game
from firmware_host.board.playable import Playable
from firmware_host.net import web
from firmware_host.net.web.address import is_loopback
from firmware_host.net.web.bridge import Hub, WebBoard
from firmware_host.net.web.commands import parse
from firmware_host.net.web.server import Pages
from firmware_host.net.web.spacing import gap
from firmware_host.runtime.replay import replay
from firmware_host.runtime.session import open_controller
from firmware_host.store.config import Config, Timing
from firmware_host.store.layout import default_layout
from firmware_host.store.storage import Storage
from hardware.sim import SimBoard
from testbed.stopping import HANG_SECONDS
from testbed.tools import run_async

SITES = {"a1", "b1"}


@pytest.mark.parametrize(
    "text, why",
    [
        ("nonsense", "not a JSON message"),
        ("[1]", "expected a JSON object"),
        ('{"type": "launch"}', "unknown message type 'launch'"),
        ('{"type": "toggle"}', "toggle: missing 'site'"),
        ('{"type": "toggle", "site": 3}', "toggle: bad 'site' (3)"),
        ('{"type": "toggle", "site": "a1", "x": 1}', "toggle: unexpected field 'x'"),
        ('{"type": "drag", "from": "a1", "to": "a1"}', "same site"),
        ('{"type": "button", "button": "power"}', "no button 'power'"),
        ('{"type": "new_game", "game": "chess"}', "no game 'chess'"),
        ('{"type": "new_game", "game": "antipalos", "size": 99}', "size"),
        ('{"type": "new_game", "game": "antipalos", "size": true}', "bad 'size'"),
        ('{"type": "new_game", "game": "antipod", "computer": "third"}', "'computer' must be first, second"),
        (
            '{"type": "new_game", "game": "antipod", "computer": "first", "level": 9}',
            "'level' must be 1 to 5",
        ),
        ('{"type": "noise", "on": "yes"}', "bad 'on'"),
        ('{"type": "setup", "board": "chess"}', "setup: 'board' must be one of"),
        ('{"type": "takeback", "moves": 3}', "takeback: unexpected field 'moves'"),
        ('{"type": "brightness", "level": 7}', "'level' must be 0.05 to 1"),
        ('{"type": "brightness", "level": true}', "brightness: bad 'level'"),
        (
            '{"type": "rules", "game": "antipode", "name": "first", "value": "red"}',
            "antipode has no house rule 'first'",
        ),
        (
            '{"type": "rules", "game": "anti-grid", "name": "first", "value": "green"}',
            "option first is one of red, blue",
        ),
        ('{"type": "rules", "game": "phalanx", "name": "quiet-plies", "value": 0}', "a whole number from 1"),
    ],
)
def test_bad_messages_are_refused_with_one_line(text, why):
    with pytest.raises(CommandError) as error:
        parse(text, SITES)
    assert why in str(error.value) and "\n" not in str(error.value)


def test_loopback():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")


def _client_test(token, check, playable=Playable()):
    async def main():
        hub = Hub()
        hub.labels = frozenset(SITES)
        hub.publish({"game": {"name": "g"}, "pieces": ["a1"]})
        async with TestClient(TestServer(Pages(hub, token, playable=playable).app())) as client:
            await check(client, hub)

    run_async(main())  # in a thread of its own: the browser tests' Playwright holds this one's loop


async def _hello_and_state(ws):
    hello, state = await ws.receive_json(), await ws.receive_json()
    assert hello["type"] == "hello" and state["type"] == "update"
    return hello, state


def test_bad_websocket_messages_get_an_error_and_change_nothing():
    async def check(client, hub):
        async with client.ws_connect("/ws") as ws:
            hello, state = await _hello_and_state(ws)
            assert hello["controls"] and hello["games"] and state["pieces"] == ["a1"]
            for bad in ('{"type": "toggle", "site": "zz"}', "{", '{"type": 1}'):
                await ws.send_str(bad)
                reply = await ws.receive_json()
                assert reply["type"] == "error" and "Traceback" not in reply["error"]
            await ws.send_bytes(b"\x00")
            assert (await ws.receive_json())["error"] == "expected a text message"
            await ws.send_str('{"type": "toggle", "site": "b1"}')
            await ws.send_str('{"type": "button", "button": "ok"}')
            await ws.send_str('{"type": "toggle", "site": "a1", "x": 1}')
            assert (await ws.receive_json())["type"] == "error"
        assert [type(c).__name__ for c in hub.take()] == ["SiteChange", "Press"]

    _client_test(None, check)


def test_the_picker_offers_and_the_page_may_start_only_what_the_layout_wires(tmp_path):
    """A board wired for Antipod 4 (its layout file): the picker lists Antipod alone, size 4, and
    any other game, size or a computer player in kiosk mode is refused before the loop sees it."""
    sites = engines.new_game("antipod", 4).sites()
    playable = Playable(default_layout(sites), kiosk=True)

    async def check(client, hub):
        async with client.ws_connect("/ws") as ws:
            hello, _ = await _hello_and_state(ws)
            assert [(g["name"], g["sizes"], g["size_range"]) for g in hello["games"]] == [
                ("antipod", [4], None)
            ]
            for bad, why in [
                ({"game": "phalanx"}, "cannot play Phalanx"),
                ({"game": "antipod", "size": 5}, "cannot play Antipod 5"),
                ({"game": "antipod", "size": 4, "computer": "second"}, "kiosk mode"),
            ]:
                await ws.send_str(json.dumps({"type": "new_game", **bad}))
                assert why in (await ws.receive_json())["error"]
            await ws.send_str('{"type": "new_game", "game": "antipod", "size": 4}')
            await ws.send_str('{"type": "button", "button": "ok"}')
            await asyncio.sleep(0.1)
        assert [type(c).__name__ for c in hub.take()] == ["NewGame", "Press"]

    _client_test(None, check, playable)


def test_a_paired_board_s_picker_offers_and_the_page_starts_only_games_of_two_sides():
    async def check(client, hub):
        async with client.ws_connect("/ws") as ws:
            hello, _ = await _hello_and_state(ws)
            antipalos = next(g for g in hello["games"] if g["name"] == "antipalos")
            assert antipalos["variants"] == ["two", "team"]
            await ws.send_str('{"type": "new_game", "game": "antipalos", "variant": "cut-throat-4"}')
            assert "only games of two sides" in (await ws.receive_json())["error"]
        assert hub.take() == []

    _client_test(None, check, Playable(paired="friend"))


def test_token_guards_the_controls_not_the_spectators():
    async def check(client, hub):
        for path in (
            "/ws",
            "/ws?token=wrong",
            "/replay.jsonl",
            "/games.json",
            "/games.txt",
            "/games/1.json",
            "/games/1.txt",
            "/games/1.txt?token=wrong",
        ):
            assert (await client.get(path)).status == 403, path
        assert (await client.get("/replay.jsonl?token=t0k")).status == 200
        # the hub knows no games file here: said, never a traceback
        missing = await client.get("/games.json?token=t0k")
        assert missing.status == 404 and "no games file" in await missing.text()
        for path in ("/setup", "/guide/antipode", "/guide/img/antipode-start.png", "/static/guide.css"):
            assert (await client.get(path)).status == 200, path
        for path in ("/guide/chess", "/guide/img/..%2Fantipode.md", "/guide/..%2F..%2FREADME"):
            assert (await client.get(path)).status == 404, path
        async with client.ws_connect("/ws?token=t0k") as ws:
            hello, _ = await _hello_and_state(ws)
            assert hello["controls"]
        async with client.ws_connect("/ws/watch") as ws:
            hello, _ = await _hello_and_state(ws)
            assert not hello["controls"] and not hello["games"]
            await ws.send_str('{"type": "toggle", "site": "b1"}')
            assert (await ws.receive_json())["error"] == "this view is read-only"
        assert hub.take() == []
        for path in ("/", "/watch", "/static/app.js"):
            response = await client.get(path)
            assert (
                response.status == 200 and "default-src 'self'" in response.headers["Content-Security-Policy"]
            )

    _client_test("t0k", check)


def test_websocket_from_another_site_is_refused():
    async def check(client, hub):
        response = await client.get("/ws/watch", headers={"Origin": "http://evil.example"})
        assert response.status == 403

    _client_test(None, check)


def test_a_session_recorded_by_the_bridge_replays_to_the_same_moves():
    """Clicks through the bridge on a virtual clock; the recording, replayed, gives the same
    moves and events as the session."""
    config = Config()
    game = Game.of("antipalos", 3)
    controller = open_controller(config, Storage(":memory:"), game)
    board = SimBoard(controller.layout.sensor_channels)
    hub = Hub()
    published = []
    hub.listen(published.append)
    bridge = WebBoard(board, hub, gap_ms=60)
    # Three moves, an illegal placement (C1 holds a Trirod) taken back off, a fourth move.
    clicks = {100: "*C1", 600: "*B1", 1100: "B3*", 1600: "C1*", 2100: "C1*", 2500: "*C2"}
    for tick in range(320):
        now = tick * 10.0
        if now in clicks:
            hub.submit(parse(json.dumps({"type": "toggle", "site": clicks[now]}), hub.labels))
        events = controller.step(now, board.scan(), board.buttons.events())
        bridge.sync(now, controller, events)
    assert controller.moves == ["*C1", "*B1", "B3*", "*C2"]
    session = [e for u in published for e in u.get("events", ()) if e["event"] != "display"]
    out = io.StringIO()
    assert replay(hub.recording.text().splitlines(), config, game, out) == 0
    replayed = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replayed[-1]["moves"] == controller.moves
    again = [e for e in replayed[:-1] if e["event"] != "display"]
    untimed = lambda events: [{k: v for k, v in e.items() if k != "t"} for e in events]  # noqa: E731
    assert untimed(again) == untimed(session)
    # The page's changes are applied after a step, so the live daemon sees them one scan later.
    assert all(0 <= b["t"] - a["t"] <= 10 for a, b in zip(again, session))
    assert {"out_of_sync", "illegal", "in_sync"} <= {e["event"] for e in session}
    assert published[0]["sites"] and hub.current()["pieces"] == ["*B1", "*C1", "*C2", "B3*"]


@pytest.mark.parametrize("period", [10.0, 35.0])
def test_both_clicks_of_a_double_click_are_scanned_however_slow_the_loop(period):
    """Two quick clicks on B2*: the piece put on is scanned long enough for the debouncer to
    take it before it is lifted, whether the loop scans every 10 ms or, held up by a busy
    machine, every 35 ms (one site's changes are spaced by scans as well as by ms)."""
    timing = Config().timing
    controller = open_controller(Config(), Storage(":memory:"), Game.of("antipalos", 3))
    board, hub = SimBoard(controller.layout.sensor_channels), Hub()
    bridge = WebBoard(board, hub, *gap(timing.debounce_scans, timing.scan_hz))
    for _ in range(2):
        hub.submit(parse('{"type": "toggle", "site": "B2*"}', {"B2*"}))
    shown = []
    for tick in range(40):
        now = tick * period
        bridge.sync(now, controller, controller.step(now, board.scan(), board.buttons.events()))
        shown.append(controller.board)
    assert frozenset({"B2*"}) in shown and shown[-1] == frozenset()


def test_stopping_with_pages_open_closes_them_at_once():
    async def watch(simulator):
        url = simulator.server.url.replace("http", "ws") + "ws"
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(url) as ws:
                await _hello_and_state(ws)
                await asyncio.get_running_loop().run_in_executor(None, simulator.stop)
                return await ws.receive()

    def scenario():
        simulator = web.start(SimBoard(16), Timing(), "127.0.0.1", 0, out=open(os.devnull, "w"))
        return run_async(watch(simulator))

    # In a thread of its own, as above: no other event loop may run where the server starts.
    # The stop returned (it raised after 5 s while a page held it up), and the page was told
    # the board is going away rather than its connection dropped.
    with ThreadPoolExecutor(1) as pool:
        closed = pool.submit(scenario).result()
    assert (closed.type, closed.data) == (aiohttp.WSMsgType.CLOSE, aiohttp.WSCloseCode.GOING_AWAY)


def test_a_stop_while_the_page_is_starting_waits_for_the_start_to_end():
    """A stop just after READY, while the page's libraries still load in their thread: the
    stop waits for that thread. (Exiting under it tore OpenSSL down while aiohttp's import
    read its certificates: the daemon died with SIGSEGV instead of its own status.)"""
    simulator = web.bind(SimBoard(16), Timing(), "127.0.0.1", 0, out=open(os.devnull, "w"))
    loading = threading.Event()
    simulator.serve_soon(then=loading.wait)  # the start's thread, held before it ends
    stopper = threading.Thread(target=simulator.stop)
    stopper.start()
    stopper.join(0.5)
    held = stopper.is_alive()
    loading.set()
    stopper.join(HANG_SECONDS)
    assert held, "the stop returned while the page was still starting"
    assert not stopper.is_alive()
    assert "web-start" not in [thread.name for thread in threading.enumerate()]


def test_a_download_after_a_restart_names_its_game_and_moves_and_replays_alone(tmp_path):
    """A daemon restarted mid-game resumes it; the page's download then starts with the
    resumed position and names its game, so `reedboard replay FILE` needs no options."""
    config = Config()
    storage = Storage(str(tmp_path / "games.db"))
    first = open_controller(config, storage, Game.of("anti-grid", 6))
    game_id = first.game_id
    for ply, move in enumerate(["a3-b3", "l10-k10"], 1):
        storage.add_move(game_id, ply, move)
    storage.close()
    storage = Storage(str(tmp_path / "games.db"))
    controller = open_controller(config, storage, Game.of("antipalos", 3))  # resumes anti-grid
    assert controller.moves == ["a3-b3", "l10-k10"]
    board = SimBoard(controller.layout.sensor_channels)
    for site in controller.boards[-1]:
        board.place(controller.layout.sensor[site])
    hub = Hub()
    bridge = WebBoard(board, hub, gap_ms=60)
    clicks = {100: "c1", 400: "c2"}
    for tick in range(120):
        now = tick * 10.0
        if now in clicks:
            hub.submit(parse(json.dumps({"type": "toggle", "site": clicks[now]}), hub.labels))
        bridge.sync(now, controller, controller.step(now, board.scan(), board.buttons.events()))
    assert controller.moves == ["a3-b3", "l10-k10", "c1-c2"]
    path = tmp_path / "download.replay.jsonl"
    path.write_text(hub.recording.text(), encoding="utf-8")
    assert json.loads(path.read_text().splitlines()[0]) == {
        "setup": "start",
        "game": "anti-grid",
        "size": 6,
        "variant": "plain",
        "moves": ["a3-b3", "l10-k10"],
    }
    done = subprocess.run(
        [sys.executable, "-m", "firmware_host.cli.main", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    end = json.loads(done.stdout.splitlines()[-1])
    assert end["moves"] == controller.moves and end["position"]["game"] == "anti-grid"


def test_a_new_game_leaves_nothing_of_the_last_games_sides_to_a_page():
    """Anti-Grid (Red and Blue, counting lost pieces), then a new game of Antipalos from the
    page: a page connecting now (a reload, /watch) gets Antipalos's sides and no losses."""
    controller = open_controller(Config(), Storage(":memory:"), Game.of("anti-grid", 6))
    board = SimBoard(controller.layout.sensor_channels)
    hub = Hub()
    bridge = WebBoard(board, hub, gap_ms=60)
    bridge.sync(0.0, controller, controller.step(0.0, board.scan(), board.buttons.events()))
    assert hub.current()["losses"] == {"red": 0, "blue": 0}
    hub.submit(parse('{"type": "new_game", "game": "antipalos"}', hub.labels))
    bridge.sync(10.0, controller, controller.step(10.0, board.scan(), board.buttons.events()))
    state = hub.current()
    assert state["game"]["sides"] == ["white", "black"] and state["losses"] is None
    said = json.dumps({k: v for k, v in state.items() if k not in ("oled", "events")}).lower()
    assert '"red"' not in said and '"blue"' not in said and "red to" not in said


def test_the_published_state_has_the_clocks_as_the_screen_draws_them():
    """With [clock] control = "60": the page gets each side's time, the running one and the
    flag; without a [clock] the key is None."""
    from firmware_host.store.config import ClockConfig

    game = Game.of("antipalos", 3)
    controller = open_controller(Config(clock=ClockConfig("60")), Storage(":memory:"), game)
    board = SimBoard(controller.layout.sensor_channels)
    hub = Hub()
    published = []
    hub.listen(published.append)
    bridge = WebBoard(board, hub, gap_ms=60)
    for tick in range(300):  # 3 s, White to move
        now = tick * 10.0
        bridge.sync(now, controller, controller.step(now, board.scan(), board.buttons.events()))
    clock = hub.current()["clock"]
    assert clock == {
        "control": "60",
        "running": "white",
        "flag": None,
        "paused": False,
        "text": {"white": "0:58", "black": "1:00"},
    }
    sent = [u["clock"]["text"]["white"] for u in published if u.get("clock")]
    assert sent == ["1:00", "0:59", "0:58"]  # sent as the text changes, not every scan
    plain = open_controller(Config(), Storage(":memory:"), Game.of("antipalos", 3))
    WebBoard(SimBoard(plain.layout.sensor_channels), other := Hub(), gap_ms=60).sync(0.0, plain, [])
    assert other.current()["clock"] is None


def test_the_page_says_when_the_daemon_has_read_its_commands_and_judged_the_board():
    """``read`` counts the commands a step has read (applied before it), ``settled`` says the
    board was judged at that step: a click is read at the step after the one that applied it,
    and once both say so the page shows the move it made."""
    controller = open_controller(Config(), Storage(":memory:"), Game.of("antipalos", 3))
    board = SimBoard(controller.layout.sensor_channels)
    hub = Hub()
    bridge = WebBoard(board, hub, gap_ms=60)
    seen: list[tuple[float, int, bool, int, bool]] = []  # (now, read, settled, moves, *C1 on) after each step
    for tick in range(300):
        now = tick * 10.0
        if now == 1000:
            hub.submit(parse(json.dumps({"type": "toggle", "site": "*C1"}), hub.labels))
        bridge.sync(now, controller, controller.step(now, board.scan(), board.buttons.events()))
        state = hub.current()
        seen.append((now, state["read"], state["settled"], state["status"]["moves"], bool(board.pieces())))
    assert {row[1:4] for row in seen if row[0] < 1000} == {(0, False, 0), (0, True, 0)}  # the start judged
    applied = next(row[0] for row in seen if row[4])  # the step whose sync applied the click
    read = next(row for row in seen if row[1] == 1)
    assert read[0] > applied and not read[2]  # read at the next step; the placing not yet settled
    assert next(row for row in seen if row[1] == 1 and row[2])[3] == 1  # the move judged
