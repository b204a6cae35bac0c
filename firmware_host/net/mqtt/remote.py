"""Board-to-board play: the other side is played on another board on the same broker, and both
boards keep one history of the game.

Each board publishes its game, retained, on ``reedboard/<id>/moves`` whenever nothing is under
way on it (version 2)::

    {"v": 2, "game": "antipod", "size": 4, "variant": "standard",
     "token": "00000001764050000000:t1", "moves": ["b2", "c3"], "rewrites": [[1, "white"]],
     "ask": [1, 0, 2], "again": 0, "answer": null, "answer_again": 0}

- ``token`` names the game both play (nanoseconds since the epoch, fixed width, then the board
  that began it): a later new game on either board is begun on the other.
- ``moves`` and ``rewrites`` are the game's history (``firmware_host/board/record.py``, stored, so
  it survives a restart): the moves, and every takeback and correction, numbered in order, as
  ``[moves kept, side whose move is the first undone]``. A board adds to it only what it may:
  its own side's moves, a correction of its own side's last moves, and a takeback the other
  board asked for and its players agreed to. Each board follows the other's history entry by
  entry: the other side's next move is lit for its players to carry out; the other board's
  correction is taken back here and the corrected move lit; an agreed takeback is made here.
- ``ask`` is a takeback asked here (``[rewrites so far, moves to keep, moves now]``: it names the
  position it was asked in), and ``again`` how many times the players asked again after a "no";
  the other board puts each to its players and answers with the takeback itself, or with
  ``answer`` ``[rewrites, moves, "no"]`` and ``answer_again``, the ``again`` it refuses (a
  board of protocol 2 without these two reads them as 0).
- ``used``, ``running`` and ``flag`` (with a game clock): each move's turn time in ms, as the
  board whose players made it timed it, how long this board's players' turn had run when the
  message was sent (null: theirs is not running), and the side whose flag fell (null: none
  has): the other board takes the flag of this board's players from there, never from its own
  clock, and a board that starts with its last game over never joins a game with a flag
  again, nor the game it played last (as its own record names it, whatever the broker kept).
  ``session`` names the run of the daemon that sent it: the other side's clock runs
  from the earliest start its messages imply (a late one implies a later start), unless the
  other board started again (its clock with it). The other board's move is charged the time
  it says; its clock runs here from the message saying its turn began there, as from then; a
  message heard while this board's players' clock runs is answered with this board's game
  sent again (the other board may have started again), and the other board's game as the
  broker kept it (heard at a (re)connection, its ``running`` maybe old) is answered so too.
  This board's players' clock waits until the other board is heard since this board started
  (its availability ``online``, or a message it sent, not the copy the broker kept):
  :attr:`Remote.present`.
- ``arbiter`` (with a game clock): the last arbiter's correction made on this board in this
  game, ``[at, moves, left, paused]``: when (nanoseconds since the epoch), at how many moves,
  each side's time left then (ms, as of the running clock's last switch) and the pause. The
  other board takes a correction later than any it made or took, once it holds those moves:
  the same pause and times on both (a position that moved on since takes the pause alone).
- A board that starts reads back its own retained message before it publishes a game played
  with the other board again: a request and a "no" it had published of the position where
  it still is stand across the restart; asked again after a "no", it counts past the
  ``answer_again`` the other board still publishes.
- ``seating`` (once players or a league table were set on either board): ``{"stamp", "players",
  "league", "ready"}``, who sits at both boards' seats, the league table and whose OK is awaited
  (``firmware_host/board/seating.py``). Each board takes the other's when it was set there
  later (``stamp``, as a token), or when it is the same table with more of its seats' OKs
  pressed: a seat's player presses OK at their own board, and the game counts on both once all
  have.
- When both boards changed the history at once (a correction here while the other board's
  players answered), the change with the fewer moves kept wins on both (then the side's name
  decides), and the other board follows it.

Everything received is untrusted: a message is read whole or not at all (types, sizes,
bounds), a token must be a time that has come and a board id, and a history entry is taken
only if the rules above allow it. A list is compared with the moves known here as written (as
boards publish them), and only the other side's moves after them are read through the engine
(``B4`` and ``b4 `` are ``b4``), up to where this board's side is to move: a long history costs
the loop only what is new in it, once per message. A move that is not legal is dropped with one
journal line; a list that changes the game in any other way (moves already played changed with
no entry, a change nobody here agreed to, moves of this board's side it did not make) is
refused: the game here is kept, the journal says so once and the screen while the list stands,
and this board's own game stays published: the other board is the one to come back to it.

>>> payload = Remote.payload("antipod", 4, None, "", ["b2"], [], None, None)
>>> sorted(json.loads(payload))
['again', 'answer', 'answer_again', 'ask', 'game', 'moves', 'rewrites', 'size', 'token', 'v', 'variant']
"""

from __future__ import annotations

import json
import math
import random
import re
import sys
import threading
import time
from typing import Any, Callable

