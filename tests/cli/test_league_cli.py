"""``reedboard league`` on the café dashboard's config: an event run from the command line, and
bad input refused in one line with nothing changed."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from firmware_host.cli.main import main
from testbed.tools import free_port


@pytest.fixture
def cafe(tmp_path: Path) -> Path:
    config = tmp_path / "cafe.toml"
    config.write_text(
        f'[archive]\nurl = "sqlite://{tmp_path}/cafe.db"\n\n[league]\ntables = ["table-1", "table-2"]\n'
    )
    return config


def league(capsys, config: Path, *words: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["league", *words, "--config", str(config)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_an_evening_from_the_command_line(cafe: Path, capsys) -> None:
    assert league(capsys, cafe, "new", "Thursday league", "--game", "anti-grid", "--rounds", "2")[0] == 0
    for name in ("Anna", "Ben", "Cleo", "Dan"):
        assert league(capsys, cafe, "player", "add", name)[0] == 0
    assert league(capsys, cafe, "player", "add", "Eve", "--tag", "EVE")[0] == 0
    assert league(capsys, cafe, "player", "list")[1].splitlines()[-1] == "Eve [EVE]"
    code, out, _ = league(capsys, cafe, "register", "Anna", "Ben", "Cleo", "Dan")
    assert (code, out) == (0, "4 players entered\n")
    code, out, _ = league(capsys, cafe, "pair", "--no-send")
    assert code == 0 and out.splitlines() == [
        "round 1 table 1 (table-1): Anna – Cleo",
        "round 1 table 2 (table-2): Dan – Ben",
    ]
    assert league(capsys, cafe, "result", "1", "1-0")[1] == "round 1 table 1 (table-1): Anna – Cleo  1-0\n"
    assert league(capsys, cafe, "result", "2", "Ben")[0] == 0
    rows = list(csv.DictReader(io.StringIO(league(capsys, cafe, "standings", "--csv")[1])))
    assert [(r["rank"], r["name"], r["points"]) for r in rows] == [
        ("1", "Anna", "1.0"),
        ("1", "Ben", "1.0"),
        ("3", "Cleo", "0.0"),
        ("3", "Dan", "0.0"),
    ]
    assert float(rows[0]["rating"]) > 25 > float(rows[3]["rating"])
    data = json.loads(league(capsys, cafe, "standings", "--json")[1])
    assert data["event"] == "Thursday league" and data["round"] == 1
    assert data["standings"][0]["rating"]["games"] == 1
    rated = league(capsys, cafe, "ratings")[1].splitlines()
    assert rated[0] == "anti-grid 6" and rated[1].split()[:2] == ["1.", "Anna"] and "(1 game)" in rated[1]
    text = league(capsys, cafe, "standings")[1]
    assert "Thursday league, round 1 of 2" in text and "buchholz" in text


def test_every_command_says_what_it_did_or_that_there_is_nothing(cafe: Path, capsys) -> None:
    said = league(capsys, cafe, "new", "Friday league", "--game", "anti-grid", "--rounds", "1")[1]
    assert said == "Friday league: swiss, 1 round of anti-grid 6\n"
    assert league(capsys, cafe, "player", "list")[:2] == (
        0,
        "No players yet: reedboard league player add NAME\n",
    )
    assert league(capsys, cafe, "ratings")[:2] == (
        0,
        "No rated games yet: ratings come with the first result\n",
    )
    assert league(capsys, cafe, "ratings", "--json")[:2] == (0, "{}\n")
    assert league(capsys, cafe, "player", "add", "Anna")[:2] == (0, "Added Anna (1 player)\n")
    assert league(capsys, cafe, "player", "add", "Ben", "--tag", "BEN")[:2] == (0, "Added Ben (2 players)\n")
    assert league(capsys, cafe, "player", "list")[1] == "Anna\nBen [BEN]\n"


@pytest.mark.parametrize("points, said", [("0", "0 points"), ("0.5", "1/2 point"), ("1", "1 point")])
def test_a_bye_says_its_points(cafe: Path, capsys, points: str, said: str) -> None:
    league(capsys, cafe, "new", "Bye league", "--game", "anti-grid", "--rounds", "2")
    league(capsys, cafe, "player", "add", "Anna")
    league(capsys, cafe, "register", "Anna")
    code, out, _ = league(capsys, cafe, "bye", "Anna", "--points", points)
    assert (code, out) == (0, f"Anna: a bye in round 1 ({said})\n")


@pytest.mark.parametrize(
    "words, message",
    [
        (["new", "X", "--game", "chess"], "--game: no game 'chess'"),
        (["new", "X", "--game", "anti-grid", "--control", "5x"], "--control: '5x' is no time control"),
        (["new", "X", "--game", "antipalos", "--variant", "cut-throat-3"], "--format: a game of 3 seats"),
        (["new", "X", "--game", "anti-grid", "--tiebreaks", "koya"], "--tiebreaks: 'koya' is none of"),
        (["player", "add", "x" * 30], "a player's name is 1 to 24 printable characters"),
        (["register", "Nobody"], "no event yet: reedboard league new NAME --game G"),
        (["pair"], "no broker to send the tables to"),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(
    cafe: Path, capsys, words: list[str], message: str
) -> None:
    before = (cafe.parent / "cafe.db").exists()
    code, out, err = league(capsys, cafe, *words)
    assert code == 2 and out == ""
    assert err.startswith(f"reedboard league: {message}") and err.count("\n") == 1
    if before:
        return
    code, out, err = league(capsys, cafe, "player", "list")
    assert (code, out) == (0, "No players yet: reedboard league player add NAME\n")


def test_a_bad_config_is_named(tmp_path: Path, capsys) -> None:
    config = tmp_path / "cafe.toml"
    config.write_text('[league]\ntables = ["Table 1"]\n')
    code, _, err = league(capsys, config, "player", "list")
    assert code == 2 and "[league] tables must use only a-z, 0-9" in err and str(config) in err


def test_pairing_with_the_broker_away_pairs_nothing(cafe: Path, capsys) -> None:
    with cafe.open("a") as config:
        config.write(f'\n[mqtt]\nhost = "127.0.0.1"\nport = {free_port()}\n')
    assert league(capsys, cafe, "new", "Thursday league", "--game", "anti-grid")[0] == 0
    for name in ("Anna", "Ben"):
        league(capsys, cafe, "player", "add", name)
    league(capsys, cafe, "register", "Anna", "Ben")
    code, out, err = league(capsys, cafe, "pair")
    assert (code, out) == (2, "") and "did not answer: nothing was paired" in err
    assert json.loads(league(capsys, cafe, "standings", "--json")[1])["round"] == 0
