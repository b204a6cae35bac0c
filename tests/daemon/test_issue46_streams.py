"""Issue 46: what the players' hands mean. The board senses presence only, so a position the
hands pass through on the way (a captured piece taken off first, a token lifted to be turned, a
neighbour knocked off, the first of two pieces set back) can equal an earlier position or a
legal move. Each case is a sensor stream written as the players act, with what they expect the
board to say and record.
"""

from __future__ import annotations

import json

import pytest

from testbed.streams import Stream, after, board_after, kinds, moves, of, run, said

# ------------------------------------------------------------ a capture made with both hands
#: game -> (the moves before, the capturing piece's sites, where it goes, the captured piece)
CAPTURES = {
    "anti-grid": (["a9-c9", "l2-e2", "i1-i3", "l8-k8"], ["a3"], ["e3"], ["e2"]),
    "phalanx": (["d2nw-b4nw", "f7ne-h5ne", "c2ne-g6ne"], ["h8nw", "h8se"], ["g7nw", "g7se"], ["g6ne"]),
}
SIZES = {"anti-grid": (6, "plain"), "phalanx": (None, None)}


def _before_capture(game: str) -> Stream:
    """The moves before the capture, made by hand."""
    from engines import new_game

    size, variant = SIZES[game]
    state = new_game(game, size, variant) if size else new_game(game)
    stream = Stream()
    for move in CAPTURES[game][0]:
        real = state.realisations(state.parse_move(move))[0]
        stream.move(real.emptied, real.filled)
        for step in real.follow_ups:
            stream.move(step.sites if step.action == "remove" else (), ())
        state = state.play(move)
    return stream


def _capture(game: str, how: str) -> list[dict]:
    """The capture made with both hands: ``together`` (the piece and the one it takes lifted
    at once, held 0.7 s), ``taken_first`` (the captured piece off first, held 0.7 s, then the
    move) or ``at_once`` (both lifted and the move completed without a pause)."""
    _, mover, to, taken = CAPTURES[game]
    stream = _before_capture(game)
    if how == "together":
        stream.lift(*mover).lift(*taken, after=50).wait(700)
    elif how == "taken_first":
        stream.lift(*taken).wait(700).lift(*mover)
    else:
        stream.lift(*mover).lift(*taken, after=50)
    stream.place(*to).settle()
    size, variant = SIZES[game]
    return run(stream.text(), game, size, variant)


@pytest.mark.parametrize("how", ["together", "taken_first", "at_once"])
@pytest.mark.parametrize("game", sorted(CAPTURES))
def test_a_capture_made_by_lifting_the_captured_piece_too_gives_no_warning(game, how):
    """The player lifts the moving piece and, with the other hand, the piece it captures
    (or that one first), then completes the move: no warning on the way, the moving piece's
    targets lit, and the capture recorded."""
    before, mover, to, taken = CAPTURES[game]
    events = _capture(game, how)
    assert "out_of_sync" not in kinds(events) and "illegal" not in kinds(events)
    assert not said(events, " back") and not said(events, f"{taken[0]} to a lit site")
    assert any(set(to) <= set(lit["sites"]) for lit in of(events, "targets"))
    assert len(moves(events)) == len(before) + 1 and events[-1]["moves"][:-1] == before
    assert "guide" not in kinds(events[-8:])  # the removal was already made


# ------------------------------------------------------------ a restart mid-steps
def _antipode_b1_a1(flip_path: bool) -> Stream:
    """Blue places b1, turns its neighbour a1 over, taps a1 (the pawn lands there); with
    ``flip_path`` also turns b1, the token the pawn passed."""
    stream = Stream().place("b1").settle().lift("a1").wait(300).place("a1").settle()
    stream.lift("a1").place("a1").settle()
    if flip_path:
        stream.lift("b1").wait(300).place("b1").settle()
    return stream


def _restarted(stream: Stream):
    """The board that played ``stream``, then restarted, and its events since the restart."""
    board = board_after(stream.restart().wait(1000), "antipode", variant="standard")
    return board, board.events[board.restarts[-1]:]


def test_a_restart_while_a_moves_flip_is_left_announces_it_and_names_the_side():
    """Blue's b1:a1 is recorded and b1 (passed by the pawn) is to be turned when the daemon
    restarts: the board asks again for b1 as a guide event, and the OLED says it is Blue's
    step; once b1 is turned, Red is to move."""
    board, since = _restarted(_antipode_b1_a1(flip_path=False))
    try:
        assert {"action": "flip", "sites": ["b1"]} in of(since, "guide")
        assert "Flip b1" in board.screen() and "Blue to move" in board.screen()
        board.lift("b1"), board.run(300), board.place("b1")
        board.settle()
        assert "Red to move" in board.screen() and board.held() == ("b1:a1",)
    finally:
        board.close()


