"""A league night end to end: a real Mosquitto, the café dashboard (``reedboard cafe``) as a
process, the arbiter's ``reedboard league`` commands, and four real boards (``reedboard run
--sim``) whose players press OK and play each round's tables; the results come from the games
the boards record. The desk's tests use board stand-ins (testbed/league.py) that take the
``table`` commands as the contract between the café side and the board side writes them."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import aiohttp
import pytest

from firmware_host.cli.main import main
from testbed.broker import board_config
from testbed.league import StandIn, play_round
from testbed.stopping import stop
from testbed.tools import REEDBOARD, free_port, run_async
from tests.league.test_ratings import MU, SIGMA, plackett_luce_two

pytestmark = pytest.mark.slow

PLAYERS = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana"]
BOARDS = ["table-1", "table-2", "table-3", "table-4"]
OUTPUT = Path(__file__).resolve().parents[3] / "test-output"


def seed_wins(names: list[str]) -> str:
    """The side of the player registered first: the evening's games all go to the seed."""
    return "white" if PLAYERS.index(names[0]) < PLAYERS.index(names[1]) else "black"


@contextmanager
def dashboard(folder: Path, port: int, tables: list[str]) -> Iterator[tuple[Path, str]]:
    """The dashboard's config (as docs/league.md shows it: the broker at ``port``, the league's
    ``tables``) and the dashboard running on it: the config and the dashboard's address."""
    config = folder / "cafe.toml"
    listed = ", ".join(f'"{b}"' for b in tables)
    config.write_text(
        f'[mqtt]\nhost = "127.0.0.1"\nport = {port}\n\n'
        f'[archive]\nurl = "sqlite://{folder}/cafe.db"\n\n[league]\ntables = [{listed}]\n'
    )
    web, journal = free_port(), folder / "cafe.log"
    process = subprocess.Popen(
        [*REEDBOARD, "cafe", "--config", str(config), "--port", str(web), "--state", str(folder)],
        stderr=journal.open("w"),
    )
    try:
        _wait(lambda: "dashboard is at" in journal.read_text() or process.poll() is not None)
        assert process.poll() is None, journal.read_text()
        yield config, f"http://127.0.0.1:{web}"
    finally:
        stop(process)


@pytest.fixture
def cafe(tmp_path: Path, broker):
    """The dashboard on the league's four boards."""
    with dashboard(tmp_path, broker.port, BOARDS) as started:
        yield started


def league(config: Path, *words: str) -> int:
    return main(["league", *words, "--config", str(config)])


