"""docs/league.md's ``table`` command is the one pairing a round sends."""

from __future__ import annotations

import json
import re

from firmware_host.league.model import Event, Pairing, table_command
from testbed.docs import ROOT


def test_the_table_command_shown_is_what_a_round_sends() -> None:
    text = (ROOT / "docs" / "league.md").read_text(encoding="utf-8")
    shown = json.loads(re.search(r"```json\n(\{\"command\": \"table\".*?)```", text, re.S).group(1))
    event = Event(shown["event"], shown["game"], shown["size"], shown["variant"], shown["control"])
    sent = table_command(event, Pairing(shown["round"], shown["table"], tuple(shown["names"])), "9f2c1a")
    assert sent == shown
