"""What a board is set up with beside its game (:class:`Settings`): where the games are kept,
the layouts, the timing, the menu, kiosk mode, the config's options."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from engines.core import GameState
from firmware_host.actions.commands import SetPlayers
from firmware_host.board.opponent import Hints, Opponent
from firmware_host.store.config import Timing
from firmware_host.store.layout import Layout
from firmware_host.store.storage import Storage
from firmware_host.ui.kiosk import Idle
from firmware_host.ui.menu import Menu

#: Who plays the other side for a choice of players (the menu's, the page's): a factory.
Opponents = Callable[[SetPlayers], "Opponent | None"]


@dataclass
class Settings:
    """What a board is set up with.

    ``storage``: where its games are kept.
    ``layouts``: the layout for a game's state (a new game may change it).
    ``timing``: the config's ``[timing]``.
    ``takebacks``: whether the players may take moves back.
    ``brightness``: of the LEDs (0..1; the menu and the page change it).
    ``house_rules``: the config's options by game, for the games the menu or the page start.
    ``menu``: the buttons' menu (None: no menu).
    ``address``: says the board's IP address.
    ``idle``: kiosk mode's idle spells.
    ``opponents``: makes who plays the other side for a choice of players.
    ``hints``: the computer's suggestions, on a long OK.
    """

    storage: Storage
    layouts: Callable[[GameState[Any]], Layout]
    timing: Timing
    takebacks: bool = True
    brightness: float = 1.0
    house_rules: dict[str, dict[str, Any]] = field(default_factory=dict)
    menu: Menu | None = None
    address: Callable[[], str] = lambda: "unknown"
    idle: Idle | None = None
    opponents: Opponents = lambda players: None
    hints: Hints | None = None
