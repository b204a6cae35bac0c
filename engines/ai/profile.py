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
    """A game's search and its tuning.

    ``search``: "mcts" (random playouts; connection games) or "alphabeta" (on the state's
    ``evaluate``; capture games and Antipalos). ``rate``: the positions the search makes per
    CPU second on the reference machine; the levels turn seconds into a budget with it.
    ``top_work``: level 5's budget as a multiple of what the rate makes of its second, for a
    game whose level 5 works unlike the lower levels the rate was set by (Antipode: its leaves
    for every root move cost more CPU a position than the narrow levels' counted scans).
    ``gentle``: the share of level 1's moves made with the least work (loose moves that still
    take a win at once and hand none over), where levels 1 and 2 would otherwise play alike.
    ``gentle_ahead``: level 1 is loose only where playouts give it at least this share of a win,
    and searches with level 2's budget elsewhere (None: loose anywhere); for a game one seat is
    favoured in (Antipod). ``loose_sample``: a loose move is the best, by its leaf's score, of
    this many moves drawn among those that hand over no win at once (1: any of them).
    ``scan_cost``: the work an MCTS charges per move a selection weighs, in tenths of a
    position, at levels 1 to 5: a level's breadth. ``mobility``: what alpha-beta adds to a
    leaf's score per move its parent searched (zero where the moves searched do not tell it).
    ``win_check_cost``: positions one ``winning_move`` call costs a budget where the game finds
    wins faster than by playing each move (None: one per move looked at); a game that sets it
    also gets the short tactics of ``threats.py``.
    """

    search: Literal["mcts", "alphabeta"] = "mcts"
    rate: int = 5000
    top_work: float = 1.0
    gentle: float = 0.0
    gentle_ahead: float | None = None
    loose_sample: int = 1
    scan_cost: tuple[int, int, int, int, int] = (2, 2, 2, 2, 2)
    mobility: float = 0.02
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
