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

Each phase answers what depends on it (:class:`_Phase`: the board it should show, who acts, what
time alone brings...) and makes its own small changes (:meth:`_Turning.touch`, :meth:`hold`...).
What each phase does with a settled board, a touch, a button or an opponent's word is the table
in :mod:`firmware_host.board.judge` (``SETTLED``); docs/daemon.md prints it.

>>> Moving().correctable, Restoring(why="new game").why
(False, 'new game')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal, Self

from engines.core import GameState
from firmware_host.board import doubt, recognise
from firmware_host.board.debounce import Settle
from firmware_host.board.turn import STEPS, LightKind, Pending, Sync, Touch, Turn, TurnChoice

Board = frozenset[str]


def on_the_way(board: Board, start: Board, aim: Board) -> bool:
    """Whether ``board`` lies on the way from ``start`` to ``aim``: only pieces ``aim`` lacks
    taken off, only pieces it has put down.

    >>> on_the_way(frozenset({"a1", "c1"}), frozenset({"a1", "b1"}), frozenset({"c1", "a1"}))
    True
    >>> on_the_way(frozenset({"d1"}), frozenset({"a1"}), frozenset({"a1", "c1"}))
    False
    """
    return start & aim <= board <= start | aim


#: Touches kept while the players' move has not shown yet (the newest).
TOUCHES_KEPT = 12
#: How long (ms) a token may be off its switch before the move shows, quietly (a flip or a tap
#: under way); longer, it is pointed out as knocked off.
TOKEN_HOLD_MS = 3000
#: What time alone may bring a phase (:meth:`_Phase.lapsed`) besides a new phase: the players'
#: last move held back long enough to be taken back.
Held = Literal["held"]


