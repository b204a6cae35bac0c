"""A switch change reaches the host within 5 ms while 400 LEDs pulse on four chains, and
within one chain write plus its frame on a single chain: the short form of bench/firmware.py,
timed by the emulator's cycle counts (exact, whatever this machine's load)."""

import os

import pytest

from bench.firmware import MS, Switcher, faults, leds_frame, next_after, sweep
from hardware.base import Led
from testbed.firmware_emulator import EmulatedBoard, build, missing

pytestmark = pytest.mark.skipif(bool(missing()), reason="needs the AVR toolchain and simavr")

PULSE = {ch: Led((255, 255, 255), "pulse") for ch in range(400)}


def worst_change_across_a_write(tmp_path, **defs) -> tuple[float, float]:
    """(slowest change -> CHANGE sent, the write's length), in ms, for changes swept 0.5 ms
    apart from just before a chain write to just after it."""
    board = EmulatedBoard(
        build("mega", LED_COUNT=400, **defs), os.path.join(tmp_path, "board"), speed=0, trace=True
    )
    try:
        board.run_for(0.2)
        board.send_to_firmware(leds_frame(PULSE, 1, seq=1))
        board.wait_for(lambda: board.shows(PULSE), timeout=20)
        write = board.led_writes[-1]
        length = (write.end - write.start) / MS

        def writes(after: float) -> float:
            return next_after([w.start for w in board.led_writes[-3:]], 40 * MS, after)

        points = sweep(Switcher(board), writes, [x / 2 for x in range(-2, 2 * int(length) + 2)])
        assert not faults(board), faults(board)
        return max(latency for _, latency in points) / MS, length
    finally:
        board.close()


#: The Mega's 16 x 18 matrix; 36 74HC165s (emulated for seconds: the slow run's).
SCANNERS = [{}, pytest.param({"SCANNER": "SCANNER_165"}, marks=pytest.mark.slow)]


@pytest.mark.parametrize("scanner", SCANNERS, ids=["matrix", "74hc165"])
def test_four_chains_of_100_never_hold_a_change_past_5_ms(tmp_path, scanner):
    worst, _ = worst_change_across_a_write(tmp_path, **scanner)  # LED_PINS 6, 7, 8, 9
    assert worst <= 5.0


@pytest.mark.parametrize("scanner", SCANNERS, ids=["matrix", "74hc165"])
def test_one_chain_of_400_holds_a_change_no_longer_than_its_write_and_the_frame(tmp_path, scanner):
    worst, write = worst_change_across_a_write(tmp_path, LED_PINS=6, **scanner)
    assert worst <= write + 9 * 11 * 1000 / 115200  # the CHANGE's 9 bytes (simavr: 11 bits)
