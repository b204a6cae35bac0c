"""The shape every game state has: rules, outcome, notation and the physical contract.

A state is an immutable value (a frozen dataclass in each game). ``play`` returns a new state and
never changes the old one. Moves are small values whose ``str()`` is their canonical notation.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Protocol

from engines.core.contract import Realisation, Site
from engines.core.drawing import Drawing, Figure
from engines.core.options import GameOption, Value, options_from


class IllegalMove(ValueError):
    """A move that cannot be read or is not allowed; ``reason`` fits a 128x64 OLED."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class OptionError(ValueError):
    """A size or variant a game does not offer."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` is a side name or ``"draw"``; ``result`` a short reason
    ("connection", "ring", "forfeit", ...); ``score`` the match-play category where the game has
    one; ``sites`` the winning chain or ring to light."""

    winner: str
    result: str
    score: int | None = None
    sites: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameInfo:
    """What ``reedboard games`` shows and the CLI validates.

    ``sizes`` are the sizes offered in menus (empty: one size, ``--size`` ignored); ``size_range``
    an optional (low, high) of further sizes accepted; ``match_targets`` the points a match can
    go to (empty: the game has no match play); ``options`` the named house rules and settings
    (see :mod:`engines.core.options`)."""

    name: str
    title: str
    sizes: tuple[int, ...]
    default_size: int | None
    size_range: tuple[int, int] | None
    variants: tuple[str, ...]
    default_variant: str
    size_help: str = ""
    notes: str = ""
    match_targets: tuple[int, ...] = ()
    options: tuple[GameOption, ...] = ()

    def check_game_options(self, given: Mapping[str, Value] | None) -> dict[str, Value]:
        """The engine keywords for named options (house rules); OptionError for bad ones."""
        return options_from(self.options, given or {})

    def check_options(self, size: int | None, variant: str | None) -> tuple[int | None, str]:
        """The size and variant to use, defaults filled in; OptionError for unknown ones."""
        variant = variant or self.default_variant
        if variant not in self.variants:
            raise OptionError(
                f"{self.name} has no variant {variant!r} (choose from {', '.join(self.variants)})"
            )
        if size is None or not self.sizes:
            return self.default_size, variant
        low, high = self.size_range or (0, -1)
        if size not in self.sizes and not low <= size <= high:
            offered = ", ".join(map(str, self.sizes))
            also = f"; any of {low}..{high} also works" if self.size_range else ""
            raise OptionError(f"{self.name} has no size {size} (sizes: {offered}{also})")
        return size, variant

    def check_match(self, target: int) -> int:
        """``target`` if a match can go to it; OptionError otherwise.

        >>> info = GameInfo("demo", "Demo", (), None, None, ("one",), "one", match_targets=(5, 7))
        >>> info.check_match(7)
        7
        >>> info.check_match(6)
        Traceback (most recent call last):
        engines.core.state.OptionError: demo matches go to 5 or 7 points, not 6
        """
        if not self.match_targets:
            raise OptionError(f"{self.name} has no match play")
        if target not in self.match_targets:
            *most, last = map(str, self.match_targets)
            offered = f"{', '.join(most)} or {last}" if most else last
            raise OptionError(f"{self.name} matches go to {offered} points, not {target}")
        return target


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

    def new_game(self) -> "GameState":
        """The start of the match's next game (its rules decide who begins)."""

    def record(self, game: "GameState") -> "MatchPlay":
        """The match after ``game``, a finished game begun by :meth:`new_game`; OptionError
        for an unfinished game, one this match did not begin, or a match already won."""


