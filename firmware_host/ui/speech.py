"""What the board says aloud, one function per kind of sentence: a move, a step it asks for,
a refusal, what to put back, the opponent's move, a takeback, the result, the whole position.
Every spoken sentence comes from here, so that a language's catalogue can translate each kind
in one place, in the board's language (``firmware_host.i18n``). Site names are spelled for a
voice: "f14" is said "f 14", "B4*" "B 4 star".

>>> moved("black", [], ["f14"])
'Black places on f 14'
>>> asked("flip", ["h5"])
'Turn the token on h 5'
>>> asked("remove", ["c3"])
'Remove the piece on c 3'
"""

from __future__ import annotations

import re
from typing import Iterable, Mapping, Sequence

from firmware_host.i18n import N_, _, reword

#: A site's name as it appears in the daemon's words: letters, digits, a direction, a star
#: (compiled when first used: a board that says nothing never does).
_SITE = r"(?<![\w*])(\*?)([A-Za-z]{1,2})(\d+)([a-z]{0,2})(\*?)(?![\w*])"

#: The steps a move may ask for, as said with the sites' names (``{sites}``): one site, more.
ASKED = {
    "remove": (N_("Remove the piece on {sites}"), N_("Remove the pieces on {sites}")),
    "twin": (N_("Place the twin on {sites}"), N_("Place the twins on {sites}")),
    "flip": (N_("Turn the token on {sites}"), N_("Turn the tokens on {sites}")),
    "pick": (N_("Tap the token on {sites}"), N_("Tap the token on {sites}")),
    "carry": (
        N_("Carry the unseen piece from {sites}, then press OK"),
        N_("Carry the unseen pieces from {sites}, then press OK"),
    ),
    "confirm": (N_("Press OK to end the turn"), N_("Press OK to end the turn")),
}


#: A triangle's corner (Phalanx's ``a1nw``), said in words.
CORNERS = {"nw": N_("north-west"), "ne": N_("north-east"), "sw": N_("south-west"), "se": N_("south-east")}


def site(name: str) -> str:
    """A site's name spelled for a voice.

    >>> site("f14"), site("*B4"), site("h8nw")
    ('f 14', 'star B 4', 'h 8 north-west')
    """
    return spelled(name)


def spelled(text: str) -> str:
    """``text`` with every site name in it spelled for a voice.

    >>> spelled("B2 already holds a Trirod")
    'B 2 already holds a Trirod'
    """

    def one(m: re.Match[str]) -> str:
        before, letters, digits, direction, after = m.groups()
        star = [_("star")]
        words = star if before else []
        words += [letters, digits] + ([_(CORNERS.get(direction, direction))] if direction else [])
        words += star if after else []
        return " ".join(words)

    return re.sub(_SITE, one, text)


def listed(names: Iterable[str], either: bool = False) -> str:
    """Sites said one after the other: "a 1, b 2 and c 3" (``either``: "a 1 or b 2").

    >>> listed(["a1"]), listed(["a1", "b2", "c3"]), listed(["h4", "h5"], either=True)
    ('a 1', 'a 1, b 2 and c 3', 'h 4 or h 5')
    """
    said = [site(n) for n in names]
    if len(said) < 2:
        return "".join(said)
    joined = _("{first} or {last}") if either else _("{first} and {last}")
    return joined.format(first=", ".join(said[:-1]), last=said[-1])


def side(name: str | None) -> str:
    """A side's name at the start of a sentence ("Black"); None: "The players"."""
    said = _(name) if name else _("The players")
    return said[:1].upper() + said[1:]


def moved(by: str | None, emptied: Sequence[str], filled: Sequence[str], named: Sequence[str] = ()) -> str:
    """A move made: its side, the sites it emptied and filled (the piece's own, in order), else
    the sites its notation names (a move made by its follow-ups alone).

    >>> moved("red", ["e1"], ["e9"]), moved("blue", ["c2"], []), moved("red", [], [], ["c2"])
    ('Red moves from e 1 to e 9', 'Blue removes the piece on c 2', 'Red plays on c 2')
    """
    who = side(by)
    if emptied and filled:
        return _("{side} moves from {start} to {end}").format(
            side=who, start=listed(emptied), end=listed(filled)
        )
    if filled:
        return _("{side} places on {sites}").format(side=who, sites=listed(filled))
    if emptied:
        return _("{side} removes the piece on {sites}").format(side=who, sites=listed(emptied))
    if named:
        return _("{side} plays on {sites}").format(side=who, sites=listed(named))
    return _("{side} passes").format(side=who)