class _Phase:
    """What every phase answers; each overrides what it keeps."""

    #: Whether an opponent sees the position as one to answer (no move being made or chosen).
    final: ClassVar[bool] = True
    #: Whether a turn is about to be made (the players' or the opponent's).
    turning: ClassVar[bool] = False
    #: Whether a settled board is read as the players' move.
    players_to_move: ClassVar[bool] = False
    #: Whether the game is over.
    over: ClassVar[bool] = False
    #: Whether the screen says how the board differs as an error (else its instruction guides).
    says_differs: ClassVar[bool] = True
    #: Whether the opponent is to move (its move, once it comes, is for the players to carry out).
    opponents_turn: ClassVar[bool] = False
    #: Whether several moves are offered (none recorded yet).
    offering: ClassVar[bool] = False

    def expected(self, position: Board) -> Board:
        """The occupancy the board should show, the game's ``position`` recorded."""
        return position

    def pieces(self, position: Board) -> Board:
        """The sites the game has a piece on now (a choice's: with the move's pieces placed)."""
        return self.expected(position)

    def acting(self, state: GameState[Any]) -> str | None:
        """The side who must act now: during a move's steps, or a takeback's (or a resumed
        game's) steps the sensors cannot see, the side whose steps they are; else the side to
        move."""
        return state.to_move

    def unseen(self) -> Turn | None:
        """The turn whose steps the sensors cannot see are left (kept with the game)."""
        return None

    def reread(self) -> Restoring:
        """The board to read from the start again (a round's last OK pressed): brought back
        to the recorded position, the steps the sensors cannot see still owed; said as a new
        game's set-up, unless it is being brought back already (a resumed game's steps).

        >>> Moving().reread().why, Restoring(why="resume").reread().why
        ('new game', 'resume')
        """
        return Restoring(self.unseen(), why="new game")

    def timed(self, state: GameState[Any], away: str | None) -> str | None:
        """Whose clock runs (None: nobody's): the side whose turn it is, its steps included;
        ``away``: the side of the opponent away from the board, whose clock runs while it
        chooses (carrying its move out is nobody's time)."""
        return None

    def opponent_move(self) -> Pending | None:
        """The opponent's move the players are to carry out, if any."""
        return None

    def awaits_answer(self) -> bool:
        """True while the opponent is to choose its move."""
        return False

    def answered(self, pending: Pending) -> Self:
        """This phase once the opponent chose ``pending`` (only :class:`Awaiting` keeps it)."""
        return self

    def may_correct(self) -> bool:
        """True while the players' last move may still be corrected."""
        return False

    def held_since(self) -> float | None:
        """Since when (ms) the board has shown the position before the players' last move."""
        return None

    def unheld(self) -> Self:
        """This phase with no hold of the last move."""
        return self

    def hold(self, now: float) -> Self:
        """This phase holding the last move back since ``now`` (phases that hold one)."""
        return self

    def knocked_turn(self) -> Turn | None:
        """The players' last move (or the moves offered), if read while a token it turns lay
        off its switch (a knock, maybe: see ``doubt.py``)."""
        return None

    def knock_pending(self) -> Turn | None:
        """The move followed or offered, read while a token it turns lay off its switch, whose
        drop waits for a tap that may be under way."""
        return None

    def unsaid(self) -> Turn | None:
        """The players' last move, recorded but not yet said (no ``move`` event): a knock,
        maybe, that the board may still drop (see ``doubt.py``)."""
        return None

    def tap_maybe(self, board: Board) -> bool:
        """Whether a site lifted from ``board`` may be a tap under way (a landing to choose)."""
        return False

    def standing(self) -> Board | None:
        """The pieces as they stood when a flag ended the game, until they change (None: none
        kept): the start position showing then was not set up again."""
        return None

    def mid_flip(self, board: Board) -> bool:
        """Whether a token the turn under way when the game ended still had to turn over is
        off ``board``, for less than :data:`TOKEN_HOLD_MS`: a flip under way, no set-up."""
        return False

    def in_doubt(self) -> bool:
        """Whether the players' move may have been a knock: neither sent nor answered yet."""
        return False

    def set_back_since(self) -> tuple[float, Board] | None:
        """Since when the board has shown a set-back under way, and that board (``doubted``)."""
        return None

    def setting_back(self, now: float, board: Board) -> Self:
        """This phase with a set-back to ``board`` under way since ``now``."""
        return self

    def fixed(self) -> Self:
        """This phase with the players' last move no longer to be corrected."""
        return self

    def touches(self) -> tuple[Touch, ...]:
        """Touches made for the turn to come, not counted yet."""
        return ()

    def last_turn(self) -> Turn | None:
        """The players' last turn while its landing may still be chosen again."""
        return None

    def only_unsensed_left(self) -> bool:
        """True when only steps the sensors cannot see (flips) are left of the turn followed."""
        return False

    def only_carries_left(self) -> bool:
        """True when only unseen pieces are left to carry of the turn followed."""
        return False

    def finish_unsensed(self) -> Self:
        """The turn followed with the steps the sensors cannot see taken as done."""
        return self

    def shown_turn(self) -> Turn | None:
        """The move a choice shows (highlighted), if any."""
        return None

    def picks(self, touch: Touch) -> bool:
        """True when ``touch`` picks a move at once (a tap on a choice's lit site)."""
        return False

    def settle(self, state: GameState[Any], board: Board) -> Settle:
        """How soon ``board``, just changed, is judged."""
        return "full"

    def lapsed(self, now: float, takeback_ms: float, quiet: bool) -> Self | Held | None:
        """What time alone brings at ``now`` (``quiet``: the board has settled): :data:`Held`
        (the last move held back long enough to be taken back), a new phase, or None."""
        return None

    def differs(self, position: Board, board: Board, aim: Board | None) -> tuple[Board, Board]:
        """(missing, extra): how ``board`` differs from what it should show (``aim``: a legal
        move's board fewer changes reach, else the expected board)."""
        target = self.expected(position) if aim is None else aim
        return target - board, board - target

    def strays(
        self, position: Board, board: Board, sync: Sync | None, connected: bool
    ) -> tuple[Board, Board]:
        """(missing, extra) to light: how the board differs, once the judge said so."""
        if sync is None or not connected:
            return frozenset(), frozenset()
        return self.differs(position, board, sync.aim)

    def lights(self, state: GameState[Any], board: Board) -> dict[str, LightKind]:
        """Site -> light kind: what this phase asks of the players (steps, picks, the
        opponent's move)."""
        return {}


