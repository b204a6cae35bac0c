"""Board-to-board play: the other side is played on another board on the same broker.

Each board publishes its game, retained, on ``reedboard/<id>/moves`` whenever its moves are
final (no follow-up under way)::

    {"game": "antipod", "size": 4, "variant": null, "token": "t1:1764050000000000000",
     "moves": ["b2", "c3"], "takebacks": 0, "ask": [1764050100000, 0, 2], "refused": 0}

The list is the sequence: move *n* is ``moves[n - 1]``, so a duplicate or a message sent again
on reconnection changes nothing, and a board that was away catches up from the retained copy.
:class:`Remote` is the controller's opponent (polled after every step, in the loop's thread;
the broker's messages only replace what it last heard, under a lock):

- when it is the other board's side to move and its list is ours plus that one move, the move
  is lit for the players here to carry out ("Opponent plays c3: move it");
- a move the other board corrects in place after it was carried out here (its piece slid on)
  is taken back here and the corrected move lit instead;
- a new game started on either board (a new ``token``, later than ours) is started on the other;
- a takeback needs the other board's OK: asked on one board (menu, page, or the pieces set back)
  it is published as ``ask`` = [its number, moves to keep, moves when asked]; the other board
  asks its players ("Take back?", OK or BACK) and either takes back itself (``takebacks``
  counts those; the asking board follows, then guides the undoing of the pieces) or publishes
  the number it ``refused``;
- while the other board is offline (its retained availability), the screen says so.

>>> payload = Remote.payload("antipod", 4, None, "t1:1", ["b2"], 0, None, 0)
>>> sorted(json.loads(payload))
['ask', 'game', 'moves', 'refused', 'size', 'takebacks', 'token', 'variant']
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from engines.core import GameState, IllegalMove
from firmware_host.game import Game
from firmware_host.mqtt import topics
from firmware_host.mqtt.link import Link
from firmware_host.opponent import Ask, Asked, Intent, Play, Seen, StartGame, TakeBackTo, Withdraw
from firmware_host.screens import message_screen
from firmware_host.turn import directions

OFFLINE = "Opponent offline"


def moves_topic(board: str) -> str:
    return topics.topic(board, "moves")


class Remote:
    """Board ``other`` plays ``side`` against this board (``board``), through ``link``: an
    opponent (``firmware_host/opponent.py``) polled after every step in the loop's thread."""

    #: Why a board is refused while it is the other board's move.
    WAIT = "Wait for the opponent's move"
    #: The other board's move, once lit here, answered ours as it was: no correcting ours.
    rethinks = False
    level = None
    #: Why pieces set back are not taken back yet: asked, or the other board said no.
    ASKED = "Take back asked: wait for the opponent's OK"
    REFUSED = "The opponent refused the take back"

    def __init__(self, link: Link, board: str, other: str, side: str | None) -> None:
        self.link, self.board, self.other, self.side = link, board, other, side
        self._lock = threading.Lock()
        self._theirs: dict[str, Any] | None = None
        self._online = True
        self._sent: str | None = None
        self._game_id: int | None = None
        self._joining: str | None = None  # the token of the other board's game being begun here
        self.token = ""
        self._takebacks = 0  # ours, as published
        self._applied = 0  # theirs, as made here
        self._asked: tuple[int, str] | None = None
        self._ask: list[int] | None = None  # our takeback request: [number, keep, moves]
        self._ask_moves: tuple[str, ...] = ()  # the moves it was asked of
        self._asking: list[int] | None = None  # their request, while put to the players here
        self._asks = 0  # the number of our last request: milliseconds since the epoch
        self._answered = 0  # the last of their requests put to the players here
        self._refused = 0  # the last of their requests the players here refused
        self._refusal: list[int] | None = None  # [keep, moves] the other board refused
        self._agreed: list[Intent] = []  # takebacks the players here agreed to
        self.note: str | None = None
        self._fresh = True  # until the other board's game is first heard: a start or a resume
        link.subscribe(moves_topic(other), self._on_moves)
        link.subscribe(topics.availability_topic(other), self._on_availability)

    # ------------------------------------------------------------------ the loop's thread
    def poll(self, seen: Seen) -> list[Intent]:
        """Follow the other board's game, take its move, publish ours."""
        with self._lock:
            theirs, online = self._theirs, self._online
        if seen.game_id != self._game_id:
            self._new_game_here(seen, theirs)
        intents, self._agreed = self._agreed, []
        if theirs is not None and not intents:
            intents = self._follow(seen, theirs)
            self._fresh = False
        if self._ask is not None and seen.moves != self._ask_moves:
            self._ask = None  # withdrawn: the game here changed (a correction, a new game)
            if self.note == self.ASKED:
                self.note = None
        if not online:
            self.note = OFFLINE
        elif self.note == OFFLINE or (self.note == self.REFUSED and self._refusal
                                      and self._refusal[1] != len(seen.moves)):
            self.note = None  # back online; a refusal is old news once a move is made
        if not intents:
            self._publish(seen)
        return intents

    def _new_game_here(self, seen: Seen, theirs: dict[str, Any] | None) -> None:
        """A new game here: the other board's being joined, else one begun here (a new token;
        "" for the game found at start)."""
        fresh = self._game_id is None
        self._game_id, self._ask, self._refusal = seen.game_id, None, None
        if self._joining is not None:
            self.token, self._joining = self._joining, None
            self._adopt(theirs)
        else:
            self.token, self._takebacks = "" if fresh else _token(self.board), 0

    def side_in(self, state: GameState) -> str:
        """The side the other board plays in ``state``'s game."""
        return self.side if self.side in state.sides else state.sides[-1]

    def record(self, state: GameState) -> str:
        """Who played the other side, as game records keep it: "board t2, black"."""
        return f"board {self.other}, {self.side_in(state)}"

    def takeback(self, seen: Seen) -> Asked:
        """A take back here would undo the other board's last turn and ours before it: ask the
        other board (once per position), which takes back itself if its players agree."""
        keep = seen.turns_back(self.side_in(seen.state))
        why = self.REFUSED if self._refusal == [keep, len(seen.moves)] else self.ASKED
        if why == self.ASKED and (self._ask is None or seen.moves != self._ask_moves):
            self._asks = max(self._asks + 1, time.time_ns() // 1_000_000)  # later after a restart
            self._ask, self._ask_moves = [self._asks, keep, len(seen.moves)], seen.moves
        self.note = why
        return Asked(why, waiting=why == self.ASKED)

    def close(self) -> None:
        """Nothing to stop: the link belongs to the board on the broker."""

    def _follow(self, seen: Seen, theirs: dict[str, Any]) -> list[Intent]:
        if theirs["token"] != self.token:
            if theirs["token"] > self.token:  # the later new game wins
                return self._join(seen, theirs)
            return []
        moves, ours = theirs["moves"], list(seen.moves)
        if theirs["takebacks"] > self._applied:
            self._applied, self._ask = theirs["takebacks"], None
            if len(moves) < len(ours) and ours[: len(moves)] == moves:
                self.note = None
                return [TakeBackTo(len(moves))]
            return []
        intents = self._answers(seen, theirs)
        if self._corrected(seen, moves):
            self._asked = (len(ours) - 1, moves[-1])
            instead = _play(seen.states[-2], moves[-1], "changed to")
            return intents + [TakeBackTo(len(ours) - 1, instead)]
        waiting = seen.awaiting or seen.pending is not None
        if not waiting or len(moves) != len(ours) + 1 or moves[: len(ours)] != ours:
            return intents
        key = (len(ours), moves[-1])
        if self._asked != key or seen.awaiting:
            changed = self._asked is not None and self._asked[0] == key[0] and self._asked != key
            self._asked = key
            intents.append(_play(seen.state, moves[-1], "changed to" if changed else "plays"))
        return intents

    def _corrected(self, seen: Seen, moves: list[str]) -> bool:
        """The other board corrected the move it sent after it was carried out here (its
        piece slid on): that move is taken back here; the corrected one is then lit."""
        ours = list(seen.moves)
        if not ours or len(moves) != len(ours) or moves[:-1] != ours[:-1] or moves == ours:
            return False
        return seen.states[-2].to_move == self.side_in(seen.state) and seen.final

    def _answers(self, seen: Seen, theirs: dict[str, Any]) -> list[Intent]:
        """Put the other board's takeback request to the players here; hear its refusal."""
        intents: list[Intent] = []
        if self._ask is not None and theirs.get("refused", 0) >= self._ask[0]:
            self._refusal, self._ask = self._ask[1:], None
            self.note = self.REFUSED
        ask = theirs.get("ask")
        if self._asking is not None and ask != self._asking:
            self._asking = None  # withdrawn before an answer: the question goes
            intents.append(Withdraw())
        if ask is None or ask[0] <= self._answered:
            return intents
        self._answered = ask[0]
        keep = ask[1]
        if ask[2] != len(seen.moves) or theirs["moves"] != list(seen.moves) \
                or not 0 <= keep < len(seen.moves):
            self._refused = ask[0]  # asked of another position: moves were made since
            return intents
        undo = len(seen.moves) - keep
        self._asking = ask
        screen = message_screen("Take back?", [f"Opponent asks to undo {undo} move{'s' if undo > 1 else ''}",
                                               "OK: yes, BACK: no"])
        intents.append(Ask(screen, lambda yes: self._answer(ask, yes, len(seen.moves))))
        return intents

    def _answer(self, ask: list[int], yes: bool, moves: int) -> None:
        if self._asking != ask:
            return  # withdrawn meanwhile
        self._asking = None
        if yes and moves == ask[2]:
            self._takebacks += 1
            self._agreed.append(TakeBackTo(ask[1]))
        else:
            self._refused = ask[0]

    def _join(self, seen: Seen, theirs: dict[str, Any]) -> list[Intent]:
        """Play the other board's game: the one here when it is the same (a board just
        started or resumed), else a new game of it."""
        try:
            game = Game.of(theirs["game"], theirs["size"], theirs["variant"])
        except (ValueError, KeyError, ImportError):
            return []
        moves, ours = theirs["moves"], list(seen.moves)
        n = min(len(moves), len(ours))
        here = seen.game
        same = (game.name, game.size, game.variant) == (here.name, here.size, here.variant)
        if self._fresh and same and moves[:n] == ours[:n]:
            self.token = theirs["token"]
            self._adopt(theirs)
            return []
        self._joining = theirs["token"]
        return [StartGame(game)]

    def _adopt(self, theirs: dict[str, Any] | None) -> None:
        """Follow the other board's game from here on."""
        theirs = theirs or {}
        self._takebacks, self._applied, self._asked, self._ask = 0, theirs.get("takebacks", 0), None, None
        self._answered = (theirs.get("ask") or [0])[0]

    def _publish(self, seen: Seen) -> None:
        if not seen.final:
            return  # not final yet
        g = seen.game
        text = self.payload(g.name, g.size, g.variant, self.token, list(seen.moves), self._takebacks,
                            self._ask, self._refused)
        if text != self._sent:
            self._sent = text
            self.link.publish(moves_topic(self.board), text, retain=True)

    @staticmethod
    def payload(game: str, size: int | None, variant: str | None, token: str, moves: list[str],
                takebacks: int, ask: list[int] | None, refused: int) -> str:
        return json.dumps({"game": game, "size": size, "variant": variant, "token": token,
                           "moves": list(moves), "takebacks": takebacks, "ask": ask,
                           "refused": refused})

    # ------------------------------------------------------------------ the link's threads
    def _on_moves(self, _: str, payload: bytes) -> None:
        theirs = _read(payload)
        if theirs is not None:
            with self._lock:
                self._theirs = theirs

    def _on_availability(self, _: str, payload: bytes) -> None:
        with self._lock:
            self._online = payload == topics.ONLINE.encode()


def _play(state: GameState, move: str, verb: str) -> Play:
    """The other board's ``move``, said with what the players do here to carry it out."""
    try:
        how = directions(state, state.parse_move(move))
    except IllegalMove:
        how = "move it"  # not legal here: the controller says so, never lights it
    return Play(move, f"Opponent {verb} {move}: {how}")


def _token(board: str) -> str:
    """A new game's token: later games sort later (nanoseconds since the epoch, fixed width)."""
    return f"{time.time_ns():020d}:{board}"


def _read(payload: bytes) -> dict[str, Any] | None:
    """The other board's game, or None for anything malformed (ignored).

    >>> _read(b'{"game": "antipod", "size": 4, "token": "1:t2", "moves": [], "takebacks": 0}')["game"]
    'antipod'
    >>> _read(b'{"moves": 3}') is None
    True
    """
    try:
        obj = json.loads(payload)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(obj, dict):
        return None
    kinds = {"game": str, "token": str, "moves": list, "takebacks": int}
    if any(not isinstance(obj.get(k), t) or isinstance(obj.get(k), bool) for k, t in kinds.items()):
        return None
    if not all(isinstance(m, str) for m in obj["moves"]):
        return None
    ask, refused = obj.get("ask"), obj.get("refused", 0)
    if ask is not None and not (isinstance(ask, list) and len(ask) == 3 and all(
            type(n) is int for n in ask)) or type(refused) is not int:
        return None
    size, variant = obj.get("size"), obj.get("variant")
    if not (size is None or isinstance(size, int)) or not (variant is None or isinstance(variant, str)):
        return None
    return obj
