"""The game being played, and the only writer of it to storage.

:class:`GameRecord` holds the positions a game went through, their occupancies and the moves in
notation, and writes every change to storage *before* the caller may announce it: a method that
changes the game either saves and changes it, or raises :class:`StorageError` and changes
nothing (a move is not accepted unless saved; a takeback, a finish or an abandon waits in the
storage's queue, in order, and never raises).

Besides the moves it keeps the game's *rewrites*, numbered in order: every takeback and
correction as ``(keep, side)``, the moves kept and the side whose move is the first undone
(the side that asks: a takeback leaves the asking players to move), and the game's ``token``
when it is played with another board, and what is left to do that the sensors cannot see. All
survive a restart, so two boards can compare their histories entry by entry
(``firmware_host/net/mqtt/remote.py``) and a restart still asks for a flip left undone.

>>> from firmware_host.board.game import Game
>>> from firmware_host.store.storage import Storage
>>> record = GameRecord.begin(Storage(":memory:"), Game.of("antipod", 4))
>>> record.play(record.state.parse_move("b2"))
'b2'
>>> record.moves, record.state.ply
(['b2'], 1)
>>> record.take_back(0), record.moves, record.rewrites
(['b2'], [], [(0, 'white')])
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Sequence, cast

from engines.core import FollowUp, GameState, IllegalMove, Outcome, Result
from engines.core.options import write_options
from firmware_host.board.game import Game, result_lines, result_text
from firmware_host.board.matchplay import OngoingMatch
from firmware_host.board.turn import Turn, markers, undo_steps
from firmware_host.store.storage import Storage, StorageError


@dataclass(frozen=True)
class Standing:
    """The game as recorded at one moment, as a snapshot shows it: the ``game``, its ``state``,
    the occupancy it shows (``board``), the ``moves``, the ``result`` and ``score`` lines (see
    :func:`~firmware_host.board.game.result_lines`), the engine's ``order`` of the sites and the
    occupancy after each move (``boards``)."""

    game: Game
    state: GameState[Any]
    board: frozenset[str]
    moves: tuple[str, ...]
    result: str | None
    score: str | None
    order: Mapping[str, int] = field(compare=False)  # the state's, so not compared
    boards: tuple[frozenset[str], ...] = ()
    #: The game was lost on time (the whole board is lit as its end).
    on_time: bool = False

    def sorted(self, sites: Iterable[str]) -> list[str]:
        """Sites in the engine's order."""
        return sorted(sites, key=lambda s: self.order.get(s, len(self.order)))

    def earlier(self, board: frozenset[str]) -> int | None:
        """The number of moves of the most recent earlier position showing ``board``."""
        return _earlier(self.boards, board)