def test_a_restart_while_a_takebacks_steps_are_left_announces_each():
    """Blue's b1:a1 made in full, then MENU -> Take back: b1 to take off, a1 to turn back and
    the pawn to carry back to e1. The daemon restarts before anything is done: the board asks
    for them again, each as a guide event, as Blue's steps."""
    stream = _antipode_b1_a1(flip_path=True)
    for _ in range(4):
        stream.press("menu")
    board, since = _restarted(stream.press("ok").wait(600))
    try:
        assert of(since, "guide") == [{"action": "flip", "sites": ["a1"]}]
        assert "Blue to move" in board.screen()
        board.lift("b1"), board.run(600), board.lift("a1"), board.run(300), board.place("a1")
        board.settle()
        since = board.events[board.restarts[-1]:]
        assert of(since, "guide")[-1]["action"] == "carry" and "Blue to move" in board.screen()
    finally:
        board.close()


# ------------------------------------------------------------ Antipode: the pawn first
def _antipode(stream: Stream, moves_before: list[str]) -> list[dict]:
    """``stream`` replayed on Antipode after ``moves_before``."""
    head = {"setup": "start", "game": "antipode", "variant": "standard", "moves": moves_before}
    return run([json.dumps(head)] + stream.text().splitlines(), "antipode")


@pytest.mark.parametrize("order", ["token_first", "piece_first"])
def test_antipode_a_token_knocked_onto_its_neighbour_and_set_right_leaves_no_move(order):
    """After Blue's e3:e3, Red's hand pushes the corner token a5 onto a4, which equals Red's
    legal a4:a5 with a5 turned (read as that move). Red sets it right: the token back on a5
    and off a4, in either order. The move is dropped, nothing asked to turn or carry back
    (before, a4:a5 stayed, or its takeback asked to turn a5, which nobody had turned); Red's
    real a4:a5 then asks for the flip of a5."""
    stream = Stream().switch("a5", False).switch("a4", True, after=30).wait(600).settle()
    if order == "token_first":
        stream.place("a5").lift("a4", after=400)
    else:
        stream.lift("a4").place("a5", after=400)
    stream.settle().wait(2000).settle()
    events = _antipode(stream, ["e3:e3"])
    rest = after(events, "takeback")
    assert of(events, "takeback") == [{"move": "a4:a5"}] and events[-1]["moves"] == ["e3:e3"]
    assert "guide" not in kinds(rest) and "out_of_sync" not in kinds(rest)
    assert said(rest, "a5 knocked off") and not said(rest, "Flip a5")
    stream.place("a4").settle()
    events = _antipode(stream, ["e3:e3"])
    assert of(after(events, "takeback"), "guide") == [{"action": "flip", "sites": ["a5"]}]


#: Before Blue's g5:i5 (place g5, turn its neighbour h5, the pawn e1 to i5 passing g3).
BEFORE_G5_I5 = ["g3:g3", "g9:g9", "h7:e1", "h5:e9"]


def test_antipode_the_pawn_carried_first_turning_a_token_on_its_way_is_no_landing():
    """Blue carries the pawn first, e1 to i5, turning g3 it passes on the way; then places g5,
    turns h5, taps i5 and presses OK. The early turn of g3 is first taken as the landing
    tapped before the placement (g5:g3, as players also do), and the tap on i5 corrects it:
    g5:i5 with g3 turned, nothing more asked (before, g5:g3 stayed)."""
    stream = Stream().lift("g3").wait(300).place("g3").settle()
    stream.place("g5").settle().lift("h5").wait(300).place("h5").settle()
    stream.lift("i5").wait(150).place("i5").settle().press("ok").settle()  # a tap of 0.25 s
    events = _antipode(stream, BEFORE_G5_I5)
    assert of(events, "correction") == [{"move": "g5:i5", "replaces": "g5:g3", "side": "blue"}]
    assert events[-1]["moves"][-1] == "g5:i5" and events[-1]["position"]["to_move"] == "red"
    assert {"action": "flip", "sites": ["g3"]} not in of(events, "guide")


# ------------------------------------------------------------ a takeback by hand, one turn deep
@pytest.mark.parametrize("hold", [100, 500, 2000])
def test_antipode_a_takeback_by_hand_through_an_earlier_position_takes_back_one_turn(hold):
    """Blue completes g5:i5 (h5 turned, i5 tapped, g3 turned, OK), then regrets it: takes g5 off
    (held ``hold`` ms), turns g3 and h5 back and carries the pawn back, OK. While h5 is in the
    hand the pieces equal the position before Red's h5:e9: that is no takeback of two turns,
    and h5 set down is no move of Red's."""
    stream = Stream().place("g5").settle().lift("h5").wait(300).place("h5").settle()
    stream.lift("i5").wait(50).place("i5").settle()
    stream.lift("g3").wait(300).place("g3").settle().press("ok").settle()
    stream.lift("g5").wait(hold).settle()
    stream.lift("g3").wait(300).place("g3").settle()
    stream.lift("h5").wait(400).place("h5").settle().wait(1500).settle()
    events = _antipode(stream, BEFORE_G5_I5)
    rest = after(events, "takeback")
    assert of(events, "takeback") == [{"move": "g5:i5"}] and moves(rest) == []
    assert not said(events, "h5:e9") and not said(rest, "Flip g3, i5")
    assert of(rest, "guide")[-1]["action"] == "carry"
    stream.press("ok").settle()
    events = _antipode(stream, BEFORE_G5_I5)
    assert events[-1]["moves"] == BEFORE_G5_I5 and events[-1]["position"]["to_move"] == "blue"
