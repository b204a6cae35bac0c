"""Who plays the other side when it is not a player at this board, behind one protocol.

An :class:`Opponent` is never handed the controller. After every step it is shown what it may
see of the game (:class:`Seen`) and answers with what it wants done (:data:`Intent`): a move for
the players to carry out, a takeback, a new game, a question for the players. The controller
carries these out in its own step, so an opponent can never change the game in the middle of
one (the intents are ``NamedTuple`` values, as the judge's decisions are,
``firmware_host/board/decisions.py``). Two opponents exist: :class:`Computer` (here) and the
board at the other end of the café network (``firmware_host/net/mqtt/remote.py``).

The computer thinks in a supervised worker process (:mod:`firmware_host.board.worker`), started when
first needed: a worker that dies (the OOM killer) is started again and thinks again on the same
position, its ``failure`` saying why meanwhile ("Computer restarting"). A search stops at its
level's work or its wall-clock limit (``engines.ai.LIMITS``), whichever comes first. Once its
move is found the computer ponders in that process over the players' turn
(``engines/ai/ponder.py``): a yielding job, stopped when its next move is asked for, so the
search it kept answers the players' move; a takeback or a new game ends it. Under ``reedboard
replay`` (``sync=True``) the move is chosen at once, without pondering, so a replay with a fixed
seed is always the same.

>>> computer = Computer("black", level=1, sync=True)
>>> computer.side, computer.level, computer.rethinks
('black', 1, True)
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, NamedTuple, Protocol, Sequence

from engines import MODULES
from engines.core import GameState
from firmware_host.actions.commands import Marker, side_named
from firmware_host.board.game import Game
from firmware_host.board.seating import Seating
from firmware_host.board.turn import directions
from firmware_host.i18n import N_, _
from firmware_host.store.timecontrol import Clocks
from firmware_host.ui.screens import Screen

if TYPE_CHECKING:  # the computer (engines.ai), its worker (multiprocessing) and the searches load
    # when a computer is first asked for: a board without one starts without them
    from engines.ai import ponder
    from firmware_host.board.worker import Job, Worker

#: Work a pondering slice does between looks at whether it is wanted elsewhere (positions;
#: alpha-beta's a level's at least, ``Ponder.least``).
PONDER_SLICE = 200


@dataclass(frozen=True)
class Seen:
    """What an opponent sees of the game at the board after a step: the ``game`` and its stored
    ``game_id``, the ``moves`` and the positions they lead through (``states``); ``awaiting``:
    the opponent's move is due and none is lit for the players yet; ``final``: none of the
    players' own steps or choices is under way, so the moves are their last word (the
    opponent's move may be being carried out);
    ``pending``: the opponent's move lit for the players to carry out; ``token`` and
    ``rewrites``: the game's history besides its moves (``firmware_host/board/record.py``);
    ``clocks``: the game clocks (None: no clock), ``used``: the time (ms) each move's turn
    took, by the moves made after it, ``turn``: the side whose clock runs and for how long
    (ms) so far, ``seating``: who sits at the seats, ``corrections``: how many arbiter's
    corrections were made at this board, and ``follows``: the token of the game played before
    this one (over here: never joined again)."""

    game: Game
    game_id: int
    moves: tuple[str, ...]
    states: tuple[GameState[Any], ...]
    awaiting: bool
    final: bool
    pending: str | None = None
    token: str = ""
    rewrites: tuple[tuple[int, str], ...] = ()
    clocks: Clocks | None = None
    used: Mapping[int, float] = field(default_factory=dict)
    turn: tuple[str, float] | None = None
    #: Who sits at the seats (both boards' seats with a paired board) and the league table.
    seating: Seating = field(default_factory=Seating)
    corrections: int = 0
    follows: str = ""

    @property
    def state(self) -> GameState[Any]:
        return self.states[-1]

    def at_turn(self, turn: tuple[str, float] | None) -> Seen:
        """The same, but ``turn``: a copy made without the dataclass's ``replace`` (a board
        with a clock running makes one at every scan).

        >>> seen = Seen(None, 1, (), (), awaiting=False, final=True, turn=("blue", 10.0))
        >>> later = seen.at_turn(("blue", 20.0))
        >>> later.turn, later.game_id, seen.turn
        (('blue', 20.0), 1, ('blue', 10.0))
        """
        seen = object.__new__(Seen)
        seen.__dict__.update(self.__dict__, turn=turn)
        return seen

    @property
    def position(self) -> tuple[Any, ...]:
        """Which position this is: the game, the number of moves and the last (a corrected
        move makes a new one)."""
        return self.game_id, len(self.moves), self.moves[-1] if self.moves else None

    def turns_back(self, side: str, to: int | None = None) -> int:
        """How many moves stay when ``side``'s last turn and the players' turn before it are
        taken back (the players' alone when ``side`` has not answered yet), or ``to`` when the
        pieces show that earlier position (in a game of three or four, the players' turn may
        be several sides' moves: the pieces say how many of them go).

        >>> from engines import new_game
        >>> states = [new_game("antipalos", 3, "cut-throat-3")]
        >>> moves = ("*A3", "B2*", "*B1", "C2*", "A1*")
        >>> for move in moves:
        ...     states.append(states[-1].play(move))
        >>> seen = Seen(None, 1, moves, tuple(states), awaiting=False, final=True)
        >>> seen.turns_back("black"), seen.turns_back("black", 3), seen.turns_back("black", 1)
        (2, 3, 1)
        """
        if to is not None:
            return to
        index = len(self.moves)
        while index > 0 and self.states[index - 1].to_move == side:
            index -= 1
        while index > 0 and self.states[index - 1].to_move != side:
            index -= 1
        return index


class Play(NamedTuple):
    """Light ``move`` for the players to carry out, saying ``say``; ``used``: the time (ms)
    its turn took, timed where it was made (None: timed here)."""

    move: str
    say: str
    used: float | None = None


class Started(NamedTuple):
    """The opponent's turn began where it is played, ``used`` ms ago: its clock runs here as
    from then (``anew`` False: if that is earlier than it runs from already; True: the other
    board started again, its clock with it)."""

    used: float
    anew: bool = True


class Heard(Marker):
    """The opponent's board is there, heard since this board started: the clock of the
    players here, held till then (:attr:`Opponent.present`), runs."""


class Corrected(NamedTuple):
    """An arbiter's correction made where the opponent is played: each side's time ``left``
    (ms, as of the running clock's last switch; None: as it is here, the position having moved
    on) and whether the clocks are ``paused``."""

    left: Mapping[str, float] | None
    paused: bool


class Retimed(NamedTuple):
    """The opponent's last move, the game's ``ply``-th, took ``used`` ms where it was made
    (said only after it was carried out here)."""

    ply: int
    used: float


class TimeUp(NamedTuple):
    """The flag of ``side`` (the opponent's player: its side, or a team's player) fell where it
    is played."""

    side: str


class TakeBackTo(NamedTuple):
    """Take the game back to its first ``keep`` moves (agreed elsewhere); ``then``: the
    opponent's move in place of its last one (it corrected it), carried out from the board as
    it stands."""

    keep: int
    then: Play | None = None


class StartGame(NamedTuple):
    """Begin a new game of ``game`` (the other board began one)."""

    game: Game


class Remember(NamedTuple):
    """The game is played with another board under ``token`` (stored with it)."""

    token: str


class Adopt(NamedTuple):
    """The game is now ``moves`` with ``rewrites`` (the other board's history stands over
    this one's); the board is guided to it."""

    moves: tuple[str, ...]
    rewrites: tuple[tuple[int, str], ...]


class Ask(NamedTuple):
    """Put the question ``screen`` to the players: OK calls ``answer(True)``, another button
    ``answer(False)``."""

    screen: Screen
    answer: Callable[[bool], None]


class Withdraw(Marker):
    """The question asked is no longer asked."""


class Seated(NamedTuple):
    """The players at both boards' seats and the league table are now ``seating`` (set on the
    other board, or its seat's player pressed OK there)."""

    seating: Seating


Intent = (
    Play
    | Started
    | Heard
    | Corrected
    | Retimed
    | TimeUp
    | TakeBackTo
    | StartGame
    | Remember
    | Adopt
    | Ask
    | Withdraw
    | Seated
)


class Asked(NamedTuple):
    """A takeback that cannot be made now: ``why`` (shown), ``waiting`` when an answer is
    still to come (else refused)."""

    why: str
    waiting: bool = True


class Opponent(Protocol):
    """The other side's player, away from the board."""

    #: Why a board is refused while the opponent's move has not been said.
    WAIT: str
    #: Whether the players may still correct their move while the opponent's answer waits to
    #: be carried out (the opponent then answers the corrected move).
    rethinks: bool
    #: Whether its turns are timed where it plays: its clock here waits for :class:`Started`,
    #: its moves say the time they took and its flag falls there (:class:`TimeUp`); else its
    #: clock runs from when it is told and its flag falls here.
    times_itself: bool
    #: Whether it is there: one that times itself, until it is heard (:class:`Heard`), holds
    #: the clock of the players here (the time until then is nobody's).
    present: bool

    @property
    def level(self) -> int | None:
        """The computer's level (1..5); None for a player elsewhere."""

    def side_in(self, state: GameState[Any]) -> str:
        """The side it plays in ``state``'s game."""

    def record(self, state: GameState[Any]) -> str:
        """Who it is, as game records keep it."""

    def poll(self, seen: Seen) -> Sequence[Intent]:
        """What it wants done now (never blocks)."""

    def takeback(self, seen: Seen, to: int | None = None) -> int | Asked:
        """The players ask to take back (``to``: to the position after that many moves, the
        one the pieces show; None: one exchange): how many moves stay, or why not now."""

    @property
    def note(self) -> str | None:
        """A line for the screen about the opponent ("Opponent offline"), or None."""

    def close(self) -> None:
        """Stop whatever it runs."""


#: Where a position is: (its game's stored id, the moves that led to it).
Where = tuple[int, tuple[str, ...]]
#: In the worker process: where the pondering is (the computer's move played) and what it
#: keeps; None when it ponders nothing.
_PONDERING: tuple[Where, ponder.Ponder] | None = None


def think(
    state: GameState[Any],
    level: int,
    seed: int,
    gentle: bool = True,
    where: Where | None = None,
    seconds: float | None = None,
) -> str:
    """The computer's move at ``state`` in canonical notation (run in the worker process),
    within ``seconds`` (default: its level's time limit); a hint is not ``gentle``: never one
    of level 1's loose moves. ``where`` (the computer's own moves, not hints): where ``state``
    is, so that the pondering kept answers the players' move when it follows the last one the
    computer pondered over, and pondering starts after the move chosen."""
    global _PONDERING
    from engines.ai import LIMITS, choose, ponder

    deadline = time.monotonic() + (LIMITS[level - 1] if seconds is None else seconds)

    def stop() -> bool:
        return time.monotonic() > deadline

    kept, _PONDERING = _PONDERING, None
    if where is not None and kept is not None and _follows(kept[0], where):
        thought = kept[1]
        choice = thought.reply(state, thought.state.parse_move(where[1][-1]), seed, stop)
    else:
        choice = choose(state, level, seed, stop=stop, gentle=gentle)
    move = state.notation(choice.move)
    if where is not None:
        after = ponder.start(state, choice, level, seed)
        _PONDERING = ((where[0], (*where[1], move)), after) if after else None
    return move


def _follows(pondered: Where, now: Where) -> bool:
    """Whether ``now`` is one move after ``pondered``."""
    return now[0] == pondered[0] and now[1][:-1] == pondered[1]


def think_on() -> int:
    """Ponder (in the worker process) until the worker wants it for another job or pondering
    is done; the work it did."""
    from firmware_host.board.worker import interrupted

    if _PONDERING is None:
        return 0
    thought = _PONDERING[1]
    while not interrupted() and thought.grow(max(PONDER_SLICE, thought.least), interrupted):
        pass
    return thought.spent


def forget() -> None:
    """Drop the pondering (in the worker process): the game went elsewhere."""
    global _PONDERING
    _PONDERING = None


#: The searches a worker loads before its first move (engines.ai loads them when first asked).
SEARCHES = ("engines.ai.alphabeta", "engines.ai.mcts")


class Thinker:
    """A search run in a supervised worker process, started when first needed."""

    #: The worker (None until the first search), named in its process and its failures.
    worker: Worker | None = None
    NAME = "computer"

    def _workers(self) -> Worker:
        if self.worker is None:
            from firmware_host.board.worker import Worker

            self.worker = Worker(self.NAME, preload=(__name__, *SEARCHES, *MODULES.values()))
        return self.worker

    def close(self) -> None:
        """Stop the worker process (a search under way is abandoned)."""
        if self.worker is not None:
            self.worker.close()
            self.worker = None


class Hints(Thinker):
    """Hints on request: the move the computer at ``level`` suggests for the side to move,
    searched in the worker process and given once, if the position is still the one asked
    about.

    >>> hints = Hints(1, sync=True)
    >>> hints.level
    1
    """

    NAME = "hints"

    def __init__(self, level: int, sync: bool = False) -> None:
        self.level = level
        self.sync = sync
        self._future: Job | None = None
        self._asked: tuple[Any, ...] | None = None
        self._ready: str | None = None

    def ask(self, seen: Seen) -> None:
        """Start searching for a hint at ``seen``'s position."""
        self._asked = seen.position
        if self.sync:
            self._ready = think(seen.state, self.level, len(seen.moves), gentle=False)
            return
        self._future = self._workers().submit(think, seen.state, self.level, len(seen.moves), False)

    @property
    def asked(self) -> bool:
        """A hint is being searched for or waits to be given (else :meth:`poll` has nothing:
        the loop need not say what it sees).

        >>> hints = Hints(1, sync=True)
        >>> hints.asked
        False
        """
        return self._future is not None or self._ready is not None

    def poll(self, seen: Seen) -> str | None:
        """The hint, once found, if ``seen`` is still the position asked about."""
        if self._future is not None and self._future.done():
            self._ready = self._future.result()
            self._future = None
        if self._ready is None:
            return None
        ready, self._ready = self._ready, None
        return ready if self._asked == seen.position else None


class Computer(Thinker):
    """The computer playing ``side`` (a side, or a seat: "first" or "second") at ``level``
    (1..5); ``seed`` makes its play repeatable. A game without that side (or ``side`` None):
    the computer plays the last side."""

    WAIT = N_("Wait: the computer is thinking")
    rethinks = True
    times_itself = False
    present = True
    note = None

    def __init__(self, side: str | None, level: int, seed: int = 0, sync: bool = False) -> None:
        self.side = side
        self.level = level
        self.seed = seed
        self.sync = sync
        self._future: Job | None = None
        #: The position the computer is thinking about or has answered.
        self._asked: tuple[Any, ...] | None = None
        #: Where the worker ponders (the game and its moves, the computer's last included).
        self._pondering: Where | None = None

    def poll(self, seen: Seen) -> list[Play]:
        """Think when its move is due; once the move is found, have it carried out and ponder
        over the players' turn."""
        if not seen.awaiting:
            self._asked = self._future = None  # a search under way is left to end unread
            self._ponder_while(seen)
            return []
        if self._asked != seen.position:
            self._asked = seen.position
            seed, seconds = self.seed + len(seen.moves), self.seconds(seen)
            if self.sync:
                return [self._play(seen.state, think(seen.state, self.level, seed, seconds=seconds))]
            where = (seen.game_id, seen.moves)
            self._pondering = None  # the search below stops it (a yielding job)
            self._future = self._workers().submit(think, seen.state, self.level, seed, True, where, seconds)
        if self._future is not None and self._future.done():
            future, self._future = self._future, None
            move = future.result()
            self._pondering = (seen.game_id, (*seen.moves, move))
            self._workers().submit(think_on, yields=True)
            return [self._play(seen.state, move)]
        return []

    def seconds(self, seen: Seen) -> float:
        """How long its search may take: its level's limit, or less on a clock
        (``engines/ai/clocked.py``).

        >>> from dataclasses import replace
        >>> from firmware_host.store.timecontrol import TimeControl
        >>> clocks = Clocks.start(TimeControl.parse("30"), ("white", "black"))
        >>> game = Game.of("antipod", 4)
        >>> seen = Seen(game, 1, (), (game.new(),), True, True, clocks=clocks)
        >>> Computer("black", 3).seconds(seen), Computer("black", 3).seconds(replace(seen, clocks=None))
        (1.0, 1.5)
        """
        from engines.ai import LIMITS
        from engines.ai.clocked import seconds_for

        limit, clocks = LIMITS[self.level - 1], seen.clocks
        if clocks is None:
            return limit
        state, side = seen.state, self.side_in(seen.state)
        player = state.player_to_move if state.to_move == side else None  # a team's player
        return seconds_for(limit, *clocks.ahead(player or side))

    def _ponder_while(self, seen: Seen) -> None:
        """Stop pondering once the game leaves the way it was pondered on (a takeback, a new
        game): the worker forgets it."""
        where = self._pondering
        if (
            where is None
            or seen.game_id == where[0]
            and (  # its move to carry out, or played
                seen.moves == where[1][:-1] or seen.moves[: len(where[1])] == where[1]
            )
        ):
            return
        self._pondering = None
        self._workers().submit(forget)

    def takeback(self, seen: Seen, to: int | None = None) -> int:
        """The computer's last turn and the players' before it are undone (the players'
        alone while the computer has not answered), or more when the pieces show an earlier
        position (``to``)."""
        return seen.turns_back(self.side_in(seen.state), to)

    def record(self, state: GameState[Any]) -> str:
        """Who the computer is, as game records keep it: "computer black, level 3"."""
        return f"computer {self.side_in(state)}, level {self.level}"

    @classmethod
    def of_record(cls, text: str | None, sync: bool = False) -> "Computer | None":
        """The computer a game record names (None: no computer played it).

        >>> Computer.of_record("computer black, level 3").level, Computer.of_record("board t2, black")
        (3, None)
        """
        if text is None or not text.startswith("computer "):
            return None  # a game without the computer: no pattern compiled
        found = re.fullmatch(r"computer (\S+), level ([1-5])", text)
        return cls(found.group(1), int(found.group(2)), sync=sync) if found else None

    def side_in(self, state: GameState[Any]) -> str:
        """The side the computer plays in ``state``'s game."""
        return side_named(self.side, state.sides)

    @staticmethod
    def _play(state: GameState[Any], move: str) -> Play:
        return Play(
            move,
            _("Computer plays {move}: {how}").format(
                move=move, how=directions(state, state.parse_move(move))
            ),
        )
