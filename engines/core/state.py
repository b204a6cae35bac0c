"""The shape every game state has: rules, outcome, notation and the physical contract.

A state is an immutable value (a frozen dataclass in each game), generic over the game's move
type. ``play`` returns a new state and never changes the old one. Moves are small values whose
``str()`` is their canonical notation. How the computer searches a game is not the state's
business: that is the game's search profile (:mod:`engines.ai.profile`).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, Generic, Iterable, Mapping, Protocol, Self, TypeVar

from engines.core.contract import FollowUp, Realisation, Site
from engines.core.drawing import Drawing, Figure, PieceSet, sets_of
from engines.core.errors import IllegalMove
from engines.core.outcome import Draw, Outcome
from engines.core.words import N_

#: A game's move type (each game's own small value class).
M = TypeVar("M")

#: How a playout ended: the winner (a side, a draw, or None when it was cut short), or a grade
#: (side -> its share of a win).
Verdict = str | Draw | Mapping[str, float] | None
#: A playout: its verdict and the (side, move) pairs it played.
Playout = tuple[Verdict, list[tuple[str, M]]]
#: A capture: the move, the sites its hand empties, the sites its removal empties.
Capture = tuple[M, frozenset[str], frozenset[str]]


class MatchPlay(Protocol):
    """A match (for games whose :attr:`GameInfo.match_targets` is not empty): games until a side
    reaches :attr:`target` points. An immutable value: :meth:`record` returns the match after a
    game, so keeping the value from before undoes the recording."""

    @property
    def target(self) -> int:
        """The points that win the match."""

    @property
    def totals(self) -> dict[str, int]:
        """Points so far per side, in the sides' turn order."""

    @property
    def winner(self) -> str | None:
        """The side that has won the match, or None while it goes on."""

    def new_game(self) -> "GameState[Any]":
        """The start of the match's next game (its rules decide who begins)."""

    def record(self, game: Any, outcome: Outcome | None = None) -> "MatchPlay":
        """The match after ``game``, a finished game begun by :meth:`new_game` (or one a
        ``outcome`` its position does not show ended: a flag's, result "time"); OptionError
        for an unfinished game, one this match did not begin, or a match already won."""


