"""Anti-Grid's rules (David McCord, 2009: two offset grids, custodial capture), as
docs/games/anti-grid.md and its "Rulings" give them: a position, its moves, captures, the wins,
notation and the physical contract.

Geometry, point names and the move values are in :mod:`engines.antigrid.board`. Red moves
first. A move is ``a3-e3``; a capture suffix (``a3-e3xc3``) is optional on input and checked
when given.

>>> state = start(6, "plain")
>>> state.to_move, state.legal_count(), len(state.sites())
('red', 100, 122)
>>> state = state.play("a3-b3").play("l10-k10")
>>> str(state.parse_move("C1 - c2")), state.to_move
('c1-c2', 'red')

**Chain variant.** After a capturing move the mover may go on while each further move captures.
The state then has ``continuing`` set: ``to_move`` is still the capturer, ``legal_moves()`` lists
its capturing moves plus :data:`OK` (notation ``ok``), the end of the turn. ``play`` also accepts
the opponent's move there, as an implicit OK (the pawn on the from-point tells whose move it is),
and :meth:`AntiGridState.moves_for_change` / :meth:`AntiGridState.targets` recognise it too. The
turn passes by itself when no capturing move is left. ``ply`` counts every move applied, an
explicit ``ok`` included; the 40-ply count of the trapped rule counts pawn moves only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Iterator

from engines.antigrid.board import (
    BLUE,
    COLOUR_NAMES,
    EMPTY,
    OK,
    RED,
    STRIDE,
    AnyMove,
    EndTurn,
    Grid,
    Move,
    grid,
    parse_point,
    point_kind,
    point_name,
)
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
from engines.core.drawing import Drawing, Figure, Line
from engines.core.state import Capture
from engines.core.words import N_

#: Plies (pawn moves) without a capture after which the trapped rule applies.
QUIET_LIMIT = 40

_MOVE = re.compile(r"([a-z]\d{1,2})\s*-\s*([a-z]\d{1,2})((?:\s*x\s*[a-z]\d{1,2})*)", re.IGNORECASE)


@dataclass(frozen=True)
class AntiGridState(GameState[AnyMove]):
    """An Anti-Grid position. ``board`` holds EMPTY/RED/BLUE per point id; ``mover`` is the
    colour to move; ``quiet`` counts pawn moves since the last capture; ``continuing`` marks a
    capture chain in progress (chain variant); ``trapped_rule`` switches the house rule."""

    n: int
    variant: str
    board: bytes
    mover: int = RED
    plies: int = 0
    quiet: int = 0
    continuing: bool = False
    trapped_rule: bool = True
    grid: Grid = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.grid is None:
            object.__setattr__(self, "grid", grid(self.n))

    @classmethod
    def position(
        cls,
        n: int,
        red: list[str],
        blue: list[str],
        to_move: str = "red",
        variant: str = "plain",
        quiet: int = 0,
        trapped_rule: bool = True,
    ) -> "AntiGridState":
        """A position from point names (for tests and set-up puzzles); ValueError when a pawn
        stands on a point its colour may not hold."""
        g = grid(n)
        board = bytearray(STRIDE * STRIDE)
        for colour, names in ((RED, red), (BLUE, blue)):
            for name in names:
                p = g.index.get(name)
                if p is None or p not in g.stands[colour]:
                    raise ValueError(f"a {COLOUR_NAMES[colour]} pawn cannot stand on {name}")
                board[p] = colour
        return cls(
            n, variant, bytes(board), COLOUR_NAMES.index(to_move), quiet=quiet, trapped_rule=trapped_rule
        )

    # ------------------------------------------------------------ interface
    @property
    def to_move(self) -> str | None:
        return None if self.outcome() else COLOUR_NAMES[self.mover]

    @property
    def ply(self) -> int:
        return self.plies

    @property
    def sides(self) -> tuple[str, ...]:
        return ("red", "blue")

    def pawns(self, colour: int) -> list[int]:
        """The points holding pawns of ``colour``."""
        board = self.board
        return [p for p in self.grid.stands[colour] if board[p] == colour]

    def material(self) -> dict[str, float]:
        """Pawns on the board per side (a pawn's colour is only ever on points it may hold, so
        counting the bytes counts them: alpha-beta asks at every leaf)."""
        board = self.board
        return {COLOUR_NAMES[c]: float(board.count(c)) for c in (RED, BLUE)}

    def legal_moves(self) -> tuple[AnyMove, ...]:
        """The mover's pawn moves; in a capture chain its capturing moves and then OK."""
        if self.outcome():
            return ()
        if self.continuing:
            return (*self._capturing_moves, OK)
        return tuple(self._pawn_moves)

    def check(self, move: AnyMove) -> None:
        self._actor(move)._check_here(move)

    def apply(self, move: AnyMove) -> "AntiGridState":
        return self._actor(move)._apply_here(move)

    def outcome(self) -> Outcome | None:
        return self._outcome

    def parse_move(self, text: str) -> AnyMove:
        """``a3-e3`` (spaces around ``-`` allowed, any case) or ``ok``. Capture suffixes
        (``a3-e3xc3``) are optional; given, they must name exactly the pawns the move captures.

        >>> s = start(6, "plain")
        >>> s.parse_move("a3-b3xk11")
        Traceback (most recent call last):
        engines.core.errors.IllegalMove: a3-b3 captures nothing, not k11
        """
        if text.strip().lower() == "ok":
            return OK
        m = _MOVE.fullmatch(text.strip())
        if not m:
            raise InvalidMove(f"Cannot read '{text}'")
        move = Move(self._point(m[1]), self._point(m[2]))
        if m[3]:
            self._check_suffix(move, re.findall(r"[a-z]\d{1,2}", m[3].lower()))
        return move

    def _check_suffix(self, move: Move, named: list[str]) -> None:
        """IllegalMove unless ``named`` are exactly the pawns ``move`` captures."""
        self.check(move)
        taken = sorted(point_name(p) for p in self.captures(move))
        if sorted(named) != taken:
            said = " ".join(taken) if taken else "nothing"
            raise IllegalMove(f"{move} captures {said}, not {' '.join(named)}")

    def ok_move(self) -> EndTurn | None:
        return OK if self.continuing and not self.outcome() else None

    # ------------------------------------------------------------- rules
    def _point(self, name: str) -> int:
        p = parse_point(name)
        if p is None or not self.grid.kind[p]:
            raise InvalidMove(f"{name} is not a point")
        return p

    def maker(self, move: AnyMove) -> str | None:
        """The side making ``move``: the opponent's move that ends a capture chain is its own."""
        return self._actor(move).to_move

    def _actor(self, move: AnyMove) -> "AntiGridState":
        """The state that makes ``move``: in a chain, an opponent's move first ends the turn."""
        return self._actor_for(move.src) if isinstance(move, Move) else self

    def _actor_for(self, src: int) -> "AntiGridState":
        """Who moves the pawn on ``src``: self, or (during a chain, for an opponent's pawn) the
        state after the implicit end of the turn."""
        if self.continuing and 0 <= src < len(self.board) and self.board[src] == 3 - self.mover:
            return self._ended
        return self

    @cached_property
    def _ended(self) -> "AntiGridState":
        """This state with the capture chain ended by the opponent's move (made once)."""
        return self._end_turn(count=False)

    def _end_turn(self, count: bool = True) -> "AntiGridState":
        return replace(self, mover=3 - self.mover, continuing=False, plies=self.plies + count)

    def _moves_from(self, p: int) -> Iterator[Move]:
        """Moves of the pawn on p: along its lines through empty points, stopping before an
        occupied point and after a blockaded shared point."""
        board, colour = self.board, self.board[p]
        for ray in self.grid.move_rays[colour][p]:
            for q in ray:
                if board[q]:
                    break
                yield Move(p, q)
                if self._blockaded(q, colour):
                    break

    def _blockaded(self, q: int, colour: int) -> bool:
        """True when enemy pawns hold both guards of shared point q, so that a travelling pawn
        of ``colour`` may stop on q but not pass it."""
        pair = self.grid.guards[colour][q]
        return pair is not None and self.board[pair[0]] == self.board[pair[1]] == 3 - colour

    def _can_move(self) -> bool:
        """Whether the mover has a pawn move (stops at the first; the search asks this often)."""
        if "_pawn_moves" in self.__dict__:
            return bool(self._pawn_moves)
        return any(True for p in self.pawns(self.mover) for _ in self._moves_from(p))

    @cached_property
    def _pawn_moves(self) -> list[Move]:
        return [m for p in self.pawns(self.mover) for m in self._moves_from(p)]

    @cached_property
    def _capturing_moves(self) -> list[Move]:
        return [m for m in self._pawn_moves if self.captures(m)]

    def captures(self, move: Move) -> tuple[int, ...]:
        """Enemy pawns the (legal) move removes: on every line through the destination, each
        run of adjacent enemy pawns closed by a pawn of the mover. Only the mover captures."""
        board = self.board
        colour = board[move.src]
        enemy = 3 - colour
        taken: list[int] = []
        for ray in self.grid.capture_rays[move.dst]:
            run: list[int] = []
            for q in ray:
                v = board[q]  # the from-point needs no care: only empty points lie between
                if v == enemy:
                    run.append(q)
                    continue
                if v == colour:
                    taken += run
                break
        return tuple(taken)

    def _path_problem(self, move: Move) -> str | None:
        """Why the pawn cannot travel src -> dst, or None."""
        board, colour, dst = self.board, self.board[move.src], move.dst
        for ray in self.grid.move_rays[colour][move.src]:
            if dst not in ray:
                continue
            if board[dst]:
                return N_("{site} is occupied").format(site=point_name(dst))
            for q in ray[: ray.index(dst)]:
                if board[q]:
                    return N_("{site} is in the way").format(site=point_name(q))
                if self._blockaded(q, colour):
                    return N_("Blockade at {site}").format(site=point_name(q))
            return None
        return N_("{move} is not along a {side} line").format(move=move, side=COLOUR_NAMES[colour])

    def _check_here(self, move: AnyMove) -> None:
        if isinstance(move, EndTurn):
            if not self.continuing:
                raise IllegalMove(N_("OK ends only a capture chain"))
            return
        if not isinstance(move, Move):
            raise InvalidMove(f"Not an Anti-Grid move: {move!r}")
        for p in (move.src, move.dst):
            if not (0 <= p < len(self.board) and self.grid.kind[p]):
                raise InvalidMove("Not a point of this board")
        owner = self.board[move.src]
        if owner == EMPTY:
            raise IllegalMove(N_("No pawn on {site}").format(site=point_name(move.src)))
        if owner != self.mover:
            raise IllegalMove(
                N_("{site} is {side}'s pawn").format(site=point_name(move.src), side=COLOUR_NAMES[owner])
            )
        problem = self._path_problem(move)
        if problem:
            raise IllegalMove(problem)
        if self.continuing and not self.captures(move):
            raise IllegalMove(N_("{move} captures nothing: press OK").format(move=move))

    def _apply_here(self, move: AnyMove) -> "AntiGridState":
        if isinstance(move, EndTurn):
            return self._end_turn()
        taken = self.captures(move)
        board = bytearray(self.board)
        board[move.dst], board[move.src] = board[move.src], EMPTY
        for q in taken:
            board[q] = EMPTY
        if taken and self.variant == "chain":
            chained = replace(self, board=bytes(board), plies=self.plies + 1, quiet=0, continuing=True)
            if chained._capturing_moves and not chained._captured_out():
                return chained
        return replace(
            self,
            board=bytes(board),
            mover=3 - self.mover,
            plies=self.plies + 1,
            quiet=0 if taken else self.quiet + 1,
            continuing=False,
        )

    def _captured_out(self) -> Outcome | None:
        for colour in (RED, BLUE):
            if self.board.count(colour) <= 1:  # its pawns (see material)
                return Outcome(COLOUR_NAMES[3 - colour], Result.CAPTURES)
        return None

    def cornered(self, colour: int) -> bool:
        """True when every pawn of ``colour`` stands where it can never be flanked."""
        safe = self.grid.safe[colour]
        return all(p in safe for p in self.pawns(colour))

    @cached_property
    def _outcome(self) -> Outcome | None:
        """Checked in order: captures (<= 1 pawn left), no legal move, the trapped house rule."""
        out = self._captured_out()
        if out:
            return out
        if not self.continuing and not self._can_move():
            return Outcome(COLOUR_NAMES[3 - self.mover], Result.NO_MOVES)
        if self.trapped_rule and self.quiet >= QUIET_LIMIT:
            trapped = [c for c in (RED, BLUE) if self.cornered(c)]
            if len(trapped) == 2:
                return Outcome(DRAW, Result.TRAPPED)
            if trapped:
                return Outcome(COLOUR_NAMES[3 - trapped[0]], Result.TRAPPED)
        return None

    # ------------------------------------------------------- display
    def diagram(self) -> str:
        """Rows from the top: ``R``/``B`` pawns, ``+`` red point, ``x`` blue point, ``o`` shared."""
        side = 2 * self.n
        marks = {1: "+", 2: "x", 3: "o"}
        rows = []
        for y in reversed(range(side)):
            cells = []
            for x in range(side):
                p = x + STRIDE * y
                pawn = self.board[p]
                cells.append("RB"[pawn - 1] if pawn else marks.get(self.grid.kind[p], " "))
            rows.append(f"{y + 1:>2} " + " ".join(cells).rstrip())
        rows.append("   " + " ".join(chr(ord("a") + x) for x in range(side)))
        rows.append("R red pawn, B blue pawn; empty: + red point, x blue point, o shared point")
        return "\n".join(rows)

    def status_lines(self) -> list[str]:
        lines = [N_("Red {red}  Blue {blue}").format(red=len(self.pawns(RED)), blue=len(self.pawns(BLUE)))]
        if self.trapped_rule:
            lines.append(N_("No capture: {quiet}/{limit}").format(quiet=self.quiet, limit=QUIET_LIMIT))
        if self.continuing and not self.outcome():
            lines.append(N_("{Side}: capture or OK").format(Side=COLOUR_NAMES[self.mover].capitalize()))
        return lines

    # ------------------------------------------------ physical contract
    def sites(self) -> tuple[Site, ...]:
        """One site per point, labelled by its name, at its doubled coordinates."""
        return self.grid.sites

    def drawing(self) -> Drawing:
        """Every line of both grids, coloured by its grid, and each point's kind (red, blue
        or shared) so a drawer tells the points apart.

        >>> d = start(6, "plain").drawing()
        >>> len(d.lines), d.lines[0].kind, d.kinds["a1"], d.kinds["c2"]
        (24, 'red', 'red', 'shared')
        """
        lines = tuple(
            Line(COLOUR_NAMES[colour], tuple((p % STRIDE, p // STRIDE) for p in (ps[0], ps[-1])))
            for colour, ps in self.grid.lines
        )
        return Drawing(lines, {site.label: point_kind(site.label) for site in self.grid.sites})

    def figures(self) -> tuple[Figure, ...]:
        """Every pawn in its colour."""
        board = self.board
        return tuple(
            Figure(COLOUR_NAMES[board[p]], (point_name(p),), "pawn") for p in self.grid.points if board[p]
        )

    def occupied(self) -> frozenset[str]:
        board = self.board
        return frozenset(point_name(p) for p in self.grid.points if board[p])

    def realisations(self, move: AnyMove) -> tuple[Realisation, ...]:
        """Hand: empty the from-site, fill the to-site; then remove the captured pawns.
        OK changes nothing on the board (it is the button)."""
        if isinstance(move, EndTurn):
            return (Realisation(frozenset(), frozenset()),)
        taken = self._actor(move).captures(move)
        follow = (FollowUp("remove", frozenset(map(point_name, taken))),) if taken else ()
        return (Realisation(frozenset({point_name(move.src)}), frozenset({point_name(move.dst)}), follow),)

    def taking_moves(self) -> tuple[Capture[AnyMove], ...]:
        """The mover's capturing moves (found once per position), each with its captures."""
        if self.outcome():
            return ()
        return tuple(
            (move, frozenset({point_name(move.src)}), frozenset(map(point_name, self.captures(move))))
            for move in self._capturing_moves
        )

    def moves_for_change(
        self, emptied: frozenset[str], filled: frozenset[str]
    ) -> list[tuple[AnyMove, Realisation, int]]:
        """Pawn moves (the opponent's too during a chain) explaining the sensed change."""
        if self.outcome() or len(filled) != 1:
            return []
        dst = self.grid.index.get(next(iter(filled)))
        moves = [Move(self.grid.index.get(name, -1), -1 if dst is None else dst) for name in sorted(emptied)]
        return self.explain([m for m in moves if self._legal(m)], emptied, filled)

    def _legal(self, move: Move) -> bool:
        try:
            self.check(move)
        except IllegalMove:
            return False
        return True

    def targets(self, site: str) -> frozenset[str]:
        """Destinations of the pawn on ``site`` (during a chain: capturing ones, or any for an
        opponent's pawn, which would end the chain)."""
        p = self.grid.index.get(site)
        if p is None or not self.board[p] or self.outcome():
            return frozenset()
        actor = self._actor_for(p)
        if self.board[p] != actor.mover:
            return frozenset()
        moves = actor._moves_from(p)
        if actor.continuing:
            moves = (m for m in moves if actor.captures(m))
        return frozenset(point_name(m.dst) for m in moves)


def start(n: int, variant: str, trapped_rule: bool = True, first: str = "red") -> AntiGridState:
    """The set-up on ``n`` points a grid side: Red on its points with X = 0 or Y = 0, Blue on
    its points with X or Y = 2n-1; ``first`` begins (the house rule: red), ``trapped_rule`` the
    house rule of 40 plies without a capture."""
    g = grid(n)
    board = bytearray(STRIDE * STRIDE)
    for colour in (RED, BLUE):
        for p in g.start_points(colour):
            board[p] = colour
    mover = COLOUR_NAMES.index(first) if first in COLOUR_NAMES else RED
    return AntiGridState(n, variant, bytes(board), mover=mover, trapped_rule=trapped_rule, grid=g)
