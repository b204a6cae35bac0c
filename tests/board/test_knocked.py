"""A legal move made while the hand knocks another piece off: the board names the knocked piece
("Put c1 back") and lights only it, never the mover's own move; once it is back, the move counts."""

import pytest

from engines import new_game
from testbed.streams import Stream, moves, of, run

GAMES = [("antipalos", 5, None), ("antipod", 4, None), ("anti-grid", 6, "plain"), ("phalanx", None, None)]


def opening(state, plies):
    """Play ``plies`` plain moves (no follow-ups) by hand; the stream and the state."""
    stream = Stream()
    for _ in range(plies):
        move = next(m for m in state.legal_moves() if not state.realisations(m)[0].follow_ups)
        real = state.realisations(move)[0]
        stream.move(real.emptied, real.filled)
        state = state.apply(move)
    return stream, state


def knockable(state, move):
    """A piece off the move's sites whose loss no legal move explains."""
    real = state.realisations(move)[0]
    after = (state.occupied() - real.emptied) | real.filled
    for site in sorted(state.occupied() - real.emptied - real.filled):
        if not any(
            ((state.occupied() - r.emptied) | r.filled) == after - {site}
            for m in state.legal_moves()
            for r in state.realisations(m)
        ):
            return site
    return None


@pytest.mark.parametrize("game,size,variant", GAMES)
def test_a_piece_knocked_off_during_a_legal_move_is_named_and_the_move_counts_once_it_is_back(
    game, size, variant
):
    stream, state = opening(new_game(game, size, variant) if size or variant else new_game(game), 2)
    move = next(
        m for m in state.legal_moves() if not state.realisations(m)[0].follow_ups and knockable(state, m)
    )
    real, knocked = state.realisations(move)[0], knockable(state, move)
    stream.lift(*sorted(real.emptied), knocked).place(*sorted(real.filled)).settle()
    stream.place(knocked).settle()
    events = run(stream.text(), game, size, variant)
    assert of(events, "out_of_sync") == [{"missing": [knocked], "extra": []}]
    shown = [e["lines"] for e in events if e["event"] == "display"]
    assert any(f"Put {knocked} back" in lines for lines in shown)
    assert moves(events)[-1] == state.notation(move)
    assert "illegal" not in [e["event"] for e in events]