from engines.core import GameState
from firmware_host.actions.commands import side_named
from firmware_host.board.game import Game
from firmware_host.board.opponent import (
    Adopt,
    Ask,
    Asked,
    Corrected,
    Heard,
    Intent,
    Play,
    Remember,
    Retimed,
    Seated,
    Seen,
    Started,
    StartGame,
    TakeBackTo,
    TimeUp,
    Withdraw,
)
from firmware_host.board.seating import Shared
from firmware_host.board.turn import directions
from firmware_host.i18n import N_, _, ngettext
from firmware_host.net.mqtt import topics
from firmware_host.net.mqtt.link import Link
from firmware_host.net.mqtt.peer import Correction, Peer, common, peer_turn, read_peer, replay
from firmware_host.net.mqtt.untrusted import Bad
from firmware_host.store.config import Config, opponent_side
from firmware_host.ui.screens import message_screen

OFFLINE = N_("Opponent offline")
#: How long a board's players' turn had run, as its message says it.
RUNNING = re.compile(r'"running": (?:null|\d+), ')
#: Seconds after which a board never heard from is said to be out of reach.
UNHEARD_SECONDS = 5.0


def moves_topic(board: str) -> str:
    return topics.topic(board, "moves")


class Remote:
    """Board ``other`` takes the seat ``side`` ("first" or "second": the same in every game)
    against this board (``board``), through ``link``: an
    opponent (``firmware_host/board/opponent.py``) polled after every step in the loop's thread; the
    link's thread only replaces what it last heard, under a lock."""

    WAIT = N_("Wait for the opponent's move")
    #: The other board's move, once lit here, answered ours as it was: no correcting ours.
    rethinks = False
    #: The other board times its own players: its moves say the time they took.
    times_itself = True
    level = None
    ASKED = N_("Take back asked: wait for the opponent's OK")
    REFUSED = N_("The opponent refused the take back")
    WITHDRAWN = N_("The opponent no longer asks to take back")
    DIFFERS = N_("The opponent's board changed the game: not followed")

    def __init__(
        self,
        link: Link,
        board: str,
        other: str,
        side: str,
        clock: Callable[[], float] = time.monotonic,
        can_play: Callable[[Game], str | None] = lambda game: None,
    ) -> None:
        self.link, self.board, self.other, self.side, self.clock = link, board, other, side, clock
        #: Why this board cannot play a game (its layout lacks its sites), else None.
        self.can_play = can_play
        self._sides: dict[tuple[str, ...], str] = {}  # the side in its seat, per game's sides
        self._lock = threading.Lock()
        self._peer: Peer | None = None
        self._online: bool | None = None
        self._since = clock()
        self._sent: str | None = None
        self._sent_key: tuple | None = None  # what ``_sent`` was written from
        self._game_id: int | None = None
        self._joining: str | None = None  # the token of the other board's game begun here
        self._ask: tuple[int, int, int, int] | None = None  # our takeback request, and again
        self._refusal: tuple[int, int, int, int] | None = None  # the request the other board refused
        self._refusal_told = False  # the board has heard of the refusal (its pieces guided back)
        self._asking: tuple[int, int, int, int] | None = None  # theirs, put to the players here
        self._answered: tuple[str, tuple[int, int, int, int]] | None = None  # the game's token, its ask
        self._withdrawn: tuple[int, int] | None = None  # where their request was withdrawn
        self._answer: tuple[int, int, int] | None = None  # our "no": rewrites, moves, again
        self._agreed: list[Intent] = []
        self._dropped: str | None = None  # the last reason a message was dropped (said once)
        # the other board's message as last read here: its moves, and how many were left unread
        self._read: tuple[Peer | None, tuple[tuple[str, ...], int] | None] = (None, None)
        self._ended: tuple[Peer | None, bool] = (None, False)  # whether its game is over
        self._refused: Peer | None = None  # the message refused as a change nobody agreed to
        self._asked_keep: int | None = None  # the moves to keep of our last takeback request
        #: What this board published before it (re)started, as the broker kept it: the first
        #: message heard on its own topic unless it is what it published since; read once.
        self._kept: Peer | None = None
        self._heard: Peer | None = None  # the last message heard
        self._session = f"{random.getrandbits(32):08x}"  # this run of the daemon, in its messages
        self._sessions: str | None = None  # the other board's run whose word of its clock was taken
        self._peer_at = 0.0  # when the last message came (s, on ``clock``)
        self._timed: Peer | None = None  # the last message whose word of the other's clock was taken
        self._own_heard = self._kept_read = False
        #: This board's game to be sent again, even as sent: another client published on its
        #: topic, the other board came back online, or this board heard the other's game as the
        #: broker kept it (a (re)connection), whose word of a turn may be old.
        self._again = False
        #: The other board was heard since this board started: online, or a message of its
        #: own (not its last one as the broker kept it); ``present`` once the board was told
        #: (:class:`Heard`).
        self._there = self.present = False
        self._correction: Correction | None = None  # the arbiter's last correction made here
        self._corrected = 0  # the corrections made here so far (``Seen.corrections``)
        self._latest = 0  # when the last correction made or followed here was made (ns)
        self.note: str | None = None
        self._seating = Shared(board)  # the players and table both boards share
        self._waker: Any = None  # the loop's: set when there is news for it (:meth:`wakes`)
        self._intended = False  # the last poll had intents (their effects are published next)
        #: News for the next poll, counted by the link's threads: a message, an availability.
        self._news = 0
        #: What the last poll read, when it asked nothing, and the news counted then: the same
        #: again, a poll has nothing new to read (None: poll in full next time; the players'
        #: request or reply made since, say).
        self._quiet: tuple[tuple[Any, ...], dict[int, float], int] | None = None
        #: When the only timer a poll checks falls due: the other board still unheard after
        #: ``UNHEARD_SECONDS`` (infinity once it has passed; its effect read by a full poll).
        self._due = self._since + UNHEARD_SECONDS
        link.subscribe(moves_topic(board), self._on_own)  # first: it arrives before the other's
        link.subscribe(moves_topic(other), self._on_moves, retained=self._on_kept_moves)
        link.subscribe(topics.availability_topic(other), self._on_availability)

    @classmethod
    def configured(
        cls,
        link: Link,
        config: Config,
        clock: Callable[[], float] = time.monotonic,
        can_play: Callable[[Game], str | None] = lambda game: None,
    ) -> "Remote":
        """The other board the config's ``[opponent]`` names, in the seat its ``side`` names
        in the configured game (the config's check makes sure there is one)."""
        return cls(
            link,
            config.mqtt.board_id,
            config.opponent.board or "",
            opponent_side(config) or "",
            clock,
            can_play,
        )

    def wakes(self, waker: Any) -> None:
        """Set ``waker`` (the loop's, which may be waiting on a settled board) when the other
        board's message, its availability or another client's message on this board's topic
        arrives, and after a poll whose intents change what this board publishes (the next
        poll publishes it): each hop of the two boards' exchange (the first one names the
        game's token) is read and answered at once, not at the loop's next idle scan."""
        self._waker = waker

    def _wake(self) -> None:
        if self._waker is not None:
            self._waker.set()

    # ------------------------------------------------------------------ the protocol
    def side_in(self, state: GameState) -> str:
        """The side the other board plays in ``state``'s game: the one in its seat (kept per
        game's sides: the loop asks at every scan)."""
        sides = state.sides
        side = self._sides.get(sides)
        if side is None:
            side = self._sides[sides] = side_named(self.side, sides)
        return side

    def record(self, state: GameState) -> str:
        """Who played the other side, as game records keep it: "board t2, black"."""
        return f"board {self.other}, {self.side_in(state)}"

    def close(self) -> None:
        """Nothing to stop: the link belongs to the board on the broker."""

    def takeback(self, seen: Seen, to: int | None = None) -> int | Asked:
        """A takeback here undoes the other board's last turn and ours before it, or more when
        the pieces show an earlier position (``to``): asked of the other board, which makes it
        if its players agree. Refused, the pieces still set back hear the refusal (they are
        guided back); asked again after that, it is a new request. Our last move, never sent
        (its steps still under way, or in doubt), is taken back here alone: the other board
        never had it."""
        self._quiet = None
        if self._unsent_own(seen) and to in (None, len(seen.moves) - 1):
            return len(seen.moves) - 1
        keep = seen.turns_back(self.side_in(seen.state), to)
        asked = (len(seen.rewrites), keep, len(seen.moves))
        if self._ask is not None and self._ask[:3] == asked:
            return Asked(self.ASKED)  # asked already: the answer is awaited
        with self._lock:
            peer = self._peer
        # asked again after a "no": counted past it (the other board's "no" still says which,
        # when this board restarted since)
        no = peer.answer if peer else None
        again = 1 + no[2] if no and no[:2] == (len(seen.rewrites), len(seen.moves)) else 0
        if self._refusal is not None and self._refusal[:3] == asked:
            if to is not None and not self._refusal_told:
                self._refusal_told, self.note = True, self.REFUSED
                return Asked(self.REFUSED, waiting=False)
            again = max(again, self._refusal[3] + 1)
        self._refusal, self._refusal_told = None, False
        self._ask, self.note = (*asked, again), self.ASKED
        self._asked_keep = keep
        return Asked(self.ASKED)

    def _unsent_own(self, seen: Seen) -> bool:
        """Whether the last move is our players' and the other board was never sent it."""
        sent = self._sent_key
        return (
            sent is not None
            and bool(seen.moves)
            and (sent[1], sent[2]) == (seen.token, seen.moves[:-1])
            and seen.states[-2].to_move != self.side_in(seen.state)
        )

    def poll(self, seen: Seen) -> list[Intent]:
        """What the other board's game asks of this one; ours published when nothing is under
        way here. A poll that asked nothing is not made again (the loop polls at every scan)
        until something it reads changed: no news from the link or the players, the game here
        the same (but how long the running turn has run) and no timer due."""
        reads = _reads(seen)
        with self._lock:
            news = self._news
        quiet = self._quiet
        if quiet is not None and quiet[2] == news and quiet[0] == reads and quiet[1] == seen.used:
            if self.clock() <= self._due:
                return []
        if self.clock() > self._due:
            self._due = math.inf  # the other board is heard, or was told unheard (from now on)
        intents = self._poll(seen)
        self._quiet = None if intents else (reads, dict(seen.used), news)
        return intents

    def _poll(self, seen: Seen) -> list[Intent]:
        with self._lock:
            peer, online, kept, there = self._peer, self._online, self._kept, self._there
        if seen.game_id != self._game_id:
            began_here = self._game_id is not None and self._joining is None
            self._game_id, self._ask, self._refusal, self._answer = seen.game_id, None, None, None
            self._asked_keep, self._correction, self._corrected = None, None, seen.corrections
            if began_here:  # the players here began it: the other board follows
                return [Remember(_token(self.board))]
        if kept is not None and not self._kept_read:
            self._kept_read = True
            self._resume(seen, kept)
        self._say(seen, peer, online)
        intents, self._agreed = self._agreed, []
        if not intents and not seen.token:
            intents = self._first_token(seen, peer)
        elif not intents and peer is not None:
            intents = self._follow(seen, peer)
        if self._ask is not None and not _asked_in(self._ask, seen):
            self._ask = None  # the game moved on: the request is withdrawn
        self._note_correction(seen)
        if not intents and peer is not None:
            intents = self._relay(seen, peer)
        if not intents and peer is not None and peer is not self._timed:
            intents = self._started(seen, peer)
        if not intents and peer is not None and seen.token and peer.token == seen.token:
            intents = self._seat(seen, peer)
        if there and not self.present:  # the clock held for it runs
            self.present = True
            intents = [Heard(), *intents] if seen.clocks is not None else intents
        if not intents:
            self._publish(seen)
        elif not self._intended:  # once: intents that persist are polled at the loop's pace
            self._wake()
        self._intended = bool(intents)
        return intents

    def _seat(self, seen: Seen, peer: Peer) -> list[Intent]:
        """The players and league table the other board's game names, taken here when they
        were set there later than here, or more of their seats' OKs were pressed there."""
        self._seating.told(seen.seating, time.time_ns())  # a change made here is stamped first
        if peer.seating is None:
            return []
        taken = self._seating.heard(seen.seating, *peer.seating)
        return [] if taken is None else [Seated(taken)]

    def _started(self, seen: Seen, peer: Peer) -> list[Intent]:
        """Word of the other board's players' clock in a message with every move made here
        (each message read for it once): their turn has run so long (while this board waits
        for their move), or their flag fell. A message while this board's players' clock runs
        (the other board started again, say) is answered with this board's game, saying how
        long their turn has run by now."""
        if peer is not self._heard:
            self._heard = peer
            if seen.turn is not None and _side(seen, seen.turn[0]) != self.side_in(seen.state):
                self._sent_key = None
        same = peer.token == seen.token and peer.moves == seen.moves
        if peer is self._timed or not same:
            return []
        theirs = self.side_in(seen.state)
        flag = peer.flag if peer.flag in seen.state.players else None  # a player of theirs
        if flag and _side(seen, flag) == theirs and seen.clocks is not None and seen.clocks.flag is None:
            self._timed = peer
            return [TimeUp(flag)]
        n = len(seen.moves)
        if n and seen.states[n - 1].to_move == theirs and (used := _used(peer, n - 1)) is not None:
            if seen.used.get(n) not in (None, used):
                return [Retimed(n, used)]  # their last move's time, said after it was carried out
        due = seen.awaiting or (seen.state.to_move == theirs and seen.pending is None)  # steps here
        if not due or peer.running is None:
            return []
        self._timed = peer
        with self._lock:
            since = (self.clock() - self._peer_at) * 1000 if peer is self._peer else 0.0
        anew, self._sessions = peer.session != self._sessions, peer.session
        return [Started(peer.running + since, anew)]

    def _note_correction(self, seen: Seen) -> None:
        """An arbiter's correction made here since the last poll: sent with the game."""
        clocks = seen.clocks
        if seen.corrections == self._corrected or clocks is None:
            return
        self._corrected = seen.corrections
        left = {side: max(0, round(ms)) for side, ms in clocks.left.items()}
        self._correction = Correction(
            max(time.time_ns(), self._latest + 1), len(seen.moves), left, clocks.paused
        )
        self._latest = self._correction.at

    def _relay(self, seen: Seen, peer: Peer) -> list[Intent]:
        """The other board's last correction of the clocks, when it is later than any made or
        followed here and its moves are followed here: the times it set (none, the position
        having moved on since) and its pause."""
        theirs = peer.arbiter
        if theirs is None or theirs.at <= self._latest or peer.token != seen.token or seen.clocks is None:
            return []
        if theirs.moves > len(seen.moves):
            return []  # once its moves are carried out here
        self._latest = theirs.at
        return [Corrected(theirs.left if theirs.moves == len(seen.moves) else None, theirs.paused)]

    def _resume(self, seen: Seen, kept: Peer) -> None:
        """After a restart, this board's open takeback request and its "no" to the other
        board's, as it published them of the game where it still is: they stand."""
        if not seen.token or kept.token != seen.token:
            return
        position = (len(seen.rewrites), len(seen.moves))
        if kept.ask is not None and self._ask is None and (kept.ask[0], kept.ask[2]) == position:
            self._ask, self.note, self._asked_keep = kept.ask, self.ASKED, kept.ask[1]
        if kept.answer is not None and self._answer is None and kept.answer[:2] == position:
            self._answer = kept.answer
        if kept.arbiter is not None:  # followed already, or made here: kept, not taken again
            self._correction = self._correction or kept.arbiter
            self._latest = max(self._latest, kept.arbiter.at)

    def _say(self, seen: Seen, peer: Peer | None, online: bool | None) -> None:
        """The screen's line about the other board: out of reach, offline, or the last
        takeback's news (old once the game moves on)."""
        if peer is None and online is None and self.clock() - self._since > UNHEARD_SECONDS:
            self.note = f"Cannot hear board {self.other}: check its id and the broker's access list"
        elif online is False:
            self.note = OFFLINE
        else:
            news = {
                self.ASKED: self._ask is not None,
                self.REFUSED: self._refusal is not None and _asked_in(self._refusal, seen),
                self.WITHDRAWN: self._withdrawn == (len(seen.rewrites), len(seen.moves)),
                self.DIFFERS: peer is not None and self._refused is peer,
            }
            if not news.get(self.note or "", False):
                self.note = None

    def _first_token(self, seen: Seen, peer: Peer | None) -> list[Intent]:
        """A game played with no other board yet (a board's first start, or a new game begun
        as it started because the last one was over): the other board's game is joined if it
        has one still being played; else one of the two names it (this one when the other's
        game is over, else the board whose id sorts first, or this one if the other is not
        heard at all)."""
        if peer is not None and peer.token:
            return [Remember(_token(self.board))] if self._over(seen, peer) else self._join(seen, peer)
        alone = peer is None and self.clock() - self._since > UNHEARD_SECONDS
        if alone or (peer is not None and self.board < self.other):
            return [Remember(_token(self.board))]
        return []

    def _over(self, seen: Seen, peer: Peer) -> bool:
        """Whether the other board's game is over here (the game this board played before
        this one, which it ended or left, whatever the broker kept of it), or of this game's
        kind and over (a flag fell in it, as either board said last, or its position ends it)."""
        if peer.token == seen.follows:
            return True
        game, here = peer.game, seen.game
        if (game.name, game.size, game.variant) != (here.name, here.size, here.variant):
            return False
        with self._lock:
            kept = self._kept  # what this board said last before it started
        if peer.flag is not None or (kept is not None and kept.token == peer.token and kept.flag is not None):
            return True
        if self._ended[0] is not peer:
            try:
                self._ended = (peer, replay(seen.states[0], list(peer.moves))[1].outcome() is not None)
            except Bad as exc:
                self._ended = (peer, False)
                self._drop(str(exc))
        return self._ended[1]

    def _follow(self, seen: Seen, peer: Peer) -> list[Intent]:
        if peer.token != seen.token:
            return self._join(seen, peer)
        read = self._moves(seen, peer)
        if read is None:
            return []
        moves, unread = read
        intents = self._answers(seen, peer)
        shared = common(seen.rewrites, peer.rewrites)
        theirs, ours = peer.rewrites[shared:], seen.rewrites[shared:]
        if theirs and ours:  # both changed the history at once: one change wins on both
            if not _wins(theirs[0], ours[0]):
                return intents
            return intents + self._adopt(seen, peer, moves, unread, theirs[0], ours[0][0])
        if theirs:
            if unread:
                return intents + self._refuse(peer, "a change followed by moves of this board's side")
            return intents + self._rewrite(seen, peer, moves, theirs[0])
        if ours:
            return intents  # the other board follows ours
        return intents + self._next(seen, moves, unread, peer)

    def _join(self, seen: Seen, peer: Peer) -> list[Intent]:
        """A game under another token: the other board's when it is later (or ours has none):
        the game here if it is the same one (a board just started), else a new game of it."""
        if not peer.token or (seen.token and peer.token < seen.token):
            return []  # the other board joins ours
        if self._joining == peer.token:
            self._joining = None
            return [Remember(peer.token)]
        game, here = peer.game, seen.game
        why = self.can_play(game)
        if why:
            self.note = f"Board {self.other} plays {game.title}: {why}"
            return []
        n = min(len(peer.moves), len(seen.moves))
        if (
            (game.name, game.size, game.variant) == (here.name, here.size, here.variant)
            and not seen.token
            and peer.moves[:n] == seen.moves[:n]
        ):
            return [Remember(peer.token)]
        self._joining = peer.token
        return [StartGame(game)]

    def _moves(self, seen: Seen, peer: Peer) -> tuple[tuple[str, ...], int] | None:
        """The other board's moves read once per message, at the cost of its new moves only
        (:func:`~firmware_host.net.mqtt.peer.peer_turn`): those it shares with this board, then
        its side's moves from where the two part; and how many are left unread after them (a
        move of this board's side where they part). None (dropped) when a move read is not
        legal there."""
        if self._read[0] is not peer:
            try:
                self._read = (peer, peer_turn(seen.moves, seen.states, peer.moves, self.side_in(seen.state)))
            except Bad as exc:
                self._read = (peer, None)
                self._drop(str(exc))
        return self._read[1]

    def _adopt(
        self, seen: Seen, peer: Peer, moves: tuple[str, ...], unread: int, entry: tuple[int, str], ours: int
    ) -> list[Intent]:
        """The other board's history over ours (its change was made at once with ours and
        wins), if its change is one it may make: a takeback to where our players asked, or a
        correction of its own moves before ours began; and nothing of our side after it."""
        keep, side = entry
        theirs = self.side_in(seen.state)
        allowed = (
            self._asked_keep == keep
            if side != theirs
            else all(state.to_move == theirs for state in seen.states[keep : min(ours, len(seen.moves))])
        )
        if unread or not allowed or not 0 <= keep <= len(seen.moves) or moves[:keep] != seen.moves[:keep]:
            return self._refuse(peer, "a change of the game nobody here agreed to")
        return [Adopt(moves, peer.rewrites)]

    def _rewrite(
        self, seen: Seen, peer: Peer, moves: tuple[str, ...], entry: tuple[int, str]
    ) -> list[Intent]:
        """The other board's next history entry: a takeback our players asked for, or a
        correction of its own side's moves; anything else is dropped."""
        keep, side = entry
        if not 0 <= keep <= len(seen.moves) or moves[:keep] != seen.moves[:keep]:
            return self._refuse(peer, "a takeback of another game")
        theirs = self.side_in(seen.state)
        if side != theirs:  # our side's moves undone: only as we asked
            if self._ask is None or self._ask[1] != keep:
                return self._refuse(peer, "a takeback nobody here asked for")
            self._ask, self.note = None, None
            return [TakeBackTo(keep)]
        if any(state.to_move != theirs for state in seen.states[keep : len(seen.moves)]):
            return self._refuse(peer, "a correction of moves that are not its own")
        then = None
        if len(moves) > keep and seen.states[keep].to_move == theirs:
            then = _play(seen.states[keep], moves[keep], "changed to", _used(peer, keep))
        return [TakeBackTo(keep, then)]

    def _next(self, seen: Seen, moves: tuple[str, ...], unread: int, peer: Peer) -> list[Intent]:
        """The same history: the other board's next move, to carry out here. Its list differing
        from ours in a move of its side is a change nobody agreed to, refused; in a move of
        ours, ours stands: the other board is the one to come back to it."""
        n = common(seen.moves, moves)
        if n < len(seen.moves) and n < len(moves):
            return self._refuse(peer, "a change of its moves already played, with no takeback")
        if n < len(seen.moves) or not (unread or n < len(moves)):
            return []  # the same game, ours ahead, or a move of ours differs
        if n == len(moves) or unread:
            return self._refuse(peer, "a move of this board's side it did not make")
        state = seen.states[n]
        if seen.awaiting or (seen.pending is not None and seen.pending != moves[n]):
            verb = "changed to" if seen.pending is not None else "plays"
            return [_play(state, moves[n], verb, _used(peer, n))]
        return []

    def _answers(self, seen: Seen, peer: Peer) -> list[Intent]:
        """The other board's takeback request, put to the players here (once; withdrawn when it
        is); its refusal of ours, unless its history has moved on (a board restarted after
        agreeing finds the request of a position it has left, and says no to it)."""
        intents: list[Intent] = []
        if (
            self._ask is not None
            and peer.answer == (self._ask[0], self._ask[2], self._ask[3])
            and len(peer.rewrites) == self._ask[0]
        ):
            self._refusal, self._ask, self.note = self._ask, None, self.REFUSED
        ask = peer.ask
        if self._asking is not None and ask != self._asking:
            self._asking, self._answered = None, None  # asked once more, it is a new question
            intents.append(Withdraw())
            if ask is None:  # said until the game moves on
                self._withdrawn, self.note = (len(seen.rewrites), len(seen.moves)), self.WITHDRAWN
        if ask is None or (peer.token, ask) == self._answered or self._answer == (ask[0], ask[2], ask[3]):
            return intents  # answered (the same ask in a later game is new)
        self._answered = (peer.token, ask)
        rewrites, keep, moves, again = ask
        if not self._of_here(seen, peer, ask):
            self._answer = (rewrites, moves, again)  # asked of another position: no
            return intents
        self._asking = ask
        undo = moves - keep
        screen = message_screen(
            _("Take back?"),
            [
                ngettext("Opponent asks to undo {n} move", "Opponent asks to undo {n} moves", undo).format(
                    n=undo
                ),
                _("OK: yes, BACK: no"),
            ],
        )
        return intents + [Ask(screen, lambda yes: self._reply(ask, yes))]

    def _of_here(self, seen: Seen, peer: Peer, ask: tuple[int, int, int, int]) -> bool:
        """Whether the other board's takeback request is of the position here: the same
        moves, or those and its move still to be carried out here (which it undoes too),
        lit already or read in the same message as the request (its earlier one lost)."""
        rewrites, keep, moves, _ = ask
        if rewrites != len(seen.rewrites) or not 0 <= keep <= len(seen.moves) or keep >= moves:
            return False
        if moves == len(seen.moves):
            return True
        read = self._moves(seen, peer)
        if moves != len(seen.moves) + 1 or read is None or len(read[0]) < moves:
            return False
        theirs = read[0][len(seen.moves)]
        return read[0][: len(seen.moves)] == seen.moves and seen.pending in (None, theirs)

    def _reply(self, ask: tuple[int, int, int, int], yes: bool) -> None:
        self._quiet = None
        if self._asking != ask:
            return  # withdrawn meanwhile
        self._asking = None
        if yes:
            self._agreed.append(TakeBackTo(ask[1]))
        else:
            self._answer = (ask[0], ask[2], ask[3])

    def _refuse(self, peer: Peer, why: str) -> list[Intent]:
        """The other board's message changes the game as the protocol does not allow: not
        followed, said once in the journal and on the screen while it stands (ours is still
        published: the other board is the one to come back to it)."""
        self._refused, self.note = peer, self.DIFFERS
        return self._drop(why)

    def _drop(self, why: str) -> list[Intent]:
        """Say once in the journal that the other board's message is not followed."""
        if why != self._dropped:
            self._dropped = why
            print(f"reedboard run: board {self.other}'s game is not followed: {why}", file=sys.stderr)
        return []

    def _publish(self, seen: Seen) -> None:
        """This board's game, once its moves are final, or at once with a takeback request or
        an answer made while steps are still under way here (a takeback's pawn to carry back);
        a game played with the other board is not published before the broker was heard (a
        restarted board reads back what it kept there first) or the other board is out of
        reach."""
        news = self._sent_key is None or self._sent_key[4:6] != (self._ask, self._answer)
        if not (seen.final or news and (self._ask or self._answer)):
            return
        with self._lock:
            heard = self._own_heard or self._peer is not None or self._online is not None
        if seen.token and not heard and self.clock() - self._since <= UNHEARD_SECONDS:
            return
        with self._lock:
            again, self._again = self._again, False
        if again:
            self._sent = self._sent_key = None
        clocks = (
            seen.clocks and seen.clocks.flag,
            seen.turn is not None and _side(seen, seen.turn[0]) != self.side_in(seen.state),
            seen.used.get(len(seen.moves)),  # the last move's time, said once known (a restart)
        )
        seating = self._seating.told(seen.seating, time.time_ns())
        g, key = (
            seen.game,
            (
                seen.game,
                seen.token,
                seen.moves,
                seen.rewrites,
                self._ask,
                self._answer,
                clocks,
                self._correction,
                seating,
            ),
        )
        if key == self._sent_key:
            return  # as sent (not written again at every step: a long game's JSON costs)
        self._sent_key = key
        text = self.payload(
            g.name,
            g.size,
            g.variant,
            seen.token,
            list(seen.moves),
            [list(r) for r in seen.rewrites],
            self._ask,
            self._answer,
            _clocks(seen, self.side_in(seen.state), self._session, self._correction),
            seating,
        )
        if text != self._sent:
            self._sent = text
            self.link.publish(moves_topic(self.board), text, retain=True)

    @staticmethod
    def payload(
        game: str,
        size: int | None,
        variant: str | None,
        token: str,
        moves: list[str],
        rewrites: list[list[Any]],
        ask: Any,
        answer: Any,
        clocks: dict[str, Any] | None = None,
        seating: dict[str, Any] | None = None,
    ) -> str:
        return json.dumps(
            {
                **(clocks or {}),
                **({"seating": seating} if seating else {}),
                "v": 2,
                "game": game,
                "size": size,
                "variant": variant,
                "token": token,
                "moves": list(moves),
                "rewrites": rewrites,
                "ask": list(ask[:3]) if ask else None,
                "again": ask[3] if ask else 0,
                "answer": [*answer[:2], "no"] if answer else None,
                "answer_again": answer[2] if answer else 0,
            }
        )

    # ------------------------------------------------------------------ the link's threads
    def _on_moves(self, _: str, payload: bytes, kept: bool = False) -> None:
        """The other board's game; ``kept``: as the broker kept it, heard at a (re)connection.
        A kept one not heard before that says the other board's players' turn runs said so
        when it was sent, maybe long ago: this board's game is sent again, which the other
        board answers with how long the turn has run by now (the earlier start it implies is
        taken here)."""
        try:
            peer = read_peer(payload, time.time_ns())
        except Bad as exc:
            self._drop(str(exc))
            return
        with self._lock:
            self._again = self._again or kept and peer.running is not None and peer != self._peer
            self._there = self._there or not kept
            self._peer, self._peer_at = peer, self.clock()
            self._news += 1
        self._wake()

    def _on_kept_moves(self, topic: str, payload: bytes) -> None:
        self._on_moves(topic, payload, kept=True)

    def _on_own(self, _: str, payload: bytes) -> None:
        """The first message on this board's own topic: what it published before it started,
        if the broker kept it (not what it published since). A later one that is not what it
        sent is someone else's, published as this board: its own is published again."""
        mine = _steady(payload.decode(errors="replace")) == _steady(self._sent or "")
        with self._lock:
            first, self._own_heard = not self._own_heard, True
            self._again = self._again or not (first or mine)
            self._news += 1
        if first or not mine:
            self._wake()  # the broker heard (this board may publish), or its own published again
        if not first or mine:
            return
        try:
            kept = read_peer(payload, time.time_ns())
        except Bad:
            return
        with self._lock:
            self._kept = kept
            self._news += 1

    def _on_availability(self, _: str, payload: bytes) -> None:
        """The other board online or not; back online (a restart), it hears this board's game
        again, with how long this board's players' turn has run by now."""
        online = payload == topics.ONLINE.encode()
        with self._lock:
            self._again = self._again or (online and self._online is False)
            self._online, self._there = online, self._there or online
            self._news += 1
        self._wake()


