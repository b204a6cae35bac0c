"""What the page shows besides what the sensors see: the pieces as the game expects them at this
moment of the turn, the opponent's move still to be made, the last moves and the pieces each
side has lost. Functions of a controller's snapshot and record; nothing here knows a game.

The expected pieces follow the hands, not only the record: a token just placed shows in its
colour as placed; a token still to flip keeps its other face until the board has counted the
flip (the turn's ``left`` says which are still to do) and is marked ``flip``; while several moves
explain the board (a landing still to tap) the pieces the sensors cannot see stay where they
stood.

>>> from engines import new_game
>>> state = new_game("anti-grid", 6)
>>> figures_of(state)[0], losses(state, state)
({'side': 'red', 'sites': ['a1'], 'kind': 'pawn'}, {'red': 0, 'blue': 0})
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from engines.core import GameState, IllegalMove
from firmware_host.board.turn import Turn
from firmware_host.board.view import Snapshot
from firmware_host.net.web.drawn import figure as _figure

Figure = dict[str, Any]


def figures_of(state: GameState, mark: str | None = None) -> list[Figure]:
    """The pieces of ``state`` as the page draws them; ``mark`` added to each."""
    return [{**_figure(f), **({"mark": mark} if mark else {})} for f in state.figures()]


def expected(snap: Snapshot) -> list[Figure]:
    """The pieces as the game expects them now (see the module's words); a takeback's unseen
    piece still to carry back stays where it stands (:func:`plan` shows where it goes)."""
    state = snap.record.state
    figures = _expected(snap)
    for side, off, to in carried(snap):
        figures = [
            {**f, "sites": [off]} if f["side"] == side and f["sites"] == [to] and _is_unseen(state, f) else f
            for f in figures
        ]
    return figures


def _expected(snap: Snapshot) -> list[Figure]:
    phase, record = snap.phase, snap.record
    if (turn := phase.unseen()) is not None:  # a move's steps, a takeback's
        return _mid_turn(record.state, turn)
    if (turn := phase.shown_turn()) is not None:  # the move shown of a choice
        return _mid_turn(record.state.apply(turn.move), turn, before=record.state)
    return figures_of(record.state)


#: A takeback's words for an unseen piece to carry back ("Blue pawn: i9 back to e9").
_CARRY = re.compile(r"(\w+) [\w ]+?: (\S+) back to ([^\s;,]+)")


def carried(snap: Snapshot) -> list[tuple[str, str, str]]:
    """A takeback's unseen pieces still to carry back, as (side, from, to).

    >>> [m.groups() for m in _CARRY.finditer("Blue pawn: i9 back to e9; red pawn: a1 back to e1")]
    [('Blue', 'i9', 'e9'), ('red', 'a1', 'e1')]
    """
    turn = snap.phase.unseen()
    if turn is None or turn.move is not None:  # none, or a move's own steps
        return []
    return [
        (side.lower(), off, to)
        for i, step in enumerate(turn.steps)
        if step.action == "carry" and i >= turn.step
        for side, off, to in _CARRY.findall(step.prompt)
    ]


def _is_unseen(state: GameState, figure: Figure) -> bool:
    return (
        figure["kind"] == "pawn"
        and len(figure["sites"]) == 1
        and state.markers().get(figure["sites"][0]) == figure["side"]
    )


def _mid_turn(after: GameState, turn: Turn, before: GameState | None = None) -> list[Figure]:
    """``after``'s pieces, those whose flip is still to do with their other face (marked
    ``flip``); with ``before``, the pieces the sensors cannot see where it had them."""
    to_flip = frozenset().union(*(left for step, left in zip(turn.steps, turn.left) if step.action == "flip"))
    out = []
    for f in after.figures():
        if _unseen(after, f):
            if before is None:
                out.append(_figure(f))
        elif set(f.sites) & to_flip and len(after.sides) == 2:
            other = next(side for side in after.sides if side != f.side)
            out.append({**_figure(f), "side": other, "mark": "flip"})
        else:
            out.append(_figure(f))
    if before is not None:
        out += [_figure(f) for f in before.figures() if _unseen(before, f)]
    return sorted(out, key=lambda f: f["kind"] == "pawn")  # pawns stand on other pieces


def _unseen(state: GameState, figure) -> bool:
    """True for a piece the sensors cannot see (a pawn standing on a token)."""
    return (
        figure.kind == "pawn"
        and len(figure.sites) == 1
        and state.markers().get(figure.sites[0]) == figure.side
    )


def plan(snap: Snapshot) -> dict[str, Any] | None:
    """The opponent's move still to carry out: the sites it empties and fills and the pieces
    it puts there (drawn as a move to make, not as made); None when there is none."""
    back = carried(snap)
    if back:  # a takeback's pawn to carry back: from where it stands to where it goes
        pawns = {f["sites"][0]: f for f in figures_of(snap.record.state) if f["kind"] == "pawn"}
        return {
            "move": "; ".join(f"{off} back to {to}" for _, off, to in back),
            "say": None,
            "from": [off for _, off, _ in back],
            "to": [to for _, _, to in back],
            "figures": [{**pawns[to], "mark": "plan"} for _, _, to in back if to in pawns],
        }
    pending, state = snap.phase.opponent_move(), snap.record.state
    if pending is None:
        return None
    after = state.apply(pending.move)
    filled, stood = pending.real.filled, state.markers()
    arrives = [
        f
        for f in after.figures()
        if set(f.sites) & filled or _unseen(after, f) and stood.get(f.sites[0]) != f.side
    ]
    return {
        "move": pending.text,
        "say": pending.say,
        "from": sorted(pending.real.emptied),
        "to": sorted(filled),
        "figures": [{**_figure(f), "mark": "plan"} for f in arrives],
    }


def history(states: list[GameState], moves: Iterable[str]) -> list[dict[str, Any]]:
    """The moves so far, each with its side and the sites it emptied and filled."""
    out: list[dict[str, Any]] = []
    for state, text in zip(states, moves):
        try:
            move = state.parse_move(text)
            real = state.realisations(move)[0]
        except (IllegalMove, ValueError, KeyError, IndexError):  # named otherwise: as stored
            out.append({"move": text, "side": None, "from": [], "to": []})
            continue
        entry = {
            "move": state.notation(move),
            "side": state.maker(move),
            "from": sorted(real.emptied),
            "to": sorted(real.filled),
        }
        pawns = _walked(state, state.apply(move))
        out.append({**entry, "pawns": pawns} if pawns else entry)
    return out


def _walked(before: GameState, after: GameState) -> list[list[str]]:
    """The unseen pieces (pawns) a move carried: [from, to] for each that changed its site.

    >>> from engines import new_game
    >>> start = new_game("antipode"); move = start.legal_moves()[0]
    >>> str(move), _walked(start, start.apply(move))
    ('a2:a1', [['e1', 'a1']])
    """
    stood = {side: site for site, side in before.markers().items()}
    return [
        [stood[side], site]
        for site, side in sorted(after.markers().items())
        if side in stood and stood[side] != site
    ]


def losses(start: GameState, now: GameState) -> dict[str, int] | None:
    """Side -> pieces it has lost, for games whose pieces start on the board and can be taken
    (games that weigh material); None for the others."""
    if not start.material():
        return None
    counts = dict.fromkeys(start.sides, 0)
    for figure in start.figures():
        counts[figure.side] = counts.get(figure.side, 0) + 1
    for figure in now.figures():
        counts[figure.side] = counts.get(figure.side, 0) - 1
    return {side: max(0, n) for side, n in counts.items()}
