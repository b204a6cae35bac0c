"""docs/config.md documents the keys the product reads, no more: every key a table of the doc
lists (``| `key` | ...``, under ``## [section]`` or the top level) is one the config check
knows in that section, so a documented key is never silently ignored. (The other way round,
every key read is documented: tests/store/test_config.py.)"""

from __future__ import annotations

import re

from firmware_host.store.config import Config, is_section, table_keys
from testbed.docs import ROOT


def sections() -> dict[str | None, type]:
    """The config's tables by name (None: the top level), as the config check reads them."""
    found: dict[str | None, type] = {None: Config}
    for name, hint in table_keys(Config).items():
        if is_section(hint):
            found[name] = hint
    return found


def test_every_documented_key_is_read():
    text = (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
    known = sections()
    checked = 0
    for part in re.split(r"^## ", text, flags=re.M)[1:]:
        head = part.split("\n", 1)[0]
        named = re.fullmatch(r"\[(\w+)\]", head.strip())
        section = named[1] if named else None if head.startswith("Top level") else ""
        if section == "":  # the hardware tables (docs/hardware.md's options), the layout, examples
            continue
        assert section in known, f"docs/config.md documents a table [{section}] the product does not read"
        keys = set(table_keys(known[section]))
        for key in re.findall(r"^\| `(\w+)` \|", part, re.M):
            assert key in keys, f"docs/config.md documents {key!r} in [{section}], which is not read"
            checked += 1
    assert checked >= 50
