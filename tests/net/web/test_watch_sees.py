"""What a spectator's socket (``/ws/watch``, no token) is sent by a real ``reedboard run --sim``:
only what the /watch page shows (the board, the pieces, the game's story and state). A player
asks for a hint on the controls' socket; the spectators never get the hint, the OLED image, the
settings, the event log nor the screen's lines."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import aiohttp

from testbed.running import Running
from testbed.tools import free_port, run_async

#: What the /watch page never shows.
UNSHOWN = {"oled", "settings", "events", "noise", "plan", "read", "settled"}


async def _until(ws, test, seen: list[dict], timeout: float = 30) -> dict:
    """Read ``ws`` (keeping every update in ``seen``) until an update passes ``test``."""
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads((await ws.receive()).data)
            seen.append(message)
            if message.get("type") == "update" and test(message):
                return message


async def _watch_a_hint(port: int) -> tuple[list[dict], list[dict]]:
    url = f"http://127.0.0.1:{port}"
    player, spectator = [], []
    async with aiohttp.ClientSession() as session:
        async with (
            session.ws_connect(f"{url}/ws") as controls,
            session.ws_connect(f"{url}/ws/watch") as watch,
        ):
            await controls.send_str(json.dumps({"type": "place", "site": "B2*"}))
            await _until(watch, lambda u: u.get("status", {}).get("moves") == 1, spectator)
            await controls.send_str(json.dumps({"type": "button", "button": "ok", "long": True}))
            await _until(controls, lambda u: "hint" in u.get("lights", {}).values(), player)
            await controls.send_str(json.dumps({"type": "place", "site": "C3*"}))
            await _until(watch, lambda u: u.get("status", {}).get("moves") == 2, spectator)
            await _until(controls, lambda u: u.get("status", {}).get("moves") == 2, player)
    return player, spectator


def test_spectators_are_sent_only_what_watch_shows(tmp_path: Path):
    port = free_port()
    config = tmp_path / "config.toml"
    config.write_text(
        f'game = "antipalos"\nsize = 5\nstorage = "{tmp_path / "games.db"}"\n[web]\nport = {port}\n'
    )
    board = Running(config)
    try:
        assert board.said("is at http://127.0.0.1")
        player, spectator = run_async(_watch_a_hint(port))
    finally:
        board.stop()
    # the players' page has it all, the hint included
    assert any("hint" in u.get("lights", {}).values() for u in player)
    assert any(UNSHOWN & set(u) for u in player)
    # the spectators' the board and the story only
    updates = [m for m in spectator if m["type"] == "update"]
    assert not [sorted(UNSHOWN & set(u)) for u in updates if UNSHOWN & set(u)]
    assert all(set(u.get("lights", {}).values()) <= {"win"} for u in updates)
    assert all(u["status"]["lines"] == [] for u in updates if "status" in u)
    assert any(u.get("history") for u in updates) and any(u.get("sites") for u in updates)