class GameRecord:
    """``game``'s positions (``states``), occupancies (``boards``) and ``moves`` as stored under
    ``game_id`` in ``storage``; ``match``: the match it belongs to (None: a single game)."""

    def __init__(
        self, storage: Storage, game: Game, game_id: int, start: GameState[Any], match: OngoingMatch | None
    ) -> None:
        self.storage, self.game, self.game_id, self.match = storage, game, game_id, match
        self.states: list[GameState[Any]] = [start]
        self.boards: list[frozenset[str]] = [start.occupied()]
        self.moves: list[str] = []
        self.rewrites: list[tuple[int, str]] = []
        self.token = ""
        #: The token of the game stored before this one, played with another board: over here
        #: (a restarted board begins a new game once the last is over), never joined again.
        self.follows = ""
        #: Counts the changes of what an opponent sees of the record (its moves and positions,
        #: rewrites, token): what is built from them is built again only when it changed.
        self.version = 0
        #: What is left to do that the sensors cannot see (the last move's flips, a takeback's
        #: tokens to turn back and unseen pieces to carry), as it stands: kept so a restart
        #: still asks for it; ``undo_by``: the side whose steps they are.
        self.undo: tuple[FollowUp, ...] = ()
        self.undo_by: str | None = None
        #: Where the unseen pieces stood when a takeback asked to carry them back (side ->
        #: site), read while that carry is still asked.
        self.stood: dict[str, str] | None = None
        #: The last move while in doubt (a knock, maybe: recorded, not said; see ``doubt.py``):
        #: its turn as stored (:func:`_turn_text`), so a restart resumes the doubt.
        self.doubt: dict[str, Any] | None = None
        self.over = False
        #: How a flag ended the game (None: the position itself, or not ended).
        self.flagged: Outcome | None = None
        self._order = MappingProxyType({s.label: i for i, s in enumerate(start.sites())})
        if match and match.first_id is None:
            match.first_id = game_id  # this game begins the match

    def sorted(self, sites: Iterable[str]) -> list[str]:
        """Sites in the engine's order."""
        return sorted(sites, key=lambda s: self._order.get(s, len(self._order)))

    def standing(self) -> Standing:
        """The game as it stands now, as a value."""
        state = self.state
        result, score = result_lines(self.outcome, self.match)
        return Standing(
            self.game,
            state,
            self.board,
            tuple(self.moves),
            result,
            score,
            self._order,
            tuple(self.boards),
            self.flagged is not None,
        )

    @classmethod
    def begin(
        cls,
        storage: Storage,
        game: Game,
        match: OngoingMatch | None = None,
        opponent: str | None = None,
        seats: tuple[str | None, str | None] = (None, None),
    ) -> "GameRecord":
        """A new game, stored at once (``opponent``: who plays the other side, as records keep
        it; ``seats``: the players at the seats and the league round, JSON)."""
        start = match.next_game() if match else game.new()
        match_of, target = (match.first_id, match.target) if match else (None, None)
        follows = _last_token(storage)
        game_id = storage.start(
            game.name,
            game.size,
            game.variant,
            match_of,
            target,
            first=start.to_move,
            options=write_options(dict(game.options)) or None,
            opponent=opponent,
            players=seats[0],
            league=seats[1],
        )
        record = cls(storage, game, game_id, start, match)
        record.follows = follows
        return record

    @classmethod
    def resume(
        cls,
        storage: Storage,
        game: Game,
        game_id: int,
        moves: Iterable[str],
        match: OngoingMatch | None = None,
        history: str | None = None,
    ) -> "GameRecord":
        """The stored game ``game_id`` replayed from its ``moves`` (IllegalMove if one no
        longer replays), with its ``history`` as stored (ValueError if it cannot be read)."""
        record = cls(storage, game, game_id, match.next_game() if match else game.new(), match)
        for text in moves:
            record._push(record.state.play(text), text)
        if history:
            kept = read_history(history)
            record.token, record.rewrites, record.undo, record.undo_by = kept[:4]
            record.stood, record.doubt = kept[4:]
        return record

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> GameState[Any]:
        return self.states[-1]

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended: a flag, or its position (None: it goes on)."""
        return self.flagged or self.state.outcome()

    @property
    def board(self) -> frozenset[str]:
        """The occupancy the position shows."""
        return self.boards[-1]

    def position(self) -> tuple[Any, ...]:
        """Which position this is, for an answer computed elsewhere to know whether it still
        applies: the game, the number of moves and the last (a corrected move is a new one)."""
        return self.game_id, len(self.moves), self.moves[-1] if self.moves else None

    def earlier(self, board: frozenset[str]) -> int | None:
        """The number of moves of the most recent earlier position showing ``board``."""
        return _earlier(self.boards, board)

    def undo_to(self, keep: int) -> tuple[FollowUp, ...]:
        """What taking the game back to its first ``keep`` moves must undo that no occupancy
        shows, from the board as the players left it: a token whose flip is still asked (the
        last move's, a takeback's) was never turned, an unseen piece still to carry stands
        where it stood (see :func:`undo_steps`)."""
        return undo_steps(self.state, self.states[keep], _flips(self.undo), self._stood())

    def _stood(self) -> dict[str, str] | None:
        """Where the unseen pieces stand while a takeback's carry is still asked (else None:
        where the position has them)."""
        return self.stood if any(s.action == "carry" for s in self.undo) else None

    def holds(self, turn: Turn) -> bool:
        """Whether the last move is ``turn``'s."""
        return len(self.states) > 1 and self.moves[-1] == self.states[-2].notation(turn.move)

    def doubted(self) -> Turn | None:
        """The last move's turn, kept while it was in doubt (None: none, or it no longer reads)."""
        if self.doubt is None or len(self.states) < 2 or self.doubt.get("move") != self.moves[-1]:
            return None
        before, d = self.states[-2], self.doubt
        try:
            move = before.parse_move(self.moves[-1])
            real = before.realisations(move)[d["real"]]
            left = tuple(frozenset(sites) for sites in d["left"])
            if len(left) != len(real.follow_ups):
                return None
            untouched, knocked = frozenset(d["untouched"]), frozenset(d["knocked"])
            side = before.maker(move)
            return Turn(move, real, self.boards[-2], side, d["step"], left, untouched, d["early"], knocked)
        except (IllegalMove, LookupError, TypeError, ValueError):
            return None

    # ------------------------------------------------------------------ changing
    def history(self) -> str:
        """The token, rewrites and what is left to undo, as stored."""
        return _history(self.token, self.rewrites, self.undo, self.undo_by, self._stood(), self.doubt)

    def set_doubt(self, turn: Turn | None) -> None:
        """The last move is ``turn``'s and in doubt (None: it is not, or was said)."""
        doubt = _turn_text(self.states[-2], turn) if turn is not None and self.holds(turn) else None
        if doubt != self.doubt:
            self.doubt = doubt
            self.storage.set_history(self.game_id, self.history())

    def set_undo(self, steps: tuple[FollowUp, ...], by: str | None) -> None:
        """What is left to undo is now ``steps``, the side ``by``'s to do."""
        by = by if steps else None
        if (steps, by) != (self.undo, self.undo_by):
            self.undo, self.undo_by = steps, by
            self.storage.set_history(self.game_id, self.history())

    def set_players(self, players: str | None) -> None:
        """Who sits at the seats from now on (JSON, ``store/players.py``; None: nobody named)."""
        self.storage.set_players(self.game_id, players)

    def set_seats(self, seats: tuple[str | None, str | None]) -> None:
        """The players and the league round (JSON each, as ``Seating.kept`` gives them)."""
        self.storage.set_seats(self.game_id, *seats)

    def set_token(self, token: str) -> None:
        """The game is played with another board under ``token``."""
        self.token, self.version = token, self.version + 1
        self.storage.set_history(self.game_id, self.history())

    def play(self, move: Any) -> str:
        """Save ``move`` (legal in the position), then play it; its notation."""
        text = self.state.notation(move)
        self.storage.add_move(self.game_id, len(self.moves) + 1, text)
        self._push(self.state.apply(move), text)
        return text

    def correct(self, move: Any) -> tuple[str, str]:
        """Save ``move`` in place of the last move (legal before it), then play it instead;
        (its notation, the notation replaced)."""
        before, replaced = self.states[-2], self.moves[-1]
        text = before.notation(move)
        rewrites = self.rewrites + [(len(self.moves) - 1, before.to_move or "")]
        self.storage.correct(
            self.game_id,
            len(self.moves),
            text,
            replaced,
            _history(self.token, rewrites, self.undo, self.undo_by, self._stood(), self.doubt),
        )
        self.rewrites = rewrites
        self._pop(len(self.moves) - 1)
        self._push(before.apply(move), text)
        return text, replaced

    def take_back(self, keep: int) -> list[str]:
        """Keep the first ``keep`` moves; the moves undone, latest first. A finished game runs
        again (its match score undone). The rewrite is the side's to move at ``keep``: the
        side whose move is undone first. What the sensors cannot see is left to undo."""
        self.rewrites.append((keep, self.states[keep].to_move or ""))
        self.stood, self.undo = self._stood() or markers(self.state), self.undo_to(keep)
        self.undo_by = self.states[keep].to_move if self.undo else None
        self.storage.truncate(self.game_id, keep, self.history())
        undone = self.moves[keep:]
        if self.over and undone:
            self.over = False
            if self.match:
                self.match.unrecord()
        self.flagged = None
        self._pop(keep)
        return list(reversed(undone))

    def finish(self) -> None:
        """The position is over: store the result (and score the match)."""
        outcome = cast(Outcome, self.state.outcome())
        self.over = True
        self.storage.finish(self.game_id, result_text(outcome), outcome.winner)
        if self.match:
            self.match.record(self.state)

    def lose_on_time(self, side: str) -> Outcome:
        """``side``'s flag fell in a game of two: it is over, the other side won on "time"
        (stored, and scored in a match as its engine scores a game won on time)."""
        winner = next(s for s in self.state.sides if s != side)
        self.flagged, self.over = Outcome(winner, Result.TIME), True
        if self.match:
            self.match.record(self.state, self.flagged)
        self.storage.finish(self.game_id, result_text(self.flagged), winner)
        return self.flagged

    def abandon(self) -> None:
        """The game stops unfinished (a new game begins instead)."""
        if not self.over:
            self.storage.finish(self.game_id, "abandoned")
        self.over = True

    def adopt(self, moves: Iterable[str], rewrites: Iterable[tuple[int, str]]) -> None:
        """The game becomes ``moves`` with ``rewrites`` (another board's history), saved move
        by move from where they part (StorageError: the moves saved so far stand)."""
        moves, keep = list(moves), 0
        while keep < min(len(moves), len(self.moves)) and moves[keep] == self.moves[keep]:
            keep += 1
        self.rewrites = list(rewrites)
        self.storage.truncate(self.game_id, keep, self.history())
        self._pop(keep)
        for text in moves[keep:]:
            self.play(self.state.parse_move(text))

    def _push(self, state: GameState[Any], text: str) -> None:
        self.states.append(state)
        self.boards.append(state.occupied())
        self.moves.append(text)
        self.version += 1

    def _pop(self, keep: int) -> None:
        """Keep the first ``keep`` moves (the rewrites changed with them: counted here)."""
        del self.states[keep + 1 :], self.boards[keep + 1 :], self.moves[keep:]
        self.version += 1


