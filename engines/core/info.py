"""What a game offers: sizes, variants, match targets and named options (:class:`GameInfo`)."""

from __future__ import annotations

from typing import Mapping, NamedTuple

from engines.core.errors import OptionError
from engines.core.options import GameOption, Value, options_from


class GameInfo(NamedTuple):
    """What ``reedboard games`` shows and the CLI validates (a ``NamedTuple``: every board
    makes one at start, and a dataclass's methods cost far more to define).

    ``sizes`` are the sizes offered in menus (empty: one size, ``--size`` ignored); ``size_range``
    an optional (low, high) of further sizes accepted; ``match_targets`` the points a match can
    go to (empty: the game has no match play); ``options`` the named house rules and settings
    (see :mod:`engines.core.options`); ``notation`` how a move is written."""

    name: str
    title: str
    sizes: tuple[int, ...]
    default_size: int | None
    size_range: tuple[int, int] | None
    variants: tuple[str, ...]
    default_variant: str
    size_help: str = ""
    notes: str = ""
    #: How a move is written, with examples (``reedboard games``, ``reedboard play --help``).
    notation: str = ""
    match_targets: tuple[int, ...] = ()
    options: tuple[GameOption, ...] = ()

    @property
    def short_title(self) -> str:
        """The title without its subtitle: "Antipalos" of "Antipalos (...)"."""
        return self.title.split(" (")[0]

    def check_game_options(self, given: Mapping[str, Value] | None) -> dict[str, Value]:
        """The engine keywords for named options (house rules); OptionError for bad ones."""
        return options_from(self.options, given or {})

    def check_options(self, size: int | None, variant: str | None) -> tuple[int | None, str]:
        """The size and variant to use, defaults filled in; OptionError for unknown ones."""
        variant = variant or self.default_variant
        if variant not in self.variants:
            raise OptionError(
                f"{self.name} has no variant {variant!r} (choose from {', '.join(self.variants)})"
            )
        if size is None or not self.sizes:
            return self.default_size, variant
        low, high = self.size_range or (0, -1)
        if size not in self.sizes and not low <= size <= high:
            offered = ", ".join(map(str, self.sizes))
            also = f"; any of {low}..{high} also works" if self.size_range else ""
            raise OptionError(f"{self.name} has no size {size} (sizes: {offered}{also})")
        return size, variant

    def check_match(self, target: int | None) -> int:
        """``target`` if a match can go to it; OptionError otherwise.

        >>> info = GameInfo("demo", "Demo", (), None, None, ("one",), "one", match_targets=(5, 7))
        >>> info.check_match(7)
        7
        >>> info.check_match(6)
        Traceback (most recent call last):
        engines.core.errors.OptionError: demo matches go to 5 or 7 points, not 6
        """
        if not self.match_targets:
            raise OptionError(f"{self.name} has no match play")
        if target is None or target not in self.match_targets:
            *most, last = map(str, self.match_targets)
            offered = f"{', '.join(most)} or {last}" if most else last
            raise OptionError(f"{self.name} matches go to {offered} points, not {target}")
        return target
