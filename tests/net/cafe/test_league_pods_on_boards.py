"""Pods and teams on a real board: Cut-throat pods of three and of four and a Team Antipalos
table (two teams of two) paired by the league, seated by its ``table`` command on ``reedboard
run --sim``, each player pressing OK, and the game's result scored into the league and its
ratings."""

from __future__ import annotations

import json

import pytest

from testbed.broker import board_config
from tests.net.cafe.test_league_night import _open_tables, _overview, _wait, cafe, league

__all__ = ["cafe"]  # the dashboard's fixture, shared with the evening's test

pytestmark = pytest.mark.slow

#: Games on Antipalos 3 (placed by the seats in turn) and the side each ends with the win of.
RED_WINS = ["A2*", "A3*", "B2*", "*B3", "B1*", "A1*", "C1*", "C2*", "C3*"]  # Cut-throat 3
BLACK_TEAM_WINS = ["C3*", "*C1", "*A1", "B3*", "*C2", "*B2"]  # Team: A1, B1, A2, B2 in turn
#: Cut-throat 4 on Antipalos 4: White wins.
WHITE_WINS_4 = ["D1*", "D4*", "A4*", "B1*", "*D2", "*A2", "C1*", "*B2", "*B4", "C2*", "*A1", "D3*", "*C3"]


def _play(board, watcher, name: str, event: str, moves: list[str]) -> tuple[list[str], dict]:
    """The table the league sent to board ``name`` for ``event``, played: each seat's player
    presses OK when the board asks for them by name, then the seats place ``moves`` in turn.
    What the board asked, and its last state."""

    def ours(state: dict) -> bool:
        return (state.get("league") or {}).get("event") == event

    asked: list[str] = []
    state = watcher.state(name, lambda s: ours(s) and s["ready"] is not None)
    while state["ready"] is not None:
        asked.append(state["ready"])
        board.press("ok")
        state = watcher.state(name, lambda s: ours(s) and s["ready"] not in asked)
    # the last game's pieces read off before their sites are played again
    watcher.cleared(name, lambda s: ours(s) and s["ready"] is None)
    for site in moves:
        board.place(site)
        state = watcher.state(name, lambda s, site=site: ours(s) and site in s["moves"])
    for site in moves:
        board.lift(site)
    return asked, state


def _standings(config, capsys, event: str) -> dict[str, dict]:
    capsys.readouterr()
    assert league(config, "standings", "--json", "--event", event) == 0
    return {r["name"]: r for r in json.loads(capsys.readouterr().out)["standings"]}


def test_cut_throat_pods_and_a_team_table_are_played_on_a_board_and_scored(
    tmp_path, broker, watcher, boards, cafe, capsys
):
    config, url = cafe
    board = boards(board_config(tmp_path, broker.port, "table-1", size=3))
    board.wait_running()
    players = ["Anna", "Ben", "Cleo", "Dan"]
    for name in players:
        assert league(config, "player", "add", name) == 0

    # a Cut-throat pod of three: one table, three seats, the pod's winner scores
    pod = [
        "new",
        "Pods",
        *"--game antipalos --size 3 --variant cut-throat-3 --format pods --rounds 1".split(),
    ]
    assert league(config, *pod) == 0
    assert league(config, "register", *players[:3]) == 0
    assert league(config, "pair") == 0
    asked, state = _play(board, watcher, "table-1", "Pods", RED_WINS)
    seats = state["players"]
    assert sorted(seats) == players[:3] and asked == [f"{n}: press OK" for n in seats]
    title = watcher.state("table-1", lambda s: (s["league"] or {}).get("event") == "Pods")["screen"][0]
    assert title == f"Table 1: {seats[0]} – {seats[1]} – {seats[2]}"
    assert state["winner"] == "red"
    _wait(lambda: _open_tables(url) == [], 20, lambda: str(_overview(url)))
    rows = _standings(config, capsys, "Pods")
    assert {n: rows[n]["points"] for n in seats} == {seats[0]: 0.0, seats[1]: 0.0, seats[2]: 1.0}
    # OpenSkill, free for all: the winner rises, the two others (tied second) fall alike
    mu = {n: rows[n]["rating"]["mu"] for n in seats}
    assert mu[seats[2]] > 25 > mu[seats[0]] == pytest.approx(mu[seats[1]])
    assert all(rows[n]["rating"]["sigma"] < 25 / 3 for n in seats)

    # a Team Antipalos table: partners sit opposite (seats 1 and 3, 2 and 4) and win together
    team = ["new", "Teams", *"--game antipalos --size 3 --variant team --format pods --rounds 1".split()]
    assert league(config, *team) == 0
    assert league(config, "register", *players) == 0
    assert league(config, "pair") == 0
    asked, state = _play(board, watcher, "table-1", "Teams", BLACK_TEAM_WINS)
    seats = state["players"]
    assert sorted(seats) == players and asked == [f"{n}: press OK" for n in seats]
    assert state["winner"] == "black"
    # while they played, the OLED named the partners whose side was to move
    turns = [s["status"] for s in map(json.loads, watcher.texts("reedboard/table-1/state"))]
    assert any(f"{seats[0]}/{seats[2]} to move" == line for line in turns), turns[-12:]
    _wait(lambda: _open_tables(url) == [], 20, lambda: str(_overview(url)))
    rows = _standings(config, capsys, "Teams")
    assert {n: rows[n]["points"] for n in seats} == dict(zip(seats, (0.0, 1.0, 0.0, 1.0)))
    # OpenSkill, teams: each winner's rating rose in this game, each loser's fell
    for name, won in zip(seats, (False, True, False, True)):
        steps = [(h["event"], h["mu"]) for h in rows[name]["rating"]["history"]]
        before = steps[-2][1] if len(steps) > 1 else 25.0
        assert steps[-1][0] == "Teams" and (steps[-1][1] > before) == won, (name, steps)

    # a Cut-throat pod of four, on Antipalos 4 (rated apart from Antipalos 3): the first seat wins
    four = [
        "new",
        "Fours",
        *"--game antipalos --size 4 --variant cut-throat-4 --format pods --rounds 1".split(),
    ]
    assert league(config, *four) == 0
    assert league(config, "register", *players) == 0
    assert league(config, "pair") == 0
    asked, state = _play(board, watcher, "table-1", "Fours", WHITE_WINS_4)
    seats = state["players"]
    assert sorted(seats) == players and asked == [f"{n}: press OK" for n in seats]
    assert state["winner"] == "white"
    _wait(lambda: _open_tables(url) == [], 20, lambda: str(_overview(url)))
    rows = _standings(config, capsys, "Fours")
    assert {n: rows[n]["points"] for n in seats} == dict(zip(seats, (1.0, 0.0, 0.0, 0.0)))
    mu = [rows[n]["rating"]["mu"] for n in seats]
    assert mu[0] > 25 > mu[1] == pytest.approx(mu[2]) == pytest.approx(mu[3])
