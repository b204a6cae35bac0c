"""Every defect players hit at the board (issue 34's list), as a recorded stream
(tests/board/streams/defect_*.jsonl) and what the player expects to see: the events, the
record, the OLED's words.

Each was reproduced on the controller as it stood when the issue was filed (where all but two
failed) and passes on the phase model that replaced it. Streams with robot-only lines (a
``command`` the page sends) are replayed through the board under test (testbed/board_under_test.py),
the others through ``reedboard replay``.
"""

from __future__ import annotations

import random

import pytest

from engines import new_game
from firmware_host.board.controller import Game
from firmware_host.board.view import SET_BACK
from firmware_host.store.config import Config, OpponentConfig
from testbed.board_under_test import BoardUnderTest
from testbed.pair import Pair
from testbed.streams import STREAMS, after, kinds, moves, of, run_file, said

GAMES = {
    "antipalos": (3, "two"),
    "antipode": (None, "standard"),
    "antipod": (4, None),
    "anti-grid": (6, "plain"),
    "phalanx": (None, None),
}


def computer(side: str) -> Config:
    return Config(opponent=OpponentConfig("computer", side, 1))


def replay(name: str, game: str, side: str | None = None):
    size, variant = GAMES[game]
    return run_file(name, game, size, variant, computer(side) if side else None)


# ------------------------------------------------------------ takeback against the computer
def test_takeback_against_the_computer_in_anti_grid_guides_both_pieces_back():
    """Red c1-c3, the computer's l4-d4 carried out, MENU -> Take back; the player puts the
    computer's piece back, then the own pawn."""
    events = replay("defect_antigrid_computer_takeback.jsonl", "anti-grid", "blue")
    assert of(events, "takeback") == [{"move": "l4-d4"}, {"move": "c1-c3"}]
    (first, *_) = of(after(events, "takeback"), "out_of_sync")
    assert {"c1", "l4"} <= set(first["missing"]) and {"c3", "d4"} <= set(first["extra"])
    assert moves(after(events, "takeback")) == [] and "expect" not in kinds(after(events, "takeback"))
    assert events[-1]["moves"] == []


def test_takeback_against_the_computer_in_antipalos_clears_in_the_order_lit():
    """White B2*, the computer's *C3 placed, MENU -> Take back: the two lit Trirods lifted in
    the order the board lists them."""
    events = replay("defect_antipalos_computer_takeback.jsonl", "antipalos", "black")
    rest = after(events, "takeback")
    assert moves(rest) == [] and "expect" not in kinds(rest)
    assert not said(rest[-3:], "Board differs")
    assert events[-1]["moves"] == []


# ------------------------------------------------------------ Antipode in the player's order
def test_antipode_a_placement_tapped_at_once_is_the_landing():
    """b1 placed and tapped at once (the pawn lands on it), then the lit neighbour a1 flipped:
    b1:b1, without asking for the landing again."""
    events = replay("defect_antipode_place_then_tap.jsonl", "antipode")
    assert moves(events) == ["b1:b1"]
    assert not said(events, "Tap the token your pawn lands on")


def test_antipode_the_landing_tapped_before_placing_counts():
    """Blue moves the pawn to e3 and taps it first, then places a3 (no flips): a3:e3."""
    events = replay("defect_antipode_tap_landing_first.jsonl", "antipode")
    assert moves(events) == ["a3:e3"]
    assert not said(events, "BACK/OK: a3:a3")


def test_antipode_a_flip_just_before_the_placement_counts():
    """One hand turns a1 over, the other sets b1 down 60 ms later; then b1 tapped as the landing."""
    events = replay("defect_antipode_flip_before_placing.jsonl", "antipode")
    assert {"action": "flip", "sites": ["a1"]} not in of(events, "guide")
    assert moves(events) == ["b1:b1"]


def test_antipode_a_token_held_while_turned_is_a_flip_in_progress():
    """a1 lifted to be turned, b1 placed meanwhile, a1 held 0.7 s then set down; b1 tapped."""
    events = replay("defect_antipode_token_held_while_turned.jsonl", "antipode")
    assert not said(events, "Put a1 back") and "out_of_sync" not in kinds(events)
    assert moves(events) == ["b1:b1"]


def test_antipode_the_next_player_starting_before_ok_is_not_stuck():
    """Blue placed b1 and flipped a1; the landing is offered (OK: b1:a1) when Red places h9:
    Blue's turn is taken as offered and Red's begins, nothing is refused."""
    events = replay("defect_antipode_next_player_before_ok.jsonl", "antipode")
    assert moves(events)[:1] == ["b1:a1"]
    assert not said(events, "Take h9 off") and "out_of_sync" not in kinds(events)


