"""The game clocks set and corrected from the board's menu, as a player or an arbiter does it with
the three buttons: a new game on a time control, a pause, time given and taken, the clocks going
on."""

from __future__ import annotations

from firmware_host.board.game import Game
from firmware_host.store.config import ClockConfig
from firmware_host.ui.menu import GameChoice, Menu, game_choices
from testbed.drive import Drive


def choose(drive: Drive, label: str) -> None:
    """Press MENU until the selected item begins with ``label``, then OK."""
    for _ in range(20):
        selected = [line for line in drive.ctl.screen().text_lines() if line.startswith("> ")]
        if selected and selected[0][2:].startswith(label):
            drive.press("ok")
            return
        drive.press("menu")
    raise AssertionError(f"no item {label!r}: {drive.ctl.screen().text_lines()}")


def board(control: str = "-") -> Drive:
    choices, current = game_choices(), GameChoice.of("antipalos", 5, "two")
    game = Game.of("antipalos", 5)
    return Drive(game, menu=Menu(choices, current), clock=ClockConfig(control)).run(600)


def test_a_new_game_on_a_time_control_from_the_menu():
    drive = board()
    assert drive.ctl.clock.state(drive.t) is None
    drive.press("menu")
    choose(drive, "Clock")
    assert drive.ctl.screen().text_lines()[:2] == ("Clock", "> Control: No clock")  # nothing to pause
    choose(drive, "Control")
    choose(drive, "5 min + 3 s")
    assert not drive.ctl.menu.is_open
    assert drive.last("new_game")["game"] == "antipalos"
    clock = drive.ctl.clock.state(drive.t)
    assert clock["control"] == "300+3" and clock["running"] == "white" and clock["left"]["black"] == 300_000
    assert drive.ctl.screen().text_lines()[1] == ">5:00 5:00"  # the clocks, White's running
    drive.press("menu")
    choose(drive, "Clock")
    choose(drive, "Control")
    choose(drive, "No clock")
    assert drive.ctl.clock.state(drive.t) is None


def test_an_arbiter_pauses_corrects_and_resumes_from_the_menu():
    drive = board("60+1")
    drive.place("B2*").run(800)  # White's move: Black's clock runs
    assert drive.ctl.clock.state(drive.t)["running"] == "black"
    drive.press("menu")
    choose(drive, "Clock")
    choose(drive, "Pause clocks")
    paused = drive.ctl.clock.state(drive.t)
    drive.run(5000)
    assert drive.ctl.clock.state(drive.t) == paused and paused["paused"]
    assert drive.ctl.screen().text_lines()[1].startswith("||")  # the OLED says they stand still
    drive.press("menu")
    choose(drive, "Clock")
    choose(drive, "Adjust time")
    choose(drive, "Black +10 s")
    drive.press("ok")  # the page stays open: OK again gives 10 s more
    choose(drive, "White -1 min")
    assert drive.ctl.menu.is_open
    left = drive.ctl.clock.state(drive.t)["left"]
    assert left == {"white": paused["left"]["white"] - 60_000, "black": paused["left"]["black"] + 20_000}
    assert drive.kinds().count("clock") >= 4  # each correction told
    while drive.ctl.menu.is_open:  # BACK steps back over the MENU presses, then up, then out
        drive.press("back")
    drive.press("menu")
    choose(drive, "Clock")
    choose(drive, "Resume clocks")
    drive.run(1000)
    assert drive.ctl.clock.state(drive.t)["left"]["black"] < left["black"]  # running again


def test_an_arbiter_s_correction_is_kept_through_a_restart():
    drive = board("60+1")
    drive.place("B2*").run(800)
    drive.press("menu")
    choose(drive, "Clock")
    choose(drive, "Adjust time")
    choose(drive, "Black +1 min")
    corrected = drive.ctl.clock.state(drive.t)["left"]["black"]
    assert corrected > 60_000
    again = Drive(
        Game.of("antipalos", 5),
        storage=drive.storage,
        resume=(drive.ctl.game_id, drive.ctl.moves),
        clock=ClockConfig("60+1"),
        setup=False,
    )
    assert again.ctl.clock.state(0)["left"]["black"] >= corrected  # none of it charged while off


def test_a_new_game_s_control_and_a_handicap_are_kept_through_a_restart_before_its_first_move():
    drive = board()  # the config names no clock
    drive.press("menu")
    choose(drive, "Clock")
    choose(drive, "Control")
    choose(drive, "10 min + 5 s")
    drive.press("menu")
    choose(drive, "Clock")
    choose(drive, "Adjust time")
    choose(drive, "Black -1 min")  # a handicap, before the first move
    again = Drive(
        Game.of("antipalos", 5), storage=drive.storage, resume=(drive.ctl.game_id, []), clock=ClockConfig("-")
    )
    clock = again.ctl.clock.state(0)
    assert clock["control"] == "600+5" and clock["left"] == {"white": 600_000, "black": 540_000}


def test_a_game_begun_with_no_clock_keeps_none_through_a_restart_on_a_clocked_config():
    """The config names 5 min + 3 s; the players begin a game with No clock from the menu and
    make a move; the daemon starts again with the same config: the game still has no clock
    (the config's is for the games begun from then on)."""
    drive = board("300+3")
    drive.press("menu")
    choose(drive, "Clock")
    choose(drive, "Control")
    choose(drive, "No clock")
    assert drive.ctl.clock.state(drive.t) is None
    drive.place("B2*").run(800)
    assert drive.ctl.record.moves == ["B2*"]
    again = Drive(
        Game.of("antipalos", 5),
        storage=drive.storage,
        resume=(drive.ctl.game_id, ["B2*"]),
        clock=ClockConfig("300+3"),
    ).run(600)
    assert again.ctl.clock.state(again.t) is None
    assert again.ctl.screen().text_lines()[1] != ">5:00 5:00"
