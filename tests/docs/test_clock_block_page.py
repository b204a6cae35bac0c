"""docs/config.md's ``[clock]`` block exactly as the doc shows it, on a real ``reedboard run
--sim``, played through the board's page (its websocket, its stored games) as a player at the
page does: both clocks shown at 5:00 (300 s each), White's running down from the start, White's
move pressing it (the time the move took given back up to the Bronstein delay's 2 s, then the
3 s increment), Black's running down after it, and the stored game's record keeping the control
and White's time after the move."""

from __future__ import annotations

import asyncio
import json
import urllib.request

import aiohttp

from testbed.running import Running
from testbed.tools import free_port, run_async
from tests.docs.test_config_tables_run import WEB, doc_block


async def _until(ws, test, timeout: float = 30) -> dict:
    """The first update on ``ws`` that passes ``test``."""
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads((await ws.receive()).data)
            if message.get("type") == "update" and test(message):
                return message


def _clock(update: dict) -> dict | None:
    return update.get("clock")


def _told(update: dict) -> list[dict]:
    """The update's clock events (the page's event log)."""
    return [e for e in update.get("events", []) if e["event"] == "clock"]


async def _play(port: int) -> tuple[dict, dict, dict, dict]:
    """The clocks shown at the start and running down, White's move placed, the clock events
    before and after its press, and Black's clock shown running down."""
    async with aiohttp.ClientSession() as session, session.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
        first = await _until(ws, lambda u: _clock(u) is not None)
        down = await _until(
            ws, lambda u: (_clock(u) or {}).get("text", {}).get("white") not in (None, "5:00")
        )
        await ws.send_str(json.dumps({"type": "place", "site": "B2*"}))
        pressed = await _until(ws, lambda u: any(e["running"] == "black" for e in _told(u)))
        black = await _until(
            ws, lambda u: (_clock(u) or {}).get("text", {}).get("black") not in (None, "5:00")
        )
    return first, down, pressed, black


def test_the_docs_clock_block_runs_on_the_board_s_page(tmp_path):
    port = free_port()
    config = tmp_path / "config.toml"
    config.write_text(
        f'game = "antipalos"\nsize = 5\nstorage = "{tmp_path / "games.db"}"\n\n{doc_block("[clock]")}'
        + WEB.format(port)
    )
    board = Running(config)
    try:
        assert board.said("is at http://127.0.0.1")
        first, down, pressed, black = run_async(_play(port))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/1.txt", timeout=10) as answer:
            record = answer.read().decode()
    finally:
        board.stop()
    shown = first["clock"]
    # both clocks at 5:00 when White's began (the page may connect a second or more after it,
    # on a loaded machine, and so first show White's at 4:59)
    start = next(e for u in (first, down, pressed) for e in _told(u) if e["running"] == "white")
    assert start["left"] == {"white": 300_000, "black": 300_000}, start
    assert shown["control"] == "300+3" and shown["text"]["black"] == "5:00", shown
    assert shown["running"] == "white" and down["clock"]["running"] == "white"
    # White's press: the time its turn took (from the switch the start's event tells to the
    # press White's event tells), at most 2 s of it given back, 3 s added
    (press,) = [e for e in _told(pressed) if e["running"] == "black"]
    used = (press["t"] - press["elapsed"]) - (start["t"] - start["elapsed"])
    assert abs(press["left"]["white"] - (300_000 - used + min(used, 2_000) + 3_000)) <= 2, (start, press)
    assert press["left"]["black"] == 300_000 and black["clock"]["running"] == "black"
    assert '[TimeControl "300+3"]' in record
    clk = int(press["left"]["white"] // 1000)
    assert f"{{[%clk 0:{clk // 60:02d}:{clk % 60:02d}]}}" in record, record