def test_antipode_a_flip_just_after_ok_keeps_the_turn():
    """b1:a1 recorded, its path flip b1 lit: OK, and b1 turned over by lifting just after."""
    events = replay("defect_antipode_flip_just_after_ok.jsonl", "antipode")
    assert "takeback" not in kinds(events)
    assert events[-1]["moves"] == ["b1:a1"]


# ------------------------------------------------------------ the board's own guidance
def test_new_game_clearing_as_listed_is_no_move():
    """A won game; MENU -> New game; the seven pieces lifted one by one as the board lists them."""
    events = replay("defect_antipalos_new_game_clearing.jsonl", "antipalos")
    assert moves(after(events, "new_game")) == []
    assert events[-1]["moves"] == []


def test_anti_grid_takeback_pieces_set_back_in_the_other_order():
    """c1-c3, MENU -> Take back; c3 lifted first, then the pawn put back on c1."""
    events = replay("defect_antigrid_takeback_lift_first.jsonl", "anti-grid")
    rest = after(events, "takeback")
    assert "targets" not in kinds(rest) and not said(rest, "Put it on a lit site")
    assert said(rest, "Put c1 back")
    assert events[-1]["moves"] == []


def test_phalanx_one_triangle_of_a_piece_to_remove_asks_for_the_rest():
    """Green a1se-g7se self-phalanxes; Red lifts the Archer a triangle at a time."""
    events = replay("defect_phalanx_one_triangle.jsonl", "phalanx")
    assert "out_of_sync" not in kinds(events) and not said(events, "put back")
    assert len(events[-1]["moves"]) == 2


# ------------------------------------------------------------ takebacks by agreement
@pytest.mark.parametrize("game", list(GAMES))
def test_takeback_against_the_computer_ends_before_the_players_move(game):
    """The player's move, the computer's answer carried out, MENU -> Take back; then a player
    who does one thing at a time, exactly what the board lights."""
    name = f"defect_{game.replace('-', '')}_computer_takeback_one_at_a_time.jsonl"
    events = replay(name, game, new_game(game, *GAMES[game]).sides[-1])
    # both moves recorded (the computer's answer as carried out), then taken back, last first
    taken = [t["move"] for t in of(events, "takeback")]
    assert len(taken) == 2 and taken == moves(events)[1::-1]
    rest = after(events, "takeback")
    assert moves(rest) == [] and "illegal" not in kinds(rest)
    assert events[-1]["moves"] == []


def test_phalanx_the_computers_forced_removal_is_made():
    """Green a1se-g7se self-phalanxes against the computer (Red): Red's whole turn is removing
    the Archer; the player lifts it as the board asks."""
    events = replay("defect_phalanx_computer_forced_removal.jsonl", "phalanx", "red")
    assert not said(events, "Wait: the computer is thinking")
    assert len(events[-1]["moves"]) == 2


# ------------------------------------------------------------ a new game from the page
@pytest.mark.parametrize("game", list(GAMES))
def test_a_new_game_from_the_page_shows_no_warning(game):
    """Two moves, then the page's New game, which sets the start position up at once."""
    name = f"defect_{game.replace('-', '')}_new_game_from_page.jsonl"
    board = BoardUnderTest.replay((STREAMS / name).read_text())
    try:
        events = after(board.events, "new_game")
        assert "out_of_sync" not in kinds(events) and not said(events, "Board differs")
        assert board.held() == ()
    finally:
        board.close()


# ------------------------------------------------------------ a correction by lifting
def test_anti_grid_a_correction_by_lifting_shows_no_warning():
    """c1-c3, then the pawn lifted off c3 and set on c5 0.35 s later."""
    events = replay("defect_antigrid_correction_by_lifting.jsonl", "anti-grid")
    assert "out_of_sync" not in kinds(events) and not said(events, "Board differs")
    assert of(events, "correction") == [{"move": "c1-c5", "replaces": "c1-c3", "side": "red"}]


def test_antipalos_a_correction_by_lifting_is_a_correction():
    """B2*, then the Trirod lifted and set on C3* 0.35 s later."""
    events = replay("defect_antipalos_correction_by_lifting.jsonl", "antipalos")
    assert "takeback" not in kinds(events)
    assert of(events, "correction") == [{"move": "C3*", "replaces": "B2*", "side": "white"}]


