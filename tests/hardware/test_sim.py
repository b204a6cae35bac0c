"""The simulated board: instantaneous API, timed noise on a virtual clock, recording sinks."""

import pytest
from PIL import Image

from hardware.base import Led
from hardware.clock import VirtualClock
from hardware.sim import Noise, SimBoard


def trace(board, clock, channel, step=0.0001, duration=0.002):
    """Whether ``channel`` reads closed, every ``step`` seconds for ``duration``."""
    out = []
    for _ in range(round(duration / step)):
        out.append(channel in board.scan().closed)
        clock.advance(step)
    return out


def bouncy(seed=1, **kw):
    clock = VirtualClock()
    return SimBoard(16, clock=clock, noise=Noise(seed=seed, **kw)), clock


def test_quiet_board_reads_what_was_placed():
    board = SimBoard(8, senses_polarity=True)
    board.place(2, north=False)
    board.place(4)
    board.flip(2)
    scan = board.scan()
    assert scan.closed == {2, 4} and scan.polarity == {2: True, 4: True} and scan.sound


def test_bad_channel_is_refused_and_changes_nothing():
    board = SimBoard(8)
    with pytest.raises(ValueError, match="no sensor channel 9"):
        board.place(9)
    assert board.scan().closed == frozenset()


def test_bounce_chatters_within_a_millisecond_then_settles():
    board, clock = bouncy()
    board.place(5)
    readings = trace(board, clock, 5)
    assert False in readings[:10]  # chatter inside the first millisecond
    assert all(readings[10:])  # settled after it
    changes = sum(a != b for a, b in zip(readings, readings[1:]))
    assert changes >= 2


def test_bounce_on_lift_flickers_closed():
    board, clock = bouncy()
    board.place(5)
    clock.advance(0.01)
    board.lift(5)
    readings = trace(board, clock, 5)
    assert True in readings[:10] and not any(readings[10:])


def test_noise_is_reproducible_from_the_seed():
    def run(seed):
        board, clock = bouncy(seed, missed_read=0.2, hover_rate=20)
        board.place(3)
        board.place(7)
        return [board.scan() for _ in range(200) if clock.advance(0.0002) is None]

    assert run(4) == run(4)
    assert run(4) != run(5)


def test_missed_read_drops_one_closed_channel_for_one_scan():
    board, clock = bouncy(bounce=None, missed_read=0.5)
    for ch in (1, 2, 3):
        board.place(ch)
    sizes = [len(board.scan().closed) for _ in range(100)]
    assert set(sizes) == {2, 3}


def test_hover_closes_an_empty_site_briefly():
    board, clock = bouncy(bounce=None)
    board.hover(6, duration=0.03)
    assert 6 in board.scan().closed
    clock.advance(0.03)
    assert 6 not in board.scan().closed


def test_random_hovers_happen_at_about_the_rate():
    board, clock = bouncy(bounce=None, hover_rate=5, hover_time=0.001)
    seen = 0
    for _ in range(10000):  # 10 s in 1 ms scans
        clock.advance(0.001)
        seen += bool(board.scan().closed)
    assert 20 < seen < 100


def test_slide_passes_over_the_sites_between():
    clock = VirtualClock()
    board = SimBoard(10, clock=clock, senses_polarity=True)
    board.place(0, north=False)
    board.slide([0, 1, 2, 3], step=0.04)
    seen = []
    for _ in range(20):
        closed = sorted(board.scan().closed)
        if not seen or seen[-1] != closed:
            seen.append(closed)
        clock.advance(0.01)
    assert seen == [[0], [0, 1], [1], [1, 2], [2], [2, 3], [3]]
    assert board.scan().polarity == {3: False}


def test_slide_needs_a_piece_at_the_start():
    board = SimBoard(10)
    with pytest.raises(ValueError, match="occupied"):
        board.slide([0, 1])


def test_schedule_runs_actions_when_their_time_comes():
    clock = VirtualClock()
    board = SimBoard(4, clock=clock)
    board.schedule(0.5, lambda: board.place(1))
    assert board.scan().closed == frozenset()
    clock.advance(0.5)
    assert board.scan().closed == {1}


def test_diodeless_board_reports_ghosts_as_ambiguous():
    board = SimBoard(16, columns=4, diodes=False)
    for ch in (0, 2, 8):  # (0,0) (0,2) (2,0): ghost at (2,2) = 10
        board.place(ch)
    scan = board.scan()
    assert scan.ambiguous == {0, 2, 8, 10} and scan.closed == frozenset()
    board.lift(8)
    assert board.scan().closed == {0, 2} and board.scan().sound


def test_diodeless_needs_columns():
    with pytest.raises(ValueError, match="columns"):
        SimBoard(16, diodes=False)


def test_leds_record_frames_with_their_time():
    clock = VirtualClock(3.0)
    board = SimBoard(4, clock=clock)
    board.leds.show({1: Led((0, 255, 0), "slow")})
    assert board.leds.frame == {1: Led((0, 255, 0), "slow")}
    assert board.leds.history[-1] == (3.0, {1: Led((0, 255, 0), "slow")})
    assert board.leds.rendered(3.25) == {1: (0, 255, 0)}
    assert board.leds.rendered(3.75) == {}


def test_leds_refuse_unknown_pattern():
    board = SimBoard(4)
    with pytest.raises(ValueError, match="pattern 'wobble'"):
        board.leds.show({1: Led((1, 2, 3), "wobble")})
    assert board.leds.frames_shown == 0


def test_display_keeps_a_copy():
    board = SimBoard(4)
    image = Image.new("1", (128, 64), 1)
    board.display.show(image)
    image.putpixel((0, 0), 0)
    assert board.display.image.getpixel((0, 0)) and board.display.images_shown == 1


def test_buttons_refuse_unknown_names():
    board = SimBoard(4)
    with pytest.raises(ValueError, match="no button 'start'"):
        board.buttons.press("start")
    board.buttons.press("menu", long=True)
    assert [e.long for e in board.buttons.events()] == [True]


def test_changes_count_moves_of_pieces_not_scans():
    board = SimBoard(channels=8)
    board.place(1)
    board.place(2)
    board.scan()
    board.scan()
    assert board.changes == 2 and board.pieces() == {1, 2}
    board.flip(1)
    board.lift(2)
    board.hover(3)
    assert board.changes == 4 and board.pieces() == {1}
