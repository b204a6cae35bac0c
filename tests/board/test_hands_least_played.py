"""What the players' hands mean, in the games and variants the other held-out streams play
least (Antipalos cut-throat for three and four, Anti-Grid's chain captures, Antipode's
variants): each case of the issue's list on positions reached by seeded random play, the
stream written as the players act, one board (what the OLED and the events should then say).
"""

from __future__ import annotations

import random

import pytest

from firmware_host.board.controller import Game
from firmware_host.board.turn import undo_steps
from testbed.board_under_test import BoardUnderTest
from testbed.robot import Robot, knocks_to_moves
from testbed.setback import apart_last, hands, set_back_newest_first, warnings
from testbed.streams import Stream, kinds, moves, of, run, said
from tests.board.test_hands_held_out import (
    VARIANTS,
    _antipode,
    _by_hand,
    _flips_the_last_placed,
    _knock_positions,
    _make,
    _plain_moves,
    _start,
)

LEAST = [
    ("antipalos", 3, "cut-throat-3"),
    ("antipalos", 4, "cut-throat-4"),
    ("anti-grid", 6, "chain"),
    ("anti-grid", 8, "chain"),
]


def _states(game: str, size, variant, played: list[str]) -> list:
    """The positions ``played`` leads through, the start first."""
    states = [_start(game, size, variant)]
    for move in played:
        states.append(states[-1].play(move))
    return states


def _real(states: list, played: list[str], i: int):
    """How move ``i`` (from the end: -1 is the last) of ``played`` was made."""
    state = states[i - 1]
    return state.realisations(state.parse_move(played[i]))[0]


# ------------------------------------------------------------ a knock while setting back
@pytest.mark.parametrize("seed", [5, 6])
@pytest.mark.parametrize("game, size, variant", LEAST)
def test_the_last_turn_set_back_with_an_earlier_piece_knocked_off_takes_back_one(game, size, variant, seed):
    """The players set their last turn back by hand; the hand knocks off a piece the turn
    before put down (in Antipalos the pieces then show the position two turns back) and sets
    it down again 0.6 s later. Only the last turn is taken back: the knock takes nothing back
    and nothing is read as a move."""
    played = _plain_moves(seed, game, size, variant)
    states = _states(game, size, variant, played)
    last, before = _real(states, played, -1), _real(states, played, -2)
    knocked = min(before.filled - last.emptied - last.filled)
    stream = _by_hand(game, size, variant, played)
    begun = stream.t
    stream.lift(*sorted(last.filled)).place(*sorted(last.emptied))
    stream.lift(knocked).settle().wait(600).place(knocked).settle().wait(2000).settle()
    events = run(stream.text(), game, size, variant)
    since = [e for e in events if e.get("t", 0) > begun]
    assert of(since, "takeback") == [{"move": played[-1]}] and moves(since) == []
    assert events[-1]["moves"] == played[:-1]


# ------------------------------------------------------------ three turns set back by hand
@pytest.mark.parametrize("pause", [0, 1000])
@pytest.mark.parametrize("seed", [7, 8])
@pytest.mark.parametrize("game, size, variant", LEAST)
def test_three_turns_set_back_by_hand_on_one_board_are_taken_back_once_settled(
    game, size, variant, seed, pause
):
    """Players at one board set their last three turns back by hand, last first (pausing
    ``pause`` ms after each, long enough for the board to settle at 1 s): the three are taken
    back, newest first, nothing is read as a move on the way and nothing is asked back."""
    played = _plain_moves(seed, game, size, variant)
    states = _states(game, size, variant, played)
    if len(played) < 3:
        pytest.skip("fewer than three moves in this game")
    stream = _by_hand(game, size, variant, played)
    begun = stream.t
    for i in (-1, -2, -3):
        real = _real(states, played, i)
        stream.lift(*sorted(real.filled)).place(*sorted(real.emptied)).wait(pause)
    events = run(stream.settle().wait(2000).settle().text(), game, size, variant)
    since = [e for e in events if e.get("t", 0) > begun]
    assert of(since, "takeback") == [{"move": m} for m in played[:-4:-1]] and moves(since) == []
    assert events[-1]["moves"] == played[:-3] and warnings(since) == []


