"""Antipode's rules: a position, its legal turns, the win, the house rules, notation and the
physical contract (docs/games/antipode.md, whose "Rulings" section fixes what the rule text
leaves open).

A turn places a token of the mover's colour on an empty cell (its neighbours flip, except tokens
under a pawn), then moves the mover's pawn in a straight line onto a token of its own colour,
flipping the tokens it passes. A chain of one colour joining a corner to the opposite corner
wins, checked after the whole turn (mover first). Canonical notation ``c4:e3``; ``:e3`` when the
board is full (house rule). Cells and turns are held as 61-bit masks for speed
(:mod:`engines.antipode.board`).

>>> s = start()
>>> s.to_move, s.legal_count(), str(s.legal_moves()[0])
('blue', 19, 'a2:a1')
>>> s = s.play("e5:e5")
>>> s.to_move, sorted(s.occupied())
('red', ['a1', 'a5', 'e1', 'e5', 'e9', 'i5', 'i9'])
>>> s.faces()["e5"]
'blue'
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Iterator

from engines.antipode.board import (
    BETWEEN,
    CELLS,
    CORNER_PAIRS,
    FULL,
    GRAPH,
    INDEX,
    NAMES,
    NEIGHBOURS,
    PASS,
    RAYS,
    SIDE,
    SITES,
    TURNS,
    Turn,
    bit_of,
    indices,
    mask_of,
    names_of,
)
from engines.antipode.distance import distances
from engines.antipode.tactics import winning_turn
from engines.core import (
    DRAW,
    FollowUp,
    GameState,
    IllegalMove,
    InvalidMove,
    Outcome,
    Realisation,
    Result,
    Site,
)
from engines.core.drawing import Figure, PieceSet
from engines.core.hexgrid import cell_name, on_board, parse_cell
from engines.core.state import Playout
from engines.core.tally import Tally
from engines.core.words import N_, ngettext

SIDES = ("blue", "red")
#: A connection distance lead worth a sure win to the computer's search (``playout``).
LEAD = 8
START_BLUE = ("e1", "a5", "i9")
START_RED = ("a1", "e9", "i5")
START_PAWNS = ("e1", "e9")


def _component(start: int, colour: int) -> int:
    """Mask of the cells of ``colour`` connected to cell ``start`` (0 if it is not that colour)."""
    reached = (1 << start) & colour
    frontier = reached
    while frontier:
        grown = 0
        for n in indices(frontier):
            grown |= NEIGHBOURS[n]
        frontier = grown & colour & ~reached
        reached |= frontier
    return reached


def connection(colour: int) -> tuple[int, int] | None:
    """The first corner pair joined by a chain within the ``colour`` mask, or None.

    >>> connection(mask_of(["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9"]))
    (0, 60)
    >>> connection(mask_of(["a1", "b2", "c3", "d4", "f6", "g7", "h8", "i9"])) is None
    True
    """
    for a, b in CORNER_PAIRS:
        if colour >> a & 1 and colour >> b & 1 and _component(a, colour) >> b & 1:
            return a, b
    return None


@dataclass(frozen=True)
class HouseRules:
    """The two house rules (docs/games/antipode.md, "Rulings"), both on by default."""

    full_board_turn: bool = True  #: on a full board a turn is the pawn move alone
    repetition_draw: bool = True  #: the third occurrence of a position is a draw


VARIANTS = {
    "standard": HouseRules(),
    "no-full-board-turn": HouseRules(full_board_turn=False),
    "no-repetition-draw": HouseRules(repetition_draw=False),
    "rulebook": HouseRules(full_board_turn=False, repetition_draw=False),
}

#: What the repetition rule compares on a full board: faces, pawns, side to move.
Position = tuple[int, tuple[int, int], int]


# ------------------------------------------------------------------------------------- state
@dataclass(frozen=True)
class AntipodeState(GameState[Turn]):
    """A position: token and blue-face masks (bit n = cell NAMES[n]), both pawns' cells, the
    side to move, the house rules and (once the board is full) the tally of full-board positions
    for the repetition draw. States compare by position and ply; the tally is not compared."""

    tokens: int
    blue: int
    pawns: tuple[int, int]
    mover: int = 0
    turns: int = 0
    rules: HouseRules = HouseRules()
    history: Tally = field(default_factory=Tally, compare=False, repr=False)
    UNSEEN = "pawn"
    TAKES = False  # no move takes a piece off

    @classmethod
    def setup(
        cls,
        blue: Iterable[str],
        red: Iterable[str],
        pawns: tuple[str, str] = START_PAWNS,
        to_move: str = "blue",
        ply: int = 0,
        rules: HouseRules = HouseRules(),
    ) -> "AntipodeState":
        """A position from cell names (for tests, puzzles and resuming). ValueError when a cell
        is unknown or doubly used, or a pawn does not stand on a token of its own colour.

        >>> AntipodeState.setup(["e1"], ["e9"], to_move="red").diagram().splitlines()[4]
        ' e1 B . . . . . . . R'
        >>> AntipodeState.setup(["e1"], ["e8"])
        Traceback (most recent call last):
        ValueError: each pawn must stand on a token of its own colour
        """
        blue, red = list(blue), list(red)
        unknown = [n for n in blue + red + list(pawns) if n not in INDEX]
        if unknown:
            raise ValueError(f"no cell {unknown[0]}")
        blue_mask, red_mask = mask_of(blue), mask_of(red)
        if blue_mask & red_mask:
            raise ValueError(f"{sorted(names_of(blue_mask & red_mask))[0]} is both blue and red")
        if pawns[0] == pawns[1] or not (bit_of(pawns[0]) & blue_mask and bit_of(pawns[1]) & red_mask):
            raise ValueError("each pawn must stand on a token of its own colour")
        return cls._make(
            blue_mask | red_mask,
            blue_mask,
            (INDEX[pawns[0]], INDEX[pawns[1]]),
            SIDES.index(to_move),
            ply,
            rules,
            Tally(),
        )

    @classmethod
    def _make(
        cls,
        tokens: int,
        blue: int,
        pawns: tuple[int, int],
        mover: int,
        turns: int,
        rules: HouseRules,
        previous: Tally,
    ) -> "AntipodeState":
        """A state whose history extends ``previous``. Only full-board positions can recur
        (every other turn adds a token), so the history restarts until the board is full."""
        key: Position = (blue, pawns, mover)
        history = previous.push(key) if tokens == FULL else Tally()
        return cls(tokens, blue, pawns, mover, turns, rules, history)

    # ----------------------------------------------------------------- helpers
    def _key(self) -> Position:
        """The position as :meth:`_make` tallies it."""
        return self.blue, self.pawns, self.mover

    @property
    def full(self) -> bool:
        return self.tokens == FULL

    def pawn(self, side: str) -> str:
        """The cell under ``side``'s pawn."""
        return NAMES[self.pawns[SIDES.index(side)]]

    def own(self, side: int) -> int:
        return self.blue if side == 0 else self.tokens & ~self.blue

    @cached_property
    def reach(self) -> int:
        """Cells the mover's pawn can reach in one straight move (the other pawn stops a line)."""
        start, other = self.pawns[self.mover], self.pawns[1 - self.mover]
        reach = 0
        for ray in RAYS[start]:
            for n in ray:
                if n == other:
                    break
                reach |= 1 << n
        return reach

    def _placement_flips(self, p: int) -> int:
        return NEIGHBOURS[p] & self.tokens & ~((1 << self.pawns[0]) | (1 << self.pawns[1]))

    def _landings(self, p: int) -> int:
        """Mask of legal landing cells after placing on ``p`` (PASS: no placement)."""
        own = self.own(self.mover)
        if p == PASS:
            return self.reach & own
        return self.reach & ((own ^ self._placement_flips(p)) | 1 << p)

    def placements(self) -> Iterator[int]:
        if not self.full:
            yield from indices(FULL & ~self.tokens)
        elif self.rules.full_board_turn:
            yield PASS

    # ------------------------------------------------------------------- rules
    @property
    def sides(self) -> tuple[str, ...]:
        return SIDES

    @property
    def to_move(self) -> str | None:
        return None if self.outcome() else SIDES[self.mover]

    @property
    def ply(self) -> int:
        return self.turns

    def legal_moves(self) -> tuple[Turn, ...]:
        """Per placement (cell order), its landings (cell order): :meth:`_landings` written out
        with what every placement shares worked out once (the searches list moves often)."""
        if self.outcome():
            return ()
        reach, own = self.reach, self.own(self.mover)
        flippable = self.tokens & ~((1 << self.pawns[0]) | (1 << self.pawns[1]))
        turns: list[Turn] = []
        for p in self.placements():
            if p == PASS:
                land = reach & own
            else:
                land = reach & ((own ^ (NEIGHBOURS[p] & flippable)) | 1 << p)
            row = TURNS[p]
            while land:
                low = land & -land
                turns.append(row[low.bit_length() - 1])
                land ^= low
        return tuple(turns)

    def legal_count(self) -> int:
        return 0 if self.outcome() else self._count

    @cached_property
    def _count(self) -> int:
        """Legal turns, counted once per state (outcome() needs it too)."""
        return sum(self._landings(p).bit_count() for p in self.placements())

    @property
    def _stuck(self) -> bool:
        """No legal turn. A token placed on an empty cell in line with the pawn is always one
        (the pawn lands on it), so only the rest need counting."""
        return not (self.reach & ~self.tokens & FULL) and self._count == 0

    def check(self, move: Turn) -> None:
        for name in (move.place, move.land):
            if name is not None and name not in INDEX:
                raise InvalidMove(f"No cell {name}")
        if move.place is None:
            if not self.full:
                raise IllegalMove(N_("Place a token first"))
            if not self.rules.full_board_turn:
                raise IllegalMove(N_("No pawn-only turns"))
            p = PASS
        else:
            p = INDEX[move.place]
            if self.tokens >> p & 1:
                raise IllegalMove(N_("{site} already holds a token").format(site=move.place))
        land = INDEX[move.land]
        if not self._landings(p) >> land & 1:
            if not self._landings(p):
                if move.place is None:
                    raise IllegalMove(N_("The full board leaves the pawn no move"))
                raise IllegalMove(N_("{site} leaves the pawn no move").format(site=move.place))
            raise IllegalMove(self._landing_problem(p, land))

    def _landing_problem(self, p: int, land: int) -> str:
        name, start = NAMES[land], self.pawns[self.mover]
        if land == start:
            return N_("The pawn must move")
        if land not in BETWEEN[start]:
            return N_("{site} is not in line with the pawn").format(site=name)
        if not self.reach >> land & 1:
            return N_("{Side}'s pawn blocks the way").format(Side=SIDES[1 - self.mover].capitalize())
        if not self.tokens >> land & 1 and land != p:
            return N_("{site} is empty").format(site=name)
        return N_("{site} is not {side}").format(site=name, side=SIDES[self.mover])

    def _after(self, move: Turn) -> tuple[int, int, int, int]:
        """(tokens, blue mask, placement flips, path flips) after ``move``."""
        tokens, blue, flips = self.tokens, self.blue, 0
        if move.place is not None:
            p = INDEX[move.place]
            flips = self._placement_flips(p)
            tokens |= 1 << p
            blue ^= flips
            if self.mover == 0:
                blue |= 1 << p
        path = BETWEEN[self.pawns[self.mover]][INDEX[move.land]] & tokens
        return tokens, blue ^ path, flips, path

    def apply(self, move: Turn) -> "AntipodeState":
        tokens, blue, _, _ = self._after(move)
        land, (first, second) = INDEX[move.land], self.pawns
        pawns = (land, second) if self.mover == 0 else (first, land)
        return self._make(tokens, blue, pawns, 1 - self.mover, self.turns + 1, self.rules, self.history)

    def outcome(self) -> Outcome | None:
        return self._outcome

    def winning_move(self, moves: Iterable[Turn] | None = None) -> Turn | None:
        """Any legal turn that wins at once (``moves`` is not needed): found with bit masks,
        about as fast as making one position (:mod:`engines.antipode.tactics`)."""
        return None if self.outcome() else winning_turn(self)

    def playout(self, rng: random.Random, limit: int) -> Playout[Turn]:
        """Not a random game (random turns here say little of who will connect): the mover
        wins if it can win at once; else each side's share of a win is graded by how much
        nearer its connection it is, by :func:`~engines.antipode.distance.distances` (a lead
        of :data:`LEAD` cells is all of it; a side that can no longer connect counts as
        :data:`LEAD` away)."""
        if self.winning_move() is not None:
            return SIDES[self.mover], []
        blue, red = distances(self.blue, self.tokens & ~self.blue, self.tokens)
        share = 0.5 + (min(red, LEAD) - min(blue, LEAD)) / (2 * LEAD)
        return {"blue": share, "red": 1.0 - share}, []

    @cached_property
    def _outcome(self) -> Outcome | None:
        last = 1 - self.mover  # the side that made the last turn is checked first
        for side in (last, self.mover):
            pair = connection(self.own(side))
            if pair:
                return Outcome(SIDES[side], Result.CONNECTION, sites=self.chain(side, pair))
        if self.rules.repetition_draw and self.full and self.history.count(self._key()) >= 3:
            return Outcome(DRAW, Result.REPETITION)
        if self._stuck:
            return Outcome(SIDES[last], Result.FORFEIT)
        return None

    def chain(self, side: int, pair: tuple[int, int]) -> tuple[str, ...]:
        """A shortest chain of ``side``'s tokens joining the corner ``pair``, corner to corner."""
        own = self.own(side)
        path = GRAPH.path(pair[0], pair[1], set(indices(own)))
        return tuple(NAMES[n] for n in path or ())

    # ---------------------------------------------------------------- notation
    def parse_move(self, text: str) -> Turn:
        """Read ``c4:e3`` or ``:e3`` (any case, spaces around the parts ignored).

        >>> start().parse_move(" C4 : E3 ")
        Turn(place='c4', land='e3')
        """
        place, sep, land = text.partition(":")
        if not sep:
            raise InvalidMove(f"Cannot read '{text.strip()}'")
        return Turn(_cell(place, text) if place.strip() else None, _cell(land, text))

    def diagram(self) -> str:
        """Rows a..i as on the board: b/r tokens, B/R a pawn on its token, '.' empty."""
        lines = []
        for i in range(2 * SIDE - 1):
            row = [n for n, (ri, _) in enumerate(CELLS) if ri == i]
            marks = " ".join(self._mark(n) for n in row)
            lines.append(" " * abs(SIDE - 1 - i) + f"{NAMES[row[0]]:>3} {marks}")
        return "\n".join(lines)

    def _mark(self, n: int) -> str:
        if not self.tokens >> n & 1:
            return "."
        mark = "b" if self.blue >> n & 1 else "r"
        return mark.upper() if n in self.pawns else mark

    def status_lines(self) -> list[str]:
        pool = len(CELLS) - self.tokens.bit_count()
        return [
            N_("Pawns: blue {blue}, red {red}").format(blue=self.pawn("blue"), red=self.pawn("red")),
            ngettext("Pool: {n} token", "Pool: {n} tokens", pool).format(n=pool),
        ]

    # ---------------------------------------------------------- physical contract
    def sites(self) -> tuple[Site, ...]:
        return SITES

    def occupied(self) -> frozenset[str]:
        return names_of(self.tokens)

    def figures(self) -> tuple[Figure, ...]:
        """Every token with its face up, and both pawns standing on their tokens."""
        faces = self.faces()
        tokens = tuple(Figure(face, (site,), "token") for site, face in faces.items())
        return tokens + tuple(Figure(side, (self.pawn(side),), "pawn") for side in SIDES)

    def piece_sets(self) -> tuple[PieceSet, ...]:
        """A token for every cell, one face of each colour, and a pawn a side that no switch
        reads (it stands on a token)."""
        cell = (NAMES[0],)
        return (
            PieceSet(
                "token", len(NAMES), ("/".join(SIDES),), cell, note="two-faced: one face of each colour"
            ),
            PieceSet("pawn", 1, SIDES, cell, sensed=False, note="stands on a token"),
        )

    def faces(self) -> dict[str, str]:
        return {NAMES[n]: "blue" if self.blue >> n & 1 else "red" for n in indices(self.tokens)}

    def flips(self, move: Turn) -> frozenset[str]:
        """Cells to turn over after the hand has placed the token face up: placement and path
        flips together, a cell flipped twice left out."""
        _, _, placed, path = self._after(move)
        return names_of(placed ^ path)

    def hand_kinds(self) -> frozenset[str]:
        """Every turn places a token by hand (the rest are follow-ups), without working out
        where each turn's pawn lands."""
        return frozenset({"place"}) if self.legal_moves() else frozenset()

    def realisations(self, move: Turn) -> tuple[Realisation, ...]:
        """In the rules' order: the hand places the token; the player flips its neighbours,
        picks the landing token (a tap or the buttons; the pawn is never sensed), then flips the
        tokens the pawn passed. A flip lifts a token and sets it back, so the sensors see it.

        >>> s = start()
        >>> [(f.action, sorted(f.sites)) for f in s.realisations(s.parse_move("b1:a1"))[0].follow_ups]
        [('flip', ['a1']), ('pick', ['a1']), ('flip', ['b1'])]
        """
        _, _, placed, path = self._after(move)
        steps = [FollowUp("flip", names_of(placed))] if placed else []
        steps.append(FollowUp("pick", frozenset({move.land}), N_("Tap the token your pawn lands on")))
        if path:
            steps.append(FollowUp("flip", names_of(path)))
        filled = frozenset({move.place}) if move.place else frozenset()
        return (Realisation(frozenset(), filled, tuple(steps)),)

    def refusal(self, emptied: frozenset[str], filled: frozenset[str]) -> str | None:
        """A token placed where no pawn move follows.

        >>> s = start()
        >>> s.refusal(frozenset(), frozenset({"c3"}))
        'c3 leaves the pawn no move'
        """
        if emptied or len(filled) != 1 or self.outcome():
            return None
        (name,) = filled
        if name in INDEX and not self.tokens >> INDEX[name] & 1 and not self._landings(INDEX[name]):
            return N_("{site} leaves the pawn no move").format(site=name)
        return None

    def markers(self) -> dict[str, str]:
        """The tokens the two pawns stand on (pawns are never sensed): site -> side."""
        return {NAMES[n]: side for n, side in zip(self.pawns, SIDES)}

    def moves_for_change(
        self, emptied: frozenset[str], filled: frozenset[str]
    ) -> list[tuple[Turn, Realisation, int]]:
        """Turns whose hand change leaves the sensed board: one new token on a legal placement
        cell (all its landings), or no change at all on a full board (all pawn-only turns)."""
        board = self.occupied()
        sensed = (board - emptied) | filled
        if self.outcome() or not board <= sensed:
            return []
        added = sensed - board
        if len(added) > 1 or (not added and not self.full):
            return []
        p = INDEX[next(iter(added))] if added else PASS
        if p == PASS and not self.rules.full_board_turn:
            return []
        turns = (TURNS[p][land] for land in indices(self._landings(p)))
        return [(t, self.realisations(t)[0], 0) for t in turns]

    def targets(self, site: str) -> frozenset[str]:
        """No turn lifts a token, so a lift never completes a turn."""
        return frozenset()


def _cell(part: str, text: str) -> str:
    cell = parse_cell(part)
    if cell is None:
        raise InvalidMove(f"Cannot read '{text.strip()}'")
    if not on_board(SIDE, *cell):
        raise InvalidMove(f"No cell {part.strip().lower()}")
    return cell_name(*cell)


def start(rules: HouseRules = HouseRules()) -> AntipodeState:
    """The set-up (corner tokens alternating, the pawns on e1 and e9), Blue to move, with
    the house ``rules`` in force."""
    return AntipodeState.setup(START_BLUE, START_RED, START_PAWNS, rules=rules)
