"""Pure rules engines for the reedboard games. No I/O, clocks or threads.

>>> state = new_game("antipalos", size=12)
>>> state.to_move, state.legal_count()
('white', 288)
"""

from __future__ import annotations

import importlib

from engines.core import GameInfo, GameState, OptionError

#: Game name -> module. Each module has ``INFO`` (a GameInfo) and ``new(size, variant)``.
MODULES = {
    "antipalos": "engines.antipalos",
    "antipode": "engines.antipode",
    "antipod": "engines.antipod",
    "anti-grid": "engines.antigrid",
    "phalanx": "engines.phalanx",
}

GAME_NAMES = tuple(MODULES)


def _module(name: str):
    if name not in MODULES:
        raise OptionError(f"unknown game {name!r} (choose from {', '.join(GAME_NAMES)})")
    return importlib.import_module(MODULES[name])


def game_info(name: str) -> GameInfo:
    return _module(name).INFO


def new_game(name: str, size: int | None = None, variant: str | None = None) -> GameState:
    """The starting state of a game; OptionError for an unknown game, size or variant."""
    module = _module(name)
    size, variant = module.INFO.check_options(size, variant)
    return module.new(size=size, variant=variant)
