"""What the player robot (testbed/robot.py, bench/robot.py) found beyond issue 34's list:
one small stream each (tests/board/streams/robot_*.jsonl), written the way the robot met it,
and what a player following the board expects (each failed on the controller before the phase
model). Streams with a restart are replayed through the board under test.
"""

from __future__ import annotations

import pytest

from firmware_host.board.game import Game
from firmware_host.store.config import Config, OpponentConfig
from firmware_host.store.players import League
from testbed.board_under_test import BoardUnderTest
from testbed.streams import STREAMS, Stream, after, board_after, kinds, moves, of, run_file, said


def test_a_capture_taken_back_from_the_menu_ends_before_it():
    """Anti-Grid: a3-e3 captures e2 (lifted as lit); MENU -> Take back; the player puts back what
    is lit. The board guides the capturing pawn back too and never records the capture again."""
    events = run_file("robot_antigrid_takeback_of_a_capture.jsonl", "anti-grid", 6)
    rest = after(events, "takeback")
    (first, *_) = of(rest, "out_of_sync")
    assert (set(first["missing"]), set(first["extra"])) == ({"a3", "e2"}, {"e3"})
    assert moves(rest) == [] and events[-1]["moves"] == ["a9-c9", "l2-e2"]


def test_antipode_a_placement_tapped_at_once_keeps_the_move():
    """c1 placed (c1:c1, no flips: recorded at once), then tapped, the token held 0.55 s, to say
    the pawn lands there: the move stays."""
    events = run_file("robot_antipode_placement_tapped_at_once.jsonl", "antipode")
    assert "takeback" not in kinds(events)
    assert events[-1]["moves"] == ["c1:c1"]


def test_the_computer_chosen_from_the_menu_plays_on_after_a_restart():
    """Anti-Grid: MENU -> Players -> Computer: blue; Red c1-c3, the computer's answer carried
    out; the daemon restarts; Red moves again: the computer answers."""
    board = BoardUnderTest.replay((STREAMS / "robot_restart_forgets_the_computer.jsonl").read_text())
    try:
        assert board.held()[-1] == "e1-e9"
        assert board.computer() == "blue"
        assert kinds(board.events)[-1] == "expect"
    finally:
        board.close()


def test_antipode_taking_back_the_computers_first_move_lets_it_play_again():
    """Antipode against the computer (Blue, who begins): its first move carried out, MENU ->
    Take back, the token lifted as lit and the pawn carried back as the OLED says."""
    config = Config(opponent=OpponentConfig("computer", "blue", 1))
    events = run_file("robot_antipode_takeback_of_the_computers_move_stalls.jsonl", "antipode", config=config)
    assert "expect" in kinds(after(events, "takeback"))


def test_antipode_a_restart_during_a_takeback_still_asks_to_turn_the_tokens_back():
    """Antipode b1:a1 made in full; MENU -> Take back lights a1 to turn back and b1 to take off;
    the daemon restarts before anything is done."""
    text = (STREAMS / "robot_antipode_restart_during_a_takebacks_flips.jsonl").read_text()
    board = BoardUnderTest.replay(text)
    try:
        assert board.lit().get("a1") == "flip"
    finally:
        board.close()


def test_antipalos_a_phase_two_correction_by_lifting_is_a_correction():
    """Antipalos 3, Phase Two: Black moves *B3 - *C2, then lifts that Trirod for 0.4 s and sets
    it down on C2* instead (a change of mind before White begins)."""
    events = run_file(
        "robot_antipalos_phase_two_correction_takes_back_five_moves.jsonl", "antipalos", 3, "two"
    )
    assert "takeback" not in kinds(events)
    assert of(events, "correction") == [{"move": "*B3 - C2*", "replaces": "*B3 - *C2", "side": "black"}]