def _stood(
    doubted: tuple[float, Board] | None, now: float, takeback_ms: float, quiet: bool
) -> tuple[float, Board] | None:
    """A doubted board that has stood, settled, for ``takeback_ms`` by ``now``: marked so
    (``-inf``), else None.

    >>> _stood((0.0, frozenset()), 1500.0, 1500.0, True)
    (-inf, frozenset())
    >>> _stood((0.0, frozenset()), 1000.0, 1500.0, True) is None
    True
    """
    if doubted and -math.inf < doubted[0] <= now - takeback_ms and quiet:
        return (-math.inf, doubted[1])
    return None


def _steps_lit(turn: Turn | None, board: Board) -> dict[str, LightKind]:
    """The sites ``turn``'s current step still needs, lit as its kind."""
    if turn is None or turn.current is None:
        return {}
    return dict.fromkeys(turn.remaining(board), STEPS[turn.current.action].light)


@dataclass(frozen=True)
class _Turning(_Phase):
    """What :class:`Moving` and :class:`Awaiting` both keep of a turn about to be made.

    ``correctable``: the players' last move may still be corrected (the next side has not begun).
    ``touched``: touches made before the move shows (counted for it once it does: a landing
    tapped before the placement).
    ``late``: the last turn's flip sites (a touch on one is that turn's flip, made late).
    ``held``: since when (ms) the board has shown the position before the players' last move
    (its piece back in the hand: a correction on its way, a takeback once held for ``takeback_ms``).
    ``holding``: since when a token a move may turn over has been off its switch before the move
    shows (pointed out after a while).
    ``doubted``: since when (ms) the board has shown a move that only goes towards the position
    before one of the players' own last turns, and that board (a takeback by hand may be under
    way, until ``takeback_ms`` pass; ``-inf``: they passed, it is a move); in :class:`Awaiting`,
    since when the players' last move, read while a token it turns lay off its switch, has stood
    (a knock, maybe: neither sent nor answered until ``takeback_ms`` pass; see ``doubt.py``).
    ``last``: the players' last turn while its landing may still be chosen again (``Turn.early``).
    """

    correctable: bool = False
    touched: tuple[Touch, ...] = ()
    late: frozenset[str] = frozenset()
    held: float | None = None
    holding: float | None = None
    doubted: tuple[float, frozenset[str]] | None = None
    last: Turn | None = None

    turning: ClassVar[bool] = True

    def may_correct(self) -> bool:
        return self.correctable

    def held_since(self) -> float | None:
        return self.held

    def unheld(self) -> Self:
        return replace(self, held=None)

    def hold(self, now: float) -> Self:
        return replace(self, held=now)

    def knocked_turn(self) -> Turn | None:
        return self.last if self.last is not None and doubt.maybe_knock(self.last) else None

    def unsaid(self) -> Turn | None:
        last = self.knocked_turn()
        return last if self.correctable and (not self.opponents_turn or self.in_doubt()) else None

    def set_back_since(self) -> tuple[float, Board] | None:
        return self.doubted

    def setting_back(self, now: float, board: Board) -> Self:
        return replace(self, doubted=(now, board))

    def fixed(self) -> Self:
        return replace(self, correctable=False)

    def touches(self) -> tuple[Touch, ...]:
        return self.touched

    def last_turn(self) -> Turn | None:
        return self.last

    def touch(self, touch: Touch) -> Self:
        """A touch kept for the move to come (the newest :data:`TOUCHES_KEPT`)."""
        return replace(self, touched=(self.touched + (touch,))[-TOUCHES_KEPT:])

    def lapsed(self, now: float, takeback_ms: float, quiet: bool) -> Self | Held | None:
        if self.held is not None and now - self.held >= takeback_ms and quiet:
            return "held"
        if (stood := _stood(self.doubted, now, takeback_ms, quiet)) is not None:
            return replace(self, doubted=stood)
        if self.holding is not None and self.holding > -math.inf and now - self.holding >= TOKEN_HOLD_MS:
            return replace(self, holding=-math.inf)  # pointed out, once
        return None


