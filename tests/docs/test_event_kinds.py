"""Every kind of event the daemon prints is named where a user looks it up: the README's
paragraph on ``reedboard replay`` and docs/daemon.md's table of events."""

from __future__ import annotations

import re
import typing

from firmware_host.board import events
from testbed.docs import ROOT

#: Printed by ``reedboard run`` only, never by a replay (docs/daemon.md says so).
RUN_ONLY = {"say"}


def kinds() -> set[str]:
    """The ``event`` values of every event the controller makes."""
    found: set[str] = set()
    for member in typing.get_args(events.Event):
        found |= set(typing.get_args(typing.get_type_hints(member)["event"]))
    return found


def test_every_event_kind_is_documented():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    replay = re.search(r"^### `reedboard replay`.*?(?=^### )", readme, re.M | re.S)[0]
    table = (ROOT / "docs" / "daemon.md").read_text(encoding="utf-8")
    assert len(kinds()) >= 15
    assert sorted(k for k in kinds() - RUN_ONLY if f"`{k}`" not in replay) == [], "not in README's replay"
    assert sorted(k for k in kinds() if f"| `{k}` |" not in table) == [], "not in docs/daemon.md's table"
