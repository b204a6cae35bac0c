"""A league round as a café runs it, every part real: the dashboard (``reedboard cafe``) and
two boards (``reedboard run --sim``) on one Mosquitto, configured as docs/league.md and
docs/cafe.md show; ``reedboard league pair`` sends each board its table, the players press OK
and play, and the result reaches the standings from the boards alone."""

from __future__ import annotations

import json

import pytest

from testbed.broker import board_config
from tests.net.cafe.test_league_night import _open_tables, _overview, _wait, cafe, league

__all__ = ["cafe"]  # the dashboard's fixture, shared with the evening's test

pytestmark = pytest.mark.slow

#: White's connection in Antipalos 3, placed by the players in turn.
WHITE_WINS = ["A1*", "A3*", "B2*", "C1*", "C3*"]


def test_a_round_paired_at_the_desk_is_played_on_real_boards_and_scored(
    tmp_path, broker, watcher, boards, cafe, capsys
):
    config, url = cafe
    started = {b: boards(board_config(tmp_path, broker.port, b, size=3)) for b in ("table-1", "table-2")}
    for board in started.values():
        board.wait_running()
    assert league(config, "new", "Friday league", "--game", "antipalos", "--size", "3", "--rounds", "1") == 0
    for name in ("Anna", "Ben", "Cleo", "Dan"):
        assert league(config, "player", "add", name) == 0
    assert league(config, "register", "Anna", "Ben", "Cleo", "Dan") == 0
    capsys.readouterr()
    assert league(config, "pair") == 0
    assert capsys.readouterr().out.count(" sent, ok") == 2
    seated = {}
    for name, board in started.items():
        state = watcher.state(name, lambda s: s["league"] is not None and s["ready"] is not None)
        assert state["screen"][0].startswith(f"Table {state['league']['table']}: ")
        seated[name] = state["players"]
        since = len(watcher.texts(f"reedboard/{name}/state"))
        board.press("ok")
        board.press("ok")
        # both OKs in (a state after them: a piece placed before the last OK is asked off)
        watcher.newer(f"reedboard/{name}/state", since, lambda s: s["ready"] is None and s["ply"] == 0)
        for site in WHITE_WINS:
            board.place(site)
            watcher.state(name, lambda s, site=site: site in s["moves"])
        assert watcher.state(name, lambda s: s["winner"] is not None)["winner"] == "white"
    _wait(lambda: _open_tables(url) == [], 30, lambda: str(_overview(url)))
    capsys.readouterr()
    assert league(config, "standings", "--json") == 0
    points = {r["name"]: r["points"] for r in json.loads(capsys.readouterr().out)["standings"]}
    winners = {names[0] for names in seated.values()}
    assert points == {n: 1.0 if n in winners else 0.0 for names in seated.values() for n in names}
