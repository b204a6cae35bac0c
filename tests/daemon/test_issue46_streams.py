"""Issue 46: what the players' hands mean. The board senses presence only, so a position the
hands pass through on the way (a captured piece taken off first, a token lifted to be turned, a
neighbour knocked off, the first of two pieces set back) can equal an earlier position or a
legal move. Each case is a sensor stream written as the players act, with what they expect the
board to say and record.
"""

from __future__ import annotations

import pytest

from tests.daemon.stream_tools import Stream, kinds, moves, of, run, said

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
