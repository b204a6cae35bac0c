"""The phase model on its own: the documented transition table is the code's, and the values a
controller is drawn from can be built and shown without running it."""

from __future__ import annotations

from pathlib import Path

from firmware_host.board import judge
from firmware_host.board.phase import Awaiting, Choosing, Following, Moving, Over, Restoring

DOCS = Path(__file__).resolve().parents[2] / "docs" / "daemon.md"


def test_docs_print_the_transition_table_the_code_has():
    assert judge.table() in DOCS.read_text(), (
        "run: python -m firmware_host.board.judge, paste into docs/daemon.md"
    )


def test_every_phase_has_a_row_that_ends_in_a_rule_that_always_applies():
    assert set(judge.SETTLED) == {Moving, Choosing, Following, Awaiting, Restoring, Over}
    last = {rules[-1] for phase, rules in judge.SETTLED.items() if phase is not Over}
    assert last == {judge.out_of_sync, judge.choice_dropped, judge.restore_guidance}
    for rules in judge.SETTLED.values():
        assert all(rule.__doc__ for rule in rules)
