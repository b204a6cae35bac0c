"""What another board publishes for board-to-board play, read as untrusted input: a board on the
broker may be broken, out of date, or an attacker's with a board's credentials. Every check
returns the value normalised or raises :class:`~firmware_host.mqtt.untrusted.Bad` with a one-line
reason; nothing here touches a controller (``remote.py`` decides what to do with what passes).

- a game: a known game, its size and variant as the engine accepts them (:func:`peer_game`);
- moves: at most :data:`MAX_MOVES`, each at most 40 characters, each read by the engine from the
  position before it and written back in its canonical notation, so ``"B4"``, ``"b4 "`` and
  ``"b4"`` are one move and a list that is not a legal game is refused (:func:`peer_moves`);
- a game's token: fixed-width nanoseconds and the board id that made it, not in the future
  (:func:`peer_token`), so no string can sort after every later game;
- a stamp (a request's number, milliseconds since the epoch): from 2020 to a minute ahead of
  this board's clock (:func:`stamp`); counts from 0 to a bound (:func:`count`);
- board ids as the config checks them (:func:`peer_board`).

>>> peer_moves(engines.new_game("antipod", 4), ["A2", " b3 "])
['a2', 'b3']
>>> peer_token("01764050000000000000:t2", now_ns=1764050000000000000)
'01764050000000000000:t2'
>>> peer_token("~~~~", now_ns=1764050000000000000)
Traceback (most recent call last):
...
firmware_host.mqtt.untrusted.Bad: token: expected 20 digits, ':' and a board id (got "~~~~")
>>> stamp(10**18, now_ms=1764050000000)
Traceback (most recent call last):
...
firmware_host.mqtt.untrusted.Bad: a stamp from 2020 to a minute from now (got 1000000000000000000)
>>> read_peer(b'{"game": "antipod", "size": 4, "token": "01764050000000000000:t2", '
...           b'"moves": ["A2"], "takebacks": 0}', now_ns=1764050000000000000)["moves"]
['a2']
"""

from __future__ import annotations

import re
from typing import Any

import engines
from engines.core import GameState, IllegalMove, OptionError
from firmware_host.game import Game
from firmware_host.mqtt.untrusted import (
    Bad, shown, board_id, items, optional, read, record, text, whole,
)

#: The most moves a peer's game may hold (the longest games here are some hundreds of moves).
MAX_MOVES = 5000
#: The most takebacks counted in one game.
MAX_COUNT = 100_000
#: 2020-01-01 in milliseconds since the epoch: no stamp is older.
EPOCH_2020_MS = 1_577_836_800_000
#: How far ahead of this board's clock another board's stamp may be (clocks differ a little).
SKEW_MS = 60_000
TOKEN = re.compile(r"(\d{20}):([a-z0-9_-]{1,64})")


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
    texts = items(text(40), MAX_MOVES)(texts)
    state, out = start, []
    for n, move_text in enumerate(texts, 1):
        try:
            move = state.parse_move(move_text)
            canonical = state.notation(move)
            state = state.play(canonical)
        except (IllegalMove, ValueError) as exc:
            raise Bad(f"move {n} {move_text[:20]!r} is not legal there ({exc})") from None
        out.append(canonical)
    return out


def peer_token(value: Any, now_ns: int) -> str:
    """A game's token: 20 digits of nanoseconds since the epoch, not after ``now_ns`` plus the
    clocks' skew, ':' and the id of the board that began the game."""
    if not isinstance(value, str) or not (match := TOKEN.fullmatch(value)):
        raise Bad(f"token: expected 20 digits, ':' and a board id (got {shown(value)})")
    if int(match.group(1)) > now_ns + SKEW_MS * 1_000_000:
        raise Bad("token: a game begun in the future")
    return value


def stamp(value: Any, now_ms: int) -> int:
    """Milliseconds since the epoch, from 2020 to a minute after ``now_ms``."""
    if type(value) is not int or not EPOCH_2020_MS <= value <= now_ms + SKEW_MS:
        raise Bad(f"a stamp from 2020 to a minute from now (got {shown(value)})")
    return value


def count(value: Any, most: int = MAX_COUNT) -> int:
    """A count from 0 to ``most``."""
    return whole(0, most)(value)


def read_peer(payload: bytes, now_ns: int) -> dict[str, Any]:
    """The game another board publishes today on ``reedboard/<id>/moves`` (docs/cafe.md),
    every field checked and the moves normalised through the game's engine; Bad otherwise.

    ``ask`` is [its stamp, moves to keep, moves when asked] (keep <= moves <= the list's
    length); ``refused`` is a stamp or 0."""
    obj = read(payload, record({"game": lambda v: v, "size": lambda v: v, "variant": lambda v: v,
                                "token": lambda v: v, "moves": lambda v: v,
                                "takebacks": optional(lambda v: count(v)),
                                "ask": optional(items(lambda v: v, 3)),
                                "refused": optional(lambda v: v)},
                               required=("game", "token", "moves")))
    now_ms = now_ns // 1_000_000
    game = peer_game(obj["game"], obj["size"], obj["variant"])
    moves = peer_moves(game.new(), obj["moves"])
    ask = obj["ask"]
    if ask is not None:
        if len(ask) != 3:
            raise Bad("ask: expected [stamp, moves to keep, moves when asked]")
        asked = stamp(ask[0], now_ms)
        keep, when = count(ask[1], MAX_MOVES), count(ask[2], MAX_MOVES)
        if not keep <= when <= len(moves):
            raise Bad("ask: moves to keep, moves when asked and the game's moves out of order")
        ask = [asked, keep, when]
    refused = obj["refused"] or 0
    if refused:
        refused = stamp(refused, now_ms)
    return {"game": game.name, "size": game.size, "variant": game.variant,
            "token": peer_token(obj["token"], now_ns), "moves": moves,
            "takebacks": obj["takebacks"] or 0, "ask": ask, "refused": refused}
