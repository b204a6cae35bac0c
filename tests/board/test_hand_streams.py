"""What the players' hands mean. The board senses presence only, so a position the hands pass
through on the way (a captured piece taken off first, a token lifted to be turned, a neighbour
knocked off, the first of two pieces set back) can equal an earlier position or a legal move.
Each case is a sensor stream written as the players act, with what they expect the board to say
and record: on one board, against the computer and on paired boards (the doubt table,
``firmware_host/board/doubt.py``).
"""

from __future__ import annotations

import json
import random

import pytest

from firmware_host.board.controller import Game
from testbed.robot import knocks_to_moves
from testbed.streams import Stream, after, board_after, kinds, moves, of, run, said, shown

# ------------------------------------------------------------ a capture made with both hands
#: game -> (the moves before, the capturing piece's sites, where it goes, the captured piece)
CAPTURES = {
    "anti-grid": (["a9-c9", "l2-e2", "i1-i3", "l8-k8"], ["a3"], ["e3"], ["e2"]),
    "phalanx": (["d2nw-b4nw", "f7ne-h5ne", "c2ne-g6ne"], ["h8nw", "h8se"], ["g7nw", "g7se"], ["g6ne"]),
}
SIZES = {"anti-grid": (6, "plain"), "phalanx": (None, None), "antipod": (4, None)}


def _start(game: str):
    """The game's start position, at the size the tests play it."""
    from engines import new_game

    size, variant = SIZES[game]
    return new_game(game, size, variant) if size else new_game(game)


def _by_hand(game: str, played: list[str], stream: Stream | None = None):
    """``played`` made by hand, every step as the board asks (appended to ``stream``); the
    stream and the position reached."""
    state, stream = _start(game), stream or Stream()
    for move in played:
        real = state.realisations(state.parse_move(move))[0]
        stream.move(real.emptied, real.filled)
        for step in real.follow_ups:
            sensed = step.action in ("remove", "twin")
            stream.move(step.sites if step.action == "remove" else (), step.sites if sensed else ())
        state = state.play(move)
    return stream, state


def _before_capture(game: str) -> Stream:
    """The moves before the capture, made by hand."""
    return _by_hand(game, CAPTURES[game][0])[0]


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


# ------------------------------------------------------------ a takeback before the steps are done
#: game -> (the moves before, a move with a step the sensors see: a capture's removal, a twin)
UNFINISHED = {
    "anti-grid": (CAPTURES["anti-grid"][0], "a3-e3"),
    "phalanx": (CAPTURES["phalanx"][0], "h8nw-g7nw"),
    "antipod": (["b2"], "a2"),
}


def _take_back(stream: Stream) -> Stream:
    """MENU -> Take back."""
    for _ in range(4):
        stream.press("menu")
    return stream.press("ok").settle()


@pytest.mark.parametrize("game", sorted(UNFINISHED))
def test_a_takeback_asked_before_a_moves_last_step_asks_back_only_what_was_done(game):
    """The player makes a move but not its last step (the captured piece still stands, the
    twin is not placed yet) and asks MENU -> Take back: the board asks back only the move's own
    pieces, nothing of the step never made, and once they are back the game is as before."""
    before, move = UNFINISHED[game]
    stream, state = _by_hand(game, before)
    real = state.realisations(state.parse_move(move))[0]
    stream = _take_back(stream.move(real.emptied, real.filled))
    stream.move(real.filled, real.emptied).wait(2000).settle()
    size, variant = SIZES[game]
    events = run(stream.text(), game, size, variant)
    rest = after(events, "takeback")
    assert of(events, "takeback") == [{"move": state.notation(state.parse_move(move))}]
    asked = [set(e["missing"]) | set(e["extra"]) for e in of(rest, "out_of_sync")]
    assert asked and all(sites <= real.emptied | real.filled for sites in asked)
    assert "guide" not in kinds(rest) and kinds(rest)[-2:] == ["in_sync", "end"]
    assert events[-1]["moves"] == before


def _g5_i5_but_the_path_flip() -> Stream:
    """Blue's g5:i5 made but for its last step: g5 placed, h5 turned, i5 tapped; g3 (passed by
    the pawn) not yet turned."""
    stream = Stream().place("g5").settle().lift("h5").wait(300).place("h5").settle()
    return stream.lift("i5").wait(50).place("i5").settle()


