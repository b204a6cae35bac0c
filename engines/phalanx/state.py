"""Phalanx's rules: moves, capture by phalanx, the forced removal, outcomes, notation and the
physical contract, as docs/games/phalanx.md and its "Rulings" give them.

A move names the moving piece's anchor triangle and the anchor triangle it ends on: ``c1se-c3se``.
The anchor is the piece's triangle in its lowest rank (leftmost there), the lower half when the
piece fills that square. After a self-phalanx the opponent's whole turn is removing those pieces:
``xd4se`` (several: ``xd4se,e4sw``; ``x`` alone is read as "the pending removal").

>>> s = start()
>>> s.to_move, s.legal_count(), len(s.pieces)
('green', 88, 30)
>>> s = s.play("A1SE - A2SW")
>>> s.to_move, str(s.parse_move("h8 nw-h7ne"))
('red', 'h8se-h7sw')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Iterable, Iterator

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
from engines.core.drawing import Figure, PieceSet, sets_of
from engines.core.state import Capture
from engines.core.tally import Tally
from engines.core.words import N_
from engines.phalanx.board import (
    FILES,
    INDEX,
    NAMES,
    PLACEMENTS,
    POINTS,
    SHAPES,
    SIZE,
    TABLES,
    Move,
    Piece,
    Removal,
    half_of,
    polygon,
    turned,
)

SIDES = ("green", "red")
#: Captures that win the game (14 of the opponent's 15).
WINNING_CAPTURES = 14
_TRIANGLE = r"[a-h][1-8](?:nw|ne|se|sw)"
_MOVE_RE = re.compile(rf"({_TRIANGLE})[-\u2013]({_TRIANGLE})")
_REMOVAL_RE = re.compile(rf"x((?:[,+]?{_TRIANGLE})*)")
#: Letters in the diagram (Green upper case, Red lower case).
LETTERS = {"Syntagma": "S", "Hoplite": "H", "Archer": "A", "Auxiliary": "X"}


@dataclass(frozen=True)
class Rules:
    """House rules (docs/games/phalanx.md, "Rulings"), both on by default: the third
    repetition and ``quiet_plies`` plies without a capture (None: no limit) end the game,
    decided by points."""

    repetition: bool = True
    quiet_plies: int | None = 200


#: What the repetition rule compares: the pieces, the side to move, a removal due.
Position = tuple[tuple[Piece, ...], int, tuple[Piece, ...]]


@dataclass(frozen=True)
class PhalanxState(GameState[Move | Removal]):
    """A Phalanx position. ``pending``: pieces of the side that just moved that phalanxed
    themselves; the side to move must remove them. ``taken``: pieces each side has captured."""

    pieces: tuple[Piece, ...]
    turn: int = 0
    moves_played: int = 0
    taken: tuple[int, int] = (0, 0)
    pending: tuple[Piece, ...] = ()
    quiet: int = 0
    rules: Rules = Rules()
    history: Tally = field(default_factory=Tally, repr=False)

    def __post_init__(self) -> None:
        if not len(self.history):
            object.__setattr__(self, "history", Tally().push(self._key))

    # ------------------------------------------------------------------ basics
    @property
    def _key(self) -> Position:
        return self.pieces, self.turn, self.pending

    @property
    def sides(self) -> tuple[str, ...]:
        return SIDES

    @property
    def to_move(self) -> str | None:
        return None if self.outcome() else SIDES[self.turn]

    @property
    def ply(self) -> int:
        return self.moves_played

    @cached_property
    def _owner(self) -> list[int]:
        """Triangle -> index of the piece covering it, or -1."""
        owner = [-1] * len(NAMES)
        for i, piece in enumerate(self.pieces):
            for t in piece.rest.triangles:
                owner[t] = i
        return owner

    @cached_property
    def _mask(self) -> int:
        """Quarters covered by any piece."""
        mask = 0
        for piece in self.pieces:
            mask |= piece.rest.mask
        return mask

    def piece_on(self, name: str) -> Piece | None:
        """The piece covering triangle ``name`` (None if empty or not a triangle)."""
        t = INDEX.get(name, -1)
        return self.pieces[self._owner[t]] if t >= 0 and self._owner[t] >= 0 else None

    def points(self) -> dict[str, int]:
        """Points on the board per side: Syntagma 20, Hoplite 15, Archer 10, Auxiliary 5."""
        return dict(self._points)

    @cached_property
    def _points(self) -> dict[str, int]:
        totals = dict.fromkeys(SIDES, 0)
        for piece in self.pieces:
            totals[SIDES[piece.side]] += POINTS[piece.kind]
        return totals

    def material(self) -> dict[str, float]:
        """The points on the board, less the pieces due for removal (what the computer weighs)."""
        totals = self.points()
        for piece in self.pending:
            totals[SIDES[piece.side]] -= POINTS[piece.kind]
        return dict(totals)

    def by_points(self, result: Result) -> Outcome:
        """The game decided by points (a drawn or timed-out game): more points wins, equal draws."""
        green, red = self.points().values()
        winner = DRAW if green == red else SIDES[0 if green > red else 1]
        return Outcome(winner, result)

    # ------------------------------------------------------------------ moves
    def _piece_moves(self, index: int) -> Iterator[tuple[int, int]]:
        """(destination origin, anchor triangle there) of every legal move of piece ``index``."""
        piece = self.pieces[index]
        table = TABLES[piece.shape]
        others = self._mask ^ piece.rest.mask
        for ray in table.rays[piece.origin]:
            for mask, dest in ray:
                if mask & others:
                    break
                if dest >= 0:
                    yield dest, table.rests[dest].anchor

    def _due(self) -> Removal:
        """The removal the side to move owes (anchors in board order; empty when none)."""
        return Removal(tuple(sorted((p.anchor for p in self.pending), key=INDEX.__getitem__)))

    def _moves(self) -> Iterator[Move | Removal]:
        if self.pending:
            yield self._due()
            return
        for i, piece in enumerate(self.pieces):
            if piece.side == self.turn:
                src = piece.anchor
                for _, anchor in self._piece_moves(i):
                    yield Move(src, NAMES[anchor])

    def legal_moves(self) -> tuple[Move | Removal, ...]:
        return self._legal

    @cached_property
    def _legal(self) -> tuple[Move | Removal, ...]:
        """The legal moves, listed once per position (the board, the robot and a search ask
        them again and again)."""
        return () if self.outcome() else tuple(self._moves())

    def hand_kinds(self) -> frozenset[str]:
        """Removing the pieces a phalanx lost when that is due, else moving a piece: known
        without working out each move's captures."""
        if self.outcome() or next(self._moves(), None) is None:
            return frozenset()
        return frozenset({"take" if self.pending else "move"})

    def check(self, move: Move | Removal) -> None:
        if isinstance(move, Removal):
            self._check_removal(move)
        elif isinstance(move, Move):
            self._destination(move)
        else:
            raise InvalidMove(f"Cannot read {move!r}")

    def _check_removal(self, move: Removal) -> None:
        due = self._due()
        if not due.anchors:
            raise IllegalMove(N_("Nothing to remove"))
        if sorted(move.anchors) != sorted(due.anchors):
            raise IllegalMove(N_("Must remove {sites}").format(sites=",".join(due.anchors)))

    def _destination(self, move: Move) -> tuple[int, int]:
        """(index of the moving piece, its destination origin) of a legal move; IllegalMove."""
        if self.pending:
            raise IllegalMove(N_("First remove {sites}").format(sites=",".join(self._due().anchors)))
        for name in (move.frm, move.to):
            if name not in INDEX:
                raise InvalidMove(f"No triangle {name}")
        index = self._owner[INDEX[move.frm]]
        if index < 0:
            raise IllegalMove(N_("No piece on {site}").format(site=move.frm))
        piece = self.pieces[index]
        if piece.side != self.turn:
            raise IllegalMove(N_("{site} is {side}'s").format(site=move.frm, side=SIDES[piece.side]))
        if piece.anchor != move.frm:
            raise IllegalMove(N_("Name it by {site}").format(site=piece.anchor))
        table = TABLES[piece.shape]
        dest = table.by_anchor.get(INDEX[move.to])
        if dest is None:
            raise IllegalMove(N_("{piece} can't go to {site}").format(piece=piece.kind, site=move.to))
        self._walk(piece, dest)
        return index, dest

    def _walk(self, piece: Piece, dest: int) -> None:
        """Raise IllegalMove unless ``piece`` can slide straight to ``dest`` one unit at a time."""
        df, dr = dest % SIZE - piece.origin % SIZE, dest // SIZE - piece.origin // SIZE
        if (df, dr) == (0, 0):
            raise IllegalMove(N_("It is already there"))
        if df and dr and abs(df) != abs(dr):
            raise IllegalMove(N_("Not a straight line"))
        steps = max(abs(df), abs(dr))
        step = (df > 0) - (df < 0) + SIZE * ((dr > 0) - (dr < 0))
        others = self._mask ^ piece.rest.mask
        masks = TABLES[piece.shape].masks
        for k in range(1, steps + 1):
            if masks[piece.origin + k * step] & others:
                raise IllegalMove(N_("Target is occupied") if k == steps else N_("The way is blocked"))

    # ------------------------------------------------------------------ applying
    def _after(self, move: Move | Removal) -> tuple["PhalanxState", tuple[Piece, ...]]:
        """The next state and the pieces the move captures (``move`` known legal)."""
        if isinstance(move, Removal):
            kept = tuple(p for p in self.pieces if p not in self.pending)
            return self._next(kept, (), self.pending), ()
        return self._moved(*self._destination(move))

    def _moved(self, index: int, dest: int) -> tuple["PhalanxState", tuple[Piece, ...]]:
        """:meth:`_after` for piece ``index`` moved to its resting place ``dest``."""
        captured, owner = self._capture(index, dest)
        pieces = list(self.pieces)
        pieces[index] = pieces[index]._replace(origin=dest)
        for piece in captured:
            for t in piece.rest.triangles:
                owner[t] = -1
        kept = tuple(sorted(p for p in pieces if p not in captured))
        own = tuple(p for p in kept if p.side == self.turn and _phalanxed(p, owner))
        return self._next(kept, own, captured), captured

    def _capture(self, index: int, dest: int) -> tuple[tuple[Piece, ...], list[int]]:
        """The opponent's pieces that piece ``index`` moved to ``dest`` phalanxes (in board
        order), and the side map after the move. Only pieces bordering the sites it leaves or
        covers are looked at again: the others stand as they stood."""
        piece = self.pieces[index]
        owner = self._sides.copy()
        for t in piece.rest.triangles:
            owner[t] = -1
        new = TABLES[piece.shape].rests[dest].triangles
        for t in new:
            owner[t] = piece.side
        near = self._bordering
        again = {j for t in (*piece.rest.triangles, *new) for j in near.get(t, ())}
        hit = [j for j in again if _phalanxed(self.pieces[j], owner)]
        hit += [j for j in self._surrounded if j not in again]
        return tuple(self.pieces[j] for j in sorted(hit)), owner

    @cached_property
    def _sides(self) -> list[int]:
        """Triangle -> side covering it, or -1."""
        return _side_map(self.pieces)

    @cached_property
    def _bordering(self) -> dict[int, list[int]]:
        """Triangle -> the opponent's pieces (indices) one of whose sides it borders."""
        near: dict[int, list[int]] = {}
        for j, piece in enumerate(self.pieces):
            if piece.side != self.turn:
                for side in piece.rest.sides:
                    for t in side:
                        near.setdefault(t, []).append(j)
        return near

    @cached_property
    def _surrounded(self) -> list[int]:
        """The opponent's pieces (indices) phalanxed where they stand."""
        return [j for j, p in enumerate(self.pieces) if p.side != self.turn and _phalanxed(p, self._sides)]

    def _next(
        self,
        pieces: tuple[Piece, ...],
        pending: tuple[Piece, ...],
        removed: tuple[Piece, ...],
    ) -> "PhalanxState":
        green, red = self.taken
        taken = (green + len(removed), red) if self.turn == 0 else (green, red + len(removed))
        turn = 1 - self.turn
        key: Position = (pieces, turn, pending)
        history = (Tally() if removed else self.history).push(key)
        return PhalanxState(
            pieces,
            turn,
            self.moves_played + 1,
            taken,
            pending,
            0 if removed else self.quiet + 1,
            self.rules,
            history,
        )

    def apply(self, move: Move | Removal) -> "PhalanxState":
        return self._after(move)[0]

    def outcome(self) -> Outcome | None:
        return self._outcome

    @cached_property
    def _outcome(self) -> Outcome | None:
        for side in (0, 1):
            if self.taken[side] >= WINNING_CAPTURES:
                return Outcome(SIDES[side], Result.CAPTURES)
        if self.pending:
            return None
        if self.rules.repetition and self.history.count(self._key) >= 3:
            return self.by_points(Result.REPETITION)
        if self.rules.quiet_plies is not None and self.quiet >= self.rules.quiet_plies:
            return self.by_points(Result.NO_CAPTURES)
        if next(self._moves(), None) is None:
            return self.by_points(Result.NO_MOVES)
        return None

    # ------------------------------------------------------------------ notation
    def parse_move(self, text: str) -> Move | Removal:
        """Read ``c1se-c3se`` or a removal ``xd4se[,e4sw]`` / ``x``; case and spaces are free.
        The first triangle may be any triangle of the moving piece, the second any triangle that
        only one of its legal destinations covers."""
        compact = "".join(text.split()).lower()
        match = _MOVE_RE.fullmatch(compact)
        if match:
            frm, to = (_triangle_name(name) for name in match.groups())
            piece = self.piece_on(frm)
            return Move(piece.anchor, self._target(piece, to)) if piece else Move(frm, to)
        match = _REMOVAL_RE.fullmatch(compact)
        if match:
            names = [_triangle_name(n) for n in re.findall(_TRIANGLE, match.group(1))]
            if not names:
                return self._due()
            pieces = [self.piece_on(name) for name in names]
            anchors = {p.anchor if p else n for p, n in zip(pieces, names)}
            return Removal(tuple(sorted(anchors, key=INDEX.__getitem__)))
        if re.fullmatch(r"[a-h][1-8]-[a-h][1-8]", compact):
            raise InvalidMove(f"Cannot read '{text}': name triangles, like a1se-a3se")
        raise InvalidMove(f"Cannot read '{text}'")

    def _target(self, piece: Piece, name: str) -> str:
        """The anchor of ``piece``'s destination named by ``name``: the anchor itself, or any
        triangle that exactly one legal destination of the piece covers."""
        table = TABLES[piece.shape]
        t = INDEX[name]
        if t in table.by_anchor:
            return name
        index = self.pieces.index(piece)
        covering = [a for dest, a in self._piece_moves(index) if t in table.rests[dest].triangles]
        return NAMES[covering[0]] if len(covering) == 1 else name

    # ------------------------------------------------------------------ display
    def diagram(self) -> str:
        """Ranks 8..1, each square as ``left/right`` or ``left\\right`` halves; letters S H A X
        (Syntagma, Hoplite, Archer, Auxiliary), Green upper case, Red lower case, ``.`` empty."""

        def letter(t: int) -> str:
            i = self._owner[t]
            if i < 0:
                return "."
            piece = self.pieces[i]
            char = LETTERS[piece.kind]
            return char if piece.side == 0 else char.lower()

        lines = []
        for r in reversed(range(SIZE)):
            cells = []
            for f in range(SIZE):
                upper, lower = 2 * (SIZE * r + f), 2 * (SIZE * r + f) + 1
                if (f + r) % 2 == 0:
                    cells.append(f"{letter(upper)}/{letter(lower)}")
                else:
                    cells.append(f"{letter(lower)}\\{letter(upper)}")
            lines.append(f"{r + 1} " + " ".join(cells))
        lines.append("  " + "".join(f" {c}  " for c in FILES).rstrip())
        return "\n".join(lines)

    def status_lines(self) -> list[str]:
        """Pieces and points per side (short enough for the OLED), and a removal that is due."""
        points = self.points()
        lines = [
            N_("{Side} {pieces} pcs {points} pts").format(
                Side=side.capitalize(), pieces=sum(p.side == s for p in self.pieces), points=points[side]
            )
            for s, side in enumerate(SIDES)
        ]
        if self.pending:
            lines.append(
                N_("{Side} removes {sites}").format(
                    Side=SIDES[self.turn].capitalize(), sites=",".join(self._due().anchors)
                )
            )
        return lines

    # ------------------------------------------------------------------ physical contract
    def sites(self) -> tuple[Site, ...]:
        return SITES

    def piece_sets(self) -> tuple[PieceSet, ...]:
        """The set-up's pieces; a side's two Hoplites are each other's mirror image."""
        return tuple(
            replace(s, note="one left-handed, one right-handed") if s.kind == "Hoplite" else s
            for s in sets_of(self.figures())
        )

    def figures(self) -> tuple[Figure, ...]:
        """Every piece as its outline: the triangles it covers, in its side's colour."""
        return tuple(
            Figure(SIDES[piece.side], tuple(sorted(piece.sites)), piece.kind) for piece in self.pieces
        )

    def occupied(self) -> frozenset[str]:
        return self._occupied

    @cached_property
    def _occupied(self) -> frozenset[str]:
        return frozenset(NAMES[t] for t, i in enumerate(self._owner) if i >= 0)

    def due(self) -> FollowUp | None:
        """After a self-phalanx, the removal of the phalanxed pieces is the whole turn."""
        if not self.pending or self.outcome():
            return None
        return FollowUp(
            "remove", frozenset().union(*(p.sites for p in self.pending)), removal_words(self.pending)
        )

    def realisations(self, move: Move | Removal) -> tuple[Realisation, ...]:
        if isinstance(move, Removal):
            gone = frozenset().union(*(p.sites for p in self.pending))
            return (Realisation(emptied=gone, filled=frozenset()),)
        index, dest = self._destination(move)
        old = self.pieces[index].sites
        new = self.pieces[index]._replace(origin=dest).sites
        captured = self._capture(index, dest)[0]
        gone = frozenset().union(*(p.sites for p in captured))
        follow = (FollowUp("remove", gone, removal_words(captured)),)
        return (Realisation(old - new, new - old, follow if captured else ()),)

    def taking_moves(self) -> tuple[Capture[Move | Removal], ...]:
        return self._taking

    @cached_property
    def _taking(self) -> tuple[Capture[Move | Removal], ...]:
        """Moves that phalanx an opponent's piece, each worked out alone (a removal that is
        due takes off pieces by hand: no follow-up)."""
        if self.pending or self.outcome():
            return ()
        out: list[Capture[Move | Removal]] = []
        for i, piece in enumerate(self.pieces):
            if piece.side != self.turn:
                continue
            for dest, anchor in self._piece_moves(i):
                if captured := self._capture(i, dest)[0]:
                    gone = frozenset().union(*(p.sites for p in captured))
                    emptied = piece.sites - piece._replace(origin=dest).sites
                    out.append((Move(piece.anchor, NAMES[anchor]), emptied, gone))
        return tuple(out)

    def moves_for_change(
        self, emptied: frozenset[str], filled: frozenset[str]
    ) -> list[tuple[Move | Removal, Realisation, int]]:
        """Only moves of pieces whose sites emptied are tried, and only those whose own new
        sites are the filled ones get a full realisation (with captures); or the due removal."""
        if self.outcome():
            return []
        if self.pending:
            candidates: Iterable[Move | Removal] = self._moves()
        else:
            touched = {self._owner[INDEX[s]] for s in emptied if s in INDEX} - {-1}
            candidates = (
                Move(piece.anchor, NAMES[anchor])
                for piece, i in ((self.pieces[i], i) for i in sorted(touched))
                if piece.side == self.turn
                for dest, anchor in self._piece_moves(i)
                if piece._replace(origin=dest).sites - piece.sites == filled
            )
        return self.explain(candidates, emptied, filled)

    def refusal(self, emptied: frozenset[str], filled: frozenset[str]) -> str | None:
        """Why one piece moved to where it now stands is illegal (a piece of several triangles
        changes several sites, which no from-to notation of the board's diff names).

        >>> state = start()
        >>> state.refusal(frozenset({"h1ne", "h1sw"}), frozenset({"b3ne", "b3sw"}))
        'Not a straight line'
        """
        owners = {self._owner[INDEX[s]] for s in emptied if s in INDEX}
        if len(owners) != 1 or -1 in owners or not filled or self.pending or self.outcome():
            return None
        piece = self.pieces[owners.pop()]
        for rest in TABLES[piece.shape].rests.values():
            new = frozenset(NAMES[t] for t in rest.triangles)
            if new - piece.sites == filled and piece.sites - new == emptied:
                try:
                    self.check(Move(piece.anchor, NAMES[rest.anchor]))
                except IllegalMove as exc:
                    return exc.reason
                return None
        return None

    def targets(self, site: str) -> frozenset[str]:
        """The sites the lifted piece on ``site`` would newly cover at its legal destinations."""
        piece = self.piece_on(site)
        if piece is None or piece.side != self.turn or self.pending or self.outcome():
            return frozenset()
        index = self.pieces.index(piece)
        out: set[str] = set()
        for dest, _ in self._piece_moves(index):
            out |= piece._replace(origin=dest).sites
        return frozenset(out - piece.sites)