def test_an_evening_of_three_swiss_rounds_on_four_boards(
    tmp_path, cafe, broker, watcher, boards, capsys
) -> None:
    config, url = cafe
    tables = {b: boards(board_config(tmp_path, broker.port, b, size=3)) for b in BOARDS}
    for board in tables.values():
        board.wait_running()

    # Gus and Hana's last game is not finished on its board: the arbiter enters it at the desk
    def winner(names: list[str]) -> str | None:
        return None if set(names) == {"Gus", "Hana"} else seed_wins(names)

    new = ["new", "Thursday league", *"--game antipalos --size 3 --rounds 3 --control 300+3".split()]
    assert league(config, *new) == 0
    for name in PLAYERS:
        assert league(config, "player", "add", name) == 0
    assert league(config, "register", *PLAYERS) == 0
    games = []
    for round_no in (1, 2, 3):
        capsys.readouterr()
        assert league(config, "pair") == 0, capsys.readouterr()
        said = capsys.readouterr().out
        assert said.count(" sent, ok") == 4, said
        played = play_round(tables, watcher, round_no, winner)
        for board, state in played.items():
            names = state["players"]
            assert state["league"] == {
                "event": "Thursday league",
                "round": round_no,
                "table": BOARDS.index(board) + 1,
            }
            assert state["winner"] == winner(names)
            # the board named its table and players on its screen, and ran the event's clock
            table = f"Table {state['league']['table']}: {names[0]} – {names[1]}"
            shown = watcher.state(board, lambda s: s["league"] == state["league"] and s["ready"])
            assert shown["screen"][0] == table and shown["ready"] == f"{names[0]}: press OK"
            assert state["clock"]["control"] == "300+3"
            games.append((round_no, state["league"]["table"], names))
        assert sorted(n for _, _, names in games[-4:] for n in names) == sorted(PLAYERS)
        left = [t for r, t, names in games if r == round_no and winner(names) is None]
        _wait(lambda: _open_tables(url) == left, 20, lambda: str(_overview(url)))
        for table in left:  # the arbiter at the desk: the seed won
            status, answer = _post(url + "/api/league/result", {"table": table, "result": "Gus"})
            assert (status, answer["ok"]) == (200, True), answer
    # every other result came from a game a board recorded: the archive keeps it, with its table
    with sqlite3.connect(tmp_path / "cafe.db") as db:
        kept = db.execute(
            "SELECT league_round, league_table, players, winner FROM games WHERE league_event = ?",
            ("Thursday league",),
        ).fetchall()
        keys = db.execute("SELECT COUNT(game_key) FROM league_pairings WHERE event = ?", ("Thursday league",))
        assert keys.fetchone() == (11,)
    assert sorted((r, t, json.loads(p), w) for r, t, p, w in kept) == sorted(
        (r, t, names, winner(names)) for r, t, names in games if winner(names)
    )
    met = [frozenset(names) for _, _, names in games]
    assert len(met) == len(set(met)) == 12  # no rematch

    # by hand: a win is 1 point; Buchholz the opponents' points; Sonneborn-Berger those of the beaten
    points = {p: 0.0 for p in PLAYERS}
    for _, _, names in games:
        points[names[0] if seed_wins(names) == "white" else names[1]] += 1
    opponents = {p: [o for _, _, ns in games if p in ns for o in ns if o != p] for p in PLAYERS}
    beaten = {p: [o for o in opponents[p] if PLAYERS.index(p) < PLAYERS.index(o)] for p in PLAYERS}
    expected = {
        p: (points[p], sum(points[o] for o in opponents[p]), sum(points[o] for o in beaten[p]))
        for p in PLAYERS
    }
    capsys.readouterr()
    assert league(config, "standings", "--json") == 0
    rows = json.loads(capsys.readouterr().out)["standings"]
    assert {r["name"]: (r["points"], r["buchholz"], r["sonneborn-berger"]) for r in rows} == expected
    keys = [expected[r["name"]] for r in rows]
    assert keys == sorted(keys, reverse=True) and rows[0]["name"] == "Anna" and rows[-1]["name"] == "Hana"

    # the ratings by hand: Plackett-Luce, game after game in the order played (round, table)
    ratings = {p: (MU, SIGMA) for p in PLAYERS}
    for _, _, names in sorted(games):
        won = 0 if seed_wins(names) == "white" else 1
        after = plackett_luce_two([ratings[n][0] for n in names], [ratings[n][1] for n in names], won)
        ratings.update(zip(names, after))
    for r in rows:
        assert (r["rating"]["mu"], r["rating"]["sigma"]) == pytest.approx(ratings[r["name"]])
        assert r["rating"]["games"] == 3

    # each player's page: their games and their rating after each
    status, _, text = run_async(_get(url + "/api/league/players/anna"))
    anna = json.loads(text)
    assert status == 200 and anna["name"] == "Anna" and [g["points"] for g in anna["games"]] == [1.0] * 3
    steps = anna["ratings"]["antipalos 3"]
    assert [s["round"] for s in steps] == [1, 2, 3]
    assert (steps[-1]["mu"], steps[-1]["sigma"]) == pytest.approx(ratings["Anna"])

    # the dashboard's wall says the same
    wall = _overview(url)
    assert wall["round"] == 3 and [r["name"] for r in wall["standings"]] == [r["name"] for r in rows]