# ------------------------------------------------------------ a chain capture with both hands
def _captures(state) -> list:
    """The moves of the side to move that take a piece off."""
    return [
        m
        for m in state.legal_moves()
        if any(s.action == "remove" for s in state.realisations(m)[0].follow_ups)
    ]


def _chain_at(seed: int, size: int):
    """A seeded Anti-Grid chain game up to a capture after which the same side captures again:
    (the moves, the position, the first capture, the second)."""
    rng, state, played = random.Random(seed), _start("anti-grid", size, "chain"), []
    while not state.outcome() and len(played) < 400:
        for capture in _captures(state):
            after = state.apply(capture)
            if after.to_move == state.to_move and (again := _captures(after)):
                return played, state, capture, again[0]
        move = rng.choice(state.legal_moves())
        played.append(state.notation(move))
        state = state.apply(move)
    raise AssertionError("no chain in this game")


@pytest.mark.parametrize("how", ["taken_first", "taken_first_paused", "together_paused"])
@pytest.mark.parametrize("size, seed", [(6, 14), (8, 15), (8, 16)])
def test_anti_grid_chain_a_capture_made_with_both_hands_after_another_gives_no_warning(size, seed, how):
    """Anti-Grid with chain captures: the side makes a capture, then (the chain going on) a
    second one lifting the piece to capture first, or both together, with or without a pause
    the board settles in: no warning on the way and both captures are recorded."""
    played, state, capture, second = _chain_at(seed, size)
    first, real = state.notation(capture), state.realisations(capture)[0]
    stream = _by_hand("anti-grid", size, "chain", played).move(real.emptied, real.filled)
    stream.move(real.follow_ups[0].sites).wait(300)  # the chain goes on: no OK
    state = state.play(first)
    real = state.realisations(second)[0]
    taken = sorted(real.follow_ups[0].sites)
    begun = stream.t
    if how == "together_paused":
        stream.lift(*sorted(real.emptied)).lift(*taken, after=50)
    else:
        stream.lift(*taken)
    if how.endswith("paused"):
        stream.settle().wait(1000).settle()
    else:
        stream.wait(700)
    if how.startswith("taken_first"):
        stream.lift(*sorted(real.emptied))
    stream.place(*sorted(real.filled)).settle().wait(1000).settle()
    events = run(stream.text(), "anti-grid", size, "chain")
    since = [e for e in events if e.get("t", 0) > begun]
    assert warnings(since) == [] and "illegal" not in kinds(since)
    lines = [line for e in since if e["event"] == "display" for line in e["lines"]]
    assert not any("to a lit site" in line and any(t in line for t in taken) for line in lines)
    assert events[-1]["moves"][: len(played) + 2] == played + [first, state.notation(second)]


# ------------------------------------------------------------ Antipode's variants, fresh seeds
@pytest.mark.parametrize("seed", range(26, 32))
def test_antipode_variants_a_takeback_by_hand_through_an_earlier_position_is_one_turn(seed):
    """As the held-out takeback by hand through an earlier position, on six more seeded
    positions across the four variants: one turn taken back, nothing else said."""
    variant = VARIANTS[seed % len(VARIANTS)]
    before, state, move = _flips_the_last_placed(seed, variant)
    stream = _make(Stream(), state, move)
    stream.lift(*sorted(state.realisations(state.parse_move(move))[0].filled)).wait(500).settle()
    flips = undo_steps(state.play(move), state)
    for site in sorted(frozenset().union(*(s.sites for s in flips if s.action == "flip"))):
        stream.lift(site).wait(400).place(site).settle()
    stream.wait(1500).settle().press("ok").settle()
    events = _antipode(stream, variant, before)
    assert of(events, "takeback") == [{"move": move}] and moves(events) == [move]
    assert not said(events, before[-1]) and events[-1]["moves"] == before


