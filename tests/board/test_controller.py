"""The controller on a scripted toy game (every kind of follow-up) and on real engines, driven
scan by scan on a simulated board."""

from __future__ import annotations

import pytest

from firmware_host.board.game import Game
from firmware_host.board.notices import NOTICE_MS
from firmware_host.board.phase import Following, Moving
from firmware_host.board.view import LIGHTS
from firmware_host.store.storage import Storage, StorageError
from firmware_host.ui.menu import GameChoice, Menu, game_choices
from hardware.base import Scan
from testbed.drive import SELF_PHALANX, Drive, Scripted
from tests.board.toy_game import ToyGame, move


def toy(*script, start=()) -> ToyGame:
    return ToyGame("toy", script=tuple(tuple(moves) for moves in script), start=frozenset(start))


def test_remove_then_twin_lit_until_done_in_order():
    d = Drive(
        toy(
            [move("m", ["s0"], ["s1"], ("remove", ["s2", "s3"]), ("twin", ["s4"]))],
            [move("n", [], ["s5"])],
            start=["s0", "s2", "s3"],
        )
    )
    d.run(50).lift("s0").run(50).place("s1").run(500)
    assert d.kinds() == ["targets", "move", "guide"]
    assert d.last("guide") == {
        "t": d.last("guide")["t"],
        "event": "guide",
        "action": "remove",
        "sites": ["s2", "s3"],
    }
    assert d.lit("s2") == LIGHTS["remove"] and d.lit("s3") == LIGHTS["remove"]
    d.lift("s2").run(50)
    assert d.lit("s2") is None and d.lit("s3") == LIGHTS["remove"]
    d.lift("s3").run(50)
    assert d.last("guide")["action"] == "twin" and d.lit("s4") == LIGHTS["twin"]
    d.place("s4").run(500)
    assert isinstance(d.ctl.phase, Moving) and d.ctl.state.to_move == "south"
    assert d.ctl.frame() == {}
    d.place("s5").run(500)
    assert d.kinds()[-2:] == ["move", "game_over"]


def test_sensed_follow_ups_done_before_the_settle_count_at_once():
    d = Drive(toy([move("m", ["s0"], ["s1"], ("remove", ["s2"]), ("twin", ["s4"]))], [], start=["s0", "s2"]))
    d.run(50).lift("s2").lift("s0").place("s4").place("s1").run(500)
    assert d.kinds() == ["targets", "move"]
    assert isinstance(d.ctl.phase, Moving)


def test_a_turn_with_no_hand_change_is_offered_as_a_pick_at_once():
    script = [[move("a", [], [], ("pick", ["s1"])), move("b", [], [], ("pick", ["s2"]))], []]
    d = Drive(toy(*script, start=["s1", "s2"]))
    d.run(20)
    assert d.kinds() == ["guide"] and d.last("guide")["sites"] == ["s1", "s2"]
    assert d.lit("s1") in (LIGHTS["pick"], LIGHTS["picked"])
    d.run(500).lift("s2").run(200).place("s2").run(400)  # a tap counts once the board settles
    assert d.last("move")["move"] == "b"


def test_a_slow_tap_that_settles_mid_way_still_picks():
    script = [[move("a", [], ["s0"], ("pick", ["s1"])), move("b", [], ["s0"], ("pick", ["s2"]))]]
    d = Drive(toy(*script, start=["s1", "s2"]))
    d.run(50).place("s0").run(500)
    d.lift("s1").run(700).place("s1").run(500)
    assert d.kinds() == ["guide", "move", "game_over"]
    assert d.last("move")["move"] == "a"


def test_moves_alike_on_the_board_are_chosen_with_back_and_ok():
    script = [[move("x", [], ["s0"]), move("y", [], ["s0"]), move("z", [], ["s0"])], []]
    d = Drive(toy(*script))
    d.run(50).place("s0").run(500)
    assert d.kinds() == ["guide"] and d.last("guide")["sites"] == []
    assert "OK: x" in " ".join(d.ctl.screen().text_lines())
    d.press("back").press("back")
    assert "OK: z" in " ".join(d.ctl.screen().text_lines())
    d.press("ok")
    assert d.last("move")["move"] == "z"


