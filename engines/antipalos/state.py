"""Antipalos's rules: Phase One (placing) and Phase Two (moving), the win, match-play scores,
the repetition draw, and the physical contract, as docs/games/antipalos.md and its "Rulings"
give them.

>>> s = start(4, supply=2).play("B2*").play("*A4").play("C3*")
>>> s.to_move, s.phase, s.legal_count()
('black', 1, 26)
>>> s = s.play("*D1")
>>> s.phase, s.legal_count(), str(s.legal_moves()[0])
(2, 50, 'B2* - A1*')
>>> sorted(s.targets("B2*"))[:3], s.targets("*A4")
(['*A1', '*A2', '*A3'], frozenset())
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from engines.antipalos.board import (
    EAST,
    NORTH,
    SOUTH,
    WEST,
    Geometry,
    Move,
    Place,
    Shift,
    Spot,
    geometry,
    parse_move,
    rotate,
    spots,
)
from engines.antipalos.distance import contested, paths, remaining
from engines.core import (
    DRAW,
    GameState,
    IllegalMove,
    InvalidMove,
    OptionError,
    Outcome,
    Realisation,
    Result,
    Site,
)
from engines.core.drawing import Figure, PieceSet
from engines.core.tally import Tally
from engines.core.words import N_

COLOURS = ("white", "black", "red", "blue")
#: The points a match may go to (Chart A rates each win, :meth:`AntipalosState.win_outcome`).
TARGETS = (6, 9, 15)
#: Variant -> (seat names in clockwise turn order, side index of each seat, seat view turns).
VARIANTS = {
    "two": (("white", "black"), (0, 1), (0, 2)),
    "team": (("A1", "B1", "A2", "B2"), (0, 1, 0, 1), (0, 1, 2, 3)),
    "cut-throat-3": (("white", "black", "red"), (0, 1, 2), (0, 1, 2)),
    "cut-throat-4": (("white", "black", "red", "blue"), (0, 1, 2, 3), (0, 1, 2, 3)),
}
MARKS = {"white": "w", "black": "b", "red": "r", "blue": "u"}


class Setup(NamedTuple):
    """What stays fixed during one game: board, variant, supply, who begins, options."""

    size: int
    variant: str
    supply: int
    start: int = 0
    repetition_draw: bool = True

    @property
    def geo(self) -> Geometry:
        return geometry(self.size)

    @property
    def seats(self) -> tuple[str, ...]:
        return VARIANTS[self.variant][0]

    @property
    def seat_sides(self) -> tuple[int, ...]:
        return VARIANTS[self.variant][1]

    @property
    def side_count(self) -> int:
        return len(set(self.seat_sides))

    def view_turns(self, view: str) -> int:
        """Quarter turns from the board frame to a seat's (or a side's first seat's) view."""
        seats, seat_sides, turns = VARIANTS[self.variant]
        if view in seats:
            return turns[seats.index(view)]
        if view in COLOURS[: self.side_count]:
            return turns[seat_sides.index(COLOURS.index(view))]
        names = ", ".join(dict.fromkeys(seats + COLOURS[: self.side_count]))
        raise OptionError(f"no point of view {view!r} (choose from {names})")