@dataclass(frozen=True)
class Moving(_Turning):
    """The players are to move (what they keep meanwhile: :class:`_Turning`)."""

    players_to_move: ClassVar[bool] = True

    def timed(self, state: GameState[Any], away: str | None) -> str | None:
        return state.to_move

    def settle(self, state: GameState[Any], board: Board) -> Settle:
        if not recognise.complete(state, board):
            return "full"
        return "landing" if recognise.landing(state, board) else "quick"

    def lights(self, state: GameState[Any], board: Board) -> dict[str, LightKind]:
        due = state.due()
        return {} if due is None else dict.fromkeys(due.sites & board, STEPS[due.action].light)


@dataclass(frozen=True)
class Choosing(_Phase):
    """Several moves explain the board: the ``choice`` among them. ``late`` as for
    :class:`Moving`; ``held``: since when (ms) the board has shown the position again, the
    moves having been read while a token they turn lay off its switch (a knock set right, or a
    tap on the placed token under way)."""

    final: ClassVar[bool] = False
    offering: ClassVar[bool] = True
    choice: TurnChoice
    late: frozenset[str] = frozenset()
    held: float | None = None

    def timed(self, state: GameState[Any], away: str | None) -> str | None:
        return state.to_move

    def held_since(self) -> float | None:
        return self.held

    def unheld(self) -> Self:
        return replace(self, held=None)

    def hold(self, now: float) -> Self:
        return replace(self, held=now)

    def knocked_turn(self) -> Turn | None:
        turns = self.choice.turns
        return turns[0] if all(doubt.maybe_knock(t) for t in turns) else None

    def knock_pending(self) -> Turn | None:
        return self.knocked_turn()

    def tap_maybe(self, board: Board) -> bool:
        return bool((self.choice.board - board) & self.choice.handled)

    def lapsed(self, now: float, takeback_ms: float, quiet: bool) -> Self | Held | None:
        return "held" if self.held is not None and now - self.held >= takeback_ms and quiet else None

    def pieces(self, position: Board) -> Board:
        return self.choice.board

    def shown_turn(self) -> Turn | None:
        return self.choice.turns[self.choice.highlight]

    def picks(self, touch: Touch) -> bool:
        return touch.site not in self.late and self.choice.touch(touch)[1] == "pick"

    def lights(self, state: GameState[Any], board: Board) -> dict[str, LightKind]:
        return self.choice.lights()


@dataclass(frozen=True)
class Following(_Phase):
    """``turn`` is recorded; its steps are under way. ``correctable`` and ``held`` as for
    :class:`_Turning`; ``touched``: touches none of its steps took (the next side's, made early);
    ``doubted``: since when the board has shown a set-back deeper than the last turn, and that
    board (a takeback once it has stood for ``takeback_ms``: ``-inf``); ``refused``: ``turn``
    turns again the tokens of a takeback by hand the other board refused."""

    final: ClassVar[bool] = False
    turn: Turn
    correctable: bool = False
    touched: tuple[Touch, ...] = ()
    held: float | None = None
    doubted: tuple[float, frozenset[str]] | None = None
    refused: bool = False

    def expected(self, position: Board) -> Board:
        return self.turn.board()

    def timed(self, state: GameState[Any], away: str | None) -> str | None:
        if self.refused:  # as the pieces put back (Restoring): the side to move's time
            return state.to_move
        # a takeback's tokens turned back (the side to move's steps): nobody's time; a move's
        # own steps asked again after a restart stay its mover's
        undoing = self.turn.move is None and self.turn.side == state.to_move
        return None if undoing or self.turn.side == away else self.turn.side

    def acting(self, state: GameState[Any]) -> str | None:
        return self.turn.side

    def unseen(self) -> Turn | None:
        return self.turn

    def may_correct(self) -> bool:
        return self.correctable

    def held_since(self) -> float | None:
        return self.held

    def unheld(self) -> Self:
        return replace(self, held=None)

    def hold(self, now: float) -> Self:
        return replace(self, held=now)

    def knocked_turn(self) -> Turn | None:
        return self.turn if doubt.maybe_knock(self.turn) else None

    def unsaid(self) -> Turn | None:
        return self.knocked_turn() if self.correctable else None

    def knock_pending(self) -> Turn | None:
        return self.knocked_turn()

    def tap_maybe(self, board: Board) -> bool:
        return bool((self.turn.board() - board) & self.turn.to_touch())

    def fixed(self) -> Self:
        return replace(self, correctable=False)

    def touches(self) -> tuple[Touch, ...]:
        return self.touched

    def only_unsensed_left(self) -> bool:
        return self.turn.only_unsensed_left()

    def only_carries_left(self) -> bool:
        left = self.turn.steps_left()
        return bool(left) and all(s.action == "carry" for s in left)

    def finish_unsensed(self) -> Self:
        return replace(self, turn=self.turn.finish_unsensed())

    def touch(self, touch: Touch) -> Self:
        """A touch none of the steps took, kept for the next turn (a flip of its own, made early)."""
        return replace(self, touched=(self.touched + (touch,))[-TOUCHES_KEPT:])

    def set_back_since(self) -> tuple[float, Board] | None:
        return self.doubted

    def setting_back(self, now: float, board: Board) -> Self:
        return replace(self, doubted=(now, board))

    def lapsed(self, now: float, takeback_ms: float, quiet: bool) -> Self | Held | None:
        if self.held is not None and now - self.held >= takeback_ms and quiet:
            return "held"
        stood = _stood(self.doubted, now, takeback_ms, quiet)
        return None if stood is None else replace(self, doubted=stood)

    def differs(self, position: Board, board: Board, aim: Board | None) -> tuple[Board, Board]:
        missing, extra = super().differs(position, board, aim)
        return missing - self.turn.to_touch(), extra  # a token to turn, in the hand, is no piece missing

    def lights(self, state: GameState[Any], board: Board) -> dict[str, LightKind]:
        return _steps_lit(self.turn, board)