def test_flips_confirmed_by_ok_without_polarity_sensors():
    script = [[move("f", [], ["s0"], ("flip", ["s1", "s2"]))], []]
    d = Drive(toy(*script, start=["s1", "s2"]))
    d.run(50).place("s0").run(500)
    assert d.kinds() == ["move", "guide"] and isinstance(d.ctl.phase, Following)
    assert "Flip s1, s2" in d.ctl.screen().text_lines()
    d.press("ok")
    assert isinstance(d.ctl.phase, Moving) and d.ctl.frame() == {}


def test_flips_checked_by_polarity_sensors():
    script = [[move("f", [], ["s0"], ("flip", ["s1", "s2"]))], []]
    d = Drive(toy(*script, start=["s1", "s2"]), polarity=True)
    d.run(50).place("s0").run(500)
    assert isinstance(d.ctl.phase, Following) and d.lit("s1") == LIGHTS["flip"]
    d.lift("s1").run(100).place("s1", north=False).run(100)
    assert isinstance(d.ctl.phase, Following)
    d.lift("s2").run(100).place("s2", north=False).run(100)
    assert isinstance(d.ctl.phase, Moving)
    assert "out_of_sync" not in d.kinds()


def test_ok_plays_the_ok_move_and_a_move_after_it_is_seen():
    script = [[move("ok"), move("c", ["s1"], ["s2"])], [move("d", ["s3"], ["s4"])], []]
    d = Drive(toy(*script, start=["s1", "s3"]))
    d.run(50)
    assert d.kinds() == ["guide"] and d.last("guide")["action"] == "confirm"
    d.lift("s3").run(50).place("s4").run(500)
    assert [e["move"] for e in d.events if e["event"] == "move"] == ["ok", "d"]
    d2 = Drive(toy(*script, start=["s1", "s3"]))
    d2.run(50).press("ok")
    assert d2.last("move")["move"] == "ok" and d2.ctl.state.ply == 1


def test_ghosted_readings_never_make_a_move():
    d = Drive(toy([move("m", [], ["s1"])]))
    ghost = Scan(frozenset({1, 2}), ambiguous=frozenset({1, 2}))
    for _ in range(200):
        d.scan(ghost)
    assert d.kinds() == []
    d.place("s1").run(500)
    assert d.kinds() == ["move", "game_over"]


def test_without_takebacks_an_earlier_position_is_out_of_sync():
    d = Drive(toy([move("m", [], ["s1"])], [move("n", [], ["s2"])], []), takebacks=False)
    d.run(50).place("s1").run(500).lift("s1").run(500)
    assert d.kinds() == ["move", "out_of_sync"]
    assert d.last("out_of_sync")["missing"] == ["s1"]
    assert d.lit("s1") == LIGHTS["missing"]
    d.place("s1").run(500)
    assert d.kinds()[-1] == "in_sync" and d.ctl.frame() == {}


def test_missing_and_extra_are_lit_differently_and_follow_the_hand():
    d = Drive(toy([move("m", [], ["s1"])], []), setup=False)
    d.place("s5").run(500)
    assert d.kinds() == ["out_of_sync"]
    assert d.lit("s5") == LIGHTS["extra"] != LIGHTS["missing"]
    d.lift("s5").run(50)
    assert d.ctl.frame() == {}


class FailingStorage(Storage):
    def add_move(self, game_id, ply, notation):
        raise StorageError("games.db: cannot save (disk I/O error)")


def test_a_move_that_cannot_be_saved_is_not_acknowledged():
    d = Drive(toy([move("m", [], ["s1"])], []), storage=FailingStorage(":memory:"))
    d.run(50).place("s1").run(500)
    assert "move" not in d.kinds()
    assert "games.db: cannot save (disk I/O error)" in d.ctl.screen().text_lines()