def default_supply(size: int, sides: int) -> int:
    """3N/2 per side, fewer only when the board is too small to hold them all."""
    return min(3 * size // 2, size * size // sides)


def start(
    size: int = 12,
    variant: str = "two",
    supply: int | None = None,
    first: str | None = None,
    repetition_draw: bool = True,
) -> "AntipalosState":
    """A new game. ``supply``: Trirods per side (3N/2 or an equal smaller number); ``first``:
    the side that begins (the loser of the previous game in a match); ``repetition_draw``: the
    house rule that a third repetition in Phase Two is a draw."""
    if not 3 <= size <= 26:
        raise OptionError(f"antipalos has no size {size} (3 to 26)")
    if variant not in VARIANTS:
        names = ", ".join(VARIANTS)
        raise OptionError(f"antipalos has no variant {variant!r} (choose from {names})")
    setup = Setup(size, variant, 0, 0, repetition_draw)
    sides = setup.side_count
    most = default_supply(size, sides)
    supply = most if supply is None else supply
    if not 1 <= supply <= most:
        raise OptionError(f"supply must be 1 to {most} Trirods per side on {size}x{size}")
    start = 0
    if first is not None:
        if first not in COLOURS[:sides]:
            names = ", ".join(COLOURS[:sides])
            raise OptionError(f"no side {first!r} in {variant} (sides: {names})")
        start = setup.seat_sides.index(COLOURS.index(first))
    setup = setup._replace(supply=supply, start=start)
    return AntipalosState(setup, (0,) * (size * size), (supply,) * sides, 0)


@dataclass(frozen=True)
class AntipalosState(GameState[Move]):
    """A position. ``cells[r*N + c]`` is 0 (empty) or ``2*side + diag + 1``; ``left`` the
    supply left per side; ``history`` the Phase Two positions (for the repetition draw)."""

    setup: Setup
    cells: tuple[int, ...]
    left: tuple[int, ...]
    turn: int
    history: Tally | None = field(default=None, repr=False)
    result: Outcome | None = None
    TAKES = False  # no move takes a piece off

    # ---------------------------------------------------------------- who and when
    @property
    def ply(self) -> int:
        return self.turn

    @property
    def seat(self) -> int:
        return (self.setup.start + self.turn) % len(self.setup.seats)

    @property
    def side(self) -> int:
        """Index (in :data:`COLOURS`) of the side to move, even when the game is over."""
        return self.setup.seat_sides[self.seat]

    @property
    def to_move(self) -> str | None:
        return None if self.result else COLOURS[self.side]

    @property
    def player(self) -> str:
        """The seat to move: the side, or in Team play the player (A1, B1, A2, B2)."""
        return self.setup.seats[self.seat]

    @property
    def seat_sides(self) -> tuple[str, ...]:
        """Team play's four players sit A1, B1, A2, B2: white, black, white, black."""
        return tuple(COLOURS[s] for s in self.setup.seat_sides)

    @property
    def players(self) -> tuple[str, ...]:
        """Every seat, in turn order from the first: in Team play each of the four players.

        >>> from engines.antipalos import new
        >>> new(3, "team", first="black").players, new(3, "team").player_side("B2")
        (('B1', 'A2', 'B2', 'A1'), 'black')
        """
        seats = self.setup.seats
        return tuple(seats[(self.setup.start + i) % len(seats)] for i in range(len(seats)))

    @property
    def player_to_move(self) -> str | None:
        return None if self.result else self.player

    def player_side(self, player: str) -> str:
        return COLOURS[self.setup.seat_sides[self.setup.seats.index(player)]]

    @property
    def sides(self) -> tuple[str, ...]:
        seats = self.setup.seat_sides
        order = [seats[(self.setup.start + i) % len(seats)] for i in range(len(seats))]
        return tuple(COLOURS[s] for s in dict.fromkeys(order))

    @property
    def phase(self) -> int:
        """1 while supplies last, and in a game won by its last placement (Phase Two begins only
        when every supply is placed and nobody has won)."""
        placements = self.setup.side_count * self.setup.supply
        return 1 if any(self.left) or (self.result and self.ply <= placements) else 2

    # ---------------------------------------------------------------- rules
    def trirods(self, side: str) -> tuple[Spot, ...]:
        """The spots of ``side``'s Trirods on the board."""
        code = COLOURS.index(side) * 2 + 1
        at = self.setup.geo.spots
        return tuple(at[sq * 2 + v - code] for sq, v in enumerate(self.cells) if 0 <= v - code <= 1)

    def empty_squares(self) -> list[int]:
        return [sq for sq, v in enumerate(self.cells) if not v]

    def legal_moves(self) -> tuple[Move, ...]:
        if self.result:
            return ()
        spots_ = self.setup.geo.spots
        targets = [spots_[sq * 2 + d] for sq in self.empty_squares() for d in (0, 1)]
        if self.phase == 1:
            return tuple(Place(t) for t in targets)
        own = self.trirods(COLOURS[self.side])
        return tuple(Shift(src, to) for src in own for to in (*targets, src.turned))

    def random_move(self, rng: random.Random) -> Move:
        """A uniform legal move without listing Phase Two's thousands: every Trirod has the same
        number of destinations (both diagonals of each empty square, or turning in place)."""
        return self.random_moves(rng, 1)[0]

    def random_moves(self, rng: random.Random, count: int) -> list[Move]:
        empty = self.empty_squares()
        if self.phase == 1:
            spots_ = self.setup.geo.spots
            return [Place(spots_[rng.choice(empty) * 2 + rng.randrange(2)]) for _ in range(count)]
        own = self.trirods(COLOURS[self.side])
        return self._shifts(rng, own, [sq * 2 + d for sq in empty for d in (0, 1)], count)

    def _shifts(self, rng: random.Random, own: tuple[Spot, ...], sites: list[int], count: int) -> list[Move]:
        """``count`` uniform draws (repeats possible) of one of ``own`` Trirods taken to one of
        the empty ``sites`` or turned in place."""
        spots_ = self.setup.geo.spots
        drawn: list[Move] = []
        for _ in range(count):
            src, pick = rng.choice(own), rng.randrange(len(sites) + 1)
            drawn.append(Shift(src, spots_[sites[pick]] if pick < len(sites) else src.turned))
        return drawn

    def search_moves(self, rng: random.Random, width: int) -> list[Move] | None:
        """The moves that bring a Trirod to a square on some side's cheapest connection
        (:func:`~engines.antipalos.distance.contested`), and in Phase Two those turning one in
        place: elsewhere it neither shortens its owner's distance nor lengthens another's.
        Phase Two draws ``width`` of them (with repeats) where there are more."""
        if self.result:
            return None
        squares = contested(self.cells, self.setup.size, tuple(set(self.setup.seat_sides)))
        if not squares:
            return None
        sites = [sq * 2 + d for sq in squares for d in (0, 1)]
        spots_ = self.setup.geo.spots
        if self.phase == 1:
            return [Place(spots_[site]) for site in rng.sample(sites, min(width, len(sites)))]
        own = self.trirods(COLOURS[self.side])
        if len(own) * (len(sites) + 1) > width:
            return list(dict.fromkeys(self._shifts(rng, own, sites, width)))
        moves: list[Move] = [
            Shift(src, to) for src in own for to in (*(spots_[s] for s in sites), src.turned)
        ]
        rng.shuffle(moves)
        return moves

    def legal_count(self) -> int:
        if self.result:
            return 0
        setup = self.setup
        squares = setup.size * setup.size
        if self.phase == 1:
            return 2 * (squares - setup.side_count * setup.supply + sum(self.left))
        return setup.supply * (2 * (squares - setup.side_count * setup.supply) + 1)

    def hand_kinds(self) -> frozenset[str]:
        """Phase One places a Trirod, Phase Two moves one (turning it in place too), without
        listing Phase Two's thousands of moves."""
        if not self.legal_count():
            return frozenset()
        return frozenset({"place" if self.phase == 1 else "move"})

    def check(self, move: Move) -> None:
        if not isinstance(move, (Place, Shift)):
            raise InvalidMove("Not an Antipalos move")
        geo = self.setup.geo
        for spot in spots(move):
            if not geo.on_board(spot):
                raise InvalidMove(f"No square {spot.square} on this board")
        if self.phase == 1 and isinstance(move, Shift):
            raise IllegalMove(N_("Phase One: place a Trirod, do not move one"))
        if self.phase == 2 and isinstance(move, Place):
            raise IllegalMove(N_("Phase Two: move a Trirod ({site} - ...)").format(site=move.to))
        if isinstance(move, Shift):
            self._check_source(move)
            if move.to.col == move.src.col and move.to.row == move.src.row:
                return
        if self.cells[geo.site_of(move.to) >> 1]:
            raise IllegalMove(N_("{site} already holds a Trirod").format(site=move.to.square))

    def _check_source(self, move: Shift) -> None:
        src = move.src
        code = self.cells[self.setup.geo.site_of(src) >> 1]
        if not code:
            raise IllegalMove(N_("No Trirod on {site}").format(site=src.square))
        owner = (code - 1) >> 1
        if owner != self.side:
            raise IllegalMove(N_("{site} holds {side}'s Trirod").format(site=src.square, side=COLOURS[owner]))
        if (code - 1) & 1 != src.diag:
            raise IllegalMove(N_("The Trirod on {site} lies {way}").format(site=src.square, way=src.turned))
        if move.to == src:
            raise IllegalMove(N_("{move} moves nothing").format(move=move))

    def apply(self, move: Move) -> "AntipalosState":
        geo, side = self.setup.geo, self.side
        site = geo.site_of(move.to)
        cells = list(self.cells)
        left = self.left
        if isinstance(move, Place):
            left = left[:side] + (left[side] - 1,) + left[side + 1 :]
        else:
            cells[geo.site_of(move.src) >> 1] = 0
        cells[site >> 1] = 2 * side + (site & 1) + 1
        after = AntipalosState(self.setup, tuple(cells), left, self.turn + 1)
        won = after.winning_component(site)
        if won is not None:
            return replace(after, result=after.win_outcome(won, isinstance(move, Place)))
        if any(left) or not self.setup.repetition_draw:
            return after
        key = (after.cells, after.side)
        history = (self.history or Tally()).push(key)
        draw = Outcome(DRAW, Result.REPETITION) if history.count(key) >= 3 else None
        return replace(after, history=history, result=draw)

    def outcome(self) -> Outcome | None:
        return self.result

    def evaluate(self, side: str) -> float:
        """The connection distance (Trirods still needed to join two opposite borders) of the
        nearest other side less ``side``'s own, each weighed by how easily it is blocked
        (``distance.remaining``)."""
        mine = COLOURS.index(side)
        others = tuple(s for s in set(self.setup.seat_sides) if s != mine)
        found = [remaining(*way) for way in paths(self.cells, self.setup.size, (mine, *others))]
        return min(found[1:]) - found[0]

    # ---------------------------------------------------------------- the win
    def component(self, site: int) -> set[int]:
        """The sites of the connected Trirods of one colour containing the one on ``site``."""
        cells, neighbours = self.cells, self.setup.geo.neighbours
        base = cells[site >> 1] - (site & 1)
        seen, stack = {site}, [site]
        while stack:
            for n in neighbours[stack.pop()]:
                if n not in seen and cells[n >> 1] == base + (n & 1):
                    seen.add(n)
                    stack.append(n)
        return seen

    def winning_component(self, site: int) -> set[int] | None:
        """The component through ``site`` if it joins West-East or South-North, else None.

        Only the mover's pieces change and a game stops at its first win, so a new win always
        runs through the Trirod just placed or moved: one flood from it is the whole check
        (also when a move splits the component it left)."""
        found = self.component(site)
        borders = self.setup.geo.borders
        bits = 0
        for s in found:
            bits |= borders[s]
        joined = (bits & (WEST | EAST)) == WEST | EAST or (bits & (SOUTH | NORTH)) == SOUTH | NORTH
        return found if joined else None

    def win_outcome(self, won: set[int], phase_one: bool) -> Outcome:
        """The mover's win with its match-play category (Chart A)."""
        geo = self.setup.geo
        n = self.setup.size
        squares = {s >> 1 for s in won}
        corners = ({0, n * n - 1} <= squares) or ({n - 1, n * (n - 1)} <= squares)
        bits = 0
        for s in won:
            bits |= geo.borders[s]
        three = bin(bits).count("1") >= 3
        score = 5 if corners else (4 if three else 3) if phase_one else (2 if three else 1)
        labels = tuple(geo.labels[s] for s in sorted(won))
        return Outcome(COLOURS[self.side_of(min(won))], Result.CONNECTION, score, labels)

    def side_of(self, site: int) -> int:
        return (self.cells[site >> 1] - 1) >> 1

    # ---------------------------------------------------------------- notation
    def parse_move(self, text: str, view: str | None = None) -> Move:
        """Read a move; ``view``: the seat or side whose point of view the text uses."""
        move = parse_move(text, self.setup.size)
        return self.from_view(move, view) if view else move

    def to_view(self, move: Move, view: str) -> Move:
        """``move`` (board frame) as the player ``view`` names it (180° for the opponent)."""
        return rotate(move, self.setup.view_turns(view), self.setup.size)

    def from_view(self, move: Move, view: str) -> Move:
        """``move`` named from ``view`` in the board frame."""
        return rotate(move, -self.setup.view_turns(view), self.setup.size)

    def notation(self, move: Move, view: str | None = None) -> str:
        return str(self.to_view(move, view) if view else move)

    # ---------------------------------------------------------------- display
    def diagram(self) -> str:
        n = self.setup.size
        letters = " ".join(f" {chr(65 + c)}" for c in range(n))
        lines = [f"    {letters}"]
        for r in range(n - 1, -1, -1):
            cells = self.cells[r * n : (r + 1) * n]
            row = " ".join(self._mark(v) for v in cells)
            lines.append(f"{r + 1:>2}  {row}  {r + 1}")
        lines.append(lines[0])
        sides = COLOURS[: self.setup.side_count]
        legend = "  ".join(f"{MARKS[s]}/ {MARKS[s]}\\ {s}" for s in sides)
        lines.append(f"    {legend}")
        return "\n".join(lines)

    @staticmethod
    def _mark(code: int) -> str:
        if not code:
            return " ."
        return MARKS[COLOURS[(code - 1) >> 1]] + "/\\"[(code - 1) & 1]

    def status_lines(self) -> list[str]:
        lines = []
        if self.phase == 1:
            left = " · ".join(f"{COLOURS[i].capitalize()} {n}" for i, n in enumerate(self.left))
            lines.append(N_("In hand: {counts}").format(counts=left))
        elif not self.result:
            lines.append(N_("Move or turn a Trirod"))
            if not self.setup.repetition_draw:
                lines.append(N_("No repetition draw"))
        if self.setup.variant == "team" and not self.result:
            lines.append(N_("Player {player} to move").format(player=self.player))
        return lines

    # ---------------------------------------------------------------- physical contract
    def sites(self) -> tuple[Site, ...]:
        return self.setup.geo.sites

    def figures(self) -> tuple[Figure, ...]:
        """Each Trirod, in its owner's colour, on the segment it lies along."""
        labels = self.setup.geo.labels
        return tuple(
            Figure(COLOURS[(v - 1) >> 1], (labels[sq * 2 + ((v - 1) & 1)],), "trirod")
            for sq, v in enumerate(self.cells)
            if v
        )

    def piece_sets(self) -> tuple[PieceSet, ...]:
        """Each side's supply of Trirods."""
        sides = COLOURS[: self.setup.side_count]
        return (PieceSet("trirod", self.setup.supply, sides, self.setup.geo.labels[:1]),)

    def occupied(self) -> frozenset[str]:
        labels = self.setup.geo.labels
        return frozenset(labels[sq * 2 + ((v - 1) & 1)] for sq, v in enumerate(self.cells) if v)

    def realisations(self, move: Move) -> tuple[Realisation, ...]:
        emptied = frozenset({str(move.src)}) if isinstance(move, Shift) else frozenset()
        return (Realisation(emptied=emptied, filled=frozenset({str(move.to)})),)

    def moves_for_change(
        self, emptied: frozenset[str], filled: frozenset[str]
    ) -> list[tuple[Move, Realisation, int]]:
        """Phase One: one filled site; Phase Two: one emptied own Trirod and one filled site."""
        if self.result or len(filled) != 1 or len(emptied) != (self.phase == 2):
            return []
        index, spots_ = self.setup.geo.index, self.setup.geo.spots
        try:
            to = spots_[index[next(iter(filled))]]
            move: Move = Shift(spots_[index[next(iter(emptied))]], to) if emptied else Place(to)
            self.check(move)
        except (KeyError, IllegalMove):
            return []
        return [(move, self.realisations(move)[0], 0)]

    def targets(self, site: str) -> frozenset[str]:
        """Phase Two, a lifted Trirod of the side to move: both sites of every empty square and
        the other diagonal of its own square. Otherwise nothing."""
        geo = self.setup.geo
        index = geo.index.get(site)
        if self.result or self.phase == 1 or index is None:
            return frozenset()
        if self.cells[index >> 1] != 2 * self.side + (index & 1) + 1:
            return frozenset()
        labels = geo.labels
        out = {labels[index ^ 1]}
        for sq in self.empty_squares():
            out.add(labels[2 * sq])
            out.add(labels[2 * sq + 1])
        return frozenset(out)