def _side_map(pieces: Iterable[Piece]) -> list[int]:
    """Triangle -> side covering it, or -1."""
    owner = [-1] * len(NAMES)
    for piece in pieces:
        for t in piece.rest.triangles:
            owner[t] = piece.side
    return owner


def _phalanxed(piece: Piece, owner: list[int]) -> bool:
    """True when two of the piece's sides are each bordered along every unit by enemy pieces."""
    enemy = 1 - piece.side
    bordered = 0
    for side in piece.rest.sides:  # loops, not all() over a generator: asked after every move
        for t in side:
            if owner[t] != enemy:
                break
        else:
            bordered += 1
            if bordered == 2:
                return True
    return False


def _triangle_name(name: str) -> str:
    if name not in INDEX:
        raise InvalidMove(f"{name[:2]} has no {name[2:]} half")
    return name


SITES = tuple(
    Site(name, sum(x for x, _ in polygon(t)) / 3, sum(y for _, y in polygon(t)) / 3, polygon(t))
    for t, name in enumerate(NAMES)
)

#: Green's set-up (a house rule, docs/games/phalanx.md): (kind, anchor). Red's is the same turned 180 degrees.
GREEN_SETUP = (
    ("archer", "a1se"),
    ("archer", "b1sw"),
    ("archer", "g1se"),
    ("archer", "h1sw"),
    ("hoplite-left", "c1se"),
    ("hoplite-right", "f1sw"),
    ("auxiliary", "d1sw"),
    ("auxiliary", "d1ne"),
    ("auxiliary", "e1nw"),
    ("auxiliary", "e1se"),
    ("syntagma", "d2se"),
    ("auxiliary", "c2ne"),
    ("auxiliary", "d2nw"),
    ("auxiliary", "e2ne"),
    ("auxiliary", "f2nw"),
)


