"""How often commands from elsewhere are taken: a token bucket, and the rates the simulator page
and the café network share.

>>> bucket = Bucket(rate=1, burst=2)
>>> [bucket.take() for _ in range(3)]
[True, True, False]
>>> new_games = Bucket(1 / NEW_GAME_SECONDS, 1)
>>> new_games.take(), new_games.take()
(True, False)
"""

from __future__ import annotations

import time

#: Commands one sender (a page; the broker, for a board) may send: RATE a second on average,
#: BURST at once; a new game (which rebuilds the board) once every NEW_GAME_SECONDS.
RATE, BURST, NEW_GAME_SECONDS = 50.0, 100.0, 1.0


class Bucket:
    """A token bucket: :meth:`take` is True at most ``burst`` times at once and ``rate`` times
    a second on average."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