def test_every_move_is_committed_before_the_move_event(tmp_path):
    path = str(tmp_path / "games.db")
    seen = []

    class Watching(Storage):
        def add_move(self, game_id, ply, notation):
            super().add_move(game_id, ply, notation)
            seen.append(Storage(path).games()[-1].moves)

    d = Drive(Game.of("antipalos", 4), storage=Watching(path))
    d.run(50).place("B2*").run(500)
    assert seen == [("B2*",)] and d.last("move")["move"] == "B2*"


def test_resume_checks_the_board_against_the_saved_game():
    storage = Storage(":memory:")
    game_id = storage.start("antipalos", 4, "two")
    storage.add_move(game_id, 1, "B2*")
    d = Drive(Game.of("antipalos", 4), storage=storage, resume=(game_id, ["B2*"]), setup=False)
    d.run(500)
    assert d.kinds() == ["out_of_sync"] and d.last("out_of_sync")["missing"] == ["B2*"]
    d.place("B2*").run(500)
    assert d.kinds()[-1] == "in_sync"
    d.place("C3*").run(500)
    assert d.last("move") | {"t": 0} == {"t": 0, "event": "move", "move": "C3*", "side": "black"}
    assert storage.unfinished().moves == ("B2*", "C3*")


def test_targets_are_lit_at_once_on_a_lift_before_the_board_settles():
    d = Drive(Game.of("antipalos", 3)).run(50)
    for site in ["*A2", "C1*", "*B2", "*B3", "*A3", "*A1", "C3*", "B1*"]:
        d.place(site).run(500)
    lift_at = d.t
    d.lift("*A2").run(40)
    event = d.last("targets")
    assert event["sites"] == ["A2*", "C2*", "*C2"] and event["t"] - lift_at <= 30
    assert d.lit("C2*") == LIGHTS["target"]
    d.run(1000)  # holding the piece is not a mistake
    assert "out_of_sync" not in d.kinds() and d.lit("C2*") == LIGHTS["target"]
    d.place("*A2").run(50)
    assert d.last("targets")["sites"] == [] and d.ctl.frame() == {}


class DriveScreenLater(Drive):
    """Steps as the daemon does: the step without the screen, then the screen on its own."""

    def scan(self, scan: Scan | None = None) -> None:
        version = self.ctl.frame_version
        stepped = self.ctl.step(self.t, scan or self.sim.scan(), self.sim.buttons.events(), screen=False)
        assert not any(e["event"] == "display" for e in stepped)
        shown = self.ctl.screen_step()
        assert all(e["event"] == "display" for e in shown)
        self.frames_first += bool(shown) and self.ctl.frame_version != version
        self.events += stepped + shown
        self.t += 10


def test_the_screen_laid_out_after_the_frame_shows_what_the_step_alone_shows():
    """A long screen (an error above the game's lines: pages) takes far longer to lay out than
    the LED frame to build; the daemon sends the frame first. The events, the pages and their
    turning are the same either way."""
    game = Game.of("antipalos", 12, "team", match=6)
    drives = [Drive(game), DriveScreenLater(game)]
    drives[1].frames_first = 0
    stray = ["C3*", "*E5", "G7*"]
    for d in drives:
        d.run(50).place("A1*").run(500)
        for site in stray:
            d.place(site)
        d.run(4000)  # "Board differs: take off 3", on two pages, turned once
        for site in stray:
            d.lift(site)
        d.run(500)
    assert drives[0].events == drives[1].events
    titles = [e["lines"][0] for e in drives[0].events if e["event"] == "display"]
    assert "Antipalos 12 · team p1/2" in titles and "Antipalos 12 · team p2/2" in titles
    assert drives[1].frames_first == 1  # the stray pieces lit, then the paged screen laid out


