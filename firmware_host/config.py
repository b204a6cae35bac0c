"""The daemon's configuration: a TOML file, validated in full before anything starts.

Every problem is a :class:`ConfigError` whose text is one line naming the file and the key.
"""

from __future__ import annotations

import tomllib
from typing import Any


class ConfigError(Exception):
    """A bad configuration or layout file; ``str()`` is one line naming the file and the key."""


def read_toml(path: str) -> dict[str, Any]:
    """The parsed TOML file; ConfigError when it cannot be read or parsed."""
    try:
        with open(path, "rb") as fp:
            return tomllib.load(fp)
    except OSError as e:
        raise ConfigError(f"{path}: cannot read ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except (tomllib.TOMLDecodeError, RecursionError) as e:
        raise ConfigError(f"{path}: not valid TOML ({one_line(e)})") from None


def one_line(error: BaseException) -> str:
    """An exception's message on a single line."""
    return " ".join(str(error).split()) or type(error).__name__


def key_name(section: str | None, key: str) -> str:
    """How a message names a key: ``[timing] settle_ms`` or ``game`` at the top level."""
    return f"[{section}] {key}" if section else key


def describe(value: Any) -> str:
    """A short quote of a bad value for a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
