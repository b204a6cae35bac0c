"""The computer on a clock: how long a search may take when the game has a time control.

A move may take its share of the time left, the time left over the moves still to come in the
stage (:data:`MOVES_AHEAD` when the stage runs to the game's end), plus most of what the move
gives back (:data:`INCREMENT_SHARE` of the increment or delay); never more than the level's own
limit, nor more than half the time left, nor less than :data:`FLOOR`.
"""

from __future__ import annotations

#: The moves a side is taken to have left when its stage runs to the game's end.
MOVES_AHEAD = 30
#: The share of a move's increment (or delay) it may spend beyond its share of the time left.
INCREMENT_SHARE = 0.8
#: The least time a search is given (s).
FLOOR = 0.05


def seconds_for(limit: float, left: float, increment: float = 0.0, to_go: int | None = None) -> float:
    """The seconds a search may take: at most ``limit`` (the level's), with ``left`` seconds on
    the clock, ``increment`` seconds given back after the move and ``to_go`` moves to make in
    the time left (None: the rest of the game).

    >>> seconds_for(3.0, 300, 3)  # 5 minutes, +3 s: 10 s + 2.4 s, so the level's 3 s
    3.0
    >>> seconds_for(3.0, 30)  # 30 s for the rest of the game: 1 s a move
    1.0
    >>> seconds_for(6.0, 60, to_go=5)  # 5 moves to make in a minute, most of it kept back
    6.0
    >>> seconds_for(3.0, 1.0, 2)  # a second left: half of it
    0.5
    >>> seconds_for(3.0, -1)
    0.05
    """
    share = left / (to_go or MOVES_AHEAD) + INCREMENT_SHARE * increment
    return max(FLOOR, min(limit, share, left / 2))
