"""What another board publishes for board-to-board play, read as untrusted input: a board on the
broker may be broken, out of date, or an attacker's with a board's credentials. Every check
returns the value normalised or raises :class:`~firmware_host.net.mqtt.untrusted.Bad` with a one-line
reason; nothing here touches a controller (``remote.py`` decides what to do with what passes).

- a game: a known game, its size and variant as the engine accepts them (:func:`peer_game`);
- moves: at most :data:`MAX_MOVES`, each at most 40 characters, each read by the engine from the
  position before it and written back in its canonical notation, so ``"B4"``, ``"b4 "`` and
  ``"b4"`` are one move and a list that is not a legal game is refused (:func:`peer_moves`);
- a game's token: fixed-width nanoseconds and the board id that made it, not in the future
  (:func:`peer_token`), so no string can sort after every later game;
- counts (moves kept, a request's position) from 0 to a bound;
- board ids as the config checks them (:func:`peer_board`).

>>> peer_moves(engines.new_game("antipod", 4), ["A2", " b3 "])
['a2', 'b3']
>>> peer_token("01764050000000000000:t2", now_ns=1764050000000000000)
'01764050000000000000:t2'
>>> peer_token("~~~~", now_ns=1764050000000000000)
Traceback (most recent call last):
...
firmware_host.net.mqtt.untrusted.Bad: token: expected 20 digits, ':' and a board id (got "~~~~")
>>> read_peer(b'{"v": 2, "game": "antipod", "size": 4, "variant": null, "token": "", '
...           b'"moves": ["A2"], "rewrites": [[0, "white"]], "ask": null, "answer": null}',
...           now_ns=1764050000000000000).rewrites
((0, 'white'),)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import engines
from engines.core import GameState, IllegalMove, OptionError
from firmware_host.board.game import Game
from firmware_host.board.seating import Seating, read_shared
from firmware_host.net.mqtt.untrusted import (
    Bad,
    board_id,
    items,
    mapping,
    one_of,
    optional,
    read,
    record,
    shown,
    text,
    whole,
)
from firmware_host.store.config import BOARD_ID

#: The most moves a peer's game may hold (the longest games here are some hundreds of moves).
MAX_MOVES = 5000
#: The longest turn a board may say its players took (ms): ten days.
MAX_TURN_MS = 864_000_000
#: How far ahead of this board's clock another board's stamp may be (clocks differ a little).
SKEW_MS = 60_000
TOKEN = re.compile(rf"(\d{{20}}):({BOARD_ID})")


def peer_board(value: Any) -> str:
    """A board id as the config allows one (no wildcard, no '/'), else Bad."""
    board = board_id(value)
    if board is None:
        raise Bad(f"expected a board id: a-z, 0-9, '-' and '_' (got {shown(value)})")
    return board


def peer_game(name: Any, size: Any = None, variant: Any = None) -> Game:
    """The game a peer names, its defaults filled in as the engine fills them; Bad for a game,
    size or variant the engines do not have."""
    name, size, variant = text(40)(name), optional(whole(0, 1000))(size), optional(text(40))(variant)
    if name not in engines.GAME_NAMES:
        raise Bad(f"unknown game {name!r}")
    try:
        return Game.of(name, size, variant)
    except (OptionError, ValueError) as exc:
        raise Bad(f"{name}: {' '.join(str(exc).split())[:100]}") from None


def peer_moves(start: GameState, texts: Any) -> list[str]:
    """A peer's moves from ``start``, each read by the engine in the position before it and
    written in its canonical notation; Bad for a list too long, a move too long, not text, or
    not legal where it stands."""
    return replay(start, texts)[0]


def replay(start: GameState, texts: Any) -> tuple[list[str], GameState]:
    """:func:`peer_moves` and the position they lead to."""
    texts = items(text(40), MAX_MOVES)(texts)
    state, out = start, []
    for n, move_text in enumerate(texts, 1):
        canonical, state = _read(state, move_text, n)
        out.append(canonical)
    return out, state


def _read(state: GameState, move_text: str, n: int) -> tuple[str, GameState]:
    """Move ``n`` of a peer's list read by the engine in ``state``: its canonical notation and
    the position after it; Bad when it is not legal there."""
    try:
        canonical = state.notation(state.parse_move(move_text))
        return canonical, state.play(canonical)
    except (IllegalMove, ValueError) as exc:
        raise Bad(f"move {n} {move_text[:20]!r} is not legal there ({exc})") from None


def peer_turn(
    known: Sequence[str], states: Sequence[GameState], texts: Sequence[str], side: str
) -> tuple[tuple[str, ...], int]:
    """A peer's moves ``texts`` read against the moves ``known`` here (``states``: the
    positions they lead through) at the cost of its new moves only: the moves it shares with
    ``known`` as written there, then its moves from where they part while ``side`` (the peer's)
    is to move, each read by the engine; and how many of ``texts`` are left unread (the first
    of them a move of the other side where they part). Bad for a move not legal there.

    >>> states = [engines.new_game("antipod", 4)]
    >>> states.append(states[0].play("a2"))
    >>> peer_turn(["a2"], states, ["a2", "B3", "c2"], "black")
    (('a2', 'b3'), 1)
    >>> peer_turn(["a2"], states, ["d4", "b3"], "black")
    ((), 2)
    """
    n = common(known, texts)
    state, out = states[n], list(known[:n])
    for move_text in texts[n:]:
        if state.to_move != side:
            break
        canonical, state = _read(state, move_text, len(out) + 1)
        out.append(canonical)
    return tuple(out), len(texts) - len(out)


def common(a: Sequence[Any], b: Sequence[Any]) -> int:
    """The length of the common prefix of ``a`` and ``b`` (halving: slices compare at C speed).

    >>> common(["a2", "b3"], ["a2", "b3", "c2"]), common(("a2", "b3"), ("a2", "c3"))
    (2, 1)
    """
    low, high = 0, min(len(a), len(b))
    if a[:high] == b[:high]:
        return high
    while high - low > 1:  # a[:low] is common, a[:high] is not
        middle = (low + high) // 2
        low, high = (middle, high) if a[low:middle] == b[low:middle] else (low, middle)
    return low


def peer_token(value: Any, now_ns: int) -> str:
    """A game's token: 20 digits of nanoseconds since the epoch, not after ``now_ns`` plus the
    clocks' skew, ':' and the id of the board that began the game."""
    if not isinstance(value, str) or not (match := TOKEN.fullmatch(value)):
        raise Bad(f"token: expected 20 digits, ':' and a board id (got {shown(value)})")
    if int(match.group(1)) > now_ns + SKEW_MS * 1_000_000:
        raise Bad("token: a game begun in the future")
    return value


@dataclass(frozen=True)
class Correction:
    """An arbiter's last correction of the clocks on a board: made ``at`` (nanoseconds since
    the epoch: a later one wins), with ``moves`` made, each side's time ``left`` (ms, as of
    the running clock's last switch) and whether the clocks are ``paused``."""

    at: int
    moves: int
    left: Mapping[str, int]
    paused: bool

    def json(self) -> list[Any]:
        """As a message carries it: ``[at, moves, left, paused]``."""
        return [self.at, self.moves, dict(self.left), self.paused]


@dataclass(frozen=True)
class Peer:
    """The other board's game as it published it (``remote.py`` has the protocol), its fields
    checked; its moves are read through the engine where they are followed."""

    game: Game
    token: str
    moves: tuple[str, ...]
    rewrites: tuple[tuple[int, str], ...]
    ask: tuple[int, int, int, int] | None
    answer: tuple[int, int, int] | None
    used: tuple[int | None, ...] = ()
    running: int | None = None
    flag: str | None = None
    session: str | None = None
    #: Who sits at both boards' seats and the league table, as set on either (its stamp first).
    seating: tuple[str, Seating] | None = None
    arbiter: Correction | None = None


def read_peer(payload: bytes, now_ns: int) -> Peer:
    """The game another board publishes on ``reedboard/<id>/moves`` (protocol 2), every field
    checked; Bad otherwise. ``token`` is "" while its game is played with no other board yet;
    ``rewrites`` are [moves kept, a side]; ``ask`` is [rewrites, moves to keep, moves] with
    keep < moves, and ``again`` how many times it was asked again after a "no" (0 if absent);
    ``answer`` is [rewrites, moves, "no"], and ``answer_again`` the ``again`` of the request it
    refuses. The Peer's ``ask`` and ``answer`` end with those numbers. ``used`` (optional):
    each move's turn time in ms as the board whose players made it timed it (null: none), and
    ``running``: how long its players' turn has run so far (ms; null: theirs is not running),
    ``flag``: the side whose flag fell, ``session``: which run of the daemon sent it,
    ``arbiter``: its last correction of the clocks (:class:`Correction`); ``seating``
    (optional): the players at both boards' seats and the league table, stamped as a token is
    (``firmware_host/board/seating.py``, :class:`Shared`)."""
    obj = read(
        payload,
        record(
            {
                "v": one_of(2),
                "game": lambda v: v,
                "size": lambda v: v,
                "variant": lambda v: v,
                "token": lambda v: v,
                "moves": items(text(40), MAX_MOVES),
                "rewrites": items(items(lambda v: v, 2), MAX_MOVES),
                "ask": optional(items(whole(0, MAX_MOVES), 3)),
                "again": optional(whole(0, MAX_MOVES)),
                "answer": optional(items(lambda v: v, 3)),
                "answer_again": optional(whole(0, MAX_MOVES)),
                "used": optional(items(optional(whole(0, MAX_TURN_MS)), MAX_MOVES)),
                "running": optional(whole(0, MAX_TURN_MS)),
                "flag": optional(text(32)),
                "session": optional(text(16)),
                "seating": lambda v: v,
                "arbiter": optional(items(lambda v: v, 4)),
            },
            required=("v", "game", "token", "moves"),
        ),
    )
    rewrites = []
    for entry in obj["rewrites"] or ():
        if len(entry) != 2:
            raise Bad("rewrites: expected [moves kept, side]")
        rewrites.append((whole(0, MAX_MOVES)(entry[0]), text(32)(entry[1])))
    ask = obj["ask"]
    if ask is not None and (len(ask) != 3 or ask[1] >= ask[2]):
        raise Bad("ask: expected [rewrites, moves to keep, moves] with fewer kept than there are")
    answer = obj["answer"]
    if answer is not None:
        if len(answer) != 3 or answer[2] != "no":
            raise Bad('answer: expected [rewrites, moves, "no"]')
        answer = (whole(0, MAX_MOVES)(answer[0]), whole(0, MAX_MOVES)(answer[1]), obj["answer_again"] or 0)
    token = "" if obj["token"] == "" else peer_token(obj["token"], now_ns)
    seating = None if obj["seating"] is None else _seating(obj["seating"], now_ns)
    return Peer(
        peer_game(obj["game"], obj["size"], obj["variant"]),
        token,
        tuple(obj["moves"]),
        tuple(rewrites),
        (*ask, obj["again"] or 0) if ask else None,
        answer,
        tuple(obj["used"] or ()),
        obj["running"],
        obj["flag"],
        obj["session"],
        seating,
        _correction(obj["arbiter"]),
    )


def _seating(value: Any, now_ns: int) -> tuple[str, Seating]:
    """The stamp and the seating of a peer's ``seating``; Bad saying why it does not read."""
    try:
        return peer_token(value["stamp"], now_ns), read_shared(value)
    except (Bad, ValueError) as exc:
        raise Bad(f"seating: {exc}") from None
    except (KeyError, TypeError):
        raise Bad("seating: expected stamp, players, league and ready") from None


def _correction(entry: list[Any] | None) -> Correction | None:
    """A message's ``arbiter``, checked (None: none).

    >>> _correction([1, 2, {"white": 60000}, True]).left
    {'white': 60000}
    >>> _correction([1, 2, {"white": -5}, True])
    Traceback (most recent call last):
    ...
    firmware_host.net.mqtt.untrusted.Bad: arbiter: expected [at, moves, left, paused]
    """
    if entry is None:
        return None
    try:
        if len(entry) != 4:
            raise Bad("length")
        left = mapping(text(32), whole(0, MAX_TURN_MS), 8)(entry[2])
        at, moves = whole(0, 2**63)(entry[0]), whole(0, MAX_MOVES)(entry[1])
        return Correction(at, moves, left, one_of(True, False)(entry[3]))
    except Bad:
        raise Bad("arbiter: expected [at, moves, left, paused]") from None