def test_a_long_screen_starts_on_its_first_page_and_turns_every_3_s():
    """The pages of a screen turn from when it is first shown, not by the clock: a player who
    misplaced a piece reads "p1/2" first (it used to be whichever page the clock was at)."""
    d = Drive(Game.of("antipalos", 12, "team", match=6)).run(3200)
    for site in ["C3*", "*E5", "G7*"]:
        d.place(site)
    shown_at = d.t
    d.run(6500)
    paged = [
        (e["t"] - shown_at, e["lines"][0])
        for e in d.events
        if e["event"] == "display" and "/" in e["lines"][0]
    ]
    assert [title for _, title in paged] == [f"Antipalos 12 · team p{n}/2" for n in (1, 2, 1)]
    assert [t // 1000 for t, _ in paged] == [0, 3, 6]


def test_menu_new_game_take_back_brightness_and_ip_address():
    current = GameChoice("antipalos", 4, "two", "Antipalos")
    menu = Menu([current, *game_choices()[:3]], current)
    d = Drive(Game.of("antipalos", 4), menu=menu)
    d.run(50).place("B2*").run(500)
    d.press("menu")
    assert d.ctl.screen().text_lines()[:2] == ("Menu", "> New game")
    labels = [line.lstrip("> ") for line in d.ctl.screen().text_lines()[1:]]
    for _ in range(labels.index("Take back")):
        d.press("menu")
    d.press("ok")
    assert d.kinds()[-2:] == ["takeback", "out_of_sync"]
    assert d.ctl.state.ply == 0 and d.lit("B2*") == LIGHTS["extra"]
    d.lift("B2*").run(500)
    assert d.kinds()[-1] == "in_sync"
    d.press("menu")
    for _ in range(labels.index("Show IP address")):
        d.press("menu")
    d.press("ok")
    assert d.ctl.screen().text_lines() == ("IP address", "192.0.2.7")
    d.press("back")
    assert d.ctl.screen().text_lines()[1] == "White to move"
    d.press("menu").press("ok")  # New game
    assert d.ctl.state.ply == 0 and d.storage.games()[0].result == "abandoned"


@pytest.mark.parametrize("order", [("s0", "s1"), ("s1", "s0")])
def test_either_lifting_order_for_a_two_site_piece(order):
    d = Drive(toy([move("m", ["s0", "s1"], ["s2", "s3"])], start=["s0", "s1"]))
    d.run(50)
    for site in order:
        d.lift(site).run(30)
    d.place("s3").run(30).place("s2").run(500)
    assert d.kinds() == ["targets", "move", "game_over"]
    assert d.last("game_over")["sites"] == ["s2", "s3"] and d.lit("s2") == LIGHTS["win"]


def test_a_correction_keeps_the_final_move_and_logs_the_mis_read_one(tmp_path):
    storage = Storage(str(tmp_path / "games.db"))
    d = Drive(Game.of("antipalos", 3), storage=storage)
    d.run(100).place("A1*").run(500).lift("A1*").run(50).place("A2*").run(500)
    assert [e["event"] for e in d.events if e["event"] in ("move", "correction")] == ["move", "correction"]
    assert storage.unfinished().moves == ("A2*",)
    assert storage.corrections(d.ctl.game_id) == [(1, "A1*", "A2*")]
    d.run(4000)
    assert "Corrected to A2*" not in d.ctl.screen().text_lines()  # the message passes


def test_a_passing_notice_ends_on_a_board_change_or_after_a_few_seconds_and_the_menu_keeps_its_title():
    current = GameChoice("antipalos", 4, "two", "Antipalos")
    menu = Menu([current, *game_choices()[:3]], current)
    d = Drive(Game.of("antipalos", 4), menu=menu)
    labels = [line.lstrip("> ") for line in menu.screen().text_lines()[1:]]
    for wait in ("board", "time"):
        d.run(50).press("menu")
        for _ in range(labels.index("Show IP address")):
            d.press("menu")
        d.press("ok")
        assert d.ctl.screen().text_lines() == ("IP address", "192.0.2.7")
        if wait == "board":
            d.place("*C3").run(100)  # the board changed: the notice gives way
        else:
            d.run(NOTICE_MS)
        assert d.ctl.screen().text_lines()[0] == "Antipalos 4"
    d.place("C3*").run(500)  # a second Trirod on C3: out of sync
    assert "C3 already holds a Trirod · Take C3* off" in d.ctl.screen().text_lines()
    d.press("menu")
    assert d.ctl.screen().text_lines()[0] == "Menu"  # the menu's own title, the lights still on
    assert d.lit("C3*") == LIGHTS["extra"]


def test_a_move_chosen_elsewhere_is_carried_out_under_guidance_and_only_that_move_counts():
    d = Drive(Game.of("antipalos", 4), opponent=Scripted("white", "B2*"))
    d.run(150)
    assert d.lit("B2*") == LIGHTS["fill"] and "Computer plays B2*: move it" in d.ctl.screen().text_lines()
    assert d.ctl.to_act == "white"
    d.place("A1*").run(500)  # a legal move, but not the one to carry out
    assert "move" not in d.kinds() and d.last("out_of_sync") == {
        "t": d.last("out_of_sync")["t"],
        "event": "out_of_sync",
        "missing": [],
        "extra": ["A1*"],
    }
    d.lift("A1*").run(500).place("B2*").run(500)
    assert d.last("move") == {"t": d.last("move")["t"], "event": "move", "move": "B2*", "side": "white"}
    assert d.ctl.pending is None and d.ctl.to_act == "black" and d.ctl.frame() == {}


def test_a_move_chosen_elsewhere_runs_its_follow_ups_in_order():
    d = Drive(Game.of("antipode"), opponent=Scripted("blue", "b1:a1"))
    d.run(150)
    assert d.lit("b1") == LIGHTS["fill"] and d.lit("e1") == LIGHTS["marker"]
    d.place("b1").run(500)
    assert d.last("move")["move"] == "b1:a1" and d.last("guide")["sites"] == ["a1"]
    assert d.ctl.to_act == "blue" and "Flip a1" in d.ctl.screen().text_lines()
    d.lift("a1").run(300).place("a1").run(500)
    assert d.last("guide") == {"t": d.last("guide")["t"], "event": "guide", "action": "flip", "sites": ["b1"]}
    d.lift("b1").run(300).place("b1").run(500)
    assert isinstance(d.ctl.phase, Moving) and d.ctl.to_act == "red"
    assert "out_of_sync" not in d.kinds()


def test_a_self_phalanxed_piece_is_lit_and_guided_like_any_removal():
    storage = Storage(":memory:")
    game_id = storage.start("phalanx", None, None)
    d = Drive(Game.of("phalanx"), storage=storage, resume=(game_id, SELF_PHALANX))
    d.run(500)
    move = d.ctl.state.parse_move("e5se-e7se")
    (real,) = d.ctl.state.realisations(move)
    for site in sorted(real.emptied):
        d.lift(site)
    for site in sorted(real.filled):
        d.place(site)
    d.run(500)
    assert d.last("move")["move"] == "e5se-e7se"
    due = d.ctl.state.due()
    assert d.last("guide") == {
        "t": d.last("guide")["t"],
        "event": "guide",
        "action": "remove",
        "sites": d.ctl.sorted(due.sites),
    }
    assert all(d.lit(site) == LIGHTS["remove"] for site in due.sites)
    assert f"{due.prompt}: e7nw, e7se" in d.ctl.screen().text_lines() and "triangle" not in due.prompt
    for site in due.sites:
        d.lift(site)
    d.run(500)
    assert d.last("move")["move"].startswith("x") and d.ctl.state.due() is None
    assert "out_of_sync" not in d.kinds()
