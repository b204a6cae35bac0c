"""The settle policy: a board that shows one whole legal move is judged after quick_settle_ms
(a piece that only paused on its way is corrected as it moves on), the one landing of a lifted
piece or the opponent's move carried out after landing_settle_ms; a change that is no single
move waits settle_ms."""

from __future__ import annotations

from engines import new_game
from firmware_host.board import recognise
from firmware_host.board.game import Game
from firmware_host.board.opponent import Computer, think
from firmware_host.board.view import LIGHTS
from testbed.drive import Drive, Scripted


def moved_at(drive: Drive, change_ms: int) -> int | None:
    """Ms from the change to the move event (None: no move within a second)."""
    drive.run(1000)
    moves = [e["t"] for e in drive.events if e["event"] == "move"]
    return moves[0] - change_ms if moves else None


def test_a_placing_is_judged_after_the_quick_settle():
    drive = Drive(Game.of("antipalos", 5)).run(500)
    change = drive.t
    drive.place("B2*")
    timing = drive.ctl.timing
    assert timing.quick_settle_ms < timing.settle_ms
    assert moved_at(drive, change) <= timing.quick_settle_ms + 10 * timing.debounce_scans
    assert drive.last("move")["move"] == "B2*"


def test_a_pawn_pausing_on_its_way_is_judged_soon_then_corrected_as_it_moves_on():
    drive = Drive(Game.of("anti-grid", 6, "plain")).run(500)
    drive.lift("e1").run(100)
    change = drive.t
    drive.place("e5")  # the hand pauses
    timing = drive.ctl.timing
    assert moved_at(drive, change) <= timing.quick_settle_ms + 10 * timing.debounce_scans
    drive.lift("e5").run(50).place("e9").run(1000)  # ... and slides on
    correction = drive.last("correction")
    assert (correction["move"], correction["replaces"]) == ("e1-e9", "e1-e5")
    assert drive.ctl.moves == ["e1-e9"]


def test_the_end_of_a_line_is_judged_soon():
    state = new_game("anti-grid", 6, "plain")
    move = next(m for m in state.legal_moves() if str(m) == "e1-e11")
    real = state.realisations(move)[0]
    assert recognise.complete(state, (state.occupied() - real.emptied) | real.filled)


def test_a_change_of_mind_within_the_quick_settle_is_not_recorded():
    drive = Drive(Game.of("antipalos", 5)).run(500)
    drive.place("B2*").run(drive.ctl.timing.quick_settle_ms - 20)
    drive.lift("B2*").run(40)
    change = drive.t
    drive.place("C3*")
    assert moved_at(drive, change) is not None
    assert [e["move"] for e in drive.events if e["event"] == "move"] == ["C3*"]


def test_a_piece_set_on_the_one_site_it_can_go_is_taken_at_once():
    drive = Drive(Game.of("anti-grid", 6)).run(500)
    for start, end in [("e1", "e9"), ("f12", "f9"), ("a11", "k11"), ("l2", "c2")]:
        drive.lift(start).run(200).place(end).run(1000)
    assert drive.ctl.state.targets("c1") == {"e1"}  # c1's pawn has one landing
    drive.lift("c1").run(200)
    change = drive.t
    drive.place("e1")
    timing = drive.ctl.timing
    assert timing.landing_settle_ms < timing.quick_settle_ms
    assert moved_at(drive, change) <= timing.landing_settle_ms + 10 * timing.debounce_scans
    assert drive.ctl.moves[-1] == "c1-e1"


def test_a_placing_whose_contact_bounces_is_judged_from_its_first_contact():
    drive = Drive(Game.of("antipalos", 5)).run(500)
    change = drive.t
    drive.place("B2*").run(10).lift("B2*").run(10).place("B2*")  # 20 ms of bounce the scans see
    timing = drive.ctl.timing
    assert moved_at(drive, change) <= timing.quick_settle_ms + 10
    assert drive.ctl.moves == ["B2*"]


def test_a_bouncing_hover_as_long_as_the_quick_settle_is_not_a_move():
    drive = Drive(Game.of("antipalos", 5)).run(500)
    hover = drive.ctl.timing.quick_settle_ms
    drive.place("B2*").run(10).lift("B2*").run(10).place("B2*").run(hover - 20).lift("B2*").run(1000)
    assert drive.ctl.moves == []
    assert "move" not in drive.kinds()


def computer_to_carry_out() -> tuple[Drive, int]:
    """Antipalos against a computer that answers C3* with B2*, lit for the players: the drive
    and its events so far."""
    drive = Drive(Game.of("antipalos", 5), opponent=Scripted("black", "B2*")).run(500)
    drive.place("C3*").run(1000)
    assert drive.ctl.pending is not None and drive.lit("B2*") == LIGHTS["fill"]
    return drive, len(drive.events)


def test_the_opponents_move_carried_out_is_taken_once_its_bounce_is_over():
    drive, seen = computer_to_carry_out()
    change = drive.t
    drive.place("B2*").run(1000)
    timing = drive.ctl.timing
    moved = [e["t"] - change for e in drive.events[seen:] if e["event"] == "move"]
    assert moved and moved[0] <= timing.landing_settle_ms + 10 * timing.debounce_scans
    assert drive.ctl.moves == ["C3*", "B2*"]