@dataclass(frozen=True)
class Awaiting(_Turning):
    """The opponent is to move; ``pending`` its chosen move, which the players carry out. The
    rest as for :class:`Moving` (the players' last move may be corrected while the opponent
    thinks; touches may come before the move shows)."""

    pending: Pending | None = None

    def opponent_move(self) -> Pending | None:
        return self.pending

    opponents_turn: ClassVar[bool] = True

    def awaits_answer(self) -> bool:
        return self.pending is None

    def timed(self, state: GameState[Any], away: str | None) -> str | None:
        return away if self.pending is None and not self.in_doubt() else None  # once told

    def in_doubt(self) -> bool:
        return self.doubted is not None and self.doubted[0] > -math.inf

    def answered(self, pending: Pending) -> Self:
        return replace(self, pending=pending)

    def differs(self, position: Board, board: Board, aim: Board | None) -> tuple[Board, Board]:
        if self.pending:  # the changes that are no part of the opponent's move
            return self.pending.stray(position, board)
        return super().differs(position, board, aim)

    def lights(self, state: GameState[Any], board: Board) -> dict[str, LightKind]:
        return self.pending.lights(board) if self.pending else {}

    def settle(self, state: GameState[Any], board: Board) -> Settle:
        """The opponent's move carried out is the one move the board waits for: a hand over
        its lit site carries the very piece that goes there, so only the bounce is waited for."""
        shown = self.pending is not None and self.pending.done(state.occupied(), board) is not None
        return "landing" if shown else "full"


#: Why the board is guided back (the screen words each: ``view.RESTORE_WORDS``).
Why = Literal["takeback", "new game", "resume", "refused"]


@dataclass(frozen=True)
class Restoring(_Phase):
    """The board must come back to the recorded position; ``undo`` holds what the sensors
    cannot see (tokens to turn back, unseen pieces to carry); ``why``: "takeback", "new game",
    "resume" or "refused" (a takeback by hand the other board refused)."""

    says_differs: ClassVar[bool] = False
    undo: Turn | None = None
    why: Why = "resume"

    def acting(self, state: GameState[Any]) -> str | None:
        if self.undo is not None and not self.undo.done:
            return self.undo.side
        return state.to_move

    def unseen(self) -> Turn | None:
        return self.undo

    def reread(self) -> Restoring:
        return self

    def timed(self, state: GameState[Any], away: str | None) -> str | None:
        # a takeback refused: its pieces put back by the players who set them back, in the
        # turn of the side to move (whose clock runs on at the other board too)
        return state.to_move if self.why == "refused" else None

    def differs(self, position: Board, board: Board, aim: Board | None) -> tuple[Board, Board]:
        return position - board, board - position  # the recorded position, whatever the aim

    def strays(
        self, position: Board, board: Board, sync: Sync | None, connected: bool
    ) -> tuple[Board, Board]:
        if sync is None:  # guided once the board was read at a settle: no flash meanwhile
            return frozenset(), frozenset()
        return self.differs(position, board, None)

    def lights(self, state: GameState[Any], board: Board) -> dict[str, LightKind]:
        return _steps_lit(self.undo, board)