def test_antipalos_cut_throat_a_knock_as_the_move_lands_is_pointed_out_then_the_move_counts():
    """Antipalos 3, Cut-throat 4, the computer White, Phase Two: the computer's B2* - *B3 is
    carried out; Black lifts A3* and sets it on B2*, knocking the computer's *B3 off as it
    lands. The pieces also go towards the position before Black's last turn (a takeback by hand
    may be under way), so the board waits, quiet ("Taking back? Set the rest back"), then
    names *B3; put back, it is Black's A3* - B2* once the doubt has passed, nothing taken back."""
    text = (STREAMS / "robot_antipalos_cut_throat_knock_as_the_move_lands.jsonl").read_text()
    board = BoardUnderTest.replay(text)
    try:
        assert board.held()[-1] == "B2* - *B3" and board.lit() == {}
        assert "Taking back? Set the rest back" in board.screen()
        board.run(1500)  # takeback_ms
        assert board.lit() == {"*B3": "missing"} and "Put *B3 back" in board.screen()
        board.place("*B3")
        board.run(2500)
        assert board.held()[-2:] == ("B2* - *B3", "A3* - B2*")
        assert "takeback" not in kinds(board.events)
    finally:
        board.close()


def test_a_restart_before_the_computers_winning_move_is_carried_out_still_asks_for_it():
    """Antipod 4 against the computer (Black): its winning move c8 is recorded, and the daemon
    restarts before c8 is set on the board. The board asks for c8 first; the win is shown once
    it stands (before, the game was over at once and c8 never asked for)."""
    text = (STREAMS / "robot_antipod_restart_before_the_computers_winning_move.jsonl").read_text()
    board = BoardUnderTest.replay(text)
    try:
        assert board.lit() == {"c8": "missing"} and "game_over" not in kinds(board.events[-3:])
        board.place("c8")
        board.run(2000)
        over = of(board.events, "game_over")[-1]
        assert over["winner"] == "black" and "c8" in over["sites"]
        assert "Set up to play again" in board.screen()
    finally:
        board.close()


def test_antipode_a_token_lifted_again_as_the_move_is_read_is_asked_back_in_the_next_turn():
    """Antipode: a1 turned early for a2:e1, then lifted again (a second hand) just as the
    placement is read. The move is recorded; Red's turn begins with a1 off the board: it is
    said to be in the hand, then pointed out (before, nothing was said at all)."""
    text = (STREAMS / "robot_antipode_token_lifted_again_as_the_move_is_read.jsonl").read_text()
    board = BoardUnderTest.replay(text)
    try:
        assert board.held()[-1] == "a2:e1" and "a1 in the hand" in board.screen()
        board.run(3500)
        assert board.lit().get("a1") == "missing" and "Put a1 back" in board.screen()
    finally:
        board.close()


def test_antipode_a_token_knocked_off_where_a_pawn_is_still_to_carry_is_put_back_not_tapped():
    """Antipode against the computer (Red): MENU -> Take back leaves the blue pawn to carry from
    e1 back to h4 (then OK). The player starts the next move instead: g6 placed, e1 knocked off
    on the way. The board asks e1 back; its return is only that, never the pawn's landing:
    the landing is still asked (before, e1 was lit as missing yet its return counted as a tap,
    and g6:e1 was recorded though the player meant g6:i5)."""
    text = (STREAMS / "robot_antipode_token_knocked_at_a_pawn_still_to_carry.jsonl").read_text()
    board = BoardUnderTest.replay(text, computer="red")
    try:
        assert {"missing": ["e1"], "extra": []} in of(board.events, "out_of_sync")
        assert not any(move.startswith("g6") for move in board.held())
        assert of(board.events, "guide")[-1] == {"action": "pick", "sites": ["e1", "i5"]}
    finally:
        board.close()


def test_antipode_a_flip_made_early_while_a_pawn_is_still_to_carry_is_not_asked_back():
    """Antipode: Red's e8:e8 taken back by a command; e8 taken off, the red pawn still to carry
    back to e9 (then OK). Red begins its next move by turning a5, which Red's moves turn over:
    it is a flip under way, kept for Red's turn, never "Put a5 back" (the robot obeyed that and
    then turned a5 a second time when the move asked for its flip)."""
    board = BoardUnderTest(Game.of("antipode", None, "standard"))
    try:
        board.run(1000)
        for site in ("c1", "e8"):  # placed, then tapped: the pawn lands on it
            board.place(site)
            board.run(400)
            board.lift(site)
            board.run(150)
            board.place(site)
            board.run(1500)
        board.command("takeback")
        board.run(500)
        board.lift("e8")
        board.run(1500)
        assert "Red pawn: e8 back to e9, then OK" in board.screen()
        start = len(board.events)
        board.lift("a5")
        board.run(600)
        board.place("a5")
        board.run(1500)
        assert "out_of_sync" not in kinds(board.events[start:])
        assert [t.site for t in board.controller.phase.touched] == ["a5"]
    finally:
        board.close()