def _clocks(seen: Seen, theirs: str, session: str, correction: Correction | None) -> dict[str, Any] | None:
    """What this board's message says of its clocks (None: no clock): each move's turn time
    (ms), how long its own players' turn has run so far (None: not theirs), the side whose flag
    fell (either board's: a board that starts again never joins a game lost on time), which
    run of the daemon (``session``) sent it, and the arbiter's last ``correction`` made here."""
    if seen.clocks is None:
        return None
    used = [None if (ms := seen.used.get(n)) is None else round(ms) for n in range(1, len(seen.moves) + 1)]
    turn = seen.turn
    return {
        "used": used,
        "running": round(turn[1]) if turn and _side(seen, turn[0]) != theirs else None,
        "flag": seen.clocks.flag,
        "session": session,
        "arbiter": correction.json() if correction else None,
    }


def _side(seen: Seen, player: str) -> str:
    """The side a player whose clock runs plays (a team's player: the team's side)."""
    return seen.state.player_side(player)


def _reads(seen: Seen) -> tuple[Any, ...]:
    """What a poll reads of ``seen`` but its ``used`` times (a dict, compared apart) and how
    long the running turn has run (read only when something else changed, to publish it)."""
    clocks, turn = seen.clocks, seen.turn
    return (
        seen.game,
        seen.game_id,
        seen.moves,
        seen.awaiting,
        seen.final,
        seen.pending,
        seen.token,
        seen.rewrites,
        clocks is None or clocks.flag,
        turn and turn[0],
        seen.seating,
        seen.corrections,
        seen.follows,
    )


