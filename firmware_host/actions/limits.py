"""How often commands from elsewhere are taken: a token bucket, and the rates the simulator page
and the café network share.

>>> bucket = Bucket(rate=1, burst=2)
>>> [bucket.take() for _ in range(3)]
[True, True, False]
>>> new_games = Bucket(1 / NEW_GAME_SECONDS, 1)
>>> new_games.take(), new_games.take()
(True, False)
>>> work = Bucket(rate=100, burst=500, clock=lambda: 0.0)
>>> work.take(400), work.take(400), work.take(100)
(True, False, True)
"""

from __future__ import annotations

import time
from typing import Callable

#: Commands one sender (a page; the broker, for a board) may send: RATE a second on average,
#: BURST at once; a new game (which rebuilds the board) once every NEW_GAME_SECONDS.
RATE, BURST, NEW_GAME_SECONDS = 50.0, 100.0, 1.0


class Bucket:
    """A token bucket: :meth:`take` is True at most ``burst`` times at once and ``rate`` times
    a second on average (``clock``: seconds, monotonic)."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = burst, clock()

    def take(self, cost: float = 1) -> bool:
        """Whether ``cost`` tokens are there (then taken); a cost over ``burst`` counts as
        ``burst`` (it waits for a full bucket)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        cost = min(cost, self.burst)
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True
