"""The game at the board, with one owner (:class:`Model`): the record (positions, moves, their
storage), where the game stands (the phase) and what the engine was asked of the position."""

from __future__ import annotations

from typing import Any, Callable, TypeVar, cast

from firmware_host.board.phase import Phase
from firmware_host.board.record import GameRecord

T = TypeVar("T")


class Model:
    """``record``: the game (the only writer to storage); ``phase``: where it stands."""

    def __init__(self, record: GameRecord, phase: Phase) -> None:
        self.record = record
        self.phase = phase
        self._asked: dict[tuple[int, str], Any] = {}

    def go(self, phase: Phase) -> None:
        """Enter ``phase``; what is left to do that the sensors cannot see (a move's flips, a
        takeback's undoing) and the last move while in doubt are kept with the game: a restart
        still asks for it, still in doubt."""
        self.phase = phase
        turn = phase.unseen()
        self.record.set_undo(turn.steps_left() if turn is not None else (), turn.side if turn else None)
        self.record.set_doubt(phase.unsaid())  # the last move in doubt: a restart resumes it

    def asked(self, key: tuple[int, str], ask: Callable[[], T]) -> T:
        """What ``ask`` answers of the engine, once per position (see :meth:`forget`)."""
        if key not in self._asked:
            self._asked[key] = ask()
        return cast(T, self._asked[key])

    def forget(self) -> None:
        """The position changed: what the engine was asked no longer holds."""
        self._asked = {}
