"""Wins in one turn, found with bit masks instead of making each position (what the computer's
search and the one-ply baseline ask of every position they look at).

A turn is worked out on the axial grid of :mod:`engines.antipode.distance`: the placement
flips its neighbours, the pawn's path flips the tokens it passes, and the mover wins when its
own tokens then join a corner pair, grown from one corner by six shifts at a time. All the turns
of a position take about 100 µs, some hundred times less than making each turn's position and
asking it for its outcome. A first flood, with every cell some turn could change counted in,
rules out at once a position where no turn can connect, and one per placement its landings.

>>> from engines.antipode import AntipodeState
>>> blue = ["a1", "a4", "b2", "d4", "g6", "g8", "h7", "h8", "i9"]
>>> red = ["a5", "b3", "b5", "c1", "c3", "d7", "d8", "e1", "e2", "e3", "e5", "e9", "f6", "f9",
...        "g9", "h6", "i5"]
>>> state = AntipodeState.setup(blue, red, pawns=("d4", "f9"))
>>> turn = winning_turn(state)
>>> turn, state.apply(turn).outcome().winner
(Turn(place='c4', land='h8'), 'blue')
"""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Iterator, Protocol

from engines.antipode.board import (
    BETWEEN,
    CORNER_PAIRS,
    FULL,
    NEIGHBOURS,
    PASS,
    RAYS,
    TURNS,
    Turn,
    indices,
)
from engines.antipode.distance import AXIAL, VALID, axial, grow
from engines.core import Outcome


class Position(Protocol):
    """What the tactics read of an Antipode position (an ``AntipodeState``)."""

    @property
    def mover(self) -> int:
        """0 when Blue is to move, 1 for Red."""

    @property
    def pawns(self) -> tuple[int, int]:
        """The cells under Blue's and Red's pawns."""

    @property
    def tokens(self) -> int:
        """The mask of cells holding a token."""

    @property
    def to_move(self) -> str | None:
        """The side to move."""

    @property
    def reach(self) -> int:
        """The cells the mover's pawn reaches in one straight move."""

    def own(self, side: int) -> int:
        """The mask of ``side``'s tokens."""

    def placements(self) -> Iterator[int]:
        """The cells the mover may place on (``PASS`` for the full-board turn)."""

    def apply(self, move: Turn) -> Position:
        """The position after ``move``."""

    def outcome(self) -> Outcome | None:
        """How the game ended, or None."""


NEIGHBOURS_AX = tuple(axial(mask) for mask in NEIGHBOURS)
BETWEEN_AX = tuple({land: axial(mask) for land, mask in row.items()} for row in BETWEEN)
PAIRS_AX = tuple((AXIAL[a], AXIAL[b]) for a, b in CORNER_PAIRS)
#: Every cell in line with each cell, and SHADOW[a][b]: the cells of a's line through b from b
#: on (what a pawn on b hides from a pawn on a).
LINES = tuple(sum(1 << m for ray in rays for m in ray) for rays in RAYS)
SHADOW = tuple(
    {ray[k]: sum(1 << m for m in ray[k:]) for ray in rays for k in range(len(ray))} for rays in RAYS
)


def joined(own: int) -> bool:
    """Whether the axial mask ``own`` joins some corner pair."""
    for a, b in PAIRS_AX:
        if own & a and own & b:
            reached = a
            while True:
                grown = grow(reached) & own
                if grown & b:
                    return True
                if grown == reached:
                    break
                reached = grown
    return False


def winning_turn(state: Position) -> Turn | None:
    """A turn that joins the mover's corners at once, or None (the game must be going on)."""
    return next(winning_turns(state), None)


def winning_turns(state: Position) -> Iterator[Turn]:
    """Every turn that wins at once for the mover (the game must be going on)."""
    mover, other = state.mover, state.pawns[1 - state.mover]
    own, tokens = axial(state.own(mover)), axial(state.tokens)
    pawns = AXIAL[state.pawns[0]] | AXIAL[state.pawns[1]]
    between, shadow = BETWEEN_AX[state.pawns[mover]], SHADOW[other]
    holes = VALID & ~tokens
    empties = FULL & ~state.tokens
    # A landing can strand the other pawn only if one placement fills all it still sees.
    lines = [
        (
            land,
            AXIAL[land],
            between[land],
            sees if (sees := LINES[other] & ~shadow.get(land, 0) & empties).bit_count() < 2 else None,
        )
        for land in indices(state.reach)
    ]
    paths = reduce(or_, (path for _, _, path, _ in lines), 0)
    # No turn adds more than the empty cells, the tokens beside them and the pawn's paths.
    may_join = joined(own | holes | (grow(holes) & tokens) | paths)
    if not may_join and all(seen is None for *_, seen in lines):
        return
    for p in state.placements():
        if p == PASS:
            placed, filled = own, tokens
        else:
            cell = AXIAL[p]
            placed = (own ^ (NEIGHBOURS_AX[p] & tokens & ~pawns)) | cell
            filled = tokens | cell
        joins = may_join and joined(placed | (paths & filled))
        for land, bit, path, seen in lines:
            if not placed & bit:
                continue
            if (
                joins
                and joined(placed ^ (path & filled))
                or (seen is not None and not seen & ~(1 << p) and _strands(state, p, land))
            ):
                yield TURNS[p][land]


def _strands(state: Position, p: int, land: int) -> bool:
    """Whether placing on ``p`` and landing on ``land`` wins by leaving the opponent no legal
    turn; asked only when every cell in line with its pawn is filled (else a placement there is
    a turn). On a full board, that also needs none of its tokens in line; the rare rest is
    played out."""
    other = state.pawns[1 - state.mover]
    if p == PASS:
        reach = LINES[other] & ~SHADOW[other].get(land, 0)
        path = BETWEEN[state.pawns[state.mover]][land] & state.tokens
        if reach & state.tokens & ~(state.own(state.mover) ^ path):
            return False
    outcome = state.apply(TURNS[p][land]).outcome()
    return outcome is not None and outcome.winner == state.to_move