def removal_words(pieces: Iterable[Piece]) -> str:
    """What a removal asks, counting pieces, not triangles.

    >>> removal_words([make_piece("red", "archer", "a1se")])
    'Remove the lit Archer'
    """
    listed = list(pieces)
    if len(listed) == 1:
        return N_("Remove the lit {piece}").format(piece=listed[0].kind)
    return N_("Remove the {n} lit pieces").format(n=len(listed))


def make_piece(side: str, kind: str, anchor: str) -> Piece:
    """A piece from its side, kind (``auxiliary``, ``archer``, ``hoplite-left``,
    ``hoplite-right``, ``syntagma``; handedness as its owner sees it) and anchor triangle.

    >>> make_piece("red", "syntagma", "d7ne").sites == {"d7ne", "e7nw"}
    True
    """
    s = SIDES.index(side)
    name = f"auxiliary-{half_of(INDEX[anchor])}" if kind == "auxiliary" else kind
    for shape_index, shape in enumerate(SHAPES):
        if shape.name == name and shape.side in (None, s):
            origin = TABLES[shape_index].by_anchor.get(INDEX[anchor])
            if origin is None:
                raise ValueError(f"a {kind} cannot rest on {anchor}")
            return Piece(s, shape_index, origin)
    raise ValueError(f"unknown piece kind {kind!r}")


