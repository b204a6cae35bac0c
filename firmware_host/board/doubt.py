"""Doubt: a board the sensors can read two ways, and the one rule for it.

The board senses presence only: it cannot see a token's face or whose piece stands where. So a
position the hands pass through on the way (a token lifted to be turned, a neighbour knocked
off, the first of two pieces set back) can equal an earlier position or a legal move. The rule:
the board keeps the reading that continues what it asked the players to do, says nothing it
would have to take back, and waits (up to ``takeback_ms``, never while a piece the turn needs is
in the hand) before it acts on the other reading. :data:`DOUBTS` says where this applies and
which rules of the table (``firmware_host/board/judge.py``) carry it out; docs/daemon.md prints
it (``python -m firmware_host.board.doubt``).

Against an opponent away from the board (the computer, a paired board) acting on a reading
also means telling the opponent: a move in doubt is neither sent nor answered until the doubt
has passed (``Awaiting.in_doubt``).

>>> [d.rules for d in DOUBTS][:2]
['token_in_hand', 'a_move_in_hand, knock_set_right, last_move_in_hand']
"""

from __future__ import annotations

from typing import NamedTuple

from firmware_host.board.turn import Turn


class Doubt(NamedTuple):
    """Where the sensors can be read two ways: what the board ``shows``, the reading ``kept``
    (what the players were asked to do), the ``other`` reading and when it is acted on, and the
    judge's ``rules`` that carry it out."""

    shows: str
    kept: str
    other: str
    rules: str


DOUBTS = (
    Doubt(
        "a token a legal move turns over or taps, off its switch before the move shows",
        "a flip or a tap under way: quiet, its return counted as the touch",
        "knocked off: pointed out once it has been off for TOKEN_HOLD_MS (3 s)",
        "token_in_hand",
    ),
    Doubt(
        "a legal move but for a token it turns over, off its switch (a token pushed onto its "
        "neighbour equals a placement with that token turned)",
        "the move, that token's flip under way (its return counts as the flip), recorded but "
        "not said (no `move` event) until the next side begins or another of its steps is made",
        "a knock: the board set back to before it before the next side begins drops the move "
        "at once, unsaid, nothing asked back (while a landing is still to tap and the placed token is "
        "lifted, a tap on it may be under way: once it has stood for `takeback_ms`); against "
        "an opponent away from the board the move is neither sent nor answered until the "
        "board has shown it for `takeback_ms`",
        "a_move_in_hand, knock_set_right, last_move_in_hand",
    ),
    Doubt(
        "the position before the players' last move but for tokens its takeback turns over "
        "(in the hand), which equals an earlier position",
        "that one turn being taken back (held, then taken back after `takeback_ms`)",
        "a deeper takeback (more than the players' last turn): only once the board has shown "
        "that position, settled, for `takeback_ms` (a piece knocked off or a token in the hand "
        "set down meanwhile takes nothing back, sends and answers nothing), on one board and "
        "on paired boards",
        "last_move_in_hand, taken_back",
    ),
    Doubt(
        "against an opponent, a legal move, or a board no move explains, whose every change "
        "goes towards the position before one of the players' own last turns (two turns set "
        "back by hand: their own piece first, the opponent's first, both in the hand; or the "
        "next two while a takeback's unseen steps are still asked)",
        'a takeback by hand under way: nothing recorded, lit, sent or answered ("Taking back? '
        'Set the rest back"); the tokens turned back on the way count for its undoing',
        "the move, recorded once the board has shown it for `takeback_ms`; no move: what differs "
        "pointed out then",
        "a_move, set_back_under_way",
    ),
    Doubt(
        "the players' last move lifted back off the board before the next side began",
        "a correction on its way (its targets lit)",
        "a takeback once held off for `takeback_ms`",
        "last_move_in_hand",
    ),
    Doubt(
        "a piece a legal move captures lifted with, or before, the capturing piece",
        "a capture under way: quiet, the capturing piece's targets lit",
        "knocked off: pointed out after TOKEN_HOLD_MS (3 s) off the board",
        "piece_in_hand, token_in_hand",
    ),
    Doubt(
        "the daemon restarted while the players' last move was in doubt (recorded, not said)",
        "the doubt goes on: the move's turn is kept with the game, its steps asked again; a "
        "token still to turn off the board at the first scan is in the hand (its return counts)",
        "as without the restart: said once (and sent or answered once), or dropped unsaid when "
        "set right; a takeback asked meanwhile tells of no move never said",
        "knock_set_right, last_move_in_hand",
    ),
    Doubt(
        "a token touched before the placement (or one the placement turned, touched again) "
        "that another move turns over on its pawn's way, taken as that move's landing",
        "the landing tapped first",
        "a tap on another landing (on a board showing nothing else) chooses that move instead",
        "rechosen",
    ),
)


def maybe_knock(turn: Turn) -> bool:
    """Whether ``turn`` may have been a knock: read while a token it turns lay off its switch,
    and nothing else of it done since (a flip or a tap made for it, before it showed or as the
    board asked, or a step done by OK: the players meant the move)."""
    return bool(turn.knocked) and not (turn.done_touches() | turn.untouched) - turn.knocked


def opened(
    now: float, board: frozenset[str], last: Turn | None, correctable: bool
) -> tuple[float, frozenset[str]] | None:
    """The doubt the opponent's turn begins in: the players' last move, still correctable, was
    read while a token it turns lay off its switch (it may have been a knock); ``now`` and the
    ``board`` it began on, else None.

    >>> opened(5.0, frozenset(), None, True) is None
    True
    """
    return (now, board) if last is not None and maybe_knock(last) and correctable else None


def table() -> str:
    """:data:`DOUBTS` as docs/daemon.md prints it."""
    rows = [
        f"| {d.shows} | {d.kept} | {d.other} | {', '.join(f'`{r}`' for r in d.rules.split(', '))} |"
        for d in DOUBTS
    ]
    return (
        "| the board shows | the reading kept | the other reading, acted on | rules |\n"
        "|---|---|---|---|\n" + "\n".join(rows)
    )


if __name__ == "__main__":
    print(table())
