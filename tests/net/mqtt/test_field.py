"""The player robot in the field (testbed/field.py): real ``reedboard run --sim`` processes
configured as docs/cafe.md writes a café's boards, on a Mosquitto with the docs' password file
and ACL, the robot playing through the page's websocket and the daemon's stdin. A short run of
each kind; ``bench/field.py`` runs it long.

A failure names the invariant, and the stream of what the robot did at the board (its config
first) is written to ``test-output/field/``."""

from __future__ import annotations

from pathlib import Path

import pytest

from testbed.field import PATHS, Field, run_field
from testbed.tools import wait_until

pytestmark = pytest.mark.broker
OUT = Path(__file__).resolve().parents[3] / "test-output" / "field"


def played(tmp_path, game, intentions, paired=False, seed=1):
    run = run_field(tmp_path, game, seed, intentions, paired)
    if run.violation is not None:
        OUT.mkdir(parents=True, exist_ok=True)
        path = OUT / f"{run.violation.invariant.replace(' ', '_')}.jsonl"
        path.write_text(run.violation.stream)
        raise AssertionError(f"after {run.done} intentions: {run.violation}\nstream: {path}")
    return run.games


def test_one_board_plays_all_five_games_from_every_path_through_restarts(tmp_path):
    """table-7 as docs/cafe.md configures it: a new game of each other game from the page, the
    menu, an MQTT command, Home Assistant's select and the dashboard; the daemon killed and
    stopped, the broker restarted, the computer brought in; the record stored and the state
    published are the ones played throughout."""
    intentions = ["move"]
    for path in PATHS:
        intentions += [f"switch {path}", "move"]
    intentions[5:5] = ["restart kill"]
    intentions[9:9] = ["broker"]
    intentions += ["players command", "move", "restart term", "move"]
    games = played(tmp_path, ("antipalos", 3, "two"), intentions)
    assert {title.split()[0] for title in games} >= {
        "Antipalos",
        "Antipode",
        "Antipod",
        "Anti-Grid",
        "Phalanx",
    }


def test_a_pair_plays_through_new_games_takebacks_asked_again_and_restarts(tmp_path):
    """home and friend as docs/cafe.md pairs them (home's hands on the page, friend's on
    stdin): moves carried out on the other board; a takeback asked, refused, the asking board
    restarted and the takeback asked again (the other board's players are asked again); new
    games of another game from an MQTT command and the dashboard; each daemon restarted
    (SIGKILL), the broker restarted; both boards hold the same record whenever both are idle.
    (bench/field.py runs the pair at length, every path and Home Assistant's select too.)"""
    intentions = [
        "move",
        "move",
        "takeback again",
        "switch mqtt",
        "move",
        "restart kill",
        "broker",
        "switch dashboard",
        "move",
    ]
    games = played(tmp_path, ("antipod", 4, None), intentions, paired=True)
    assert len(games) >= 2


def test_the_dashboard_follows_a_board_whose_menu_is_open(tmp_path):
    """MENU pressed on table-7: its tile on the dashboard shows the menu, and the dashboard
    drops nothing."""
    field = Field(tmp_path, ("antipalos", 3, "two"))

    def tile() -> list:
        return [
            r["table"]["state"].get("screen", [])[:1]
            for r in field.cafe.replies
            if r.get("type") == "table" and r["table"].get("id") == "table-7"
        ]

    try:
        field.boards[0].press("menu")
        field.cafe.watcher.state("table-7", lambda s: s["screen"][:1] == ["Menu"])
        assert wait_until(lambda: ["Menu"] in tile()), f"the dashboard said {field.cafe.journal}"
        assert not field.cafe.journal
    finally:
        field.close()
