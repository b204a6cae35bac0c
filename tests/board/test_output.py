"""What the board shows is drawn at every step from one snapshot of values: whatever changed
since the last step (a word from the daemon, a brightness from the page, the menu opened) shows
at the next step without anyone having to say that something changed."""

from __future__ import annotations

from dataclasses import fields, is_dataclass

from firmware_host.actions.commands import SetBrightness
from firmware_host.board.game import Game
from firmware_host.board.view import LIGHTS
from firmware_host.ui.menu import GameChoice, Menu, game_choices
from testbed.drive import Drive

#: What a snapshot's fields may hold besides frozen dataclasses: values that cannot change.
VALUES = (str, int, float, bool, frozenset, tuple, type(None))


def test_a_snapshot_holds_only_values_and_equal_moments_give_equal_snapshots():
    current = GameChoice("antipalos", 3, "", "Antipalos")
    d = Drive(Game.of("antipalos", 3), menu=Menu([current, *game_choices()[:2]], current))
    d.run(100).place("A1*").run(500).press("menu")
    snap = d.ctl.snapshot()
    for field in fields(snap):
        value = getattr(snap, field.name)
        frozen = is_dataclass(value) and type(value).__dataclass_params__.frozen  # type: ignore[attr-defined]
        assert frozen or isinstance(value, VALUES), (field.name, type(value))
    assert snap.menu is not None and snap.menu.text_lines()[:2] == ("Menu", "> New game")
    assert hash(snap) == hash(d.ctl.snapshot()) and snap == d.ctl.snapshot()
    d.run(20)
    assert d.ctl.snapshot() == snap  # nothing happened: the same moment, as shown


def test_a_word_from_the_daemon_between_steps_shows_at_the_next_step():
    d = Drive(Game.of("antipalos", 3))
    d.run(500)
    shown = lambda: " ".join([e["lines"] for e in d.events if e["event"] == "display"][-1])  # noqa: E731
    d.ctl.say("Storage is full")
    assert "Storage is full" not in shown()
    d.run(10)
    assert "Storage is full" in shown()


def test_a_brightness_from_the_page_dims_the_lights_at_the_next_step():
    d = Drive(Game.of("antipalos", 3))
    d.run(100).place("A1*").place("A2*").run(500)  # a piece too many is lit
    version = d.ctl.frame_version
    assert d.lit("A2*") == LIGHTS["extra"]
    d.ctl.command(SetBrightness(0.5))
    assert d.lit("A2*") == LIGHTS["extra"]  # the frame is drawn once per step
    d.run(10)
    assert d.ctl.frame_version == version + 1
    assert d.lit("A2*").colour == tuple(round(c * 0.5) for c in LIGHTS["extra"].colour)
