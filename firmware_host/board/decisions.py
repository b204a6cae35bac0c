"""What the judge (``firmware_host/board/judge.py``) reads of a board's game, :class:`View`, and
what it decides should happen, :data:`Decision`: values the controller applies in order, in one
place (``Controller.apply``). The judge never acts itself.

Where a rule needs to see the game after a decision (a move saved, a phase entered), it ends
its list with :class:`Then`: the controller applies what came before, then asks it again.

Each decision is a ``NamedTuple`` (defined at import far faster than a dataclass, whose methods
Python compiles one by one: a board reaches READY sooner); those with no field are
:class:`~firmware_host.actions.commands.Marker` values, so that each equals only its own kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, NamedTuple, Protocol

from firmware_host.actions.commands import Marker
from firmware_host.board.opponent import Asked
from firmware_host.board.turn import Sync, Touch, Turn, TurnChoice

if TYPE_CHECKING:
    from typing import Any

    from engines.core import GameState
    from firmware_host.board import recognise
    from firmware_host.board.events import Event
    from firmware_host.board.game import Game
    from firmware_host.board.phase import Phase
    from firmware_host.board.record import GameRecord
    from firmware_host.board.settings import Settings

Board = frozenset[str]


class Rival(Protocol):
    """What the judge reads of the opponent away from the board."""

    @property
    def WAIT(self) -> str: ...
    @property
    def rethinks(self) -> bool: ...
    def side_in(self, state: GameState[Any]) -> str | None: ...


class View(Protocol):
    """What the judge reads of a board's game: where it stands, the game, the sensed board,
    the guidance shown, the time, the set-up, the opponent, and the engine's answers about the
    position (asked once each)."""

    @property
    def phase(self) -> Phase: ...
    @property
    def record(self) -> GameRecord: ...
    @property
    def board(self) -> Board: ...
    @property
    def sync(self) -> Sync | None: ...
    @property
    def now(self) -> float: ...
    @property
    def settings(self) -> Settings: ...
    @property
    def opponent(self) -> Rival | None: ...
    def touchable(self) -> Board: ...
    def captures(self) -> recognise.Captures: ...
    def targets_of(self, index: int, site: str) -> Board: ...


#: What the judge decides: applied in order by the controller.
Decisions = list["Decision"]
#: The judge asked again, of the game as it then stands.
Judged = Callable[[View], Decisions]


class Go(NamedTuple):
    """Enter ``phase``."""

    phase: Phase


class InSync(Marker):
    """The board shows what it should: guidance back ends."""


class OutOfSync(NamedTuple):
    """Guide the board back: ``sync`` says what differs and why."""

    sync: Sync


class Light(NamedTuple):
    """Light ``targets`` (a lifted piece's), or none."""

    targets: Board


class Flash(NamedTuple):
    """Show ``text`` briefly."""

    text: str


class Emit(NamedTuple):
    """Tell ``event``."""

    event: Event


class Offer(NamedTuple):
    """Let the players choose among moves; ``late``: the last turn's flips still to come."""

    choice: TurnChoice
    late: Board = frozenset()


class Accept(NamedTuple):
    """Save ``turn``'s move (``correct``: in place of the last one) and start its steps;
    ``then``: asked once it is saved (not when storage refused it)."""

    turn: Turn
    correct: bool = False
    correctable: bool = True
    then: Judged | None = None


class Follow(NamedTuple):
    """Run the recorded move's steps until one must wait (``announce``: its step said)."""

    announce: bool = False


class GuideStep(NamedTuple):
    """Announce ``turn``'s current step."""

    turn: Turn


class BeginTurn(NamedTuple):
    """The next turn (``Controller.begin_turn``)."""

    correctable: bool = False
    late: Board = frozenset()
    touched: tuple[Touch, ...] = ()
    last: Turn | None = None


class AskTakeBack(NamedTuple):
    """Ask the opponent to take the game back to its first ``keep`` moves (this sends);
    ``then``: given its answer (the moves to keep, or why not now)."""

    keep: int
    then: Callable[[View, int | Asked], Decisions]


class TakeBack(NamedTuple):
    """Take the game back to its first ``keep`` moves (the board is then judged again);
    ``made``: touches made on the way, counted into its undoing before its step is told."""

    keep: int
    made: tuple[Touch, ...] = ()


class DropLast(Marker):
    """Undo the last move with nothing to guide."""


class NewGame(NamedTuple):
    """Begin ``game``."""

    game: Game


class Forget(NamedTuple):
    """The hand forgets ``sites`` were lifted (a piece set down there later is placed)."""

    sites: Board


class CountTouches(NamedTuple):
    """The touches the hand made that ended on ``board`` are taken (the hand keeps no more of
    them) and each judged as a touch; ``holding``: the sites the game has a piece on."""

    board: Board
    holding: Board


class Rejudge(Marker):
    """Judge the board again, if it is settled."""


class Then(NamedTuple):
    """Ask ``judged`` of the game once everything before has been applied."""

    judged: Judged


Decision = (
    Go
    | InSync
    | OutOfSync
    | Light
    | Flash
    | Emit
    | Offer
    | Accept
    | Follow
    | GuideStep
    | BeginTurn
    | AskTakeBack
    | TakeBack
    | DropLast
    | NewGame
    | Forget
    | CountTouches
    | Rejudge
    | Then
)