# ------------------------------------------------------------ a takeback agreed between boards
@pytest.mark.parametrize("game", list(GAMES))
def test_a_takeback_agreed_between_paired_boards_ends_before_the_move_on_both(game):
    """Two boards paired (t1 plays the first side, t2 the second), a move made at each and
    carried out at the other; MENU -> Take back at t1, OK at t2; then the players at each board
    do what it lights. Both end at the position before t1's move, with the same record."""
    pair = Pair(Game.of(game, *GAMES[game]), random.Random(1), kinds=())
    t1, t2 = pair.robots
    t2.yes = 1.0
    try:
        pair.act("move")
        pair.act("move")
        pair.take_back(t1, t2, "menu")
        pair.check()
        assert t2.answered == [True]
        assert pair.boards[0].held() == pair.boards[1].held() == tuple(t1.moves) == ()
    finally:
        pair.close()


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_takeback_by_hand_the_other_board_refuses_is_set_right_and_reads_no_move(game, seed):
    """Two paired boards, a move made at each; at t1 the players set both moves back by hand,
    t2 refuses. t1 lights what to put back and take off; the players do it in any order, and
    nothing on the way is read as a move (before, a half-restored position that was a legal
    move was recorded and sent to t2)."""
    pair = Pair(Game.of(game, *GAMES[game]), random.Random(seed), kinds=())
    t1, t2 = pair.robots
    t2.yes = 0.0
    try:
        pair.act("move")
        pair.act("move")
        made = tuple(t1.moves)
        pair.take_back(t1, t2, "hands")
        pair.check()
        assert t2.answered == [False]
        assert pair.boards[0].held() == pair.boards[1].held() == made
    finally:
        pair.close()


@pytest.mark.parametrize("seed", [4, 5])
def test_a_board_restarted_after_the_paired_game_ended_begins_a_new_game_the_other_joins(seed):
    """Two paired boards play a game to its end; one board's daemon restarts: a finished game
    is not resumed, a new one begins there, and the other board joins it (before, the new game
    took the finished game's name and replayed its first move as a correction)."""
    pair = Pair(Game.of("antipalos", 3, "two"), random.Random(seed), kinds=())
    try:
        for _ in range(80):
            if pair.over():
                break
            pair.act("move")
        assert pair.over()
        before = [board.game_id() for board in pair.boards]
        pair.act("restart")
        pair.check()
        assert [board.game_id() for board in pair.boards] != before
        assert pair.boards[0].held() == pair.boards[1].held() == ()
        assert pair.boards[0].controller.record.token == pair.boards[1].controller.record.token
    finally:
        pair.close()


# ------------------------------------------------------------ a set-back begun with the own piece
def _against_the_computer_after_one_exchange() -> tuple[BoardUnderTest, dict[str, str]]:
    """Anti-Grid against the computer (Blue): Red c1-c3, the computer's answer carried out as
    lit. The board, and what the answer emptied and filled."""
    board = BoardUnderTest(Game.of("anti-grid", 6, "plain"), computer="blue")
    board.settle()
    board.lift("c1"), board.place("c3")
    board.settle()
    answer = board.lit()
    for site, kind in sorted(answer.items(), key=lambda item: item[1] != "empty"):
        board.lift(site) if kind == "empty" else board.place(site)
    board.settle()
    assert len(board.held()) == 2
    return board, answer


def test_a_takeback_by_hand_begun_with_the_own_piece_is_no_move_to_answer():
    """Red sets c3 back on c1 first (itself a legal move), then the computer's piece: the first
    half is not recorded nor answered while the board waits to see which it is; the whole
    set-back takes both moves back (before, c3-c1 was recorded, the computer answered it, and
    the takeback had three moves to undo)."""
    board, answer = _against_the_computer_after_one_exchange()
    try:
        board.lift("c3"), board.place("c1")
        board.run(600)
        assert SET_BACK in board.screen() and len(board.held()) == 2
        for site, kind in answer.items():
            board.place(site) if kind == "empty" else board.lift(site)
        board.settle()
        assert board.held() == () and kinds(board.events)[-1] != "expect"
    finally:
        board.close()


def test_the_own_last_move_reversed_is_a_move_once_the_board_stays_so():
    """Red moves c3 back to c1 as its move: after a moment it is recorded and the computer
    answers it."""
    board, _ = _against_the_computer_after_one_exchange()
    try:
        board.lift("c3"), board.place("c1")
        board.run(2000)  # the takeback time, 1.5 s
        board.settle()
        assert board.held()[2] == "c3-c1" and SET_BACK not in board.screen()
        moved = [(e["event"], e.get("move")) for e in board.events].index(("move", "c3-c1"))
        assert "expect" in kinds(board.events[moved:])  # the computer answers it
    finally:
        board.close()
