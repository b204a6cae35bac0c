"""Named game options: the house rules and settings a game takes besides size and variant.

Each is written ``NAME=VALUE`` on the command line (``--option``) and as ``NAME = VALUE`` in the
config; the value is a yes/no, a whole number or one of a few words, with the default the game's
rulings give (docs/games/).

>>> draw = GameOption("repetition-draw", True, "third repetition in Phase Two is a draw")
>>> draw.read("no"), draw.read(False), draw.shown(True)
(False, False, 'yes')
>>> options_from((draw,), {"repetition-draw": "off"})
{'repetition_draw': False}
>>> options_from((draw,), {"repetion-draw": "off"})
Traceback (most recent call last):
engines.core.errors.OptionError: no option 'repetion-draw' (options: repetition-draw)
"""

from __future__ import annotations

from typing import Mapping, NamedTuple, Union

from engines.core.errors import OptionError

Value = Union[bool, int, str]

_YES = {"yes", "on", "true", "1"}
_NO = {"no", "off", "false", "0"}


class GameOption(NamedTuple):
    """An option: its ``name``, ``default`` (its type tells how values are read: bool, int or
    str), a short ``help``, the words a text option takes (``choices``), the lowest whole
    number (``low``) and the engine's ``new()`` keyword when it differs (``param``). ``None`` as
    a default means "the game decides", shown as ``default_text``."""

    name: str
    default: Value | None
    help: str
    choices: tuple[str, ...] = ()
    low: int = 1
    param: str = ""
    default_text: str = "the game's own"

    @property
    def keyword(self) -> str:
        """The engine's ``new()`` keyword: ``param``, else the name with underscores."""
        return self.param or self.name.replace("-", "_")

    def read(self, value: Value) -> Value:
        """``value`` (text from a command line, or a config value) as this option's type."""
        text = str(value).strip().lower()
        if isinstance(self.default, bool):
            if isinstance(value, bool):
                return value
            if text in _YES | _NO:
                return text in _YES
            raise OptionError(f"option {self.name} is yes or no, not {value!r}")
        if self.choices:
            if text in self.choices:
                return text
            raise OptionError(f"option {self.name} is one of {', '.join(self.choices)}, not {value!r}")
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise OptionError(f"option {self.name} is a whole number, not {value!r}") from None
        if isinstance(value, bool) or number < self.low:
            raise OptionError(f"option {self.name} is a whole number from {self.low}, not {value!r}")
        return number

    def shown(self, value: Value | None) -> str:
        """A value as ``reedboard games`` and records show it."""
        if isinstance(value, bool):
            return "yes" if value else "no"
        return self.default_text if value is None else str(value)


def write_options(given: Mapping[str, Value]) -> str:
    """Options as records write them, and :func:`read_options` reads them back.

    >>> write_options({"supply": 4, "repetition-draw": False})
    'repetition-draw=no, supply=4'
    >>> read_options("repetition-draw=no, supply=4")
    {'repetition-draw': 'no', 'supply': '4'}
    """
    shown = {name: ("yes" if v else "no") if isinstance(v, bool) else str(v) for name, v in given.items()}
    return ", ".join(f"{name}={shown[name]}" for name in sorted(shown))


def read_options(text: str) -> dict[str, str]:
    """``NAME=VALUE`` pairs separated by commas (values are checked by :func:`options_from`)."""
    pairs = (part.partition("=") for part in text.split(",") if part.strip())
    return {name.strip(): value.strip() for name, _, value in pairs}


def options_from(options: tuple[GameOption, ...], given: Mapping[str, Value]) -> dict[str, Value]:
    """The engine keywords for the ``given`` options (by name); OptionError for an unknown name
    or a bad value. Options not given keep the engine's defaults."""
    by_name = {option.name: option for option in options}
    out = {}
    for name, value in given.items():
        option = by_name.get(name.strip().lower().replace("_", "-"))
        if option is None:
            names = ", ".join(by_name) or "none"
            raise OptionError(f"no option {name!r} (options: {names})")
        out[option.keyword] = option.read(value)
    return out
