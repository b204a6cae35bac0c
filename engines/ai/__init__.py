"""The computer opponent: a search for any :class:`~engines.core.GameState`, at levels 1..5.

Antipode and Antipod search with Monte Carlo tree search and GRAVE (``mcts.py``), Antipalos and
the capture games with alpha-beta on the game's evaluation (``alphabeta.py``: connection
distance, material); a game picks one in its search profile (``profile.py``, ``SEARCH`` in the
game's package). A level is a budget of work (positions made; an MCTS also counts the moves it
weighs, the profile's ``scan_cost``, which sets how many root moves a level reaches), so a
seeded search gives the same move on any machine; an optional ``stop`` callable (the caller's
wall-clock cap) ends a search early.

>>> from engines import new_game
>>> choice = choose(new_game("antipod", size=4), level=1, seed=7)
>>> str(choice.move) in {str(m) for m in new_game("antipod", size=4).legal_moves()}
True
>>> choice.level, choice.kind
(1, 'playouts')
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from engines.ai.profile import SearchProfile, profile_of
from engines.core import GameState

if TYPE_CHECKING:  # the searches load when first asked
    from engines.ai import mcts

__all__ = [
    "LEVELS",
    "LIMITS",
    "SECONDS",
    "SearchChoice",
    "SearchProfile",
    "budget",
    "choose",
    "profile_of",
]

LEVELS = (1, 2, 3, 4, 5)
#: CPU seconds a move may cost at each level on the reference machine.
SECONDS = (0.05, 0.1, 0.25, 0.5, 1.0)
#: Wall-clock seconds a move may take at most at each level, whatever the machine: the
#: caller's ``stop`` ends the search there (a level's work takes a tenth of this or less here,
#: so only a slow or busy machine meets it: a Pi Zero 2 W, 15-25 times slower, waits at most
#: about this long).
LIMITS = (0.5, 1.0, 1.5, 3.0, 6.0)
#: The share of those seconds the budget aims at (positions differ in cost).
MARGIN = 0.7
#: From this level up a search looks only at the moves the game finds worth searching
#: (``GameState.search_moves``), and so deeper: Antipalos levels 4 and 5 both finished two plies
#: and played alike (Antipalos 8: 65 of 128); level 5 so searching won 89 of 128 against 4 (12×12:
#: 45 of 48).
SELECTIVE = 5
#: Playouts that tell whether level 1 is ahead enough to play loose (the profile's
#: ``gentle_ahead``); their work comes out of its budget.
AHEAD_PLAYOUTS = 8


@dataclass(frozen=True)
class SearchChoice:
    """The move a search chose; ``count`` is playouts (MCTS) or nodes (alpha-beta), ``kind``
    says which; ``work`` the positions made; ``loose`` whether it was one of level 1's loose
    moves."""

    move: Any
    level: int
    kind: str
    count: int
    work: int
    loose: bool = False
    #: The MCTS's tree (its root node), kept for pondering; None for other searches.
    tree: Any = field(default=None, compare=False, repr=False)
    #: Alpha-beta: the opponent's reply its search expects (pondering answers it); else None.
    reply: Any = field(default=None, compare=False, repr=False)
    #: What pondering had put into this answer before its own search: the kept tree's visits
    #: (MCTS) or the nodes of alpha-beta's answer; 0 for a search of its own.
    pondered: int = 0


def budget(state: GameState[Any], level: int) -> int:
    """The work (positions made) a search at ``level`` may spend on ``state``'s game: its
    seconds at the game's rate, times the profile's ``top_work`` at level 5."""
    if level not in LEVELS:
        raise ValueError(f"level must be 1 to 5, not {level}")
    profile = profile_of(state)
    scale = profile.top_work if level == LEVELS[-1] else 1.0
    return max(20, int(SECONDS[level - 1] * MARGIN * profile.rate_for(state) * scale))


def choose(
    state: GameState[Any],
    level: int = 3,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
    work: int | None = None,
    gentle: bool = True,
    tree: mcts.Node[Any] | None = None,
) -> SearchChoice:
    """The move the computer plays at ``level`` (or with a ``work`` budget); ValueError when
    the game is over. At level 1 the profile's ``gentle`` share of moves, drawn with ``seed``,
    are loose: the best of ``loose_sample`` safe moves at one ply (``mcts.sample``). A game
    with ``gentle_ahead`` plays them loose only where playouts say it is that far ahead, and
    elsewhere searches with level 2's budget (a seat random play could otherwise win on).
    Never loose when ``gentle`` is False (a hint). ``tree``: an MCTS tree already grown at
    ``state`` (pondering, ``ponder.py``), searched on with the level's budget."""
    if state.outcome() is not None:
        raise ValueError("the game is over")
    # The searches load with the first move asked (every game's package imports this one).
    from engines.ai import alphabeta, mcts

    profile = profile_of(state)
    rng = random.Random(seed)
    limit = budget(state, level) if work is None else work
    loose, looked = False, 0
    if gentle and work is None and level == 1 and profile.gentle > 0:
        loose = rng.random() < profile.gentle
        if loose and profile.gentle_ahead is not None:
            share, looked = mcts.estimate(state, rng, AHEAD_PLAYOUTS)
            loose = share >= profile.gentle_ahead
            limit = budget(state, 2) - looked
    if loose:
        move, count, spent = mcts.sample(state, rng, profile.loose_sample, profile)
        return SearchChoice(move, level, mcts.COUNTS, count, spent + looked, True)
    halt = stop or (lambda: False)
    if profile.search == "alphabeta":
        move, count, spent, reply = alphabeta.search(state, limit, rng, halt, level >= SELECTIVE, profile)
        return SearchChoice(move, level, alphabeta.COUNTS, count, spent + looked, False, reply=reply)
    tree = tree or mcts.Node(state, rng)
    move, count, spent = mcts.search(state, limit, rng, halt, profile.scan_cost[level - 1], profile, tree)
    return SearchChoice(move, level, mcts.COUNTS, count, spent + looked, False, tree)
