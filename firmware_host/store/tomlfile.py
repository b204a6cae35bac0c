"""Reading small TOML files (the config and layouts) with one-line errors naming the file;
``config`` and ``layout`` both read through it, so neither imports the other's reader. A plain
file (:mod:`firmware_host.store.plaintoml`) is read without loading ``tomllib``."""

from __future__ import annotations

import os
import stat
from typing import Any

from firmware_host.store import plaintoml


class ConfigError(Exception):
    """A bad configuration or layout file; ``str()`` is one line naming the file and the key."""


#: A config or layout file larger than this is refused (no board needs one).
MAX_FILE_BYTES = 1 << 20


def read_small_file(path: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes; OSError, or ValueError
    saying what is wrong (a FIFO, a device, a directory or a large file is never read)."""
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise ValueError("not a regular file")
    if info.st_size > limit:
        raise ValueError(f"larger than {limit // 1024} KB")
    with open(path, "rb") as fp:
        data = fp.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"larger than {limit // 1024} KB")
    return data


def read_toml(path: str) -> dict[str, Any]:
    """The parsed TOML file; ConfigError when it cannot be read or parsed (nor is a regular
    file of at most 1 MB).

    >>> read_toml("/dev/zero")
    Traceback (most recent call last):
    ...
    firmware_host.store.tomlfile.ConfigError: /dev/zero: cannot read (not a regular file)
    """
    try:
        data = read_small_file(path)
    except ValueError as e:
        raise ConfigError(f"{path}: cannot read ({e})") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read ({e.strerror or e})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    plain = plaintoml.parse(text)
    if plain is not None:
        return plain
    import tomllib  # not plain: what it holds, or what is wrong with it, is tomllib's to say

    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as e:
        raise ConfigError(f"{path}: not valid TOML ({one_line(e)})") from None


def one_line(error: BaseException) -> str:
    """An exception's message on a single line."""
    return " ".join(str(error).split()) or type(error).__name__


def describe(value: Any) -> str:
    """A short quote of a bad value for a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