@pytest.mark.parametrize("how", ["menu", "by_hand"])
def test_antipode_a_takeback_while_a_flip_is_still_asked_turns_back_only_what_was_turned(how):
    """Blue's g5:i5 is recorded and the board asks to turn g3; Blue takes it back instead
    (MENU -> Take back, or g5 lifted off). g3 was never turned: the board asks to turn h5 back
    and the pawn to go home, never g3 (before, it asked "Flip g3, h5" and the players turned a
    token that was right); done, Blue is to move with nothing left to do."""
    stream = _g5_i5_but_the_path_flip()
    stream = _take_back(stream) if how == "menu" else stream.lift("g5").wait(2000).settle()
    if how == "menu":
        stream.lift("g5").settle()
    stream.lift("h5").wait(300).place("h5").settle().press("ok").settle()
    events = _antipode(stream, BEFORE_G5_I5)
    rest = after(events, "takeback")
    assert of(events, "takeback") == [{"move": "g5:i5"}]
    assert of(rest, "guide")[0] == {"action": "flip", "sites": ["h5"]}
    assert not said(rest, "g3") and of(rest, "guide")[-1]["action"] == "carry"
    assert events[-1]["moves"] == BEFORE_G5_I5 and events[-1]["position"]["to_move"] == "blue"
    assert shown(events)[-1][2] == "Place a token"


def test_antipode_a_deeper_takeback_asked_while_a_takebacks_steps_are_asked_keeps_them():
    """Blue's g5:i5 made in full, then taken back (MENU): the board asks to turn g3 and h5
    back and Blue's pawn home. Blue takes g5 off and turns g3 back, then asks to take back
    Red's h5:e9 too. g3 is not asked again, and Blue's pawn, still on i5, is still asked home
    (before, the second takeback forgot it: the pawn stayed on i5 while the game had it on e1)."""
    stream = _g5_i5_but_the_path_flip().lift("g3").wait(300).place("g3").settle().press("ok").settle()
    stream = _take_back(stream).lift("g5").settle().lift("g3").wait(300).place("g3").settle()
    stream = _take_back(stream).lift("h5").settle().lift("i5").wait(300).place("i5").settle()
    events = _antipode(stream, BEFORE_G5_I5)
    assert of(events, "takeback") == [{"move": "g5:i5"}, {"move": "h5:e9"}]
    rest = after(after(events, "takeback"), "takeback")
    assert not any("g3" in g["sites"] for g in of(rest, "guide") if g["action"] == "flip")
    assert of(rest, "guide")[-1]["action"] == "carry" and "i5" in of(rest, "guide")[-1]["sites"]
    assert said(rest, "Blue pawn: i5 back to e1")


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
    return board, board.events[board.restarts[-1] :]


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
        since = board.events[board.restarts[-1] :]
        assert of(since, "guide")[-1]["action"] == "carry" and "Blue to move" in board.screen()
    finally:
        board.close()


