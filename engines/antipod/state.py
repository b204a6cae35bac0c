"""Antipod's rules (Cameron Browne, 2003: Hex on a sphere), as docs/games/antipod.md and its
"Rulings" give them: a position, its moves, both wins, notation and the physical contract.

Two hexagonal boards of radius r are the two halves of a sphere (:mod:`engines.antipod.board`).
Black starts on both centres, White on the six corners; White moves first. Black wins with a
chain of black stones joining the centres ("connection"); White wins when no path of
black-or-empty points joins them ("ring").

Both win tests are incremental, on one union-find over two nodes per point:

* Black joins node ``2p`` to ``2q`` for black neighbours; Black has won when the centres' nodes
  meet.
* For White, a fixed curve runs from one centre to the other through the triangles of the sphere;
  each edge gets a bit: does the curve cross it? A White cycle separates the centres exactly when
  it crosses the curve an odd number of times. White joins ``2p+a`` to ``2q+(a^bit)`` (a parity
  union-find), so an odd cycle shows as ``2p`` and ``2p+1`` meeting.

>>> s = start(6)
>>> s.to_move, s.legal_count(), len(s.sites())
('white', 144, 182)
>>> str(s.parse_move("a12+")), str(s.parse_move("f14"))
('a1', 'f14')
>>> t = s.play("a3"); t.to_move, sorted(t.occupied() - s.occupied())
('black', ['a14', 'a3'])
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import cached_property

from engines.antipod.board import Place, Sphere, is_edge, sphere_of
from engines.core import FollowUp, GameState, IllegalMove, InvalidMove, Outcome, Realisation, Result, Site
from engines.core.drawing import Figure, PieceSet
from engines.core.graph import Graph, UnionFind
from engines.core.hexgrid import cell_name, parse_cell, row_range
from engines.core.state import Playout
from engines.core.words import N_, ngettext

SIDES = ("white", "black")
EMPTY, WHITE, BLACK = 0, 1, 2
STONE = {EMPTY: ".", WHITE: "o", BLACK: "x"}
COLOUR = {mark: colour for colour, mark in STONE.items()}


# --------------------------------------------------------------------------------- state
@dataclass(frozen=True)
class AntipodState(GameState[Place]):
    """A position: the radius, one byte per point (0 empty, 1 white, 2 black) and the number of
    moves played. ``links``/``winner`` are derived (built in ``__post_init__`` when absent)."""

    radius: int
    board: bytes
    plies: int = 0
    links: UnionFind | None = field(default=None, compare=False, repr=False)
    winner: str | None = field(default=None, compare=False, repr=False)
    TAKES = False  # no move takes a piece off

    def __post_init__(self) -> None:
        if self.links is None:
            object.__setattr__(self, "links", _links_from_scratch(self.sphere, self.board))
            black, white = self.win_flags()
            object.__setattr__(self, "winner", "black" if black else "white" if white else None)

    @property
    def sphere(self) -> Sphere:
        return sphere_of(self.radius)

    @property
    def _union(self) -> UnionFind:
        """The links (made in ``__post_init__`` when not given)."""
        links = self.links
        assert links is not None
        return links

    # ----------------------------------------------------------------------- rules
    @property
    def sides(self) -> tuple[str, ...]:
        return SIDES

    @property
    def ply(self) -> int:
        return self.plies

    @property
    def to_move(self) -> str | None:
        return None if self.winner else SIDES[self.plies % 2]

    def legal_moves(self) -> tuple[Place, ...]:
        if self.winner:
            return ()
        moves = self.sphere.moves
        return tuple(moves[p] for p, v in enumerate(self.board) if v == EMPTY)

    def legal_count(self) -> int:
        return 0 if self.winner else self.board.count(EMPTY)

    def check(self, move: Place) -> None:
        if self.winner:
            raise IllegalMove("The game is over")
        if not isinstance(move, Place):
            raise InvalidMove(f"Cannot read '{move}'")
        p = self.sphere.point(move.point)
        if p is None:
            raise InvalidMove(f"{move.point} is off the board")
        if self.board[p] != EMPTY:
            raise IllegalMove(N_("{site} is already taken").format(site=self.sphere.graph.labels[p]))

    def apply(self, move: Place) -> "AntipodState":
        sphere = self.sphere
        p = sphere.names[move.point]
        colour = BLACK if self.plies % 2 else WHITE
        board = self.board[:p] + bytes((colour,)) + self.board[p + 1 :]
        links = self._union.copy()
        _join(links, sphere, board, p)
        winner = _winner_after(links, sphere, p, colour)
        return AntipodState(self.radius, board, self.plies + 1, links, winner)

    def outcome(self) -> Outcome | None:
        return self._outcome if self.winner else None

    def playout(self, rng: random.Random, limit: int) -> Playout[Place]:
        """A random game by filling every empty point, turn by turn: on a full board Black has
        won exactly when a black chain joins the centres, and filling on after a win changes
        no winner (a chain stays joined, a ring stays closed), so one flood decides it."""
        if self.winner:
            return self.winner, []
        board = bytearray(self.board)
        empty = [p for p, v in enumerate(board) if v == EMPTY]
        rng.shuffle(empty)
        moves = self.sphere.moves
        played: list[tuple[str, Place]] = []
        for index, p in enumerate(empty):
            turn = (self.plies + index) % 2
            board[p] = BLACK if turn else WHITE
            played.append((SIDES[turn], moves[p]))
        start, goal = self.sphere.centres
        black = [p for p, v in enumerate(board) if v == BLACK]
        joined = goal in self.sphere.graph.flood([start], set(black))
        return ("black" if joined else "white"), played

    @cached_property
    def _outcome(self) -> Outcome:
        if self.winner == "black":
            return Outcome("black", Result.CONNECTION, None, self.black_chain())
        return Outcome("white", Result.RING, None, self.white_ring())

    def win_flags(self) -> tuple[bool, bool]:
        """(Black's centres are joined, White has a separating ring), read from the links
        without a search; at most one holds, and on a full board exactly one."""
        sphere, board = self.sphere, self.board
        links = self._union
        black = _winner_after(links, sphere, sphere.centres[0], BLACK) is not None
        white = any(v == WHITE and _winner_after(links, sphere, p, WHITE) for p, v in enumerate(board))
        return black, white

    def black_chain(self) -> tuple[str, ...]:
        """A shortest chain of black stones from the left centre to the right one (or ())."""
        sphere = self.sphere
        black = {p for p, v in enumerate(self.board) if v == BLACK}
        path = sphere.graph.path(*sphere.centres, black) or ()
        return tuple(sphere.graph.labels[p] for p in path)

    def white_ring(self) -> tuple[str, ...]:
        """A minimal set of White stones cutting the centres apart, in point order (or ()).

        R = the black-or-empty points reachable from the left centre; C = the points reachable
        from the right centre without crossing R's White neighbours; the ring is C's
        neighbourhood. Every ring stone touches both R and C, so lifting any one of them
        reconnects the centres: the set is minimal.
        """
        graph, (left, right) = self.sphere.graph, self.sphere.centres
        everywhere = range(len(self.board))
        region = graph.flood([left], {p for p in everywhere if self.board[p] != WHITE})
        if right in region:
            return ()
        fence = _boundary(graph, region)
        far = graph.flood([right], set(everywhere) - fence)
        return tuple(graph.labels[p] for p in sorted(_boundary(graph, far)))

    # -------------------------------------------------------------------- notation
    def parse_move(self, text: str) -> Place:
        """A point by either board's name; an edge point may carry the records' ``+`` mark.

        >>> s = start(6)
        >>> s.parse_move("F6"), s.parse_move(" a14+ "), s.parse_move("k17")
        (Place(point='f6'), Place(point='a3'), Place(point='k6'))
        >>> s.parse_move("f5+")
        Traceback (most recent call last):
        engines.core.errors.InvalidMove: f5 is not an edge point: only edge points carry '+'
        """
        name = str(text).strip().lower()
        marked = name.endswith("+")
        name = name.removesuffix("+")
        cell = parse_cell(name)
        if cell is None:
            hint = " ('+' goes after an edge point's name: a3+)" if "+" in name else ""
            raise InvalidMove(f"Cannot read '{text}'{hint}")
        p = self.sphere.point(cell_name(*cell))
        if p is None:
            raise InvalidMove(f"{name} is off the board")
        if marked and len(self.sphere.site_names[p]) < 2:
            raise InvalidMove(f"{name} is not an edge point: only edge points carry '+'")
        return self.sphere.moves[p]

    def record_notation(self, move: Place) -> str:
        """The move as records write it: an edge point's canonical name marked ``+``.

        >>> s = start(6)
        >>> s.record_notation(s.parse_move("a14")), s.record_notation(s.parse_move("f5"))
        ('a3+', 'f5')
        """
        edge = len(self.sphere.site_names[self.sphere.names[move.point]]) > 1
        return f"{move.point}+" if edge else move.point

    def diagram(self) -> str:
        """Both boards side by side, pbmserv style (o White, x Black, . empty); readable back by
        :meth:`from_diagram`."""
        r = self.radius
        shift, width = 2 * r - 1, 5 * r
        lines = []
        for i in range(2 * r - 1):
            indent = " " * abs(i - (r - 1))
            cols = row_range(r, i)
            halves = [
                indent + " ".join(self._mark(cell_name(i, c + b * shift)) for c in cols) for b in (0, 1)
            ]
            letter = chr(ord("a") + i)
            ranges = f"{letter}{cols[0]}-{cols[-1]}  {letter}{cols[0] + shift}-{cols[-1] + shift}"
            lines.append(f"{letter}  {halves[0]:<{width}}{halves[1]:<{width}}{ranges}")
        return "\n".join(lines)

    def _mark(self, name: str) -> str:
        return STONE[self.board[self.sphere.names[name]]]

    @classmethod
    def from_diagram(cls, text: str) -> "AntipodState":
        """The position drawn in ``text``: lines of a row letter followed by that row's points on
        both boards (o, x or .; other tokens are ignored), as in :meth:`diagram` or the pbmserv
        help. Moves played are inferred from the stone counts (White moves first)."""
        rows = _diagram_rows(text)
        r = (len(rows) + 1) // 2
        if len(rows) % 2 == 0 or not 2 <= r <= 13:
            raise ValueError(f"a diagram needs 2r-1 rows a, b, ...; found {len(rows)}")
        sphere = sphere_of(r)
        board = bytearray(len(sphere.graph.labels))
        shift = 2 * r - 1
        for i, tokens in enumerate(rows):
            cols = row_range(r, i)
            if len(tokens) != 2 * len(cols):
                raise ValueError(f"row {chr(ord('a') + i)} needs {2 * len(cols)} points")
            for b in (0, 1):
                for c, token in zip(cols, tokens[b * len(cols) :]):
                    p = sphere.names[cell_name(i, c + b * shift)]
                    colour = COLOUR[token]
                    if b and is_edge(r, i, c) and board[p] != colour:
                        raise ValueError(f"edge point {cell_name(i, c)} differs on the two boards")
                    board[p] = colour
        return cls(r, bytes(board), _plies(sphere, board))

    def status_lines(self) -> list[str]:
        empty = self.board.count(EMPTY)
        return [
            N_("White {white} Black {black}").format(
                white=self.board.count(WHITE), black=self.board.count(BLACK)
            ),
            ngettext("{n} empty point", "{n} empty points", empty).format(n=empty),
        ]

    # ---------------------------------------------------------- the physical contract
    def sites(self) -> tuple[Site, ...]:
        return self.sphere.sites

    def figures(self) -> tuple[Figure, ...]:
        """Every stone in its colour (an edge point has one on each of its sites)."""
        names = self.sphere.site_names
        return tuple(
            Figure(SIDES[v - 1], (site,), "stone") for p, v in enumerate(self.board) if v for site in names[p]
        )

    def piece_sets(self) -> tuple[PieceSet, ...]:
        """Stones enough for any game: a side's stones on the board, one for each turn it can
        still have and a second for each edge point it may take (its twin site)."""
        names = self.sphere.site_names
        free = [p for p, v in enumerate(self.board) if not v]
        turns = -(-len(free) // 2)
        edges = sum(len(names[p]) == 2 for p in free)
        held = max(sum(len(names[p]) for p, v in enumerate(self.board) if v == side) for side in (1, 2))
        return (PieceSet("stone", held + turns + min(turns, edges), SIDES, names[0][:1]),)

    def occupied(self) -> frozenset[str]:
        names = self.sphere.site_names
        return frozenset(s for p, v in enumerate(self.board) if v for s in names[p])

    def sites_of(self, name: str) -> tuple[str, ...]:
        """Both sites of an edge point, else the point's one site.

        >>> start(6).sites_of("a1")
        ('a1', 'a12')
        """
        return self.sphere.site_names[self.sphere.names[name]]

    def realisations(self, move: Place) -> tuple[Realisation, ...]:
        """Interior point: its one site. Edge point: either site by hand, then its twin."""
        sites = self.sphere.site_names[self.sphere.names[move.point]]
        if len(sites) == 1:
            return (Realisation(frozenset(), frozenset(sites)),)
        return tuple(
            Realisation(frozenset(), frozenset({hand}), (FollowUp("twin", frozenset({twin})),))
            for hand, twin in (sites, sites[::-1])
        )

    def moves_for_change(
        self, emptied: frozenset[str], filled: frozenset[str]
    ) -> list[tuple[Place, Realisation, int]]:
        """As the default, but only the points of the filled sites are candidates."""
        if self.winner:
            return []
        points = {p for site in filled if (p := self.sphere.point(site)) is not None}
        moves = (self.sphere.moves[p] for p in sorted(points) if self.board[p] == EMPTY)
        return self.explain(moves, emptied, filled)

    def targets(self, site: str) -> frozenset[str]:
        """Stones are never lifted in Antipod: no site has targets."""
        return frozenset()


# ------------------------------------------------------------------------------- helpers
def _join(links: UnionFind, sphere: Sphere, board: bytes, p: int) -> None:
    """Join the stone on point ``p`` to its same-coloured neighbours."""
    colour = board[p]
    for q, bit in sphere.links[p]:
        if board[q] == colour:
            if colour == BLACK:
                links.union(2 * p, 2 * q)
            else:
                links.union(2 * p, 2 * q + bit)
                links.union(2 * p + 1, 2 * q + 1 - bit)


def _winner_after(links: UnionFind, sphere: Sphere, p: int, colour: int) -> str | None:
    """The winner once the stone on ``p`` (of ``colour``) has been joined."""
    if colour == BLACK:
        left, right = sphere.centres
        return "black" if links.find(2 * left) == links.find(2 * right) else None
    return "white" if links.find(2 * p) == links.find(2 * p + 1) else None


def _links_from_scratch(sphere: Sphere, board: bytes) -> UnionFind:
    if len(board) != len(sphere.graph.labels) or max(board, default=0) > BLACK:
        raise ValueError(f"a radius-{sphere.radius} board has {len(sphere.graph.labels)} points")
    links = UnionFind(2 * len(board))
    for p, colour in enumerate(board):
        if colour:
            _join(links, sphere, board, p)
    return links


def _boundary(graph: Graph, region: set[int]) -> set[int]:
    """The points outside ``region`` next to it."""
    return {q for p in region for q in graph.neighbours[p] if q not in region}


_ROW = re.compile(r"^\s*([a-z])\s+(.*)$")


def _diagram_rows(text: str) -> list[list[str]]:
    rows: list[list[str]] = []
    for line in text.splitlines():
        m = _ROW.match(line)
        if m is None:
            continue
        tokens = [t for t in m.group(2).split() if t in ("o", "x", ".")]
        if tokens:
            if ord(m.group(1)) - ord("a") != len(rows):
                raise ValueError(f"row {m.group(1)} out of order")
            rows.append(tokens)
    return rows


def _plies(sphere: Sphere, board: bytearray) -> int:
    """Moves played to reach ``board`` from the set-up (White first), from the stone counts."""
    white = board.count(WHITE) - len(sphere.corners)
    black = board.count(BLACK) - len(sphere.centres)
    setup = all(board[p] == WHITE for p in sphere.corners)
    setup = setup and all(board[p] == BLACK for p in sphere.centres)
    if not setup or white - black not in (0, 1):
        raise ValueError(f"not reachable from the set-up: {white} White and {black} Black moves")
    return white + black


def start(radius: int) -> AntipodState:
    """The set-up at ``radius``: Black on both centres, White on the six corners."""
    sphere = sphere_of(radius)
    board = bytearray(len(sphere.graph.labels))
    for p in sphere.corners:
        board[p] = WHITE
    for p in sphere.centres:
        board[p] = BLACK
    return AntipodState(sphere.radius, bytes(board))