def test_the_wall_is_readable_from_across_the_room(cafe, page, capsys) -> None:
    config, url = cafe
    for name in PLAYERS[:5]:
        assert league(config, "player", "add", name) == 0
    assert league(config, "new", "Thursday league", "--game", "anti-grid", "--rounds", "3") == 0
    assert league(config, "register", *PLAYERS[:5]) == 0
    assert league(config, "pair", "--no-send") == 0
    assert league(config, "result", "1", "1-0") == 0
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(url + "/league")
    page.wait_for_selector("#standings tr")
    assert page.inner_text("#event") == "Thursday league"
    assert page.inner_text("#round") == "Round 1 of 3"
    tables = page.locator("#tables li")
    assert tables.count() == 3 and "Bye" in tables.nth(2).inner_text()
    assert "Anna – Cleo" in tables.nth(0).inner_text() and "1-0" in tables.nth(0).inner_text()
    # large type: the tables and the standings at 32 px and more, on a 1080p screen
    for selector in ("#tables .names", "#standings td"):
        size = page.eval_on_selector(selector, "e => parseFloat(getComputedStyle(e).fontSize)")
        assert size >= 32, (selector, size)
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "league-wall.png"))
    page.goto(url + "/league/desk")
    page.wait_for_selector("#open-tables option", state="attached")
    page.select_option("#open-tables", "2")
    page.fill("#result input[name=result]", "draw")
    page.click("#result button")
    page.wait_for_selector("#said:has-text('table 2: draw')")
    page.fill("#player input[name=name]", "Anna")
    page.click("#player button")
    page.wait_for_selector("#said.bad:has-text(\"a player is called 'Anna' already\")")
    page.screenshot(path=str(OUTPUT / "league-desk.png"))
    page.click("#roster a:text('Anna')")
    page.wait_for_selector("#games tr")
    assert page.inner_text("#name") == "Anna" and "Cleo" in page.inner_text("#games")
    assert "27.6 ± 8.1" in page.inner_text("#ratings")
    page.screenshot(path=str(OUTPUT / "league-player.png"))
    assert [t["points"] for t in _overview(url)["tables"]][:2] == [[1.0, 0.0], [0.5, 0.5]]
    capsys.readouterr()
    league(config, "standings", "--csv")
    status, kind, text = run_async(_get(url + "/league/standings.csv"))
    assert (status, kind) == (200, "text/csv") and text == capsys.readouterr().out
    assert (
        text.splitlines()[0]
        == "rank,name,points,played,buchholz,sonneborn-berger,direct-encounter,rating,uncertainty"
    )


def test_the_desk_runs_a_round_on_the_boards(cafe, broker) -> None:
    """Create, add, register and pair at the desk: the boards get their tables, and their games
    give the tables their results."""
    _, url = cafe
    boards = [StandIn(broker.port, board, seed_wins) for board in BOARDS[:2]]
    try:
        _wait(lambda: _seen(url) >= set(BOARDS[:2]))
        actions = [("new", {"name": "Friday", "game": "antipalos", "size": "3", "rounds": "2"})]
        actions += [("player", {"name": name}) for name in PLAYERS[:4]]
        actions += [("player", {"name": "Eve"}), ("register", {"names": [*PLAYERS[:4], "Eve"]})]
        actions += [("bye", {"name": "Eve", "points": 0.5}), ("pair", {})]
        for action, body in actions:
            status, answer = _post(f"{url}/api/league/{action}", body)
            assert (status, answer["ok"]) == (200, True), (action, answer)
        assert answer["said"] == "round 1 paired: 3 tables"  # two games and Eve's bye
        _wait(lambda: all(b.commands for b in boards))
        sent = [[c["command"], c["event"], c["round"]] for b in boards for c in b.commands]
        assert sent == [["table", "Friday", 1], ["table", "Friday", 1]]
        _wait(lambda: _open_tables(url) == [], 20, lambda: str(_overview(url)))
        *games, bye = _overview(url)["tables"]
        assert (bye["names"], bye["points"], bye["bye"]) == (["Eve"], [0.5], True)
        for table in games:
            assert table["points"] == ([1.0, 0.0] if seed_wins(table["names"]) == "white" else [0.0, 1.0])
        status, answer = _post(url + "/api/league/pair", {"again": True})
        assert (status, answer["error"]) == (400, "Friday: round 1 has results: it cannot be paired again")
    finally:
        for board in boards:
            board.close()


