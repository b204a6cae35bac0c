"""Anti-Grid properties over random games (hypothesis), both sizes and both variants."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engines.antigrid import OK, AntiGridState, EndTurn, Move, new
from engines.antigrid.board import BLUE, RED, point_name
from engines.core import IllegalMove

games = st.tuples(
    st.sampled_from([6, 8]),
    st.sampled_from(["plain", "chain"]),
    st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=80),
)


def snapshot(state: AntiGridState):
    return (state.board, state.mover, state.plies, state.quiet, state.continuing, hash(state))


def walk(n: int, variant: str, picks: list[int]):
    """(state, move, after) for a random game. Each pick chooses a legal move; two picks in three
    prefer a capturing move when there is one, so that captures and chains are common."""
    state = new(n, variant)
    for pick in picks:
        moves = state.legal_moves()
        if not moves:
            return
        capturing = [m for m in moves if isinstance(m, Move) and state.captures(m)]
        pool = capturing if capturing and pick % 3 else moves
        move = pool[pick // 3 % len(pool)]
        after = state.play(move)
        yield state, move, after
        state = after


@given(games)
def test_pawn_counts_only_fall_and_captures_spare_the_mover(game):
    for state, move, after in walk(*game):
        if isinstance(move, EndTurn):
            assert after.board == state.board
            continue
        mover, enemy = state.mover, 3 - state.mover
        assert len(after.pawns(mover)) == len(state.pawns(mover))
        assert len(after.pawns(enemy)) == len(state.pawns(enemy)) - len(state.captures(move))
        assert all(state.board[p] == enemy for p in state.captures(move))


@given(games)
def test_play_never_mutates_and_realisations_match(game):
    for state, move, after in walk(*game):
        before = snapshot(state)
        state.play(move)
        assert snapshot(state) == before
        (real,) = state.realisations(move)
        done = len(real.follow_ups)
        assert real.board_after(state.occupied(), done) == after.occupied()


@given(games)
def test_notation_round_trips(game):
    for state, _, _ in walk(*game):
        for move in state.legal_moves():
            text = str(move)
            assert state.parse_move(text) == move
            if isinstance(move, Move):
                suffix = "".join(f" x{point_name(p)}" for p in state.captures(move))
                assert state.parse_move(f" {text.upper()}{suffix.upper()} ") == move


@given(games, st.data())
def test_check_agrees_with_legal_moves(game, data):
    """For a random pawn of the mover, every destination on the board is accepted by ``check``
    exactly when ``legal_moves`` lists it; ``targets`` lists the same destinations."""
    for state, _, _ in walk(*game):
        pawns = state.pawns(state.mover)
        src = data.draw(st.sampled_from(pawns))
        legal = {m for m in state.legal_moves() if isinstance(m, Move) and m.src == src}
        for dst in state.grid.points:
            move = Move(src, dst)
            try:
                state.check(move)
                accepted = True
            except IllegalMove:
                accepted = False
            assert accepted == (move in legal), str(move)
        assert state.targets(str(Move(src, src)).split("-")[0]) == {str(m).split("-")[1] for m in legal}


@given(games)
def test_chain_states_are_consistent(game):
    for state, _, after in walk(*game):
        if after.outcome():
            assert after.legal_moves() == () and after.to_move is None
        elif after.continuing:
            assert after.variant == "chain" and after.quiet == 0
            assert after.legal_moves()[-1] is OK and after.ok_move() is OK
            assert after.to_move == state.to_move
            assert all(after.captures(m) for m in after.legal_moves()[:-1])
        else:
            assert after.ok_move() is None
            assert after.to_move in ("red", "blue")
        assert {after.mover} <= {RED, BLUE}
