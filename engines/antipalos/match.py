"""Game records (written from one player's point of view, read back exactly) and match play.

Moves are kept in the board frame: the view of the seat where white sits, which is also the
first player's view in a game white begins. A record is written, as the rulings ask
(docs/games/antipalos.md), from the first player's view by default: when black begins (the
loser of a match game does), the moves are turned 180° and the ``View`` tag says so, so
reading converts them back.

>>> rec = Record(size=12, first="black", moves=(Place(Spot.parse("A1*")),))
>>> text = write_record(rec)
>>> print(text.splitlines()[5], text.splitlines()[-1])
[View "black"] 1. L12*
>>> read_record(text) == rec
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from engines.antipalos.board import Move, Place, Spot  # noqa: F401 (the doctests use them)
from engines.antipalos.state import COLOURS, TARGETS, AntipalosState, start
from engines.core import DRAW, IllegalMove, OptionError, Outcome, Result
from engines.core.notation import split_moves

_TAG = re.compile(r'^\[(\w+)\s+"([^"]*)"\]$')
_NUMBER = re.compile(r"^\d+\.\s*")


@dataclass(frozen=True)
class Record:
    """One game: its options and its moves (board frame). ``supply`` None means the default."""

    size: int = 12
    variant: str = "two"
    supply: int | None = None
    first: str = "white"
    repetition_draw: bool = True
    moves: tuple[Move, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "supply", self.start().setup.supply)

    def start(self) -> AntipalosState:
        return start(self.size, self.variant, self.supply, self.first, self.repetition_draw)

    def replay(self) -> AntipalosState:
        """The final position; IllegalMove naming the first bad move."""
        state = self.start()
        for number, move in enumerate(self.moves, 1):
            try:
                state = state.play(move)
            except IllegalMove as exc:
                raise type(exc)(f"Move {number} ({move}): {exc.reason}") from None
        return state


def write_record(record: Record, view: str | None = None) -> str:
    """The record as text from ``view`` (a side or seat; default: the first player's view),
    one round of turns per numbered line."""
    start = record.start()
    view = view or record.first
    start.setup.view_turns(view)
    tags = [
        ("Game", "Antipalos"),
        ("Size", record.size),
        ("Variant", record.variant),
        ("Supply", record.supply),
        ("First", record.first),
        ("View", view),
    ]
    if not record.repetition_draw:
        tags.append(("RepetitionDraw", "off"))
    outcome = record.replay().outcome()
    if outcome:
        tags.append(("Result", _result(outcome)))
    lines = [f'[{name} "{value}"]' for name, value in tags] + [""]
    per_round = len(start.setup.seats)
    names = [start.notation(m, view) for m in record.moves]
    for i in range(0, len(names), per_round):
        lines.append(f"{i // per_round + 1}. " + "; ".join(names[i : i + per_round]))
    return "\n".join(lines) + "\n"


def _result(outcome: Outcome) -> str:
    if outcome.winner == DRAW:
        return f"draw by {outcome.result}"
    return f"{outcome.winner} wins by {outcome.result}, {outcome.score} points"


def read_record(text: str) -> Record:
    """Read what :func:`write_record` writes (move numbers optional; ';' or newlines between
    moves). OptionError for a bad tag, IllegalMove for an unreadable move."""
    tags: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        tag = _TAG.match(line)
        if tag:
            tags[tag.group(1)] = tag.group(2)
        elif line.startswith("["):
            raise OptionError(f"cannot read record tag {line}")
        elif line:
            body.extend(split_moves(_NUMBER.sub("", line)))
    try:
        size = int(tags.get("Size", "12"))
        supply = int(tags["Supply"]) if "Supply" in tags else None
    except ValueError as exc:
        raise OptionError(f"bad number in record: {exc}") from None
    record = Record(
        size=size,
        variant=tags.get("Variant", "two"),
        supply=supply,
        first=tags.get("First", "white"),
        repetition_draw=tags.get("RepetitionDraw", "on") != "off",
    )
    start, view = record.start(), tags.get("View", record.first)
    start.setup.view_turns(view)
    moves = []
    for number, item in enumerate(body, 1):
        try:
            moves.append(start.parse_move(item, view=view))
        except IllegalMove as exc:  # unreadable: InvalidMove stays InvalidMove
            raise type(exc)(f"Move {number}: {exc.reason}") from None
    return replace(record, moves=tuple(moves))


#: The points a game won on time scores in a match (house rule: Chart A rates a winning group,
#: and a flag leaves none to rate, so the least category's).
TIME_POINTS = 1


@dataclass(frozen=True)
class Match:
    """Match play (Chart A): games until a side reaches ``target`` points; the loser of a game
    begins the next. After a draw the next side in turn order after the previous first begins
    (house rule); in Cut-throat the player after the winner begins."""

    target: int = 6
    size: int = 12
    variant: str = "two"
    supply: int | None = None
    first: str = "white"
    points: tuple[int, ...] = ()
    games: tuple[Outcome, ...] = field(default=(), repr=False)

    def __post_init__(self) -> None:
        if self.target not in TARGETS:
            raise OptionError(f"a match goes to 6, 9 or 15 points, not {self.target}")
        sides = self.new_game().setup.side_count
        if not self.points:
            object.__setattr__(self, "points", (0,) * sides)

    @property
    def side_names(self) -> tuple[str, ...]:
        return COLOURS[: len(self.points)]

    @property
    def totals(self) -> dict[str, int]:
        return dict(zip(self.side_names, self.points))

    @property
    def winner(self) -> str | None:
        best = max(self.points)
        return self.side_names[self.points.index(best)] if best >= self.target else None

    def new_game(self) -> AntipalosState:
        """The next game, begun by :attr:`first`."""
        return start(self.size, self.variant, self.supply, self.first)

    def record(self, game: AntipalosState, outcome: Outcome | None = None) -> "Match":
        """The match after the finished ``game`` (which this match's :meth:`new_game` began),
        or after ``game`` lost on time (``outcome``: its result "time"), which scores
        :data:`TIME_POINTS` (house rule: no winning group to rate).

        >>> m = Match(6, size=3)
        >>> after = m.record(m.new_game(), Outcome("black", Result.TIME))
        >>> after.totals, after.first
        ({'white': 0, 'black': 1}, 'white')
        """
        if self.winner:
            raise OptionError(f"the match is over: {self.winner} won")
        outcome = game.outcome() or outcome
        if outcome is not None and outcome.result == Result.TIME and outcome.score is None:
            outcome = outcome._replace(score=TIME_POINTS)
        if outcome is None:
            raise OptionError("the game is not finished")
        if game.setup != self.new_game().setup:
            raise OptionError(f"that game is not this match's next game ({self.first} begins)")
        names = self.side_names
        points = list(self.points)
        if outcome.winner == DRAW:
            after = self.first
        else:
            after = outcome.winner
            points[names.index(after)] += outcome.score or 0
        first = names[(names.index(after) + 1) % len(names)]
        return replace(self, first=first, points=tuple(points), games=self.games + (outcome,))