@pytest.mark.parametrize(
    "name, last, site",
    [
        ("robot_antipode_token_knocked_before_a_landing_tap.jsonl", "c6:a5", "b2"),
        ("robot_antipode_token_knocked_before_a_landing_chosen_by_ok.jsonl", "a2:i9", "h4"),
    ],
)
def test_antipode_a_token_knocked_off_before_the_landing_is_chosen_is_asked_back_next_turn(name, last, site):
    """Antipode: a placement knocks a token off on the way; the board offers the landings and
    one is chosen, by a tap (recorded as the tap lands) or by BACK and OK. The next turn begins
    with the token off: it is said to be in the hand, then pointed out (before, the board said
    nothing and the token stayed off)."""
    board = BoardUnderTest.replay((STREAMS / name).read_text())
    try:
        assert board.held()[-1] == last and f"{site} in the hand" in board.screen()
        board.run(3500)
        assert board.lit().get(site) == "missing" and f"Put {site} back" in board.screen()
    finally:
        board.close()


def test_a_token_lifted_and_set_back_while_the_board_is_restored_is_no_flip_of_the_next_move():
    """Antipode: a new game begins with c1 to take off; meanwhile a1 is lifted and set back.
    Blue's a2:a1 must turn a1 over: the board asks for that flip (before, the touch made while
    clearing counted as it: "Flip of a1 counted", and a player obeying the board turned nothing)."""
    board = BoardUnderTest(Game.of("antipode", None, "standard"))
    try:
        board.place("c1")
        board.settle()
        assert "New game: take c1 off" in board.screen()
        board.lift("a1")
        board.run(500)
        board.place("a1")
        board.run(100)
        board.lift("c1")  # the position as it should be: the game begins
        board.settle()
        board.place("a2")
        board.settle()
        assert board.held() == ("a2:a1",) and "Flip a1" in board.screen()
    finally:
        board.close()


def test_phalanx_moving_on_after_the_computer_took_off_the_resting_piece_corrects_the_move():
    """Phalanx against the computer (Red, chosen from the page; the daemon restarts while its
    first move is lit): Green's a6ne slides along the sixth row and rests on c6ne, where it
    would self-phalanx; the board records a6ne-c6ne and lights the computer's removal of it
    (xc6ne). The player lifts it, as lit, and sets it down on e6ne, where it was going: the
    removal is dropped and the move corrected to a6ne-e6ne, and the computer answers that
    (before, e6ne was a piece to take off and the player's move was lost)."""
    board = BoardUnderTest.replay(
        (STREAMS / "robot_phalanx_move_on_after_the_computer_removed_the_resting_piece.jsonl").read_text()
    )
    try:
        (last, *_) = of(board.events, "correction")[::-1]
        assert last == {"move": "a6ne-e6ne", "replaces": "a6ne-c6ne", "side": "green"}
        assert board.held()[-1] == "a6ne-e6ne" and "xc6ne" not in board.held()
        assert kinds(board.events)[-1] == "expect" and board.computer() == "red"
    finally:
        board.close()


def test_antipode_the_computers_pawn_move_is_said_when_nothing_on_the_board_shows_it():
    """Antipode against the computer (Blue), the pool empty: the computer's :a3 moves only its
    pawn, which no sensor sees, so it is recorded at once; the OLED still says it ("blue pawn
    to a3"), beside the token to turn over (before, only "Flip a2" was shown, and the players
    never heard where the pawn went)."""
    stream = STREAMS / "robot_antipode_the_computers_pawn_move_is_said.jsonl"
    board = BoardUnderTest.replay(stream.read_text())
    try:
        (at,) = [e["t"] for e in board.events if e["event"] == "move" and e["move"] == ":a3"]
        shown = [e for e in board.events if e["event"] == "display" and e["t"] == at]
        assert said(shown, "Computer plays :a3: blue pawn to a3") and said(shown, "Flip a2")
    finally:
        board.close()


def _league_round(stream: Stream, names: list[str], restarts: int, game: dict | None = None) -> Stream:
    """The café sends a league round (the ``table`` command, of ``game``) amid play; each player
    presses OK when named; the daemon restarts ``restarts`` times once all have, and they press
    OK again."""
    round_ = {"event": "Robot league", "round": 656, "table": 52, "control": "-"}
    stream.lines.append(
        {"t": stream.t, "command": "table", "names": names, **(game or LEAGUE_GAME), **round_}
    )
    for i in range(restarts + 1):
        if i:
            stream.restart(after=600)
        for _ in names:
            stream.press("ok", after=600)
    return stream.settle()