def test_the_desk_refuses_another_sites_form_and_a_bad_result(cafe) -> None:
    _, url = cafe

    async def form() -> int:
        async with aiohttp.ClientSession() as session:
            async with session.post(url + "/api/league/player", data={"name": "Mallory"}) as response:
                return response.status

    assert run_async(form()) == 415
    status, answer = _post(url + "/api/league/result", {"table": 1, "result": "1-0"})
    assert status == 400 and answer == {
        "ok": False,
        "error": "no event yet: reedboard league new NAME --game G",
    }
    assert _overview(url)["players"] == []


def _overview(url: str) -> dict:
    async def get() -> dict:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as session:
            async with session.get(url + "/api/league") as response:
                return await response.json()

    return run_async(get())


async def _get(url: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as session:
        async with session.get(url) as response:
            return response.status, response.content_type, await response.text()


def _seen(url: str) -> set[str]:
    """The boards the dashboard sees online (the desk pairs onto them)."""

    async def hello() -> dict:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as session:
            async with session.ws_connect(url + "/ws") as ws:
                return json.loads((await ws.receive(timeout=5)).data)

    return {t["id"] for t in run_async(hello())["tables"] if t["online"]}


def _open_tables(url: str) -> list[int]:
    return [t["table"] for t in _overview(url)["tables"] if t["points"] is None]


def _post(url: str, body: dict) -> tuple[int, dict]:
    async def post() -> tuple[int, dict]:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as session:
            async with session.post(url, json=body) as response:
                return response.status, await response.json()

    return run_async(post())


def _wait(test, seconds: float = 20, why=lambda: "gave up waiting") -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, why()
        time.sleep(0.2)


def test_the_league_keeps_to_the_archives_postgresql(postgres) -> None:
    """The same tables in PostgreSQL (``[archive] url``), a board's game found there by its
    event, round and table."""
    from firmware_host.league.model import Event
    from firmware_host.league.store import LeagueStore
    from firmware_host.net.cafe.archive import Archive, read_record

    url = postgres.database()
    archive = Archive.open(url)
    store = LeagueStore.open(url)
    for name in PLAYERS[:4]:
        store.add_player(name)
    store.new_event(Event("Thursday league", "antipalos", 3, rounds=2))
    store.register(None, PLAYERS[:4])
    tables = store.pair(boards=BOARDS[:2])
    names = list(tables[0].names)
    record = {
        "id": 1,
        "game": "antipalos",
        "size": 3,
        "variant": "two",
        "started": "2026-11-23T20:01:00Z",
        "finished": "2026-11-23T20:09:00Z",
        "result": "black wins by connection",
        "winner": "black",
        "moves": ["*C2", "*C3", "*A2", "C1*", "A3*", "*B1", "*B2", "A1*"],
        "players": names,
        "league": {"event": "Thursday league", "round": 1, "table": 1},
    }
    archive.store("table-1", read_record(json.dumps(record).encode()))
    assert store.collect() == 1
    store.set_result(None, 2, "1/2-1/2")
    rows = {r["name"]: r for r in store.standings()}
    assert rows[names[1]]["points"] == 1.0 and rows[names[0]]["points"] == 0.0
    assert rows[names[1]]["rating"]["mu"] > 25
    store.close()
    again = LeagueStore.open(url)  # migrated once, kept
    assert [(p.names, p.points) for p in again.pairings()] == [
        (tuple(names), (0.0, 1.0)),
        (tables[1].names, (0.5, 0.5)),
    ]
    again.close()