@dataclass(frozen=True)
class Over(_Phase):
    """The game is over; ``touched``: touches made before it ended that no step took (tokens
    turned back while a takeback was asked, when a flag fell: the takeback may still come);
    ``stood``: the pieces when a flag fell (set back for a takeback, say), until they change
    (a set-back by hand under way then, towards the position ``aim``, may go on to it);
    ``owed``: the tokens the turn under way when a flag fell still had to turn over (or tap),
    until each is set back once; ``off``: since when those of them in the hand have been off
    the board, and which.

    >>> over = Over(owed=frozenset({"a1", "b1"})).changed(0.0, frozenset({"a1"}))
    >>> over.mid_flip(frozenset({"a1"})), over.off
    (True, (0.0, frozenset({'b1'})))
    >>> over.lapsed(TOKEN_HOLD_MS, 1500.0, True).mid_flip(frozenset({"a1"}))
    False
    >>> over.changed(900.0, frozenset({"a1", "b1"})).owed
    frozenset({'a1'})
    """

    over: ClassVar[bool] = True
    touched: tuple[Touch, ...] = ()
    stood: Board | None = None
    owed: Board = frozenset()
    off: tuple[float, Board] | None = None
    aim: Board | None = None

    @classmethod
    def flagged(cls, phase: Phase, board: Board, now: float, aim: Board | None = None) -> "Over":
        """The game lost on time at ``now`` in ``phase``, the pieces standing as ``board`` (a
        set-back by hand towards ``aim`` under way): the tokens its turn still had to turn
        over are owed."""
        turn = phase.unseen()
        owed = turn.to_touch() if turn is not None else frozenset()
        return cls(phase.touches(), board, owed, aim=aim).changed(now, board)

    def moved(self, board: Board) -> "Over":
        """This phase once the pieces show ``board``: those that stood when the flag fell
        still stand while a set-back under way then goes on towards its ``aim`` (reached, it
        is no set-up either), else they changed.

        >>> over = Over(stood=frozenset({"a1", "b1", "c1"}), aim=frozenset({"a1"}))
        >>> over.moved(frozenset({"a1", "c1"})).moved(frozenset({"a1"})).standing()
        frozenset({'a1'})
        >>> over.moved(frozenset({"a1"})).moved(frozenset({"a1", "b1"})).standing() is None
        True
        """
        stood, aim = self.stood, self.aim
        if stood is not None and aim is not None and on_the_way(board, stood, aim):
            return replace(self, stood=board)
        return replace(self, stood=None, aim=None)

    def changed(self, now: float, board: Board) -> "Over":
        """This phase once the pieces show ``board`` at ``now``: owed tokens set back are
        turned; those in the hand are off since the first was lifted."""
        lifted = self.off[1] if self.off else frozenset()
        owed = self.owed - (lifted & board)
        held = owed - board
        since = self.off[0] if self.off and held else now
        return replace(self, owed=owed, off=(since, held) if held else None)

    def touches(self) -> tuple[Touch, ...]:
        return self.touched

    def standing(self) -> Board | None:
        return self.stood

    def mid_flip(self, board: Board) -> bool:
        return bool(self.owed - board)

    def lapsed(self, now: float, takeback_ms: float, quiet: bool) -> Self | Held | None:
        if self.off is not None and now - self.off[0] >= TOKEN_HOLD_MS:
            return replace(self, owed=self.owed - self.off[1], off=None)  # left off: a set-up
        return None


Phase = Moving | Choosing | Following | Awaiting | Restoring | Over