class GameState(ABC, Generic[M]):
    """Base class of every game's state, generic over its move type ``M``. Subclasses are
    frozen dataclasses."""

    # ----------------------------------------------------------------- rules
    @property
    @abstractmethod
    def to_move(self) -> str | None:
        """The side to move, or None when the game is over."""

    @property
    @abstractmethod
    def ply(self) -> int:
        """Moves played since the start."""

    @property
    def phase(self) -> int | None:
        """The game's phase where it has phases (Antipalos 1/2), else None."""
        return None

    @abstractmethod
    def legal_moves(self) -> tuple[M, ...]:
        """All legal moves of the side to move (empty when the game is over)."""

    def legal_count(self) -> int:
        return len(self.legal_moves())

    @abstractmethod
    def check(self, move: M) -> None:
        """Raise :class:`IllegalMove` with a readable reason unless ``move`` is legal here."""

    @abstractmethod
    def apply(self, move: M) -> Self:
        """The state after a move already known to be legal."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result, or None while the game goes on."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Read a move in any accepted notation; :class:`InvalidMove` when it cannot be read
        (a game may also refuse at once, with IllegalMove, a readable move it sees is not
        allowed, like a wrong capture suffix)."""

    def play(self, move: M | str) -> Self:
        """The state after ``move`` (a move value or its notation); IllegalMove if not legal."""
        if isinstance(move, str):
            move = self.parse_move(move)
        if self.outcome() is not None:
            raise IllegalMove(N_("The game is over"))
        self.check(move)
        return self.apply(move)

    # ------------------------------------------------- hooks for the computer opponent
    def winning_move(self, moves: Iterable[M] | None = None) -> M | None:
        """A move that wins at once for the side to move, or None: one of ``moves`` (default:
        every legal move), each played to see. Games that find wins faster override it and
        may look at every legal move (their search profile says what a call costs)."""
        side = self.to_move
        for move in self.legal_moves() if moves is None else moves:
            outcome = self.apply(move).outcome()
            if outcome is not None and outcome.winner == side:
                return move
        return None

    def search_moves(self, rng: random.Random, width: int) -> list[M] | None:
        """Up to ``width`` of the moves a search need look at here, in an order drawn with
        ``rng``, where the game can tell that the others change nothing its evaluation sees
        (None: every legal move may matter; Antipalos: Trirods on a cheapest connection)."""
        return None

    def random_move(self, rng: random.Random) -> M:
        """A legal move drawn uniformly with ``rng``; games with very many moves override it
        to draw one without listing them all."""
        return rng.choice(self.legal_moves())

    def random_moves(self, rng: random.Random, count: int) -> list[M]:
        """``count`` draws of :meth:`random_move` (repeats possible), the legal moves listed
        once; a game with its own :meth:`random_move` overrides this too."""
        moves = self.legal_moves()
        return [rng.choice(moves) for _ in range(count)]

    def playout(self, rng: random.Random, limit: int) -> Playout[M]:
        """A random game from here: the winner (a side, a draw, or None when ``limit`` plies
        passed first) and the (side, move) pairs played. Games whose random game can be found
        faster than move by move override it (Antipod fills the board); a game may also grade
        a position instead, giving each side its share of a win (side -> 0..1; Antipode)."""
        state: GameState[M] = self
        played: list[tuple[str, M]] = []
        while state.outcome() is None and len(played) < limit:
            move = state.random_move(rng)
            played.append((side_to_move(state), move))
            state = state.apply(move)
        outcome = state.outcome()
        return (outcome.winner if outcome else None), played

    def material(self) -> dict[str, float]:
        """Material on the board per side, for searches that evaluate positions (empty: the
        game has none)."""
        return {}

    def material_balance(self, side: str) -> float:
        """``side``'s material minus the strongest other side's."""
        material = self.material()
        mine = material.get(side, 0.0)
        return mine - max((v for s, v in material.items() if s != side), default=0.0)

    def evaluate(self, side: str) -> float:
        """How good this unfinished position is for ``side``, in material's units (alpha-beta
        scores its leaves with it): the material balance, unless the game knows better."""
        return self.material_balance(side)

    def notation(self, move: M) -> str:
        """Canonical notation of ``move`` (its ``str``)."""
        return str(move)

    def record_notation(self, move: M) -> str:
        """``move`` as game records write it (default: its canonical notation)."""
        return self.notation(move)

    @property
    def sides(self) -> tuple[str, ...]:
        """Side names in turn order."""
        raise NotImplementedError

    @property
    def seat_sides(self) -> tuple[str, ...]:
        """The side each seat at the table plays, seat by seat: one seat per side, unless the
        game's sides are teams of several players (each a seat of its own)."""
        return self.sides

    @property
    def players(self) -> tuple[str, ...]:
        """Who has a game clock of their own, in turn order: the sides, unless the game's sides
        are teams of several players (then each player, by the seat's name)."""
        return self.sides

    @property
    def player_to_move(self) -> str | None:
        """The one of :attr:`players` whose turn it is (None once the game is over)."""
        return self.to_move

    def player_side(self, player: str) -> str:
        """The side ``player`` (one of :attr:`players`) plays."""
        return player

    def diagram(self) -> str:
        """A text drawing of the position for terminals."""
        return ""

    def drawing(self) -> Drawing:
        """Marks the board has besides its sites (grid lines, point colours), for drawing."""
        return Drawing()

    def figures(self) -> tuple[Figure, ...]:
        """The pieces as they stand on the table, for drawing: side, sites covered, kind.
        The default knows only occupancy: no figures, so the page shows bare readings."""
        return ()

    def piece_sets(self) -> tuple[PieceSet, ...]:
        """The pieces a set for this game needs, asked of its starting position. The default:
        the pieces the set-up lays out (a game with a supply off the board says more)."""
        return sets_of(self.figures())

    def status_lines(self) -> list[str]:
        """Short game-specific status (supplies left, captures); shown on the OLED."""
        return []

    # --------------------------------------------------- the physical contract
    @abstractmethod
    def sites(self) -> tuple[Site, ...]:
        """Every site of this game and size, in a stable order."""

    @abstractmethod
    def occupied(self) -> frozenset[str]:
        """Sites that hold a piece in this state."""

    def faces(self) -> Mapping[str, str]:
        """For games with two-faced tokens: site -> face up (a side name); else empty.
        Boards with polarity sensors compare this with what they read."""
        return {}

    def due(self) -> FollowUp | None:
        """A :class:`FollowUp` that is the side to move's whole turn (a Phalanx self-phalanx's
        removal), lit and guided as one; None usually."""
        return None

    def maker(self, move: M) -> str | None:
        """The side that makes ``move`` (usually :attr:`to_move`; a game where the other side
        may act first, like an Anti-Grid capture chain ended by the opponent, says otherwise)."""
        return self.to_move

    def refusal(self, emptied: frozenset[str], filled: frozenset[str]) -> str | None:
        """Why a board differing from :meth:`occupied` by ``emptied``/``filled`` is no legal
        move, for changes the game's notation cannot name (None: ask no further; the daemon
        then tries the change as a placement or from-to move)."""
        return None

    #: What players call a piece the sensors cannot see (:meth:`markers`), in the board's words.
    UNSEEN = "piece"

    def markers(self) -> Mapping[str, str]:
        """Sites holding a piece the sensors cannot see (e.g. a pawn standing on a token):
        site -> its side. The board lights them so the players know where they are."""
        return {}

    @abstractmethod
    def realisations(self, move: M) -> tuple[Realisation, ...]:
        """The ways ``move`` is made on the board (usually one)."""

    def hand_kinds(self) -> frozenset[str]:
        """How the legal moves' realisations change the board by hand: ``move`` (they empty
        and fill sites), ``place`` (fill only), ``take`` (empty only); a realisation of no hand
        change is offered as a pick and counts for none. A game whose moves are many or whose
        realisations cost overrides it with what its rules know.

        >>> from engines import new_game
        >>> sorted(new_game("antipode").hand_kinds())
        ['place']
        """
        kinds: set[str] = set()
        for move in self.legal_moves():
            for real in self.realisations(move):
                if real.emptied or real.filled:
                    kinds.add("move" if real.emptied and real.filled else "place" if real.filled else "take")
            if {"move", "place"} <= kinds:
                break
        return frozenset(kinds)

    #: Whether a move of this game ever takes pieces off (a ``remove`` follow-up); False makes
    #: :meth:`taking_moves` empty without working out a move.
    TAKES = True

    def taking_moves(self) -> tuple[Capture[M], ...]:
        """The legal moves that take pieces off, in :meth:`legal_moves` order: (move, the sites
        its hand empties, the sites its removal empties), one per realisation that removes.
        Asked of every position a piece is lifted in, so a game whose realisations cost
        overrides it with what its rules know.

        >>> from engines import new_game
        >>> state = new_game("anti-grid", 6).play("a9-c9").play("l2-e2")
        >>> [(str(move), emptied, removed) for move, emptied, removed in state.taking_moves()]
        [('a3-e3', frozenset({'a3'}), frozenset({'e2'}))]
        >>> new_game("antipode").taking_moves()
        ()
        """
        if not self.TAKES:
            return ()
        out = []
        for move in self.legal_moves():
            for real in self.realisations(move):
                removed = frozenset().union(*(s.sites for s in real.follow_ups if s.action == "remove"))
                if removed:
                    out.append((move, real.emptied, removed))
        return tuple(out)

    def sites_of(self, name: str) -> tuple[str, ...]:
        """The sites that show a point named in notation or in :attr:`Outcome.sites` (more than
        one where a point has several sites, like an Antipod edge point)."""
        return (name,)

    def ok_move(self) -> M | None:
        """A move the OK button plays here (e.g. ending a capture chain), or None."""
        return None

    def moves_for_change(
        self, emptied: frozenset[str], filled: frozenset[str]
    ) -> list[tuple[M, Realisation, int]]:
        """Legal moves that explain a settled board differing from :meth:`occupied` by
        ``emptied``/``filled``: (move, realisation, sensed follow-ups already done).

        The default tries every legal move; games with many moves override it, usually by
        passing :meth:`explain` only the moves the change can belong to."""
        return self.explain(self.legal_moves(), emptied, filled)

    def explain(
        self, moves: Iterable[M], emptied: frozenset[str], filled: frozenset[str]
    ) -> list[tuple[M, Realisation, int]]:
        """Those of ``moves`` (legal ones) that explain the change, as :meth:`moves_for_change`
        returns them."""
        board = self.occupied()
        sensed = (board - emptied) | filled
        found = []
        for move in moves:
            for real in self.realisations(move):
                done = real.reaches(board, sensed)
                if done is not None:
                    found.append((move, real, done))
        return found

    def targets(self, site: str) -> frozenset[str]:
        """Sites that would complete a legal move after lifting the piece on ``site``."""
        out: set[str] = set()
        for move in self.legal_moves():
            for real in self.realisations(move):
                if site in real.emptied:
                    out |= real.filled - real.emptied
        return frozenset(out)


def side_to_move(state: GameState[Any]) -> str:
    """The side to move in ``state``, a game still going on (as a search's positions are).

    >>> from engines import new_game
    >>> side_to_move(new_game("antipode"))
    'blue'
    """
    side = state.to_move
    assert side is not None, "the game is over"
    return side
