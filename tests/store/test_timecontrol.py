"""The clock as a player and an arbiter read it: what each time control and delay leaves on a
side's clock after its moves, and when a flag falls."""

import pytest

from firmware_host.store.timecontrol import Clocks, ControlError, TimeControl, clock_text, pgn_clock

S = 1000  # ms


def played(control: str, turns: list[float], delay: str = "", sides=("white", "black")) -> Clocks:
    """The clocks after each side in turn spent ``turns`` seconds on its moves."""
    clocks, now = Clocks.start(TimeControl.parse(control, delay), sides), 0.0
    for i, seconds in enumerate(turns):
        clocks = clocks.run(sides[i % len(sides)], now)
        now += seconds * S
        clocks = clocks.press(now)
    return clocks


def test_fischer_increment_is_added_after_each_move():
    clocks = played("300+3", [10, 20, 5])
    assert clocks.left == {"white": (300 - 10 + 3 - 5 + 3) * S, "black": (300 - 20 + 3) * S}


def test_a_multi_stage_control_adds_the_next_stage_after_the_40th_move():
    """40 moves in 90 minutes +30 s, then 30 minutes +30 s: after White's 40th move its clock
    gains 30 minutes; Black, one move behind, not yet."""
    clocks = played("40/5400+30:1800+30", [60] * 79)
    assert clocks.moves == {"white": 40, "black": 39}
    assert clocks.left["white"] == (5400 - 40 * 60 + 40 * 30 + 1800) * S
    assert clocks.left["black"] == (5400 - 39 * 60 + 39 * 30) * S
    later = played("40/5400+30:1800+30", [60] * 81)  # the 41st move: the second stage's increment
    assert later.left["white"] == (5400 - 41 * 60 + 41 * 30 + 1800) * S


def test_bronstein_delay_gives_back_the_time_used_up_to_the_delay():
    clocks = played("180", [3, 8], delay="bronstein:5")
    assert clocks.left == {"white": 180 * S, "black": (180 - 8 + 5) * S}


def test_simple_delay_waits_before_the_clock_runs():
    clocks = played("180", [3, 8], delay="simple:5")
    assert clocks.left == {"white": 180 * S, "black": (180 - 3) * S}
    running = Clocks.start(TimeControl.parse("180", "simple:5"), ("white", "black")).run("white", 0)
    assert running.shown(4 * S)["white"] == 180 * S and running.out() == 185 * S


def test_per_move_time_is_each_move_s_own():
    clocks = played("*60", [50, 10, 20])
    assert clocks.left == {"white": 60 * S, "black": 60 * S}
    running = clocks.run("black", 0)
    assert running.out() == 60 * S


def test_each_player_of_a_multi_player_game_has_a_clock():
    sides = ("red", "blue", "green")
    clocks = played("60+1", [5, 10, 20, 5], sides=sides)
    assert clocks.left == {
        "red": (60 - 5 + 1 - 5 + 1) * S,
        "blue": (60 - 10 + 1) * S,
        "green": (60 - 20 + 1) * S,
    }


def test_a_flag_falls_when_the_running_side_s_time_is_out():
    clocks = played("60", [59]).run("black", 0)
    assert clocks.out() == 60 * S and clocks.shown(61 * S)["black"] == -1 * S
    assert clocks.flagged("black").flagged("white").flag == "black"


def test_stopping_without_a_move_charges_the_time_but_adds_no_increment():
    clocks = Clocks.start(TimeControl.parse("60+5"), ("a", "b")).run("a", 0).run(None, 10 * S)
    assert clocks.left["a"] == 50 * S and clocks.moves["a"] == 0 and clocks.running is None


@pytest.mark.parametrize("bad", ["", "abc", "300+", "40/5400", "40/5400+30:", "0", "*60:300", "5+3+1"])
def test_a_control_that_does_not_read_is_refused(bad):
    with pytest.raises(ControlError, match="no time control"):
        TimeControl.parse(bad)


def test_no_clock_and_how_clocks_are_written():
    assert TimeControl.parse("-") is None
    assert [clock_text(t * S) for t in (3600, 65, 9.56)] == ["1:00:00", "1:05", "9.5"]
    assert pgn_clock(298.7 * S) == "0:04:58"
