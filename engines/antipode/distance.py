"""Connection distance: how many more cells a side must turn its colour to join two opposite
corners (how the computer's search scores a position, ``AntipodeState.playout``).

A side's own tokens cost nothing; any other cell, empty or the other colour, costs one (a
placement fills it, a placement beside it or a pawn passing over it flips it). Cells are laid
out on an axial grid (row ``i``, column ``c`` at bit ``11*i + c``) so that the six neighbours of
a whole set are six shifts; the distance grows the reached set one cost at a time, each time
taking in every own token it touches.

>>> from engines import new_game
>>> state = new_game("antipode")
>>> distances(state.blue, state.tokens & ~state.blue)
(8, 8)
"""

from __future__ import annotations

from engines.antipode.state import CELLS, CORNER_PAIRS

STRIDE = 11
#: Each cell's bit on the axial grid, and every cell's.
AXIAL = tuple(1 << (STRIDE * i + c) for i, c in CELLS)
VALID = sum(AXIAL)


def _axial(mask: int) -> int:
    """A cell mask (bit n = cell n) on the axial grid."""
    out, n = 0, 0
    while mask:
        if mask & 1:
            out |= AXIAL[n]
        mask >>= 1
        n += 1
    return out


def _grow(reached: int) -> int:
    """``reached`` and its neighbours."""
    return (reached | reached << 1 | reached >> 1 | reached << STRIDE | reached >> STRIDE
            | reached << STRIDE + 1 | reached >> STRIDE + 1) & VALID


def _take_in(reached: int, own: int) -> int:
    """``reached`` with every own token joined to it."""
    while True:
        more = reached | (_grow(reached) & own)
        if more == reached:
            return reached
        reached = more


def _between(a: int, b: int, own: int) -> int:
    cost = 0 if own & a else 1
    reached = _take_in(a, own)
    while not reached & b:
        reached, cost = _take_in(_grow(reached), own), cost + 1
    return cost


def distance(own: int) -> int:
    """The fewest cells a side owning the ``own`` cell mask must still turn its colour to join
    one of the three corner pairs."""
    axial = _axial(own)
    return min(_between(AXIAL[a], AXIAL[b], axial) for a, b in CORNER_PAIRS)


def distances(blue: int, red: int) -> tuple[int, int]:
    """Blue's and red's distances."""
    return distance(blue), distance(red)