class GameState(ABC):
    """Base class of every game's state. Subclasses are frozen dataclasses."""

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
    def legal_moves(self) -> tuple[Any, ...]:
        """All legal moves of the side to move (empty when the game is over)."""

    def legal_count(self) -> int:
        return len(self.legal_moves())

    @abstractmethod
    def check(self, move: Any) -> None:
        """Raise :class:`IllegalMove` with a readable reason unless ``move`` is legal here."""

    @abstractmethod
    def apply(self, move: Any) -> "GameState":
        """The state after a move already known to be legal."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result, or None while the game goes on."""

    @abstractmethod
    def parse_move(self, text: str) -> Any:
        """Read a move in any accepted notation; IllegalMove when it cannot be read."""

    def play(self, move: Any) -> "GameState":
        """The state after ``move`` (a move value or its notation); IllegalMove if not legal."""
        if isinstance(move, str):
            move = self.parse_move(move)
        if self.outcome() is not None:
            raise IllegalMove("The game is over")
        self.check(move)
        return self.apply(move)

    # ------------------------------------------------- hooks for the computer opponent
    #: How ``engines.ai`` searches this game: "mcts" (random playouts; connection games) or
    #: "alphabeta" (needs :meth:`material`; capture games).
    AI_SEARCH = "mcts"
    #: Search work (positions made with :meth:`apply`) this game's search does per CPU second on
    #: the reference machine; the AI levels turn seconds into a budget with it (bench/ai.py
    #: measures it).
    AI_RATE = 5000
    #: Level 5's budget as a multiple of what ``AI_RATE`` makes of its second, for a game whose
    #: level 5 works unlike the lower levels the rate was set by (Antipode: its leaves for every
    #: root move cost more CPU a position than the narrow levels' counted scans).
    AI_TOP_WORK = 1.0
    #: The share of level 1's moves made with the least work (loose moves that still take a win
    #: at once and hand none over), where levels 1 and 2 would otherwise play alike (Antipode).
    AI_GENTLE = 0.0
    #: Level 1 is loose only where playouts give it at least this share of a win, and searches
    #: with level 2's budget elsewhere (None: loose anywhere). For a game one seat is favoured
    #: in (Antipod): gentle on the strong seat, where random play could win on the weak one.
    AI_GENTLE_AHEAD: float | None = None
    #: A loose move is the best, by its leaf's score (``playout``), of this many moves drawn
    #: among those that hand over no win at once (1: any of them).
    AI_LOOSE_SAMPLE = 1
    #: Work an MCTS charges per move a selection weighs, in tenths of a position made, at levels
    #: 1 to 5. A charge spreads a level's descents over fewer root moves: it is a level's breadth.
    #: Scanning a move costs 0.5-0.8 µs here. Antipod's positions are cheap plies: a fifth of one
    #: is 2 µs, a few times a scan, and its ladder was measured with it. Antipode's cost a
    #: thousand times a scan (a leaf counts connection distances), and it charges nothing at
    #: level 5.
    AI_SCAN_COST = (2, 2, 2, 2, 2)

    #: What alpha-beta adds to a leaf's score per move its parent searched (the side to move
    #: there): mobility. Zero where the moves searched do not tell it (Antipalos: every
    #: position of a ply has as many legal moves, and only some are searched).
    AI_MOBILITY = 0.02

    #: Positions one :meth:`winning_move` call costs a search's budget where the game finds
    #: wins faster than by playing each move (None: one per move looked at).
    WIN_CHECK_COST: int | None = None

    def winning_move(self, moves: Any = None) -> Any:
        """A move that wins at once for the side to move, or None: one of ``moves`` (default:
        every legal move), each played to see. Games that find wins faster override it and
        may look at every legal move."""
        side = self.to_move
        for move in self.legal_moves() if moves is None else moves:
            outcome = self.apply(move).outcome()
            if outcome is not None and outcome.winner == side:
                return move
        return None

    def search_moves(self, rng: Any, width: int) -> list[Any] | None:
        """Up to ``width`` of the moves a search need look at here, in an order drawn with
        ``rng``, where the game can tell that the others change nothing its evaluation sees
        (None: every legal move may matter; Antipalos: Trirods on a cheapest connection)."""
        return None

    def win_check_cost(self, moves: Any) -> int:
        """Positions :meth:`winning_move` costs a search's budget when given ``moves``."""
        return len(moves) if self.WIN_CHECK_COST is None else self.WIN_CHECK_COST

    def random_move(self, rng: Any) -> Any:
        """A legal move drawn uniformly with ``rng`` (a ``random.Random``); games with very many
        moves override it to draw one without listing them all."""
        return rng.choice(self.legal_moves())

    def random_moves(self, rng: Any, count: int) -> list[Any]:
        """``count`` draws of :meth:`random_move` (repeats possible), the legal moves listed
        once; a game with its own :meth:`random_move` overrides this too."""
        moves = self.legal_moves()
        return [rng.choice(moves) for _ in range(count)]

    def playout(
        self, rng: Any, limit: int
    ) -> tuple[str | dict[str, float] | None, list[tuple[str, Any]]]:
        """A random game from here: the winner (a side, "draw", or None when ``limit`` plies
        passed first) and the (side, move) pairs played. Games whose random game can be found
        faster than move by move override it (Antipod fills the board); a game may also grade
        a position instead, giving each side its share of a win (side -> 0..1; Antipode)."""
        state, played = self, []
        while state.outcome() is None and len(played) < limit:
            move = state.random_move(rng)
            played.append((state.to_move, move))
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

    def notation(self, move: Any) -> str:
        """Canonical notation of ``move`` (its ``str``)."""
        return str(move)

    def record_notation(self, move: Any) -> str:
        """``move`` as game records write it (default: its canonical notation)."""
        return self.notation(move)

    @property
    def sides(self) -> tuple[str, ...]:
        """Side names in turn order."""
        raise NotImplementedError

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

    def due(self) -> Any | None:
        """A :class:`FollowUp` that is the side to move's whole turn (a Phalanx self-phalanx's
        removal), lit and guided as one; None usually."""
        return None

    def maker(self, move: Any) -> str | None:
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
    def realisations(self, move: Any) -> tuple[Realisation, ...]:
        """The ways ``move`` is made on the board (usually one)."""

    def sites_of(self, name: str) -> tuple[str, ...]:
        """The sites that show a point named in notation or in :attr:`Outcome.sites` (more than
        one where a point has several sites, like an Antipod edge point)."""
        return (name,)

    def ok_move(self) -> Any | None:
        """A move the OK button plays here (e.g. ending a capture chain), or None."""
        return None

    def moves_for_change(
        self, emptied: frozenset[str], filled: frozenset[str]
    ) -> list[tuple[Any, Realisation, int]]:
        """Legal moves that explain a settled board differing from :meth:`occupied` by
        ``emptied``/``filled``: (move, realisation, sensed follow-ups already done).

        The default tries every legal move; games with many moves override it, usually by
        passing :meth:`explain` only the moves the change can belong to."""
        return self.explain(self.legal_moves(), emptied, filled)

    def explain(
        self, moves: Iterable[Any], emptied: frozenset[str], filled: frozenset[str]
    ) -> list[tuple[Any, Realisation, int]]:
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
