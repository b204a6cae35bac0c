"""Two turns set back by hand at a board playing an opponent away from it (a paired board, the
computer): the players' own last move and the opponent's answer, in the order the players'
hands take them, as held-out tests write it (``tests/net/mqtt/test_paired_set_back.py``,
``tests/board/test_set_back_computer.py``).

>>> sorted(ORDERS)
['both in hand', 'own first', 'theirs first']
"""

from __future__ import annotations

import re
from typing import Any

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
    return apart_last(states, moves, 2)


def apart_last(states: list[GameState], moves: list[str], n: int) -> bool:
    """Whether the last ``n`` moves touch no site in common (any can go back first)."""
    if len(moves) < n:
        return False
    sites = [set().union(*hands(states[i - 1], moves[i])) for i in range(-n, 0)]
    return all(not a & b for j, a in enumerate(sites) for b in sites[j + 1 :])


def set_back_newest_first(
    board: Any, states: list[GameState], moves: list[str], n: int, pause: float
) -> None:
    """The last ``n`` ``moves`` set back by hand at ``board``, the newest first, pausing
    ``pause`` ms after each (as :func:`set_back` times its hands)."""
    for i in range(-1, -n - 1, -1):
        lift, put, turn = hands(states[i - 1], moves[i])
        _hands(board, lift, put, turn)
        board.run(pause)


def _hands(board: Any, lift: list[str], put: list[str], turn: list[str]) -> None:
    """``lift`` lifted, ``put`` set down, 100 ms apart, and ``turn`` turned over (held 300 ms)."""
    for site in lift:
        board.lift(site), board.run(100)
    for site in put:
        board.place(site), board.run(100)
    for site in turn:
        board.lift(site), board.run(300), board.place(site), board.run(100)


def set_back(board: Any, states: list[GameState], moves: list[str], order: str, pause: float) -> None:
    """The last two ``moves`` (the players' own, then the opponent's; ``states`` before and
    after each) set back by hand at ``board`` in ``order``, pausing ``pause`` ms halfway, each
    hand action 100 ms apart and each token turned back held 300 ms."""
    own, theirs = hands(states[-3], moves[-2]), hands(states[-2], moves[-1])
    if order == "both in hand":
        _hands(board, own[0] + theirs[0], [], [])
        board.run(pause)
        _hands(board, [], theirs[1] + own[1], theirs[2] + own[2])
        return
    first, second = (theirs, own) if order == "theirs first" else (own, theirs)
    _hands(board, *first)
    board.run(pause)
    _hands(board, *second)


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
