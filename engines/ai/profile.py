"""How the computer searches one game: its search profile, kept beside the game (``SEARCH`` in
the game's package) rather than on its state.

A profile picks the search (MCTS or alpha-beta), turns a level's seconds into work (the rate
of positions per CPU second on the reference machine, which bench/ai.py measures) and holds
the few dials each game was tuned with (docs/ai.md tells why each game has the values it has).

>>> from engines import new_game
>>> profile_of(new_game("antipode")).search, profile_of(new_game("phalanx")).search
('mcts', 'alphabeta')
>>> profile_of(new_game("antipode")).check_cost([1, 2, 3]), SearchProfile().check_cost([1, 2, 3])
(1, 3)
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Literal, Sized

from engines.core.state import GameState


@dataclass(frozen=True)
class SearchProfile:
    """A game's search and its tuning, a field a line."""

    #: "mcts" (random playouts; connection games) or "alphabeta" (``evaluate``; capture games, Antipalos)
    search: Literal["mcts", "alphabeta"] = "mcts"
    #: Positions searched per CPU second on the reference machine: the levels' seconds to a budget.
    rate: int = 5000
    #: Level 5's budget in rate-seconds, where level 5 works unlike the levels the rate is set by.
    top_work: float = 1.0
    #: Level 1's share of loose moves (least work, a win still taken, none handed over).
    gentle: float = 0.0
    #: Level 1 is loose only where playouts give it this share of a win (None: anywhere).
    gentle_ahead: float | None = None
    #: A loose move: the best by its leaf of this many, drawn among moves handing over no win.
    loose_sample: int = 1
    #: An MCTS's work per move a selection weighs (tenths of a position) at levels 1-5: breadth.
    scan_cost: tuple[int, int, int, int, int] = (2, 2, 2, 2, 2)
    #: What alpha-beta adds to a leaf's score per move its parent searched (0: it tells nothing).
    mobility: float = 0.02
    #: Positions a ``winning_move`` call costs (None: one a move); set, threats.py's tactics too.
    win_check_cost: int | None = None

    def rate_for(self, state: GameState[Any]) -> int:
        """The rate on ``state``'s board (a game whose positions cost more on bigger boards
        overrides it)."""
        return self.rate

    def check_cost(self, moves: Sized) -> int:
        """Positions ``winning_move`` costs a budget when given ``moves``."""
        return len(moves) if self.win_check_cost is None else self.win_check_cost


#: The profile of a game that declares none.
DEFAULT = SearchProfile()

_FOUND: dict[type, SearchProfile] = {}


def profile_of(state: GameState[Any]) -> SearchProfile:
    """The search profile of ``state``'s game: ``SEARCH`` in the package its class (or the
    nearest base class that has one) comes from; :data:`DEFAULT` for a game without one."""
    kind = type(state)
    found = _FOUND.get(kind)
    if found is None:
        declared = (_declared(base) for base in kind.__mro__ if issubclass(base, GameState))
        found = _FOUND[kind] = next((p for p in declared if p is not None), DEFAULT)
    return found


def _declared(kind: type) -> SearchProfile | None:
    package = importlib.import_module(kind.__module__.rpartition(".")[0] or kind.__module__)
    profile = getattr(package, "SEARCH", None)
    return profile if isinstance(profile, SearchProfile) else None
