"""The computer opponent at the board: it thinks in a separate process and has the players
carry out its move through :meth:`Controller.expect`.

The controller calls :meth:`Computer.tick` after every step. When it is the computer's side to
move (no follow-up under way, the game not over) the search starts in a supervised worker
process (:mod:`firmware_host.worker`), started when first needed; later ticks only poll it, so
the scan loop never waits. A worker that dies (the OOM killer) is started again and thinks
again on the same position; its ``failure`` says why meanwhile ("Computer restarting"). Under
``reedboard replay`` (``sync=True``) the move is chosen at once, so a replay with a fixed seed
is always the same.

>>> computer = Computer("black", level=1, sync=True)
>>> computer.side, computer.level
('black', 1)
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from engines import MODULES
from engines.ai import choose
from engines.core import GameState
from firmware_host.worker import Job, Worker

if TYPE_CHECKING:
    from firmware_host.controller import Controller

#: The wall-clock cap on one search (its budget is work, so this is only a safety net).
CAP_SECONDS = 60.0


def think(state: GameState, level: int, seed: int, gentle: bool = True) -> str:
    """The computer's move at ``state`` in canonical notation (run in the worker process);
    a hint is not ``gentle``: never one of level 1's loose moves."""
    deadline = time.monotonic() + CAP_SECONDS
    choice = choose(state, level, seed, stop=lambda: time.monotonic() > deadline, gentle=gentle)
    return state.notation(choice.move)


class Thinker:
    """A search run in a supervised worker process, started when first needed."""

    #: The worker (None until the first search), named in its process and its failures.
    worker: Worker | None = None
    NAME = "computer"

    def _workers(self) -> Worker:
        if self.worker is None:
            self.worker = Worker(self.NAME, preload=(__name__, *MODULES.values()))
        return self.worker

    def close(self) -> None:
        """Stop the worker process (a search under way is abandoned)."""
        if self.worker is not None:
            self.worker.close()
            self.worker = None


class Hints(Thinker):
    """Hints on request: the move the computer at ``level`` suggests for the side to move,
    searched in the worker process and handed to :meth:`Controller.hint` if the position is
    still the one asked about.

    >>> hints = Hints(1, sync=True)
    >>> hints.level
    1
    """

    NAME = "hints"

    def __init__(self, level: int, sync: bool = False) -> None:
        self.level = level
        self.sync = sync
        self._future: Job | None = None
        self._asked: tuple | None = None

    def ask(self, c: Controller) -> None:
        self._asked = position(c)
        if self.sync:
            return c.hint(think(c.state, self.level, len(c.moves), gentle=False))
        self._future = self._workers().submit(think, c.state, self.level, len(c.moves), False)

    def tick(self, c: Controller) -> None:
        if self._future is not None and self._future.done():
            future, self._future = self._future, None
            if self._asked == position(c):
                c.hint(future.result())


class Computer(Thinker):
    """The computer playing ``side`` at ``level`` (1..5); ``seed`` makes its play repeatable.
    A game without that side (or ``side`` None): the computer plays the side moving second."""

    #: Why a board is refused while it is the computer's move and it has not said it yet.
    WAIT = "Wait: the computer is thinking"
    #: The players may still correct their move while the computer's answer waits to be
    #: carried out: it thinks again.
    RETHINKS = True

    def __init__(self, side: str | None, level: int, seed: int = 0, sync: bool = False) -> None:
        self.side = side
        self.level = level
        self.seed = seed
        self.sync = sync
        self._future: Job | None = None
        #: The position the computer is thinking about or has asked the players to carry out.
        self._asked: tuple | None = None
        #: Its move there, once found.
        self._answer: str | None = None

    def tick(self, controller: Controller) -> None:
        """Start thinking when it is the computer's move; once the move is found, light it."""
        c = controller
        if c.mode != "move" or c.turn or c.due or c.to_act != self.side_in(c.state):
            self._drop()
            return
        key = position(c)
        if self._asked != key:
            self._drop()
            self._asked = key
            seed = self.seed + len(c.moves)
            if self.sync:
                return self._play(c, think(c.state, self.level, seed))
            self._future = self._workers().submit(think, c.state, self.level, seed)
        if self._future is not None and self._future.done():
            future, self._future = self._future, None
            self._play(c, future.result())
        elif self._answer is not None and c.pending is None and c.storage.failure is None:
            self._play(c, self._answer)  # carried out but not saved (refused): asked again

    def record(self, state: GameState) -> str:
        """Who the computer is, as game records keep it: "computer black, level 3"."""
        return f"computer {self.side_in(state)}, level {self.level}"

    def side_in(self, state: GameState) -> str:
        """The side the computer plays in ``state``'s game."""
        return self.side if self.side in state.sides else state.sides[-1]

    def _play(self, c: Controller, move: str) -> None:
        self._answer = move
        c.expect(move, f"Computer plays {move}: move it")

    def _drop(self) -> None:
        """Forget the position asked about (a search under way is ended by the next)."""
        self._asked = self._future = self._answer = None

    def takeback_to(self, c: Controller) -> int:
        """How many moves a take back keeps: the computer's last turn and the players' turn
        before it are undone (the players' alone when the computer has not answered yet)."""
        return turns_back(c, self.side_in(c.state))


def turns_back(c: Controller, side: str) -> int:
    """How many of ``c``'s moves stay when ``side``'s last turn (the opponent's) and the
    players' turn before it are taken back."""
    index = len(c.moves)
    while index > 0 and c.states[index - 1].to_move == side:
        index -= 1
    while index > 0 and c.states[index - 1].to_move != side:
        index -= 1
    return index


def position(c: Controller) -> tuple:
    """Which position ``c`` is at, for a search to know whether its answer still applies: the
    game, the number of moves and the last (a last move corrected in place is a new position)."""
    return c.game_id, len(c.moves), c.moves[-1] if c.moves else None
