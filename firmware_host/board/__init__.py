"""The board: what reads the table and the model of where its game stands.

Sensor scans in (``debounce``, ``hand``: lifts and set-backs as touches), what a settled board
means to the engine (``recognise``), a move's steps (``turn``), where the game stands (``phase``)
and what each phase does (``judge``, which returns ``decisions``), the state machine that holds
them and applies those (``controller``), what it shows (``view``), the game being played and its
only writer to storage (``record``, ``game``, ``matchplay``), what a board can play
(``playable``), who plays the other side (``opponent``, its search in a ``worker`` process), and
the set-up wizard that learns the table (``wizard``).

What the other rooms use of a controller is :class:`Controls`, and of its game :class:`Recorded`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Protocol

if TYPE_CHECKING:
    from engines.core import GameState, Outcome
    from firmware_host.actions.commands import Command
    from firmware_host.board.clock import Clock
    from firmware_host.board.events import Event
    from firmware_host.board.game import Game
    from firmware_host.board.opponent import Opponent
    from firmware_host.board.seating import Seating
    from firmware_host.board.settings import Settings
    from firmware_host.board.view import Snapshot
    from firmware_host.store.layout import Layout
    from firmware_host.ui.screens import Screen
    from hardware.base import ButtonEvent, Led, Scan


class Recorded(Protocol):
    """The game being played, read: what it is, its id in storage, its positions, the
    occupancy after each move, the moves and how it ended (the controller alone changes it)."""

    @property
    def game(self) -> Game: ...
    @property
    def game_id(self) -> int: ...
    @property
    def state(self) -> GameState[Any]: ...
    @property
    def states(self) -> list[GameState[Any]]: ...
    @property
    def boards(self) -> list[frozenset[str]]: ...
    @property
    def moves(self) -> list[str]: ...
    @property
    def outcome(self) -> Outcome | None: ...


class Controls(Protocol):
    """What the other rooms (the loop, replay, the page, the café network, the commands) use
    of a board's controller (``controller.Controller``), and nothing more: stepped and shown,
    told, and read. What is shown at a moment, as values, is :meth:`snapshot`."""

    # stepped (the loop, replay) and shown
    def step(
        self, now: float, scan: Scan, buttons: Iterable[ButtonEvent] = (), screen: bool = True
    ) -> list[Event]: ...
    def screen_step(self) -> list[Event]: ...
    def quiet(self, now: float) -> bool: ...
    def settles_at(self) -> float | None: ...
    def frame(self) -> dict[int, Led]: ...
    @property
    def frame_version(self) -> int: ...
    def screen(self) -> Screen: ...
    def snapshot(self) -> Snapshot: ...

    # told: the players' commands and the daemon's words
    def command(self, action: Command | None) -> None: ...
    def say(self, text: str | None) -> None: ...
    def notice(self, screen: Screen | None) -> None: ...
    def set_connected(self, connected: bool) -> None: ...
    def rejudge(self) -> None: ...

    # read: the game, what the board is set up with, and who plays away from it
    @property
    def record(self) -> Recorded: ...
    @property
    def now(self) -> float: ...
    @property
    def layout(self) -> Layout: ...

    settings: Settings
    clock: Clock
    seating: Seating
    opponent: Opponent | None
