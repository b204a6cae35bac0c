"""docs/simulator.md's "Messages" names every message the page's websocket takes, so a maker
scripting the simulated board finds each one there."""

from __future__ import annotations

import re

from firmware_host.net.web import commands
from testbed.docs import ROOT


def messages_section() -> str:
    text = (ROOT / "docs" / "simulator.md").read_text(encoding="utf-8")
    return re.search(r"^## Messages.*?(?=^## )", text, re.M | re.S)[0]


def test_every_message_the_page_takes_is_documented():
    section = messages_section()
    missing = [kind for kind in commands._READERS if f'"{kind}"' not in section]
    assert not missing, f"docs/simulator.md's Messages do not name {missing}"
    # a new game's clock, as the café's new_game takes it
    assert '"control"' in section and '"delay"' in section
