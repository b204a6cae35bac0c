"""Short run of bench/robust/serial_abuse.py: bad frames of every sort and cable pulls through
the pty link never crash the host, never give it a state the board did not have, and every
board change after the garbage reaches the host; with the simulated microcontroller and with
the board's firmware in the emulator on the far end."""

import pytest

from bench.robust.serial_abuse import Garbage, run
from testbed.serial_ends import ENDS

#: The firmware in the emulator takes seconds more: the slow run's (the quick run keeps python).
EMULATED = [pytest.param(end, marks=pytest.mark.slow) if end == "firmware" else end for end in ENDS]


@pytest.mark.parametrize("end", EMULATED)
def test_bad_frames_and_disconnects_through_the_pty_link(end):
    figures = run(frames=1_500, seed=5, disconnects=4, end=end)
    assert set(figures["by_sort"]) == set(Garbage.SORTS)
    assert figures["crashes"] == 0
    assert figures["corrupt_accepted"] == 0
    assert figures["changes_never_seen"] == 0
    assert figures["led_frames_after_reconnect"] == "4/4"
    assert figures["host_counters"]["bad_crc"] > 0 and figures["host_counters"]["oversized"] > 0