def test_a_touch_on_the_opponents_lit_site_records_no_other_move():
    drive, seen = computer_to_carry_out()
    drive.place("A1*").run(drive.ctl.timing.quick_settle_ms).lift("A1*").run(500)  # a hover elsewhere
    assert drive.ctl.moves == ["C3*"] and drive.ctl.pending is not None
    drive.place("B2*").run(60).lift("B2*").run(3000)  # set down, taken up again: guided back
    assert drive.ctl.moves == ["C3*", "B2*"] and drive.lit("B2*") == LIGHTS["missing"]
    drive.place("B2*").run(1000)
    assert [e["event"] for e in drive.events[seen:] if e["event"] in ("move", "takeback", "correction")] == [
        "move"
    ]
    assert drive.ctl.moves == ["C3*", "B2*"] and drive.lit("B2*") is None


def test_the_opponents_pawn_slid_to_its_lit_landing_is_recorded_once():
    drive = Drive(Game.of("anti-grid", 6, "plain"), opponent=Scripted("blue", "l2-e2")).run(500)
    drive.lift("c1").run(200).place("c5").run(1000)
    assert drive.ctl.pending is not None and drive.lit("e2") == LIGHTS["fill"]
    seen = len(drive.events)
    drive.sim.clock = lambda: drive.t / 1000  # the slide runs on the drive's clock
    path = [drive.channel(site) for site in ("l2", "k2", "j2", "i2", "h2", "g2", "f2", "e2")]
    drive.sim.slide(path, step=0.06)  # 60 ms over each site on the way, in the hand
    drive.run(1500)
    assert [
        (e["event"], e.get("move")) for e in drive.events[seen:] if e["event"] in ("move", "correction")
    ] == [("move", "l2-e2")]
    assert drive.ctl.moves == ["c1-c5", "l2-e2"]


def test_the_opponents_move_whose_contact_bounces_is_recorded_once():
    drive, seen = computer_to_carry_out()
    drive.place("B2*").run(10).lift("B2*").run(10).place("B2*").run(10).lift("B2*").run(10).place("B2*")
    drive.run(1000)
    assert [e["event"] for e in drive.events[seen:] if e["event"] in ("move", "out_of_sync", "takeback")] == [
        "move"
    ]
    assert drive.ctl.moves == ["C3*", "B2*"]


def guided_at(drive: Drive, change_ms: int) -> int | None:
    """Ms from the change to the first guide (None: none within a second)."""
    drive.run(1000)
    guides = [e["t"] for e in drive.events if e["event"] == "guide" and e["t"] >= change_ms]
    return guides[0] - change_ms if guides else None


def test_a_placing_of_several_moves_is_guided_after_the_quick_settle():
    drive = Drive(Game.of("antipode")).run(500)
    change = drive.t
    drive.place("b1")  # b1:a1 or b1:b1: the same placing, the flips then the landing to come
    timing = drive.ctl.timing
    assert guided_at(drive, change) <= timing.quick_settle_ms + 10 * timing.debounce_scans
    assert drive.last("guide")["action"] == "flip" and drive.ctl.moves == []


def test_a_hover_over_a_placing_of_several_moves_is_no_choice():
    drive = Drive(Game.of("antipode")).run(500)
    change = drive.t
    drive.place("b1").run(drive.ctl.timing.quick_settle_ms - 20).lift("b1")
    assert guided_at(drive, change) is None and drive.ctl.moves == []
    assert "out_of_sync" not in drive.kinds()


def test_a_hover_just_past_the_quick_settle_is_corrected_and_the_computer_answers_the_move_meant():
    drive = Drive(Game.of("antipalos", 5), opponent=Computer("black", 1, sync=True)).run(500)
    hover = drive.ctl.timing.quick_settle_ms + 15
    drive.place("B2*").run(hover).lift("B2*").run(100).place("C3*").run(1000)
    assert [e["move"] for e in drive.events if e["event"] == "move"] == ["B2*"]  # read for a moment
    assert drive.ctl.moves == ["C3*"]
    assert (drive.last("correction")["move"], drive.last("correction")["replaces"]) == ("C3*", "B2*")
    assert drive.ctl.pending is not None and drive.ctl.pending.text == think(drive.ctl.state, 1, seed=1)


def test_a_hover_just_past_the_quick_settle_with_nothing_set_down_after_is_taken_back():
    drive = Drive(Game.of("antipalos", 5), opponent=Computer("black", 1, sync=True)).run(500)
    timing = drive.ctl.timing
    drive.place("B2*").run(timing.quick_settle_ms + 15).lift("B2*").run(timing.takeback_ms + 1000)
    read = [(e["event"], e["move"]) for e in drive.events if e["event"] in ("move", "expect", "takeback")]
    assert read[0] == ("move", "B2*") and read[-1] == ("takeback", "B2*")  # answered, then undone
    assert drive.ctl.moves == [] and drive.ctl.pending is None
