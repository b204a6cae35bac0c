"""Two turns set back by hand at a board playing an opponent away from it (a paired board, the
computer): the players' own last move and the opponent's answer, in the order the players'
hands take them, as held-out tests write it (``tests/net/mqtt/test_paired_set_back.py``,
``tests/board/test_set_back_computer.py``).

>>> sorted(ORDERS)
['both in hand', 'own first', 'theirs first']
"""

from __future__ import annotations

import re
from typing import Any, Callable

from engines.core import GameState, Realisation
from firmware_host.board.turn import undo_steps

#: The orders of lifting: which move's pieces go back first, or both lifted at once.
ORDERS = ("own first", "theirs first", "both in hand")
#: What a player would read as a warning to obey (a piece to put back or take off, whose piece
#: stands where, a knock): none may show while the players set back what they mean to.
WARNING = re.compile(r"\bPut\b|\b[Tt]ake\b(?! back).*\boff\b|\bis \w+'s\b|knocked|[Ii]llegal")


def hands(state: GameState, move: str) -> tuple[list[str], list[str], list[str]]:
    """How ``move`` (made from ``state``) is set back by hand: the sites to lift (where its
    pieces went, twins placed), those to set down again (where they came from, pieces it took
    off) and the tokens to turn back (the takeback's flips)."""
    real: Realisation = state.realisations(state.parse_move(move))[0]
    lift, put = set(real.filled), set(real.emptied)
    for step in real.follow_ups:
        if step.action == "remove":
            put |= step.sites
        elif step.action == "twin":
            lift |= step.sites
    after = state.play(move)
    turn = {site for s in undo_steps(after, state) if s.action == "flip" for site in s.sites}
    return sorted(lift), sorted(put), sorted(turn - lift - put)


def apart(states: list[GameState], moves: list[str]) -> bool:
    """Whether the last two moves touch no site in common (either can go back first)."""
    if len(moves) < 2:
        return False
    own, theirs = (set().union(*hands(states[i - 1], moves[i])) for i in (-2, -1))
    return not own & theirs


def set_back(board: Any, states: list[GameState], moves: list[str], order: str, pause: float) -> None:
    """The last two ``moves`` (the players' own, then the opponent's; ``states`` before and
    after each) set back by hand at ``board`` in ``order``, pausing ``pause`` ms halfway, each
    hand action 100 ms apart and each token turned back held 300 ms."""
    own, theirs = hands(states[-3], moves[-2]), hands(states[-2], moves[-1])

    def act(do: Callable[[str], None], sites: list[str]) -> None:
        for site in sites:
            do(site)
            board.run(100)

    def turn(sites: list[str]) -> None:
        for site in sites:
            board.lift(site), board.run(300), board.place(site), board.run(100)

    first, second = (theirs, own) if order == "theirs first" else (own, theirs)
    if order == "both in hand":
        act(board.lift, own[0] + theirs[0])
        board.run(pause)
        act(board.place, theirs[1] + own[1])
        turn(theirs[2] + own[2])
        return
    for half, rest in ((first, pause), (second, 0)):
        act(board.lift, half[0])
        act(board.place, half[1])
        turn(half[2])
        board.run(rest)


def warnings(events: list[dict[str, Any]]) -> list[str]:
    """The warnings among ``events``: the lines shown that read as one, and the pieces a board
    out of sync asked to put back or take off (not while it waits for the opponent's answer:
    then the screen says so)."""
    lines = [line for e in events if e["event"] == "display" for line in e["lines"] if WARNING.search(line)]
    said = [e for e in events if e["event"] != "display"]
    return lines + [
        f"out of sync {e['missing']} {e['extra']}"
        for e, then in zip(said, said[1:] + [{"event": None}])
        if e["event"] == "out_of_sync" and then["event"] != "waiting"
    ]
