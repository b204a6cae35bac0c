"""Connection distance: how many more cells a side must turn its colour to join two opposite
corners (how the computer's search scores a position, ``AntipodeState.playout``). It reads
only the board's tables (:mod:`engines.antipode.board`).

A side's own tokens cost nothing; any other cell, empty or the other colour, costs one (a
placement fills it, a placement beside it or a pawn passing over it flips it). Cells are laid
out on an axial grid (row ``i``, column ``c`` at bit ``11*i + c``) so that the six neighbours of
a whole set are six shifts; the distance grows the reached set one cost at a time, each time
taking in every own token it touches.

A corner is never passed over (it ends every line through it), so only placements beside it
flip it, and each empty neighbour will be filled once before the board is full: a corner ends
the placements with its colour turned once per empty neighbour. That colour it is bound to
changes only when a token is placed beside it while a pawn stands on it (the pawn keeps its
face). A pair with a corner bound to the other colour counts as out for good (:data:`FAR` when
all are): on a full board nothing flips a corner, so a side whose pairs are all split cannot
win. At the start every pair is split this way; the pawns, which start on corners, decide it.

>>> from engines import new_game
>>> state = new_game("antipode")
>>> distances(state.blue, state.tokens & ~state.blue)
(8, 8)
>>> distances(state.blue, state.tokens & ~state.blue, state.tokens)  # every pair ends split
(99, 99)
"""

from __future__ import annotations

from engines.antipode.board import CELLS, CORNER_PAIRS, NEIGHBOURS

#: The distance of a side none of whose corner pairs can be joined any more.
FAR = 99
CORNERS = tuple(c for pair in CORNER_PAIRS for c in pair)
CORNER_MASK = sum(1 << c for c in CORNERS)

STRIDE = 11
#: Each cell's bit on the axial grid, and every cell's.
AXIAL = tuple(1 << (STRIDE * i + c) for i, c in CELLS)
VALID = sum(AXIAL)


def axial(mask: int) -> int:
    """A cell mask (bit n = cell n) on the axial grid."""
    out, n = 0, 0
    while mask:
        if mask & 1:
            out |= AXIAL[n]
        mask >>= 1
        n += 1
    return out


def grow(reached: int) -> int:
    """``reached`` and its neighbours."""
    return (
        reached
        | reached << 1
        | reached >> 1
        | reached << STRIDE
        | reached >> STRIDE
        | reached << STRIDE + 1
        | reached >> STRIDE + 1
    ) & VALID


def _take_in(reached: int, own: int) -> int:
    """``reached`` with every own token joined to it."""
    while True:
        more = reached | (grow(reached) & own)
        if more == reached:
            return reached
        reached = more


def _between(a: int, b: int, own: int) -> int:
    cost = 0 if own & a else 1
    reached = _take_in(a, own)
    while not reached & b:
        reached, cost = _take_in(grow(reached), own), cost + 1
    return cost


def destined(blue: int, tokens: int) -> int:
    """The corners that will be blue once the board is full (each empty neighbour flips a
    corner once), as a cell mask."""
    return sum(1 << c for c in CORNERS if (blue >> c ^ (NEIGHBOURS[c] & ~tokens).bit_count()) & 1)


def distance(own: int, lost: int = 0) -> int:
    """The fewest cells a side owning the ``own`` cell mask must still turn its colour to join
    one of the three corner pairs; pairs with a corner in ``lost`` are out (FAR if all are)."""
    grid = axial(own)
    return min(
        (
            _between(AXIAL[a], AXIAL[b], grid)
            for a, b in CORNER_PAIRS
            if not lost >> a & 1 and not lost >> b & 1
        ),
        default=FAR,
    )


def distances(blue: int, red: int, tokens: int | None = None) -> tuple[int, int]:
    """Blue's and red's distances; with ``tokens``, a corner bound to end with one colour is
    lost to the other."""
    if tokens is None:
        return distance(blue), distance(red)
    bound_blue = destined(blue, tokens)
    return distance(blue, CORNER_MASK & ~bound_blue), distance(red, bound_blue)
