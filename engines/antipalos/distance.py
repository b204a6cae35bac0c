"""Connection distance: how many more Trirods a side needs to join two opposite borders, and
the empty squares on its cheapest paths (where a block lengthens it).

The search's evaluation (``AntipalosState.evaluate``, through :func:`remaining`). Vertices are
bits of one integer (vertex (x, y) is bit ``y*(N+1) + x``); a side's own Trirods join their two
ends for free and an empty square joins either diagonal's ends for one Trirod. The distance is
the fewest Trirods over all paths from West to East or from South to North, found by flooding
the set of reached vertices one cost at a time with a few shifts and masks per step; flooding
back from the far border too finds the squares on the cheapest paths.

>>> from engines import new_game
>>> state = new_game("antipalos", size=4)
>>> paths(state.cells, 4, (0,))  # four squares in any row or column, sixteen squares in all
((4, 16),)
>>> for move in ("A1*", "A4*", "B2*", "D4*"):
...     state = state.apply(state.parse_move(move))
>>> paths(state.cells, 4, (0, 1))
((2, 8), (3, 10))
"""

from __future__ import annotations

from functools import lru_cache

#: A distance for a side that cannot connect at all.
FAR = 1000
#: How much further the search counts a connection whose cheapest paths all cross one square
#: (a block there costs the opponent one move), in Trirods.
BOTTLENECK = 0.5
#: How much nearer it counts one for each square on its cheapest paths, up to :data:`WAYS` of
#: them (more ways are harder to block).
WAY = 0.05
WAYS = 10


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
    return (
        ((reached & slash) << (w + 1))
        | ((reached >> (w + 1)) & slash)
        | ((reached & back) << (w - 1))
        | ((reached >> (w - 1)) & back)
    )


def _flood(reached: int, free_s: int, free_b: int, w: int) -> int:
    """Everything ``reached`` reaches through free squares: :func:`_step` until nothing is
    added (written out here: the flood is most of a search's time on a big board)."""
    up, down = w + 1, w - 1
    while True:
        more = (
            reached
            | ((reached & free_s) << up)
            | ((reached >> up) & free_s)
            | ((reached & free_b) << down)
            | ((reached >> down) & free_b)
        )
        if more == reached:
            return reached
        reached = more


def _layers(start: int, goal: int, masks: tuple[int, int, int, int], w: int) -> list[int]:
    """The vertices ``start`` reaches at each cost 0, 1, ... up to the first cost that reaches
    ``goal`` (empty: none does)."""
    free_s, open_s, free_b, open_b = masks
    reached = _flood(start, free_s, free_b, w)
    layers = [reached]
    while not reached & goal:
        more = reached | _step(reached, open_s, open_b, w)
        if more == reached:
            return []
        reached = _flood(more, free_s, free_b, w)
        layers.append(reached)
    return layers


def _on_paths(ahead: list[int], behind: list[int], masks: tuple[int, int, int, int], w: int) -> int:
    """The empty squares on some cheapest path, as bits at their lower-left vertex, from the
    :func:`_layers` of both borders (each reaching the other at cost ``len - 1``): a square is
    on one when a diagonal of it joins a vertex k Trirods from one border to one
    ``cost - 1 - k`` from the other."""
    cost = len(ahead) - 1
    slash = back = 0
    for k in range(cost):
        near, far = ahead[k], behind[cost - 1 - k]
        slash |= (near & (far >> (w + 1))) | ((near >> (w + 1)) & far)
        back |= (near & (far >> (w - 1))) | ((near >> (w - 1)) & far)
    return (slash & masks[1]) | ((back & masks[3]) >> 1)


def _side_masks(
    cells: tuple[int, ...],
    size: int,
    sides: tuple[int, ...],
) -> list[tuple[int, int, int, int]]:
    """Per side: its `/` squares, the empty squares, its `\\` squares (bits at the lower-right
    vertex) and the empty ones again so placed, as :func:`_step` takes them."""
    bits, every = _geometry(size)[:2]
    lying = [0] * 9  # per cell code, the squares holding it
    for sq, code in enumerate(cells):
        if code:
            lying[code] |= bits[sq]
    empty = every & ~(lying[1] | lying[2] | lying[3] | lying[4] | lying[5] | lying[6] | lying[7] | lying[8])
    return [(lying[2 * s + 1], empty, lying[2 * s + 2] << 1, empty << 1) for s in sides]


def _cheapest(masks: tuple[int, int, int, int], size: int) -> tuple[int, int]:
    """One side's distance (FAR: it cannot connect) and the empty squares on its cheapest
    connections, as bits at their lower-left vertex."""
    west, east, south, north = _geometry(size)[2:]
    w = size + 1
    ways = [(a, b, _layers(a, b, masks, w)) for a, b in ((west, east), (south, north))]
    cost = min(len(ahead) - 1 if ahead else FAR for _, _, ahead in ways)
    squares = 0
    for a, b, ahead in ways:  # flooded back only where the way is cheapest
        if 0 < cost < FAR and len(ahead) - 1 == cost:
            squares |= _on_paths(ahead, _layers(b, a, masks, w), masks, w)
    return cost, squares


def paths(cells: tuple[int, ...], size: int, sides: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """For each side number in ``sides``: the fewest Trirods it still needs to connect two
    opposite borders (FAR: none will do) on an N×N board's ``cells`` (as ``AntipalosState``
    keeps them: 0 empty, else ``2*side + diag + 1``), its own Trirods counting as free; and how
    many empty squares lie on one of its cheapest connections (either pair of borders at that
    cost): the squares an opponent can block it on, or it can gain on.

    >>> from engines import new_game
    >>> paths(new_game("antipalos", size=3).cells, 3, (0,))  # 3 rows of 3 across, either way
    ((3, 9),)
    """
    found = (_cheapest(masks, size) for masks in _side_masks(cells, size, sides))
    return tuple((cost, squares.bit_count()) for cost, squares in found)


def contested(cells: tuple[int, ...], size: int, sides: tuple[int, ...]) -> list[int]:
    """The empty squares (numbered as ``cells``) on a cheapest connection of any of ``sides``:
    where a Trirod shortens its owner's distance or lengthens another's.

    >>> from engines import new_game
    >>> state = new_game("antipalos", size=4)
    >>> for move in ("A1*", "A4*", "B2*", "D4*"):
    ...     state = state.apply(state.parse_move(move))
    >>> len(state.empty_squares()), len(contested(state.cells, 4, (0,)))  # white's 8 of 12
    (12, 8)
    >>> len(contested(state.cells, 4, (0, 1)))  # and black's 10, 8 of them the same
    10
    """
    union = 0
    for masks in _side_masks(cells, size, sides):
        union |= _cheapest(masks, size)[1]
    bits = _geometry(size)[0]
    return [sq for sq, bit in enumerate(bits) if union & bit]


def remaining(cost: int, squares: int) -> float:
    """A connection's distance as the search weighs it, from :func:`paths`' figures.

    >>> remaining(3, 1), remaining(3, 4), remaining(3, 40), remaining(FAR, 0) == FAR
    (3.45, 2.8, 2.5, True)
    """
    if cost >= FAR:
        return float(FAR)
    return cost + (BOTTLENECK if squares == 1 else 0.0) - WAY * min(squares, WAYS)
