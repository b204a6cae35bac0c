"""Pure rules engines for the reedboard games. No I/O, clocks or threads.

>>> state = new_game("antipalos", size=12)
>>> state.to_move, state.legal_count()
('white', 288)
>>> match = new_match("antipalos", size=12, target=9)
>>> match.target, match.totals, match.new_game().to_move
(9, {'white': 0, 'black': 0}, 'white')
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, cast

from engines.core import GameInfo, GameState, MatchPlay, OptionError

if TYPE_CHECKING:
    from engines.ai.profile import SearchProfile

#: Game name -> its package (see :class:`GamePackage`).
MODULES = {
    "antipalos": "engines.antipalos",
    "antipode": "engines.antipode",
    "antipod": "engines.antipod",
    "anti-grid": "engines.antigrid",
    "phalanx": "engines.phalanx",
}

GAME_NAMES = tuple(MODULES)


class GamePackage(Protocol):
    """What every game package's ``__init__.py`` holds: ``INFO`` (a GameInfo), ``new(size,
    variant, **options)`` (the start, the options' keywords as ``INFO.options`` names them) and
    ``SEARCH`` (the computer's :class:`~engines.ai.profile.SearchProfile`). One whose
    ``INFO.match_targets`` is not empty also has ``new_match(size, variant, target)``."""

    INFO: GameInfo
    SEARCH: SearchProfile
    new: Callable[..., GameState[Any]]


def game_name(text: str) -> str:
    """The game ``text`` names, in any case; OptionError with a suggestion for a near miss.

    >>> game_name("Antipalos"), game_name("ANTI-GRID")
    ('antipalos', 'anti-grid')
    >>> game_name("antigrid")
    Traceback (most recent call last):
    engines.core.errors.OptionError: unknown game 'antigrid': did you mean anti-grid?
    """
    name = text.strip().lower()
    if name in MODULES:
        return name
    import difflib  # only for a near miss

    near = difflib.get_close_matches(name, GAME_NAMES, n=1, cutoff=0.6)
    hint = f": did you mean {near[0]}?" if near else f" (choose from {', '.join(GAME_NAMES)})"
    raise OptionError(f"unknown game {text!r}{hint}")


def _module(name: str) -> GamePackage:
    """The package of game ``name`` (imported when first asked; then a lookup, since the
    daemon asks for a game's info in every step that names its title)."""
    package = sys.modules.get(MODULES.get(name, ""))
    if package is None or not hasattr(package, "INFO"):  # (another thread's import under way)
        package = importlib.import_module(MODULES[game_name(name)])
    return cast(GamePackage, package)


def game_info(name: str) -> GameInfo:
    return _module(name).INFO


def new_game(
    name: str,
    size: int | None = None,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> GameState[Any]:
    """The starting state of a game; ``options`` its named options (house rules) by name.
    OptionError for an unknown game, size, variant or option."""
    module = _module(name)
    size, variant = module.INFO.check_options(size, variant)
    return module.new(size=size, variant=variant, **module.INFO.check_game_options(options))


def new_match(
    name: str, size: int | None = None, variant: str | None = None, target: int | None = None
) -> MatchPlay:
    """A match of a game to ``target`` points (default: the lowest the game offers);
    OptionError for an unknown game or option, a game without match play or a target it does
    not offer."""
    module = _module(name)
    size, variant = module.INFO.check_options(size, variant)
    targets = module.INFO.match_targets
    target = module.INFO.check_match(targets[0] if target is None and targets else target)
    match: Callable[..., MatchPlay] = getattr(module, "new_match")
    return match(size=size, variant=variant, target=target)
