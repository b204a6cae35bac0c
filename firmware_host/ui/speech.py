"""What the board says aloud, one function per kind of sentence: a move, a step it asks for,
a refusal, what to put back, the opponent's move, a takeback, the result, the whole position.
Every spoken sentence comes from here, so that a language's catalogue can translate each kind
in one place. Site names are spelled for a voice: "f14" is said "f 14", "B4*" "B 4 star".

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

#: A site's name as it appears in the daemon's words: letters, digits, a direction, a star.
_SITE = re.compile(r"(?<![\w*])(\*?)([A-Za-z]{1,2})(\d+)([a-z]{0,2})(\*?)(?![\w*])")

#: The steps a move may ask for, as said with the sites' names (``{sites}``): one site, more.
ASKED = {
    "remove": ("Remove the piece on {sites}", "Remove the pieces on {sites}"),
    "twin": ("Place the twin on {sites}", "Place the twins on {sites}"),
    "flip": ("Turn the token on {sites}", "Turn the tokens on {sites}"),
    "pick": ("Tap the token on {sites}", "Tap the token on {sites}"),
    "carry": (
        "Carry the unseen piece from {sites}, then press OK",
        "Carry the unseen pieces from {sites}, then press OK",
    ),
    "confirm": ("Press OK to end the turn", "Press OK to end the turn"),
}


#: A triangle's corner (Phalanx's ``a1nw``), said in words.
CORNERS = {"nw": "north-west", "ne": "north-east", "sw": "south-west", "se": "south-east"}


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
        words = ["star"] if before else []
        words += [letters, digits] + ([CORNERS.get(direction, direction)] if direction else [])
        words += ["star"] if after else []
        return " ".join(words)

    return _SITE.sub(one, text)


def listed(names: Iterable[str], either: bool = False) -> str:
    """Sites said one after the other: "a 1, b 2 and c 3" (``either``: "a 1 or b 2").

    >>> listed(["a1"]), listed(["a1", "b2", "c3"]), listed(["h4", "h5"], either=True)
    ('a 1', 'a 1, b 2 and c 3', 'h 4 or h 5')
    """
    said = [site(n) for n in names]
    if len(said) < 2:
        return "".join(said)
    return f"{', '.join(said[:-1])} {'or' if either else 'and'} {said[-1]}"


def side(name: str | None) -> str:
    """A side's name at the start of a sentence ("Black"); None: "The players"."""
    return name.capitalize() if name else "The players"


def moved(by: str | None, emptied: Sequence[str], filled: Sequence[str], named: Sequence[str] = ()) -> str:
    """A move made: its side, the sites it emptied and filled (the piece's own, in order), else
    the sites its notation names (a move made by its follow-ups alone).

    >>> moved("red", ["e1"], ["e9"]), moved("blue", ["c2"], []), moved("red", [], [], ["c2"])
    ('Red moves from e 1 to e 9', 'Blue removes the piece on c 2', 'Red plays on c 2')
    """
    if emptied and filled:
        return f"{side(by)} moves from {listed(emptied)} to {listed(filled)}"
    if filled:
        return f"{side(by)} places on {listed(filled)}"
    if emptied:
        return f"{side(by)} removes the piece on {listed(emptied)}"
    if named:
        return f"{side(by)} plays on {listed(named)}"
    return f"{side(by)} passes"


def corrected(move: str) -> str:
    """A move recorded in place of the last one, said as :func:`moved` says it.

    >>> corrected("Black places on star C 3")
    'Corrected: Black places on star C 3'
    """
    return f"Corrected: {move}"


def asked(action: str, names: Sequence[str]) -> str:
    """What a step of a move asks the players to do, naming its sites.

    >>> asked("pick", ["h4", "h5"]), asked("confirm", [])
    ('Tap the token on h 4 or h 5', 'Press OK to end the turn')
    """
    one, several = ASKED[action]
    return (one if len(names) < 2 else several).format(sites=listed(names, either=action == "pick"))


def refused(reason: str) -> str:
    """A refused move, with the engine's reason.

    >>> refused("c4 leaves the pawn no move")
    'Refused: c 4 leaves the pawn no move'
    """
    return f"Refused: {spelled(reason)}"


def waiting(reason: str) -> str:
    """What the board waits for before it goes on."""
    return spelled(reason)


def put_right(missing: Sequence[str], extra: Sequence[str]) -> str:
    """The pieces to put back and to take off for the board to show the game again.

    >>> put_right(["c1"], ["d4", "e5"])
    'Put back the piece on c 1. Take off the pieces on d 4 and e 5'
    """
    parts = []
    if missing:
        parts.append(f"Put back the piece{'s' if len(missing) > 1 else ''} on {listed(missing)}")
    if extra:
        parts.append(f"Take off the piece{'s' if len(extra) > 1 else ''} on {listed(extra)}")
    return ". ".join(parts)


def opponent_moves(empty: Sequence[str], fill: Sequence[str]) -> str:
    """The opponent's move (the computer's, another board's) for the players to carry out.

    >>> opponent_moves(["e1"], ["e9"]), opponent_moves([], ["B2*"])
    ("Opponent's move: move the piece from e 1 to e 9", "Opponent's move: place a piece on B 2 star")
    """
    if empty and fill:
        return f"Opponent's move: move the piece from {listed(empty)} to {listed(fill)}"
    if fill:
        return f"Opponent's move: place a piece on {listed(fill)}"
    if empty:
        return f"Opponent's move: remove the piece on {listed(empty)}"
    return "Opponent's move: nothing to carry out"


def taken_back(move: str) -> str:
    """A move taken back.

    >>> taken_back("f14")
    'Move f 14 taken back'
    """
    return f"Move {spelled(move)} taken back"


def result(winner: str, how: str) -> str:
    """The game's result: the winner (or "draw") and how it ended.

    >>> result("white", "connection"), result("draw", "repetition")
    ('Game over. White wins by connection', 'Game over. A draw by repetition')
    """
    if winner == "draw":
        return f"Game over. A draw by {how}"
    return f"Game over. {side(winner)} wins by {how}"


def new_game(game: str) -> str:
    """A new game begun.

    >>> new_game("anti-grid")
    'New game of anti-grid'
    """
    return f"New game of {game}"


def hint(move: str) -> str:
    """The computer's suggestion."""
    return f"Hint: {spelled(move)}"


def position(
    to_move: str | None, pieces: Mapping[str, Mapping[str, Sequence[str]]], notes: Sequence[str]
) -> str:
    """The whole position: who moves, each side's pieces by kind with their sites, and the
    game's own notes (supplies, counts).

    >>> position("white", {"white": {"stone": ["a1", "b2"]}, "black": {}}, ["White 6 Black 2"])
    'White to move. White: stones on a 1 and b 2. Black: no pieces. White 6 Black 2'
    """
    parts = [f"{side(to_move)} to move"] if to_move else ["Nobody to move"]
    for name, kinds in pieces.items():
        said = [f"{kind}{'s' if len(sites) > 1 else ''} on {listed(sites)}" for kind, sites in kinds.items()]
        parts.append(f"{side(name)}: {'; '.join(said) or 'no pieces'}")
    return ". ".join(parts + [spelled(note) for note in notes])