@pytest.mark.parametrize("then", ["stands", "set_right"])
@pytest.mark.parametrize("when", ["token_in_hand", "token_back"])
def test_antipode_a_move_in_doubt_across_a_restart_is_said_once_or_dropped(when, then):
    """After Blue's e3:e3, Red's hand pushes a5 onto a4 (read as Red's a4:a5, a5 in the hand:
    recorded, not said). The daemon restarts with a5 still in the hand, or once it is set back.
    The doubt goes on: Blue then begins and a4:a5 is said once (before, its `move` event never
    came); or Red sets the knock right and the move is dropped, nothing said or asked back
    (before, the board asked to put a4 back)."""
    stream = Stream().place("e3").settle().switch("a5", False).switch("a4", True, after=30)
    stream.wait(600).settle()
    if when == "token_back":
        stream.place("a5").settle()
    board, since = _restarted(stream)
    try:
        assert board.held() == ("e3:e3", "a4:a5") and "move" not in kinds(since)
        if when == "token_in_hand":
            assert of(since, "guide") == [{"action": "flip", "sites": ["a5"]}]
            board.place("a5"), board.settle()
        if then == "stands":
            board.place("c1"), board.settle()
        else:
            board.lift("a4"), board.settle(), board.run(2000), board.settle()
        assert "takeback" not in kinds(board.events)
        if then == "stands":
            assert moves(board.events) == ["e3:e3", "a4:a5"] and board.held() == ("e3:e3", "a4:a5")
            assert "Blue to move" in board.screen()
        else:
            assert moves(board.events) == ["e3:e3"] and board.held() == ("e3:e3",)
            assert said(board.events[board.restarts[-1] :], "No move a4:a5")
            assert "Red to move" in board.screen() and "out_of_sync" not in kinds(board.events[-4:])
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
    legal a4:a5 with a5 turned (read as that move, but not said: no `move` event). Red sets it
    right: the token back on a5 and off a4, in either order. The move is dropped, nothing said
    to take back and nothing asked to turn or carry back (before, a `move` then a `takeback`
    event told the journal and the café of a move nobody made); Red's real a4:a5 then asks for
    the flip of a5, and is said once Blue begins."""
    stream = Stream().switch("a5", False).switch("a4", True, after=30).wait(600).settle()
    if order == "token_first":
        stream.place("a5").lift("a4", after=400)
    else:
        stream.lift("a4").place("a5", after=400)
    stream.settle().wait(2000).settle()
    events = _antipode(stream, ["e3:e3"])
    assert "move" not in kinds(events) and "takeback" not in kinds(events)
    assert events[-1]["moves"] == ["e3:e3"]
    dropped = [
        i for i, e in enumerate(events) if e["event"] == "display" and "No move a4:a5" in e["lines"][2]
    ]
    rest = events[dropped[0] :]
    assert "guide" not in kinds(rest) and "out_of_sync" not in kinds(rest)
    assert said(rest, "a5 knocked off") and not said(rest, "Flip a5")
    stream.place("a4").settle()
    events = _antipode(stream, ["e3:e3"])
    assert of(events[dropped[0] :], "guide") == [{"action": "flip", "sites": ["a5"]}]
    assert moves(_antipode(stream, ["e3:e3"])) == ["a4:a5"]


def test_antipode_a_move_read_as_a_knock_maybe_is_said_once_the_next_side_begins():
    """After Blue's e3:e3, Red's hand pushes a5 onto a4 (Red's a4:a5, a5 in the hand) and Red
    sets a5 down again, a4 kept: the move stands. It is said (its `move` event) once Blue
    begins, before anything of Blue's move."""
    stream = Stream().switch("a5", False).switch("a4", True, after=30).wait(600).settle()
    stream.place("a5").settle().wait(2000).settle()
    events = _antipode(stream, ["e3:e3"])
    assert "move" not in kinds(events) and events[-1]["moves"] == ["e3:e3", "a4:a5"]
    stream.place("c1").settle()
    events = _antipode(stream, ["e3:e3"])
    assert moves(events) == ["a4:a5"]
    assert of(after(events, "move"), "guide") == [{"action": "pick", "sites": ["c1", "e1"]}]


def test_antipode_a_takeback_asked_while_a_move_is_in_doubt_tells_of_no_move():
    """After Blue's e3:e3, Red's hand pushes a5 onto a4 (read as a4:a5, unsaid: a knock,
    maybe) and Red asks MENU -> Take back at once. The move goes, with no `takeback` event for
    a move never said (before, the journal had a takeback of a move it never heard of), and
    a5, never turned, is not asked to be turned back."""
    stream = Stream().switch("a5", False).switch("a4", True, after=30).wait(600).settle()
    for _ in range(4):
        stream.press("menu")
    events = _antipode(stream.press("ok").settle(), ["e3:e3"])
    assert "move" not in kinds(events) and "takeback" not in kinds(events)
    assert events[-1]["moves"] == ["e3:e3"] and said(events, "Took back a4:a5")
    assert of(after(events, "guide"), "guide")[-1]["action"] == "carry"


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


# ------------------------------------------------------------ a knock against an opponent
def _knock_on(state) -> tuple[str, str, str]:
    """A token the side to move may knock onto an empty neighbour so that the board equals one
    of its legal moves (a placement on the neighbour turning that token, the pawn landing on
    it): (the token, the neighbour, the move)."""
    found = knocks_to_moves(state)
    assert found, "no knock equals a move here"
    return found[0]


def _knock(board, token: str, onto: str, set_right: bool, restart: bool = False) -> None:
    """The hand pushes ``token`` onto ``onto`` (0.03 s), held there 0.6 s, then the token is set
    back on its site; ``set_right``: ``onto`` cleared 0.4 s later, as the players do (else the
    move stands, its token turned); ``restart``: the daemon restarts while the token is in the
    hand (set back 0.1 s after)."""
    board.lift(token), board.run(30), board.place(onto), board.run(600)
    board.settle()
    if restart:
        board.restart()
        board.run(100)
    board.place(token)
    if set_right:
        board.run(400), board.lift(onto)
    board.settle()
    board.run(2500)
    board.settle()


@pytest.mark.parametrize("set_right", [True, False])
def test_antipode_a_knock_that_equals_a_move_against_the_computer_is_answered_once_clear(set_right):
    """The computer (Blue) opens e2:e2; Red's hand pushes a5 onto a4, which equals Red's a4:a5
    with a5 turned. Set right at once, the move is dropped unsaid and the computer never
    answered it (before, its answer was lit for a move nobody made); the token set back and a4
    kept, the board waits ``takeback_ms``, then the move is said and the computer answers it."""
    from testbed.board_under_test import BoardUnderTest
    from testbed.robot import Robot

    board = BoardUnderTest(Game.of("antipode", None, "standard"), computer="blue")
    try:
        Robot(board, random.Random(1), kinds=()).follow()  # e2:e2 carried out
        token, onto, move = _knock_on(board.position())
        begun = len(board.events)
        _knock(board, token, onto, set_right)
        events = board.events[begun:]
        if set_right:
            assert "move" not in kinds(events) and "takeback" not in kinds(events)
            assert "expect" not in kinds(events)
            assert said(events, f"{token} knocked off") and board.held() == ("e2:e2",)
            assert "Red to move" in board.screen()
        else:
            assert moves(events) == [move] and "takeback" not in kinds(events)
            assert "expect" in kinds(after(events, "move"))
            assert board.held()[:2] == ("e2:e2", move)
    finally:
        board.close()


@pytest.mark.parametrize("set_right", [True, False])
def test_antipode_a_knock_against_the_computer_across_a_restart_is_answered_once_or_never(set_right):
    """As above, but the daemon restarts while the token is still in the hand (the move in
    doubt, unsaid, unanswered). The doubt goes on: the token set back and the knock set right,
    the move is dropped and the computer never answers it; a4 kept, the move is said once and
    answered once (before, it was never said)."""
    from testbed.board_under_test import BoardUnderTest
    from testbed.robot import Robot

    board = BoardUnderTest(Game.of("antipode", None, "standard"), computer="blue")
    try:
        Robot(board, random.Random(1), kinds=()).follow()  # e2:e2 carried out
        token, onto, move = _knock_on(board.position())
        _knock(board, token, onto, set_right, restart=True)
        assert "takeback" not in kinds(board.events)
        if set_right:
            assert moves(board.events) == ["e2:e2"] and board.held() == ("e2:e2",)
            assert "expect" not in kinds(board.events[board.restarts[-1] :])
        else:
            assert moves(board.events) == ["e2:e2", move] and board.held()[:2] == ("e2:e2", move)
            assert kinds(board.events).count("expect") == 2  # e2:e2, then the answer, once
    finally:
        board.close()


def test_antipode_a_knock_that_equals_a_move_on_paired_boards_never_reaches_the_other_board():
    """Paired Antipode: Blue's players (t1) open; at t2 Red's hand knocks a token onto its
    neighbour, which equals a legal move of Red's, and sets it right at once. t2 drops the move
    ("... knocked off"), t1 never lights it, and both boards hold Blue's move alone."""
    from testbed.pair import Pair

    pair = Pair(Game.of("antipode", None, "standard"), random.Random(5), kinds=())
    try:
        pair.act("move")
        t1, t2 = pair.boards
        token, onto, move = _knock_on(t2.position())
        begun = len(t1.events), len(t2.events)
        _knock(t2, token, onto, set_right=True)
        assert pair._until(pair.link.idle)
        t1.run(1000)
        assert not {"move", "takeback"} & set(kinds(t2.events[begun[1] :]))
        assert said(t2.events[begun[1] :], f"{token} knocked off")
        assert "expect" not in kinds(t1.events[begun[0] :]) and not said(t1.events[begun[0] :], move)
        assert t1.held() == t2.held() and len(t1.held()) == 1
    finally:
        pair.close()


@pytest.mark.parametrize("set_right", [True, False])
def test_antipode_a_knock_on_paired_boards_across_a_restart_reaches_the_other_board_once(set_right):
    """Paired Antipode: Blue's players (t1) open; at t2 Red's hand knocks a token onto its
    neighbour (a legal move of Red's, in doubt) and t2's daemon restarts with the token still
    in the hand. Set right, the move never reaches t1; the token set back and the neighbour
    kept, t2 says the move once and t1 lights it once."""
    from testbed.pair import Pair

    pair = Pair(Game.of("antipode", None, "standard"), random.Random(5), kinds=())
    try:
        pair.act("move")
        t1, t2 = pair.boards
        token, onto, move = _knock_on(t2.position())
        begun, ours = len(t1.events), len(t2.events)
        _knock(t2, token, onto, set_right, restart=True)
        assert pair._until(pair.link.idle)
        t1.run(1000)
        lit = [e for e in t1.events[begun:] if e["event"] == "expect"]
        assert "takeback" not in kinds(t2.events)
        if set_right:
            assert lit == [] and moves(t2.events[ours:]) == [] and len(t2.held()) == 1
        else:
            assert [e["move"] for e in lit] == [move] and moves(t2.events[ours:]) == [move]
            pair.robots[0].follow()  # t1's players carry it out
        assert t1.held() == t2.held()
    finally:
        pair.close()


def test_the_docs_print_the_doubt_table():
    """docs/daemon.md shows where the board is in doubt as ``doubt.DOUBTS`` says."""
    from pathlib import Path

    from firmware_host.board import doubt

    docs = Path(__file__).resolve().parents[2] / "docs" / "daemon.md"
    assert doubt.table() in docs.read_text(), (
        "run: python -m firmware_host.board.doubt, paste into docs/daemon.md"
    )


# ------------------------------------------------------------ a set-back deeper than the last turn
def test_antipalos_two_moves_set_back_then_one_put_down_again_takes_back_one():
    """Antipalos, two players at one board: B2*, C1*, A3* played. A3* and C1* are lifted (the
    pieces stand as after B2* alone); 0.6 s later C1* is set down again (a slip of the second
    hand). The board waited ("Taking back 2 moves soon, or set it as it was"), so only
    A3* is taken back, once its lift has stood for ``takeback_ms``; left off, both are."""
    stream = Stream().move((), ["B2*"]).move((), ["C1*"]).move((), ["A3*"])
    stream.lift("A3*", "C1*").wait(600).place("C1*").settle().wait(2000).settle()
    events = run(stream.text(), "antipalos", 3)
    assert said(events, "Taking back 2 moves soon, or set it as it was")
    assert of(events, "takeback") == [{"move": "A3*"}] and events[-1]["moves"] == ["B2*", "C1*"]
    stream = Stream().move((), ["B2*"]).move((), ["C1*"]).move((), ["A3*"])
    stream.lift("A3*", "C1*").settle().wait(2000).settle()
    events = run(stream.text(), "antipalos", 3)
    assert of(events, "takeback") == [{"move": "A3*"}, {"move": "C1*"}] and events[-1]["moves"] == ["B2*"]


#: Antipode positions where a token knocked onto its neighbour equals a placement there with
#: several landings to tap: (the moves before, the token, the neighbour, whether the placed
#: token is itself a landing: its lift may then be that tap under way).
KNOCKS_WITH_LANDINGS = {
    "placed_token_no_landing": (
        ["b1:a1", "e5:e5", "h8:e1", "e6:e9", "e2:b1", "g3:i9", "c6:e1", "f2:e9"],
        "e2",
        "d2",
        False,
    ),
    "placed_token_a_landing": (
        ["e3:e3", "e5:e5", "f9:e1", "b6:a1", "i7:e3", "a4:e5", "a3:i7", "e2:a1", "f7:i9", "d2:e1"],
        "e5",
        "d4",
        True,
    ),
}


@pytest.mark.parametrize("order", ["token_first", "piece_first"])
@pytest.mark.parametrize("case", sorted(KNOCKS_WITH_LANDINGS))
def test_antipode_a_knock_read_as_a_placement_with_landings_to_tap_set_right_leaves_no_move(case, order):
    """Blue's hand pushes a token onto its empty neighbour: the board reads a placement there
    with that token turned and asks for the landing among several. Blue sets it right (the
    token back and the neighbour cleared, in either order): no move is recorded and nothing is
    asked (before, the board kept asking for the landing and took Blue's next touch as one, or
    counted the token's return as a flip of Blue's next move). When the placed token is itself
    a landing, its lift may be that tap: the board says it waits, then drops the move."""
    before, token, onto, landing = KNOCKS_WITH_LANDINGS[case]
    stream = Stream().switch(token, False).switch(onto, True, after=30).wait(600).settle()
    if order == "token_first":
        stream.place(token).lift(onto, after=300)
    else:
        stream.lift(onto).place(token, after=300)
    stream.settle().wait(2000).settle()
    events = _antipode(stream, before)
    assert of(events, "guide")[-1]["action"] == "pick"  # read as the placement, landing asked
    assert moves(events) == [] and events[-1]["moves"] == before
    assert said(events, f"{token} knocked off")
    assert said(events, "Knock set right? Set it back to keep the move") == landing
    stream.place(onto).settle()  # Blue now places there for real: the token is still to turn
    flips = [g for g in of(_antipode(stream, before), "guide") if g == {"action": "flip", "sites": [token]}]
    assert len(flips) == 2  # asked of the knock read as the move, then of the move


def test_antipode_a_move_followed_after_a_neighbour_was_knocked_is_taken_back_in_full():
    """Antipode (rulebook): Red places b2 and its hand knocks f2 off; the board asks for the
    landing, Red taps e9, turns a1, c2 and e6 as asked; f2 left off is pointed out and put
    back. Then Red regrets b2:e9 and lifts b2: that is a takeback of a move the players made
    (they turned its tokens), not a knock set right: the board asks to turn a1, c2 and e6
    back (before, it said "f2 knocked off" and left the three tokens on the wrong face)."""
    before = [
        "h4:i5",
        "d8:d8",
        "i6:a5",
        "d4:e9",
        "c2:i5",
        "f2:e1",
        "f4:i9",
        "d5:f2",
        "h6:d4",
        "e6:e1",
        "c6:f4",
    ]
    stream = Stream().place("b2").lift("f2", after=50).settle()
    stream.lift("e9").wait(100).place("e9").settle()
    stream.lift("a1", "c2").wait(300).place("a1", "c2").settle()
    stream.lift("e6").wait(300).place("e6").settle().wait(3500).settle()
    stream.place("f2").settle().lift("b2").settle().wait(2000).settle()
    head = {"setup": "start", "game": "antipode", "variant": "rulebook", "moves": before}
    events = run([json.dumps(head)] + stream.text().splitlines(), "antipode")
    assert moves(events) == ["b2:e9"] and of(events, "takeback") == [{"move": "b2:e9"}]
    assert not said(events, "knocked off")
    assert of(after(events, "takeback"), "guide")[0] == {"action": "flip", "sites": ["a1", "c2", "e6"]}


@pytest.mark.parametrize("turned", ["before", "after"])
def test_paired_a_takeback_by_hand_refused_asks_to_turn_the_tokens_back_again(turned):
    """Paired Antipode: Blue (t1) e7:e7, Red (t2) b6:a5, Blue d8:e1. Red's players regret
    b6:a5 and set it back by hand: b6 and d8 off, e9 and a5 turned back (``before`` Blue's
    answer comes, or ``after``). Blue's players say no. t2 guides b6 and d8 back, then asks to
    turn e9 and a5 over again (before, it went on with the two tokens on the wrong face); once
    turned, Red is to move with the game as it was."""
    from testbed.pair import Pair

    pair = Pair(Game.of("antipode", None, "standard"), random.Random(5), kinds=())
    try:
        for _ in range(3):
            pair.act("move")
        t1, t2 = pair.boards
        assert t2.held() == ("e7:e7", "b6:a5", "d8:e1")
        begun = len(t2.events)
        for site in ("d8", "b6"):
            t2.lift(site), t2.run(150)
        t2.settle()
        for site in ("e9", "a5") if turned == "before" else ():
            t2.lift(site), t2.run(300), t2.place(site), t2.run(200)
        t2.settle()
        assert pair._until(lambda: "Take back?" in t1.screen())
        t1.press("back")
        assert pair._until(pair.link.idle)
        t2.run(2000), t2.settle()
        for site in ("e9", "a5") if turned == "after" else ():
            t2.lift(site), t2.run(300), t2.place(site), t2.run(200)
        t2.settle()
        t2.place("d8"), t2.run(150), t2.place("b6")
        t2.settle()
        events = t2.events[begun:]
        assert said(events, "The opponent refused the take back")
        assert of(events, "guide")[-1] == {"action": "flip", "sites": ["a5", "e9"]}
        for site in ("a5", "e9"):
            t2.lift(site), t2.run(300), t2.place(site), t2.run(200)
        t2.settle()
        assert "Red to move" in t2.screen() and not any("Flip" in line for line in t2.screen())
        assert t1.held() == t2.held() == ("e7:e7", "b6:a5", "d8:e1")
    finally:
        pair.close()


@pytest.mark.parametrize("set_down", [True, False])
def test_antipode_two_moves_set_back_while_a_flip_is_still_asked_waits_before_taking_back_two(set_down):
    """Blue e3:e3, Red a4:a5; the board asks Red to turn a5. Before that, Red lifts a4 and,
    with the other hand, e3 (the pieces stand as at the start). 0.6 s later e3 is set down again
    (a slip of the second hand): only a4:a5 is taken back, once its lift has stood for
    ``takeback_ms`` (before, both were at once, and e3 set down was recorded as a new move).
    Left off, both are taken back after the wait."""
    stream = Stream().place("e3").settle().place("a4").settle().lift("a4", "e3").wait(600)
    if set_down:
        stream.place("e3")
    stream.settle().wait(2000).settle()
    events = run(stream.text(), "antipode", None, "standard")
    assert moves(events) == ["e3:e3", "a4:a5"] and said(events, "Taking back 2 moves soon")
    if set_down:
        assert of(events, "takeback") == [{"move": "a4:a5"}] and events[-1]["moves"] == ["e3:e3"]
    else:
        assert of(events, "takeback") == [{"move": "a4:a5"}, {"move": "e3:e3"}] and events[-1]["moves"] == []


def test_antipode_a_placement_after_a_knock_set_right_is_no_turn_of_the_placed_token():
    """Antipode (no-repetition-draw): Red's hand pushes e5 onto d4 (read as a placement on d4,
    its landing to tap), sets it right (d4 off, e5 back) and the board drops it. Red then places
    d4 for real, turns e5 and taps a1: d4:a1, whose flips turn d4 and e5 again. The board asks
    for both (before, d4 lifted in the knock and set down for the move counted as its turn,
    and the token was left on the wrong face)."""
    before = ["e3:e3", "e5:e5", "f5:e1", "f4:i5", "d5:e5", "h9:i9", "c1:d5"]
    stream = Stream().switch("e5", False).switch("d4", True, after=30).wait(1000).settle()
    stream.lift("d4").place("e5", after=270).settle().wait(2500).settle()
    stream.place("d4").settle().lift("e5").wait(800).place("e5").settle()
    stream.lift("a1").wait(300).place("a1").settle()
    head = {"setup": "start", "game": "antipode", "variant": "no-repetition-draw", "moves": before}
    events = run([json.dumps(head)] + stream.text().splitlines(), "antipode")
    assert said(events, "No move d4:a1: e5 knocked off") and moves(events) == ["d4:a1"]
    assert of(after(events, "move"), "guide") == [{"action": "flip", "sites": ["d4", "e5"]}]
