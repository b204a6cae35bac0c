"""Clocks: a callable returning seconds. The wall clock by default, a virtual one in tests.

>>> clock = VirtualClock(10.0)
>>> clock.advance(0.25); clock()
10.25
"""

from __future__ import annotations

import time
from typing import Callable

#: A clock is any callable returning monotonic seconds.
Clock = Callable[[], float]

#: The wall clock (monotonic seconds).
wall_clock: Clock = time.monotonic


class VirtualClock:
    """A clock that only moves when told to: for tests and replays."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def __call__(self) -> float:
        return self._now

    def advance(self, dt: float) -> None:
        if dt < 0:
            raise ValueError(f"a clock cannot go back ({dt} s)")
        self._now += dt
