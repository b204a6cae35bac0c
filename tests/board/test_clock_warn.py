"""The low-time warning on the LEDs (``[clock] warn``), as players see it: the board's corners
blink fast white while the running clock has less than the warning's seconds left; not before,
not with the option off, not while an arbiter has paused the clocks."""

from __future__ import annotations

from firmware_host.actions.commands import SetClock
from firmware_host.board.game import Game
from firmware_host.board.view import LIGHTS, corners
from firmware_host.store.config import ClockConfig
from testbed.drive import Drive


def corners_lit(drive: Drive) -> dict:
    return {site: drive.lit(site) for site in corners(drive.ctl.state)}


def test_the_corners_blink_while_the_running_clock_is_low():
    drive = Drive(Game.of("antipalos", 5), clock=ClockConfig("15", warn=10)).run(600)
    assert set(corners_lit(drive).values()) == {None}  # 15 s left: no warning
    drive.run(6000)  # White's clock under 10 s
    assert set(corners_lit(drive).values()) == {LIGHTS["low_time"]}
    assert LIGHTS["low_time"].colour == (255, 255, 255) and LIGHTS["low_time"].pattern == "fast"
    drive.ctl.command(SetClock("pause"))
    drive.run(100)
    assert set(corners_lit(drive).values()) == {None}  # paused: nothing runs low
    drive.ctl.command(SetClock("resume"))
    drive.place("B2*").run(800)  # White moves: Black's clock, 15 s, runs
    assert set(corners_lit(drive).values()) == {None}


def test_without_warn_the_corners_stay_dark():
    drive = Drive(Game.of("antipalos", 5), clock=ClockConfig("15")).run(600)
    drive.run(8000)
    assert set(corners_lit(drive).values()) == {None}