def _history(
    token: str,
    rewrites: list[tuple[int, str]],
    undo: tuple[FollowUp, ...] = (),
    by: str | None = None,
    stood: dict[str, str] | None = None,
    doubt: dict[str, Any] | None = None,
) -> str:
    return json.dumps(
        {
            "token": token,
            "rewrites": [list(r) for r in rewrites],
            "undo": [[s.action, sorted(s.sites), s.prompt] for s in undo],
            **({"undo_by": by} if undo and by else {}),
            **({"stood": stood} if stood else {}),
            **({"doubt": doubt} if doubt else {}),
        }
    )


def _last_token(storage: Storage) -> str:
    """The token of the latest game in ``storage`` ("": none, or not read)."""
    try:
        return read_history(storage.last_history() or "{}")[0]
    except (StorageError, ValueError):
        return ""


def read_history(
    text: str,
) -> tuple[
    str, list[tuple[int, str]], tuple[FollowUp, ...], str | None, dict[str, str] | None, dict[str, Any] | None
]:
    """(token, rewrites, what is left to undo, whose steps they are, where the unseen pieces
    stand while a carry is asked, the last move's turn while in doubt: the last three None
    when not kept) from stored history; ValueError when it is not that.

    >>> read_history('{"token": "t", "rewrites": [[2, "white"]], "undo": [["flip", ["a1"], ""]], '
    ...              '"undo_by": "black"}')
    ('t', [(2, 'white')], (FollowUp(action='flip', sites=frozenset({'a1'}), prompt=''),), 'black', None, None)
    """
    obj = json.loads(text)
    token, rewrites, undo = obj.get("token", ""), obj.get("rewrites", []), obj.get("undo", [])
    by, stood, doubt = obj.get("undo_by"), obj.get("stood"), obj.get("doubt")
    if (
        not isinstance(token, str)
        or not isinstance(by, str | None)
        or not all(
            isinstance(r, list) and len(r) == 2 and type(r[0]) is int and isinstance(r[1], str)
            for r in rewrites
        )
        or not (stood is None or isinstance(stood, dict) and all(isinstance(v, str) for v in stood.values()))
        or not isinstance(doubt, dict | None)
    ):
        raise ValueError("the stored history is not a token and a list of rewrites")
    try:
        steps = tuple(FollowUp(action, frozenset(sites), prompt) for action, sites, prompt in undo)
    except (TypeError, ValueError):
        raise ValueError("the stored history's steps to undo cannot be read") from None
    return token, [tuple(r) for r in rewrites], steps, by, stood, doubt


def _turn_text(before: GameState[Any], turn: Turn) -> dict[str, Any]:
    """``turn`` (a move of ``before``) as stored: the move, which of its realisations, the
    steps done and left, the tokens taken as turned untouched, its early landing and the tokens
    off their switches when it was read (:meth:`GameRecord.doubted` reads it back)."""
    return {
        "move": before.notation(turn.move),
        "real": before.realisations(turn.move).index(turn.real),
        "step": turn.step,
        "left": [sorted(sites) for sites in turn.left],
        "untouched": sorted(turn.untouched),
        "early": turn.early,
        "knocked": sorted(turn.knocked),
    }


def _flips(steps: Iterable[FollowUp]) -> frozenset[str]:
    """The tokens ``steps`` turn over."""
    return frozenset().union(*(s.sites for s in steps if s.action == "flip"))


def _earlier(boards: Sequence[frozenset[str]], board: frozenset[str]) -> int | None:
    """The index of the most recent of ``boards`` but the last that is ``board``.

    >>> _earlier([frozenset(), frozenset("a"), frozenset()], frozenset())
    0
    """
    for index in range(len(boards) - 2, -1, -1):
        if boards[index] == board:
            return index
    return None