@pytest.mark.parametrize("seed, variant, before, token, onto, move", _knock_positions(range(60, 72))[:6])
def test_antipode_variants_a_knock_that_equals_a_move_set_right_the_other_way_round(
    seed, variant, before, token, onto, move
):
    """A token pushed onto its empty neighbour (the pieces show a legal move), set right the
    other way round from the held-out case: the neighbour cleared first, then the token put
    back after a pause the board settles in. No move is recorded, said or taken back."""
    stream = Stream().switch(token, False).switch(onto, True, after=30).wait(600).settle()
    stream.lift(onto).settle().wait(800).place(token).settle().wait(2000).settle()
    events = _antipode(stream, variant, before)
    assert moves(events) == [] and "takeback" not in kinds(events)
    assert events[-1]["moves"] == before and "out_of_sync" not in kinds(events)


@pytest.mark.parametrize("pause", [0, 1000])
@pytest.mark.parametrize("seed", [80, 81, 82, 83])
def test_antipode_variants_two_turns_set_back_by_hand_on_one_board_turn_nothing_twice(seed, pause):
    """Players at one board set their last two turns back by hand, newest first, turning back
    the tokens each turned as they go (pausing ``pause`` ms after each turn): both are taken
    back, nothing is read as a move, and no token they turned back is asked to turn again."""
    variant = VARIANTS[seed % len(VARIANTS)]
    board = BoardUnderTest(Game.of("antipode", None, variant))
    try:
        robot = Robot(board, random.Random(seed), kinds=())
        for _ in range(40):
            robot.move()
            if len(robot.moves) >= 4 and apart_last(robot.states, robot.moves, 2):
                if any(hands(robot.states[i - 1], robot.moves[i])[2] for i in (-2, -1)):
                    break
        moves, begun = list(board.held()), len(board.events)
        set_back_newest_first(board, robot.states, moves, 2, pause)
        board.settle(), board.run(2000), board.settle()
        since = board.events[begun:]
        assert [t["move"] for t in of(since, "takeback")] == moves[:-3:-1] and of(since, "move") == []
        assert board.held() == tuple(moves[:-2]) and warnings(since) == []
        assert not any(line.startswith("Flip") for line in board.screen())
    finally:
        board.close()


def _knock_position(board: BoardUnderTest, seed: int) -> tuple[str, str, str] | None:
    """Seeded play against the computer until the players' hand may knock a token onto its
    empty neighbour so that the board equals one of their legal moves: (token, neighbour,
    move), or None."""
    robot = Robot(board, random.Random(seed), kinds=())
    for _ in range(12):
        robot.move()
        if len(robot.moves) >= 4 and robot.at_table() and (found := knocks_to_moves(board.position())):
            return found[0]
    return None


@pytest.mark.parametrize("token_first", [True, False])
@pytest.mark.parametrize("seed", [84, 85, 86, 87])
def test_antipode_variants_a_knock_against_the_computer_set_right_is_never_answered(seed, token_first):
    """Against the computer, the players' hand pushes a token onto its empty neighbour (the
    board then shows a legal move of theirs, that token turned), held 0.6 s, then set right
    (the token back first, or the neighbour cleared first, 0.4 s apart): no move is recorded,
    said or answered, nothing is taken back, and the players are still to move."""
    variant = VARIANTS[seed % len(VARIANTS)]
    board = BoardUnderTest(Game.of("antipode", None, variant), computer="second")
    try:
        knock = _knock_position(board, seed)
        if knock is None:
            pytest.skip("no knock equals a move in this game")
        token, onto, _ = knock
        held, side, begun = board.held(), board.position().to_move, len(board.events)
        board.lift(token), board.run(30), board.place(onto), board.run(600), board.settle()
        first, then = (board.place, board.lift) if token_first else (board.lift, board.place)
        first(token if token_first else onto), board.run(400), then(onto if token_first else token)
        board.settle(), board.run(2500), board.settle()
        since = board.events[begun:]
        assert not {"move", "expect", "takeback", "out_of_sync"} & set(kinds(since))
        assert board.held() == held and board.position().to_move == side
    finally:
        board.close()
