"""A loop that waits for a hand on a settled board still steps for a running game clock: its
last seconds drawn a few times a second, its flag falling at its time (on the daemon's waiting
loop as ``testbed.board_under_test.Table(waits=True)`` steps it, on a virtual clock)."""

from __future__ import annotations

from dataclasses import replace

from firmware_host.board.clock import DRAW_MS
from firmware_host.board.controller import Game
from firmware_host.store.config import ClockConfig, Config
from testbed.board_under_test import BoardUnderTest, Table


def test_a_settled_board_draws_its_running_clock_and_drops_the_flag_on_time():
    table = Table(waits=True)
    board = BoardUnderTest(
        Game.of("antipalos", 3), table=table, config=replace(Config(), clock=ClockConfig("3"))
    )
    assert board.settle()
    board.run(4000)
    flags = [e for e in board.events if e["event"] == "clock" and e["flag"]]
    assert flags and -table.period_ms <= flags[-1]["left"]["white"] <= 0  # at its time: within a scan
    over = next(e for e in board.events if e["event"] == "game_over")
    assert over["result"] == "time" and over["winner"] == "black"
    drawn = [e for e in board.events if e["event"] == "display" and e["t"] < over["t"]]
    clocks = [e["lines"][1].split()[0] for e in drawn]  # White's clock, as the screen showed it
    assert len(drawn) >= 3000 / DRAW_MS - 1, clocks  # four times a second, not twice
    assert all(b["t"] - a["t"] >= DRAW_MS for a, b in zip(drawn, drawn[1:]))