def _steady(text: str) -> str:
    """A message of this board's without how long its players' turn had run when it was sent
    (the one part that differs each time it is sent).

    >>> _steady('{"used": [], "running": 1200, "v": 2}')
    '{"used": [], "v": 2}'
    """
    return RUNNING.sub("", text, count=1)


def _asked_in(ask: tuple[int, int, int, int], seen: Seen) -> bool:
    """Whether the takeback request ``ask`` was made in the position ``seen`` is in (the same
    rewrites and moves)."""
    return (ask[0], ask[2]) == (len(seen.rewrites), len(seen.moves))


def _wins(theirs: tuple[int, str], ours: tuple[int, str]) -> bool:
    """Of two history entries made at once, whether the other board's wins (the one keeping
    fewer moves; then the side's name): both boards decide alike."""
    return theirs < ours


def _used(peer: Peer, n: int) -> int | None:
    """The time (ms) move ``n`` of the other board's list took there (None: not said)."""
    return peer.used[n] if n < len(peer.used) else None


def _play(state: GameState, move: str, verb: str, used: float | None = None) -> Play:
    """The other board's ``move``, said with what the players do here to carry it out, and the
    time (ms) its turn took there (None: not said)."""
    return Play(move, f"Opponent {verb} {move}: {directions(state, state.parse_move(move))}", used)


def _token(board: str) -> str:
    """A new game's token: later games sort later (nanoseconds since the epoch, fixed width)."""
    return f"{time.time_ns():020d}:{board}"