LEAGUE_GAME = {"game": "antipalos", "size": 3, "variant": "cut-throat-3"}


def test_antipalos_a_league_round_sent_amid_play_begins_once_its_players_clear_the_board():
    """Antipalos 3, Cut-throat 3: three Trirods placed (*A3, C1*, then *B2 moved on to *B1, "Corrected
    to *B1") when the café sends a league round to the table (Hélène, Ben, Gus). Each presses
    OK as named; the lights ask the old game's pieces off, in the round's words ("New game:
    take *B1, C1*, *A3 off"), and nothing of the old game is said (its "Corrected to *B1" was
    still shown). The daemon restarts three times before anyone lifts them: the round has no
    move yet, so each time the board asks the three OKs again (docs/daemon.md) and then the
    same pieces off. The players lift them: the round's game begins, nothing lit, Hélène named
    to move, no OK asked, nothing recorded (the robot found this as "stuck": its own restarts
    had used up its patience)."""
    names = ["Hélène", "Ben", "Gus"]
    played = Stream().place("*A3").settle().place("C1*").settle().place("*B2").settle()
    played.lift("*B2").place("*B1").settle()
    board = board_after(_league_round(Stream(lines=list(played.lines), t=played.t), names, 0), **LEAGUE_GAME)
    try:
        assert set(board.lit()) == {"*A3", "C1*", "*B1"} and set(board.lit().values()) == {"remove"}
        assert "New game: take *B1, C1*, *A3 off" in board.screen()
        assert not any(line.startswith("Corrected") for line in board.screen())
    finally:
        board.close()
    asked = _league_round(played, names, restarts=3)
    board = board_after(asked, **LEAGUE_GAME)
    try:
        assert set(board.lit()) == {"*A3", "C1*", "*B1"} and set(board.lit().values()) == {"remove"}
        assert "Take *B1, C1*, *A3 off" in board.screen() and not board.held()
    finally:
        board.close()
    board = board_after(asked.lift("C1*", "*A3", "*B1").settle(), **LEAGUE_GAME)
    try:
        assert board.lit() == {} and board.held() == () and board.occupied() == frozenset()
        assert "Hélène to move" in board.screen()
        assert not any(line.endswith("press OK") for line in board.screen())
        assert board.seated() == (tuple(names), League("Robot league", 656, 52))
    finally:
        board.close()


def test_antipode_a_league_round_keeps_the_tables_name_in_view_beside_the_start_faces():
    """Antipode, c1 placed, then a league round sent to the table (Chloé, Hélène): while the
    board asks the OKs and the pieces off, the OLED keeps the round's title whole (the robot
    found it pushed to a second page and cut, "Table 951: Chloé", by the start's faces); the
    faces to set up ("Blue face up: ...") come once nothing else is asked."""
    game = {"game": "antipode", "size": None, "variant": "standard"}
    round_ = {"event": "Robot league", "round": 970, "table": 951, "control": "-"}
    played = Stream().place("c1").settle()
    played.lines.append({"t": played.t, "command": "table", "names": ["Chloé", "Hélène"], **game, **round_})
    board = board_after(played.press("ok", after=600).settle(), "antipode")
    try:
        assert board.screen()[:3] == (
            "Table 951: Chloé – Hélène",
            "Hélène: press OK",
            "New game: take c1 off",
        )
        assert not any("face up" in line for line in board.screen())
    finally:
        board.close()
    board = board_after(played.lift("c1").settle(), "antipode")
    try:
        screen = board.screen()
        assert screen[:2] == ("Table 951: Chloé – Hélène", "Hélène: press OK"), screen
        assert "Blue face up: a5 e1 i9" in screen and "Red face up: a1 e9 i5" in screen
    finally:
        board.close()
    board = board_after(played.press("ok", after=600).settle(), "antipode")
    try:
        screen = board.screen()
        assert "Chloé to move" in screen and "Blue face up: a5 e1 i9" in screen, screen
        assert not any(line.endswith("press OK") for line in screen)
    finally:
        board.close()
