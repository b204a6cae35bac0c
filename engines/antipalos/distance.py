"""Connection distance: how many more Trirods a side needs to join two opposite borders.

The search's evaluation (``AntipalosState.material``). Vertices are bits of one integer
(vertex (x, y) is bit ``y*(N+1) + x``); a side's own Trirods join their two ends for free and
an empty square joins either diagonal's ends for one Trirod. The distance is the fewest
Trirods over all paths from West to East or from South to North, found by flooding the set of
reached vertices one cost at a time with a few shifts and masks per step.

>>> from engines import new_game
>>> state = new_game("antipalos", size=4)
>>> distances(state.cells, 4, (0,))
(4,)
>>> for move in ("A1*", "A4*", "B2*", "D4*"):
...     state = state.apply(state.parse_move(move))
>>> distances(state.cells, 4, (0, 1))
(2, 3)
"""

from __future__ import annotations

from functools import lru_cache

#: A distance for a side that cannot connect at all.
FAR = 1000


@lru_cache(maxsize=None)
def _geometry(size: int) -> tuple[tuple[int, ...], int, int, int, int, int]:
    """Each square's bit (at its lower-left vertex), every square's, and the West, East, South
    and North vertex masks of an N×N board."""
    w = size + 1
    bits = tuple(1 << (r * w + c) for r in range(size) for c in range(size))
    west = sum(1 << (y * w) for y in range(w))
    south = (1 << w) - 1
    return bits, sum(bits), west, west << size, south, south << (size * w)


def _step(reached: int, slash: int, back: int, w: int) -> int:
    """The vertices one diagonal away from ``reached`` through squares whose `/` bit (at the
    lower-left vertex) is in ``slash`` or whose `\\` bit (lower-right) is in ``back``."""
    return (((reached & slash) << (w + 1)) | ((reached >> (w + 1)) & slash)
            | ((reached & back) << (w - 1)) | ((reached >> (w - 1)) & back))


def _flood(reached: int, free_s: int, free_b: int, w: int) -> int:
    while True:
        more = reached | _step(reached, free_s, free_b, w)
        if more == reached:
            return reached
        reached = more


def _across(start: int, goal: int, masks: tuple[int, int, int, int], w: int) -> int:
    free_s, open_s, free_b, open_b = masks
    reached, cost = _flood(start, free_s, free_b, w), 0
    while not reached & goal:
        more = reached | _step(reached, open_s, open_b, w)
        if more == reached:
            return FAR
        reached, cost = _flood(more, free_s, free_b, w), cost + 1
    return cost


def distances(cells: tuple[int, ...], size: int, sides: tuple[int, ...]) -> tuple[int, ...]:
    """For each side number in ``sides``, the fewest Trirods it still needs to connect two
    opposite borders (FAR: none will do) on an N×N board's ``cells`` (as ``AntipalosState``
    keeps them: 0 empty, else ``2*side + diag + 1``), its own Trirods counting as free."""
    bits, every, west, east, south, north = _geometry(size)
    lying = [0] * 9  # per cell code, the squares holding it
    for sq, code in enumerate(cells):
        if code:
            lying[code] |= bits[sq]
    empty = every & ~(lying[1] | lying[2] | lying[3] | lying[4] | lying[5] | lying[6]
                      | lying[7] | lying[8])
    w, found = size + 1, []
    for side in sides:
        masks = (lying[2 * side + 1], empty, lying[2 * side + 2] << 1, empty << 1)
        found.append(min(_across(west, east, masks, w), _across(south, north, masks, w)))
    return tuple(found)
