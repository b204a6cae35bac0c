"""Parts that wake the daemon's loop: a change is never left waiting for the next poll."""

import threading
import time

import pytest

from hardware.clock import VirtualClock
from hardware.mcu_sim import SimMcu
from hardware.serial_link import SerialLink, SerialScanner
from hardware.sim import Noise, SimBoard
from hardware.wake import Waker


@pytest.fixture
def waker():
    waker = Waker()
    yield waker
    waker.close()


def test_a_set_from_another_thread_ends_a_wait(waker):
    threading.Timer(0.05, waker.set).start()
    assert waker.wait(10)
    assert not waker.wait(0)  # used up


def test_a_readable_descriptor_ends_a_wait(waker, tmp_path):
    import os

    read, write = os.pipe()
    waker.watch(lambda: read)
    assert not waker.wait(0)
    os.write(write, b"x")
    assert waker.wait(10)
    os.close(read), os.close(write)


def test_the_simulated_board_and_its_buttons_wake_on_every_change(waker):
    board = SimBoard(16)
    board.wakes(waker)
    board.buttons.wakes(waker)
    for act in (
        lambda: board.place(3),
        lambda: board.lift(3),
        lambda: board.buttons.press("ok"),
        lambda: board.hover(4),
        lambda: board.schedule(0.1, lambda: board.place(5)),
    ):
        assert not waker.wait(0)
        act()
        assert waker.wait(0)


def test_the_simulated_board_is_quiet_only_when_no_noise_is_in_progress():
    clock = VirtualClock()
    board = SimBoard(16, clock=clock, noise=Noise(bounce=(0.002, 0.004)))
    assert board.quiet
    board.place(3)
    assert not board.quiet  # bouncing: scans must go on
    clock.advance(0.01)
    assert sorted(board.scan().closed) == [3] and board.quiet
    board.schedule(0.05, lambda: board.lift(3))
    assert not board.quiet
    board.noise = Noise(hover_rate=1.0)
    clock.advance(0.1)
    board.scan()
    assert not board.quiet  # random hovers can come at any scan


def test_bytes_from_the_board_wake_a_loop_waiting_on_the_serial_link(waker, tmp_path):
    board = SimBoard(64, leds=10)
    mcu = SimMcu(board, str(tmp_path / "board"), heartbeat=5.0)
    link = SerialLink(str(tmp_path / "board"), 64, 10, reopen_interval=0.02)
    scanner = SerialScanner(link)
    scanner.wakes(waker)
    try:
        end = time.monotonic() + 5
        while not scanner.quiet and time.monotonic() < end:
            scanner.scan()
            time.sleep(0.005)
        assert scanner.quiet
        while waker.wait(0):  # the handshake's bytes
            scanner.scan()
        board.place(7)
        assert waker.wait(10)
        end = time.monotonic() + 5
        while 7 not in scanner.scan().closed and time.monotonic() < end:
            waker.wait(0.1)
        assert scanner.scan().closed == frozenset({7})
    finally:
        link.close()
        mcu.close()