def _turned(piece: Piece) -> Piece:
    """The piece on the other side of the board turned 180 degrees (Red's counterpart)."""
    return Piece(1 - piece.side, *PLACEMENTS[frozenset(turned(t) for t in piece.rest.triangles)])


def position(
    pieces: Iterable[tuple[str, str, str]], to_move: str = "green", rules: Rules = Rules()
) -> PhalanxState:
    """A position from (side, kind, anchor) triples; ValueError when pieces overlap.

    >>> position([("green", "archer", "d4se"), ("red", "archer", "e4sw")]).legal_count()
    23
    """
    made = sorted(make_piece(*spec) for spec in pieces)
    covered: set[str] = set()
    for piece in made:
        if covered & piece.sites:
            raise ValueError(f"pieces overlap on {','.join(sorted(covered & piece.sites))}")
        covered |= piece.sites
    return PhalanxState(tuple(made), SIDES.index(to_move), rules=rules)


def start(rules: Rules = Rules()) -> PhalanxState:
    """The set-up: Green's 15 pieces on ranks 1-2, Red's the same turned 180 degrees."""
    green = [make_piece("green", kind, anchor) for kind, anchor in GREEN_SETUP]
    return PhalanxState(tuple(sorted(green + [_turned(p) for p in green])), rules=rules)
