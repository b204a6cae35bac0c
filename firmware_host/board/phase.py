"""Where the game stands at the board: one value, a *phase*.

=============  ==================================================================================
phase          meaning
=============  ==================================================================================
``Moving``     the players at this board are to move: a settled board is read as their move
``Choosing``   several moves explain the board; touches (a tap, a flip) or OK/BACK choose
``Following``  a move is recorded; the players make the steps the rules require after it
``Awaiting``   the opponent (the computer, the other board) is to move; once it has chosen
               (``pending``) the players carry its move out
``Restoring``  the board must come back to the recorded position (a takeback, a new game, a
               resume): nothing on it is read as a move until it does
``Over``       the game is over; the start position set up again begins the next one
=============  ==================================================================================

What each phase does with a settled board, a touch, a button or an opponent's word is the table
in :mod:`firmware_host.board.judge` (``RULES``); docs/daemon.md prints it.

>>> Moving().correctable, Restoring(why="new game").why
(False, 'new game')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.core import GameState

from firmware_host.board.turn import Pending, Touch, Turn, TurnChoice


@dataclass(frozen=True)
class _Turning:
    """What :class:`Moving` and :class:`Awaiting` both keep of a turn about to be made.
    ``correctable``: the players' last move may still be corrected (the next side has not
    begun); ``touched``: touches made before the move shows (counted for it once it does: a
    landing tapped before the placement); ``late``: the last turn's flip sites (a touch on one is
    that turn's flip, made late); ``held``: since when (ms) the board has shown the position
    before the players' last move (its piece back in the hand: a correction on its way, a
    takeback once held for ``takeback_ms``); ``holding``: since when a token a move may turn over
    has been off its switch before the move shows (pointed out after a while); ``doubted``:
    since when (ms) the board has shown a move that only goes towards the position before one
    of the players' own last turns, and that board (a takeback by hand may be under way, until
    ``takeback_ms`` pass; ``-inf``: they passed, it is a move), or in :class:`Awaiting` since
    when the players' last move, read while a token it turns lay off its switch, has stood (a
    knock, maybe: neither sent nor answered until ``takeback_ms`` pass, see
    ``firmware_host/board/doubt.py``); ``last``: the players' last
    turn while its landing may still be chosen again (see ``Turn.early``)."""

    correctable: bool = False
    touched: tuple[Touch, ...] = ()
    late: frozenset[str] = frozenset()
    held: float | None = None
    holding: float | None = None
    doubted: tuple[float, frozenset[str]] | None = None
    last: Turn | None = None


@dataclass(frozen=True)
class Moving(_Turning):
    """The players are to move (what they keep meanwhile: :class:`_Turning`)."""


@dataclass(frozen=True)
class Choosing:
    """Several moves explain the board: the ``choice`` among them. ``late`` as for
    :class:`Moving`; ``held``: since when (ms) the board has shown the position again, the
    moves having been read while a token they turn lay off its switch (a knock set right, or a
    tap on the placed token under way)."""

    choice: TurnChoice
    late: frozenset[str] = frozenset()
    held: float | None = None


@dataclass(frozen=True)
class Following:
    """``turn`` is recorded; its steps are under way. ``correctable`` and ``held`` as for
    :class:`_Turning`; ``touched``: touches none of its steps took (the next side's, made early)."""

    turn: Turn
    correctable: bool = False
    touched: tuple[Touch, ...] = ()
    held: float | None = None


@dataclass(frozen=True)
class Awaiting(_Turning):
    """The opponent is to move; ``pending`` its chosen move, which the players carry out. The
    rest as for :class:`Moving` (the players' last move may be corrected while the opponent
    thinks; touches may come before the move shows)."""

    pending: Pending | None = None


@dataclass(frozen=True)
class Restoring:
    """The board must come back to the recorded position; ``undo`` holds what the sensors
    cannot see (tokens to turn back, unseen pieces to carry); ``why``: "takeback", "new game",
    "resume" or "refused" (a takeback by hand the other board refused)."""

    undo: Turn | None = None
    why: str = "resume"


@dataclass(frozen=True)
class Over:
    """The game is over."""


Phase = Moving | Choosing | Following | Awaiting | Restoring | Over


def acting(phase: Phase, state: GameState[Any]) -> str | None:
    """The side who must act now: during a move's steps, or a takeback's (or a resumed game's)
    steps the sensors cannot see, the side whose steps they are; else the side to move."""
    if isinstance(phase, Following):
        return phase.turn.side
    if isinstance(phase, Restoring) and phase.undo is not None and not phase.undo.done:
        return phase.undo.side
    return state.to_move