def corrected(move: str) -> str:
    """A move recorded in place of the last one, said as :func:`moved` says it.

    >>> corrected("Black places on star C 3")
    'Corrected: Black places on star C 3'
    """
    return _("Corrected: {move}").format(move=move)


def asked(action: str, names: Sequence[str]) -> str:
    """What a step of a move asks the players to do, naming its sites.

    >>> asked("pick", ["h4", "h5"]), asked("confirm", [])
    ('Tap the token on h 4 or h 5', 'Press OK to end the turn')
    """
    one, several = ASKED[action]
    return _(one if len(names) < 2 else several).format(sites=listed(names, either=action == "pick"))


def refused(reason: str) -> str:
    """A refused move, with the engine's reason.

    >>> refused("c4 leaves the pawn no move")
    'Refused: c 4 leaves the pawn no move'
    """
    return _("Refused: {reason}").format(reason=spelled(reword(reason)))


def waiting(reason: str) -> str:
    """What the board waits for before it goes on."""
    return spelled(reword(reason))


def put_right(missing: Sequence[str], extra: Sequence[str]) -> str:
    """The pieces to put back and to take off for the board to show the game again.

    >>> put_right(["c1"], ["d4", "e5"])
    'Put back the piece on c 1. Take off the pieces on d 4 and e 5'
    """
    parts = []
    if missing:
        back = _("Put back the pieces on {sites}") if len(missing) > 1 else _("Put back the piece on {sites}")
        parts.append(back.format(sites=listed(missing)))
    if extra:
        off = _("Take off the pieces on {sites}") if len(extra) > 1 else _("Take off the piece on {sites}")
        parts.append(off.format(sites=listed(extra)))
    return ". ".join(parts)


def opponent_moves(empty: Sequence[str], fill: Sequence[str]) -> str:
    """The opponent's move (the computer's, another board's) for the players to carry out.

    >>> opponent_moves(["e1"], ["e9"]), opponent_moves([], ["B2*"])
    ("Opponent's move: move the piece from e 1 to e 9", "Opponent's move: place a piece on B 2 star")
    """
    if empty and fill:
        return _("Opponent's move: move the piece from {start} to {end}").format(
            start=listed(empty), end=listed(fill)
        )
    if fill:
        return _("Opponent's move: place a piece on {sites}").format(sites=listed(fill))
    if empty:
        return _("Opponent's move: remove the piece on {sites}").format(sites=listed(empty))
    return _("Opponent's move: nothing to carry out")


def taken_back(move: str) -> str:
    """A move taken back.

    >>> taken_back("f14")
    'Move f 14 taken back'
    """
    return _("Move {move} taken back").format(move=spelled(move))


def result(winner: str, how: str) -> str:
    """The game's result: the winner (or "draw") and how it ended.

    >>> result("white", "connection"), result("draw", "repetition")
    ('Game over. White wins by connection', 'Game over. A draw by repetition')
    """
    if winner == "draw":
        return _("Game over. A draw by {how}").format(how=_(how))
    return _("Game over. {side} wins by {how}").format(side=side(winner), how=_(how))


def new_game(game: str) -> str:
    """A new game begun.

    >>> new_game("anti-grid")
    'New game of anti-grid'
    """
    return _("New game of {game}").format(game=game)


def hint(move: str) -> str:
    """The computer's suggestion."""
    return _("Hint: {move}").format(move=spelled(move))


def position(
    to_move: str | None, pieces: Mapping[str, Mapping[str, Sequence[str]]], notes: Sequence[str]
) -> str:
    """The whole position: who moves, each side's pieces by kind with their sites, and the
    game's own notes (supplies, counts).

    >>> position("white", {"white": {"stone": ["a1", "b2"]}, "black": {}}, ["White 6 Black 2"])
    'White to move. White: stones on a 1 and b 2. Black: no pieces. White 6 Black 2'
    """
    parts = [_("{side} to move").format(side=side(to_move))] if to_move else [_("Nobody to move")]
    for name, kinds in pieces.items():
        said = [
            _("{kind} on {sites}").format(kind=_plural(kind, len(sites)), sites=listed(sites))
            for kind, sites in kinds.items()
        ]
        parts.append(_("{side}: {pieces}").format(side=side(name), pieces="; ".join(said) or _("no pieces")))
    return ". ".join(parts + [spelled(reword(note)) for note in notes])


def _plural(kind: str, n: int) -> str:
    """A kind of piece ("stone"), in the plural for more than one (as the engine names it)."""
    named = kind if n == 1 else kind + "s"
    return _(named)
