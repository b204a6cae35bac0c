"""One board's game as a state machine on a caller's clock: debounced scans, touches, button
presses, commands and the opponent's word in; events, an LED frame and a screen out.

Where the game stands is one value, :attr:`Controller.phase` (``firmware_host/board/phase.py``); the
game itself is :attr:`Controller.record`, the only writer to storage. What a settled board, a
touch or a button does in each phase is the table in ``firmware_host/board/judge.py``; the frame and
the screen are functions of :meth:`Controller.snapshot` (``firmware_host/board/view.py``). The
controller knows a game only through the GameState interface and the physical contract, and
time only through the ``now`` (ms) it is given.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping, TypeVar, cast

from engines.core import FollowUp, GameState, IllegalMove, Outcome
from firmware_host.actions.commands import (Again, Command, HouseRule, NewGame, PowerOff, SetBrightness,
                                            SetPlayers, ShowIP, ShowToday, TakeBack)
from firmware_host.board import judge, recognise
from firmware_host.ui import menu as menus
from firmware_host.store.config import ConfigError, Timing
from firmware_host.board.debounce import Debouncer
from firmware_host.board.game import Game
from firmware_host.board.hand import Hand
from firmware_host.ui.kiosk import Idle
from firmware_host.store.layout import Layout
from firmware_host.board.matchplay import OngoingMatch
from firmware_host.ui.menu import Menu
from firmware_host.board.opponent import (Adopt, Ask, Asked, Hints, Opponent, Play, Remember, Seen,
                                    StartGame, TakeBackTo, Withdraw)
from firmware_host.board.phase import Awaiting, Choosing, Following, Moving, Over, Phase, Restoring, acting
from firmware_host.board.record import GameRecord
from firmware_host.ui.screens import Screen, message_screen
from firmware_host.ui.stats import today_screen
from firmware_host.store.storage import Storage, StorageError
from firmware_host.board.turn import Pending, Sync, Touch, Turn, TurnChoice
from firmware_host.board.view import Pager, Snapshot, build_frame, build_screen
from hardware.base import ButtonEvent, Led, Scan

Event = dict[str, Any]
T = TypeVar("T")
#: How long a passing message ("Corrected to E5*") stays unless the board changes first.
FLASH_MS = 4000
#: How long a passing notice (IP address, today's games) stays unless the board changes first.
NOTICE_MS = 8000

#: Who plays the other side for a choice of players (the menu's, the page's): a factory.
Opponents = Callable[[SetPlayers], "Opponent | None"]


class Controller:
    """One board's game: ``step(now, scan, buttons)`` -> events; :meth:`frame`, :meth:`screen`.

    ``storage`` holds the game (a new one is begun unless ``resume`` gives the stored game's id
    and moves, and ``history`` its stored takebacks and token); ``layouts`` gives the layout
    for a game's state (a new game may change it).
    ``match``: the match a resumed game belongs to (default: a new one when ``game.match``).
    ``idle``: kiosk mode's idle spells; ``house_rules``: the config's options by game, for the
    games the menu or the page start; ``opponent``: who plays the other side away from the
    board, ``opponents`` makes one for a choice of players; ``hints`` on a long OK.
    """

    def __init__(
        self,
        game: Game,
        layouts: Callable[[GameState], Layout],
        timing: Timing,
        storage: Storage,
        *,
        takebacks: bool = True,
        resume: tuple[int, Iterable[str]] | None = None,
        history: str | None = None,
        brightness: float = 1.0,
        menu: Menu | None = None,
        address: Callable[[], str] = lambda: "unknown",
        idle: Idle | None = None,
        match: OngoingMatch | None = None,
        house_rules: dict[str, dict[str, Any]] | None = None,
        opponent: Opponent | None = None,
        opponents: Opponents = lambda players: None,
        hints: Hints | None = None,
    ) -> None:
        self.timing, self.idle, self.takebacks = timing, idle, takebacks
        self.house_rules = {} if house_rules is None else house_rules
        self.storage, self.brightness, self.menu = storage, brightness, menu
        self.opponent, self.opponents, self.hints = opponent, opponents, hints
        self._address, self._layouts = address, layouts
        self.debouncer = Debouncer(timing.debounce_scans, timing.settle_ms, quick_ms=timing.quick_settle_ms,
                                   landing_ms=timing.landing_settle_ms)
        #: False while the board does not answer (the daemon says): nothing is judged.
        self.connected = True
        self.message: str | None = None  # a daemon's or a refused save's line, until replaced
        self._note: str | None = None  # the opponent's, as last shown
        self._notice: Screen | None = None
        self._notice_until: float | None = None
        self._answer: Callable[[bool], None] | None = None
        self._events: list[Event] = []
        self._now = 0.0
        self._polarity: Mapping[int, bool] | None = None
        self._frame: dict[int, Led] = {}
        self.pager = Pager()
        self._dirty, self._screen_due = True, False
        self.frame_version = 0
        self.board: frozenset[str] = frozenset()
        match = match or game.new_match()
        if resume is None:
            record = GameRecord.begin(storage, game, match, self._who(game.new()))
        else:
            record = GameRecord.resume(storage, game, resume[0], resume[1], match, history)
        by = record.undo_by or record.state.to_move  # kept before the steps' side was
        undo = Turn.undo(record.undo, record.board, by) if record.undo else None
        self._begin(record, Restoring(undo, why="resume" if resume else "new game"))
        if undo is not None:  # what was left to do when the daemon stopped: asked again
            self.guide(undo)

    def _begin(self, record: GameRecord, phase: Phase) -> None:
        self.record = record
        self.layout = self._layouts(record.state)
        self._order = {s.label: i for i, s in enumerate(record.state.sites())}
        if self.menu:  # the menu's "New game" means this game from now on
            game = record.game
            self.menu.current = menus.GameChoice.of(game.name, game.size, game.variant or "")
            self.menu.match = game.match
        self.board = self.layout.sites_of(self.debouncer.stable)
        self.phase: Phase = phase
        self.sync: Sync | None = None
        self.targets: frozenset[str] = frozenset()
        self.hinted: frozenset[str] = frozenset()
        self.hand = Hand(self.timing.tap_ms)  # touches under way
        self._evaluated: tuple[frozenset[str], int] | None = None  # the board last judged, the moves then
        self._ok_waiting = False
        self._flashed: tuple[str, float] | None = None
        self._target_cache: dict[tuple[int, str], Any] = {}  # asked of the engine, per position

    # ------------------------------------------------------------------ reading
    @property
    def game(self) -> Game:
        return self.record.game

    @property
    def game_id(self) -> int:
        return self.record.game_id

    @property
    def match(self) -> OngoingMatch | None:
        return self.record.match

    @property
    def state(self) -> GameState:
        return self.record.state

    @property
    def states(self) -> list[GameState]:
        return self.record.states

    @property
    def boards(self) -> list[frozenset[str]]:
        return self.record.boards

    @property
    def moves(self) -> list[str]:
        return self.record.moves

    @property
    def pending(self) -> Pending | None:
        """The opponent's move the players are to carry out, if any."""
        return self.phase.pending if isinstance(self.phase, Awaiting) else None

    @property
    def expected(self) -> frozenset[str]:
        """The occupancy the board should show now."""
        return self.phase.turn.board() if isinstance(self.phase, Following) else self.record.board

    @property
    def to_act(self) -> str | None:
        """The side who must act now: during a move's steps (or a takeback's undoing) the side
        whose steps they are."""
        return acting(self.phase, self.state)

    def seen(self) -> Seen:
        """What an opponent sees now."""
        r, phase = self.record, self.phase
        awaiting = (isinstance(phase, Awaiting) and phase.pending is None) or self._opponent_next()
        final = isinstance(phase, (Moving, Awaiting, Over, Restoring))
        pending = self.pending.text if self.pending else None
        return Seen(r.game, r.game_id, tuple(r.moves), tuple(r.states), awaiting, final, pending,
                    r.token, tuple(r.rewrites))

    def snapshot(self) -> Snapshot:
        """Everything the frame and the screen are drawn from."""
        movers = frozenset(s for s in self.expected - self.board if self.targets_of(-1, s)) \
            if self.targets else frozenset()
        return Snapshot(self.phase, self.record, self.board, self.sync, self.targets, movers, self.hinted,
                        self.message, self._flashed and self._flashed[0], self._notice,
                        self.menu if self.menu and self.menu.is_open else None, self.idle,
                        self.connected, self.opponent.note if self.opponent else None, self._now)

    @property
    def now(self) -> float:
        """The time of the step under way (ms)."""
        return self._now

    def sorted(self, sites: Iterable[str]) -> list[str]:
        """Sites in the engine's order."""
        return sorted(sites, key=lambda s: self._order.get(s, len(self._order)))

    def touchable(self) -> frozenset[str]:
        """The sites a legal move of the position turns over or taps, asked once."""
        return self._asked((-1, "touchable"), lambda: recognise.touchable(self.state))

    def captures(self) -> recognise.Captures:
        """The legal moves of the position that take pieces off, asked once."""
        return self._asked((-1, "captures"), lambda: recognise.captures(self.state))

    def targets_of(self, index: int, site: str) -> frozenset[str]:
        """The targets of a piece lifted from ``site`` in position ``index``, asked once."""
        return self._asked((index, site), lambda: self.states[index].targets(site))

    def _asked(self, key: tuple[int, str], ask: Callable[[], T]) -> T:
        """What ``ask`` answers of the engine, once per position (forgotten when it changes)."""
        if key not in self._target_cache:
            self._target_cache[key] = ask()
        return cast(T, self._target_cache[key])

    # ------------------------------------------------------------------- input
    def step(self, now: float, scan: Scan, buttons: Iterable[ButtonEvent] = (),
             screen: bool = True) -> list[Event]:
        """Take one scan (and the button presses since the last) at ``now`` ms; the events.
        With ``screen`` False a changed screen is laid out (and its ``display`` event given)
        only by :meth:`screen_step`: the daemon sends the LED frame first."""
        self._now = now
        if scan.polarity is not None:
            self._polarity = scan.polarity
        fresh = not self.debouncer.started
        change = self.debouncer.feed(now, scan)
        if fresh or change.closed or change.opened:
            self.board = self.layout.sites_of(self.debouncer.stable)
            if fresh:
                judge.changed(self)
            else:
                self._wake()
                self._on_change(self.layout.sites_of(change.opened), self.layout.sites_of(change.closed))
        for press in buttons:
            if not self._wake():  # a press that wakes the board does nothing else
                self._on_button(press)
        if change.settled:
            self._on_settle()
        self._tick(now)
        if self._dirty:
            self._refresh()
        if screen:
            self._refresh_screen()
        events, self._events = self._events, []
        return events

    def screen_step(self) -> list[Event]:
        """After a ``step(..., screen=False)``: the screen laid out if it changed; its
        ``display`` event."""
        self._refresh_screen()
        events, self._events = self._events, []
        return events

    def emit(self, event: str, **fields: Any) -> None:
        self._events.append({"t": self._now, "event": event, **fields})
        self._dirty = True

    def _tick(self, now: float) -> None:
        """What time alone brings: an idle spell, a page turn, a message's end, a piece held
        back long enough to be a takeback, the opponent's and the hints' answers."""
        if self.idle:
            self._idle_tick()
        if self.pager.turn_due(now):
            self._dirty = True
        if self._flashed and now >= self._flashed[1]:
            self._flashed, self._dirty = None, True
        if self._notice_until is not None and now >= self._notice_until:
            self._notice = self._notice_until = None
            self._dirty = True
        held = getattr(self.phase, "held", None)
        if held is not None and now - held >= self.timing.takeback_ms and self.debouncer.quiet(now):
            judge.held_back(self, self.board)
        doubted = getattr(self.phase, "doubted", None)
        if doubted and -math.inf < doubted[0] <= now - self.timing.takeback_ms and self.debouncer.quiet(now):
            self.go(replace(cast(Moving, self.phase), doubted=(-math.inf, doubted[1])))  # a move after all
            self.rejudge()
        holding = getattr(self.phase, "holding", None)
        if holding is not None and holding > -math.inf and now - holding >= judge.TOKEN_HOLD_MS:
            # off for long: pointed out, once
            self.go(replace(cast(Moving | Awaiting, self.phase), holding=-math.inf))
            self.rejudge()
        if self.opponent:
            for intent in self.opponent.poll(self.seen()):
                self._obey(intent)
            if self.opponent.note != self._note:
                self._note, self._dirty = self.opponent.note, True
                if self.sync is not None and self.sync.waiting:
                    self.rejudge()  # the answer the board waits for came
        if self.hints and (hint := self.hints.poll(self.seen())):
            self._hint(hint)

    # -------------------------------------------------- debounced sensor changes
    def _on_change(self, lifted: frozenset[str], placed: frozenset[str]) -> None:
        for site in self.hand.changed(self._now, lifted, placed, self._holding()):
            self._tapped(site)
        self._dirty = True
        self._flashed, self.hinted = None, frozenset()
        if self._notice_until is not None:
            self._notice = self._notice_until = None
        judge.changed(self)
        moving = isinstance(self.phase, Moving)
        complete = self.debouncer.complete = moving and recognise.complete(self.state, self.board)
        self.debouncer.landing = complete and recognise.landing(self.state, self.board)

    def _on_settle(self) -> None:
        for touch in self.hand.settled(self._now, self.board, self._holding()):
            judge.touched(self, touch)
        if self._ok_waiting:
            self._ok_waiting = False
            self._ok()
        self._judge_settled()

    def _judge_settled(self) -> None:
        """Judge the settled board, once per board and number of moves (a move recorded by a
        touch or OK begins a turn that is judged on the board as it stands)."""
        if (self.board, len(self.moves)) == self._evaluated or not self.connected:
            return
        self._evaluated = (self.board, len(self.moves))
        judge.settled(self, self.board)
        if self._evaluated is not None:  # the turn a move just recorded began is judged too
            self._evaluated = (self.board, len(self.moves))

    def _tapped(self, site: str) -> None:
        """A token set back that picks a move counts at once (the move is known as the tap
        lands); a flip waits for the board to settle (a token brushing its switch mid-flip is
        not yet set back)."""
        if not isinstance(self.phase, Choosing) or site in self.phase.late:
            return
        if self.phase.choice.touch(self.hand.touch(site))[1] == "pick":
            judge.touched(self, self.hand.take(site))

    def _holding(self) -> frozenset[str]:
        """The sites the game has a piece on now (a choice's: with the move's pieces placed)."""
        return self.phase.choice.board if isinstance(self.phase, Choosing) else self.expected

    def rejudge(self) -> None:
        """Judge the board again now, if it is settled (the game changed under it, or a move
        storage refused is to be tried again)."""
        self._evaluated = None
        if self.debouncer.quiet(self._now):
            self._on_settle()

    def set_connected(self, connected: bool) -> None:
        """The board stopped answering (False: no guidance about pieces nobody can see) or
        answers again (True: the board is judged again)."""
        if connected == self.connected:
            return
        self.connected, self._dirty = connected, True
        if connected:
            self.rejudge()
        else:
            self.sync, self.targets = None, frozenset()

    # ------------------------------------------------------------------ effects
    def go(self, phase: Phase) -> None:
        """Enter ``phase`` (what is left to do that the sensors cannot see, a move's flips or
        a takeback's undoing, is kept with the game: a restart still asks for it)."""
        self.phase, self._dirty = phase, True
        turn = phase.undo if isinstance(phase, Restoring) else (
            phase.turn if isinstance(phase, Following) else None)
        self.record.set_undo(turn.steps_left() if turn is not None else (), turn.side if turn else None)

    def in_sync(self) -> None:
        if self.sync:
            self.sync = None
            self.emit("in_sync")

    def out_of_sync(self, sync: Sync) -> None:
        """Guide the board back: ``sync`` says what differs and why."""
        if sync == self.sync:
            return
        self.sync, self.targets = sync, frozenset()
        self.emit("out_of_sync", missing=list(sync.missing), extra=list(sync.extra))
        if sync.reason:
            self.emit("waiting" if sync.waiting else "illegal", reason=sync.reason,
                      sites=self.sorted(set(sync.missing) | set(sync.extra)))

    def light_targets(self, targets: frozenset[str]) -> None:
        if targets != self.targets:
            self.targets, self._dirty = targets, True
            self.emit("targets", sites=self.sorted(targets))

    def flash(self, text: str) -> None:
        """Show ``text`` briefly: until the next board change or a few seconds pass."""
        self._flashed, self._dirty = (text, self._now + FLASH_MS), True

    def offer(self, choice: TurnChoice, late: frozenset[str] = frozenset()) -> None:
        """Let the players choose among moves (several explain the board); ``late``: the last
        turn's flips a touch may still come for."""
        self.go(Choosing(choice, late))
        self.targets = frozenset()
        self.emit("guide", action=choice.action, sites=self.sorted(choice.sites))

    def accept(self, turn: Turn, correct: bool = False, correctable: bool = True) -> bool:
        """Save ``turn``'s move (``correct``: in place of the last move), then announce it and
        start its steps; False when storage refused it (the screen says why)."""
        before = self.states[-2] if correct else self.state
        side = before.maker(turn.move)
        try:
            if correct:
                text, replaced = self.record.correct(turn.move)
            else:
                text = self.record.play(turn.move)
        except StorageError as exc:
            self.message, self._dirty = str(exc), True
            return False
        self.message, self.targets, self._target_cache = None, frozenset(), {}
        if correct:
            self.emit("correction", move=text, replaces=replaced, side=side)
            self.flash(f"Corrected to {text}")
        else:
            self.emit("move", move=text, side=side)
        while (pick := turn.pick_index()) is not None:
            turn = turn.complete(pick)  # the move is known, so its pick is made
        self.go(Following(replace(turn, side=side), correctable))
        self.follow(announce=True)
        return True

    def follow(self, announce: bool = False) -> None:
        """Run the recorded move's steps from the current one until one must wait; then the
        next turn."""
        phase = cast(Following, self.phase)
        turn = phase.turn.advance(self.board, self._faces_shown if self._polarity is not None else None)
        self.go(replace(phase, turn=turn))
        if not turn.done:
            if announce or turn.step != phase.turn.step:
                self.guide(turn)
            return
        self.begin_turn(correctable=phase.correctable, late=turn.untouched, touched=phase.touched,
                        last=turn if turn.early or turn.knocked else None)

    def guide(self, turn: Turn) -> None:
        """Announce ``turn``'s current step: its action and the sites it still needs."""
        self.emit("guide", action=cast(FollowUp, turn.current).action,
                  sites=self.sorted(turn.remaining(self.board)))

    def begin_turn(self, correctable: bool = False, late: frozenset[str] = frozenset(),
                   touched: tuple[Touch, ...] = (), last: Turn | None = None) -> None:
        """The next turn: the game over, the opponent's to answer, or the players' (a removal
        that is their whole turn guided, a move that needs no hand change offered);
        ``touched``: touches already made for it (the last turn's steps took none of them)."""
        state = self.state
        if state.outcome():
            return self._game_over()
        if self.opponent and state.to_move == self.opponent.side_in(state):
            return self.go(Awaiting(correctable=correctable, late=late, touched=touched, last=last))
        self.go(Moving(correctable=correctable, late=late, touched=touched, last=last))
        due = state.due()
        if due is not None:
            self.emit("guide", action=due.action, sites=self.sorted(due.sites))
        elif offered := recognise.offered(state):
            self.offer(TurnChoice(tuple(Turn.of(c, self.record.board, state.to_move) for c in offered),
                              self.record.board), late)
        elif state.ok_move() is not None:
            self.emit("guide", action="confirm", sites=[])

    def _game_over(self) -> None:
        self.go(Over())
        self.record.finish()
        outcome = cast(Outcome, self.state.outcome())
        self.emit("game_over", winner=outcome.winner, result=outcome.result,
                  sites=self.sorted(self.win_sites()))
        if self.match:
            self.emit("match", **self.match.event())

    def win_sites(self) -> set[str]:
        """The sites that show the win (a point may have several, e.g. an Antipod edge point)."""
        outcome = self.state.outcome()
        return {site for name in (outcome.sites if outcome else ()) for site in self.state.sites_of(name)}

    def take_back(self, keep: int, why: str = "takeback", then: Play | None = None) -> None:
        """Take the game back to its first ``keep`` moves; the board is then guided back to that
        position (pieces, tokens to turn back, unseen pieces to carry), in any order. ``then``:
        the opponent's move in place of the one undone, carried out from the board as it
        stands (one motion: the piece moved on) when nothing unseen is to be undone."""
        over = isinstance(self.phase, Over)
        undone = self.record.take_back(keep)
        self._target_cache, self.targets = {}, frozenset()
        for text in undone:
            self.emit("takeback", move=text)
        if over and undone and self.match:
            self.emit("match", **self.match.event())
        steps = self.record.undo
        if then is not None and not steps and self.opponent \
                and self.state.to_move == self.opponent.side_in(self.state):
            self.go(Awaiting())
            return self._expect(then)
        undo = Turn.undo(steps, self.record.board, self.state.to_move) if steps else None
        self.go(Restoring(undo, why))
        if undo is not None:
            self.guide(undo)
        if undone:
            self.flash(f"Took back {', '.join(undone)}")
        self.rejudge()

    def drop_last(self) -> None:
        """Undo the last move with nothing to guide (a correction reaching past it)."""
        for text in self.record.take_back(len(self.moves) - 1):
            self.emit("takeback", move=text)

    def ask_takeback(self) -> None:
        """The players ask to take back (the menu, the page): the last turn, or with an
        opponent away from the board its last turn and the players' before it (asked of the
        other board first, which answers later)."""
        if not self.moves or not self.takebacks:
            return
        keep = self.opponent.takeback(self.seen()) if self.opponent else len(self.moves) - 1
        if not isinstance(keep, Asked):  # asked: the opponent's note says so
            self.take_back(keep)

    def new_game(self, game: Game) -> None:
        """Begin ``game`` (the menu, the page, another board): the next game of the match when it
        continues the one being played (an unfinished game is abandoned unscored), else a new
        match or a single game. The board is then read from the pieces once they settle."""
        game = game.with_options(self.house_rules.get(game.name))
        try:
            self._layouts(game.new())
        except ConfigError as exc:  # the board's layout lacks the game's sites: it goes on
            return self.say(f"Cannot play {game.title} here: {' '.join(str(exc).split())[:80]}")
        self.record.abandon()
        match = self.match if self.match and game == self.game and not self.match.won else game.new_match()
        record = GameRecord.begin(self.storage, game, match, self._who(game.new()))
        self._begin(record, Restoring(why="new game"))
        self.emit("new_game", game=game.name, size=game.size, variant=game.variant)
        judge.changed(self)  # a board already showing the start needs no settle
        if isinstance(self.phase, Restoring):
            self.debouncer.restart(self._now)  # read once the hands have set the pieces

    def set_players(self, players: SetPlayers, game: Game | None = None) -> None:
        """A new game (of ``game``, default the current one) in which the computer plays
        ``players.computer`` (None: nobody)."""
        if self.opponent:
            self.opponent.close()
        self.opponent = self.opponents(players)
        if self.menu:
            self.menu.players = (players.computer, players.level)
        self.new_game(game or self.game)

    def _who(self, state: GameState) -> str | None:
        return self.opponent.record(state) if self.opponent else None

    # ------------------------------------------------------------- the opponent
    def _opponent_next(self) -> bool:
        """Only unseen pieces are left to carry (a takeback's pawn going back) and the opponent
        is to move next: its move may come now, and ends them (a flip is always waited for)."""
        phase, state = self.phase, self.state
        return (isinstance(phase, Following) and bool(phase.turn.steps_left())
                and all(s.action == "carry" for s in phase.turn.steps_left())
                and self.opponent is not None and state.to_move == self.opponent.side_in(state))

    def _obey(self, intent: Any) -> None:
        """Carry out what the opponent wants done."""
        if isinstance(intent, Play) and self._opponent_next():
            following = cast(Following, self.phase)
            self.go(replace(following, turn=following.turn.finish_unsensed()))
            self.follow()  # the opponent's move ends the steps left
        if isinstance(intent, Play) and isinstance(self.phase, Awaiting):
            self._expect(intent)
        elif isinstance(intent, TakeBackTo):
            self.take_back(intent.keep, then=intent.then)
        elif isinstance(intent, StartGame):
            self.new_game(intent.game)
        elif isinstance(intent, Remember):
            self.record.set_token(intent.token)
        elif isinstance(intent, Adopt):
            self._adopt(intent)
        elif isinstance(intent, Ask):
            self.ask(intent.screen, intent.answer)
        elif isinstance(intent, Withdraw):
            self.notice(None)

    def _expect(self, play: Play) -> None:
        """Light the opponent's move for the players to carry out; a move that is not legal
        here is said, never lit."""
        state = self.state
        try:
            move = state.parse_move(play.move)
            state.check(move)
        except IllegalMove:
            return self.say(f"Opponent's move {play.move} is illegal here")
        pending = Pending(move, state.notation(move), state.realisations(move)[0], play.say)
        self.go(replace(cast(Awaiting, self.phase), pending=pending))
        real = pending.real
        self.emit("expect", move=pending.text, empty=self.sorted(real.emptied), fill=self.sorted(real.filled))
        if not (real.emptied or real.filled):  # recorded at once, so said a while
            nothing = f"{play.say.partition(': ')[0]}: nothing to carry out"
            self.flash(play.say if real.follow_ups else nothing)
        self.rejudge()

    def _adopt(self, adopt: Adopt) -> None:
        """The other board's history stands over this one's: the game becomes it, saved, and
        the board is guided there."""
        try:
            self.record.adopt(adopt.moves, adopt.rewrites)
        except (StorageError, IllegalMove) as exc:
            self.message, self._dirty = str(exc), True
            return  # asked again at the next step
        self._target_cache, self.targets = {}, frozenset()
        self.go(Restoring(why="takeback"))
        self.rejudge()

    def _hint(self, move_text: str) -> None:
        """Light ``move_text`` as a hint for the side to move until the board changes."""
        state = self.state
        move = state.parse_move(move_text)
        real = state.realisations(move)[0]
        self.hinted = real.emptied | real.filled
        self.emit("hint", move=state.notation(move), sites=self.sorted(self.hinted))
        self.flash(f"Hint: {state.notation(move)}")

    # ----------------------------------------------------------------- buttons
    def _on_button(self, press: ButtonEvent) -> None:
        self._dirty = True
        if self._notice is not None:
            self._notice = self._notice_until = None  # any button closes a notice
            answer, self._answer = self._answer, None
            if answer:
                answer(press.button == "ok" and not press.long)
        elif self.menu and (self.menu.is_open or press.button == "menu"):
            self.command(self.menu.press(press))
        elif press.long:
            if press.button == "ok" and self.hints and isinstance(self.phase, Moving):
                self.hints.ask(self.seen())  # a long OK: the computer's suggestion
        elif press.button == "ok":
            self._ok()
            if self.debouncer.quiet(self._now):
                self._judge_settled()
        elif press.button == "back":
            judge.back(self)

    def _ok(self) -> None:
        if isinstance(self.phase, Moving) and self.board != self.record.board \
                and not self.debouncer.quiet(self._now):
            self._ok_waiting = True  # a hand over the board: OK is judged at the settle
            return
        judge.ok(self)

    def command(self, action: Command | None) -> None:
        """Carry out one of the board's commands (``firmware_host.actions.commands``), whoever
        gave it: the menu, the page, the café network (None: the menu gave none)."""
        self._dirty = True
        if isinstance(action, NewGame):
            game = Game(action.game, action.size, action.variant, action.match)
            players = action.players()
            if players is None:
                self.new_game(game)
            else:
                self.set_players(players, game)
        elif isinstance(action, Again):
            self.new_game(self.game)
        elif isinstance(action, TakeBack):
            self.ask_takeback()
        elif isinstance(action, SetBrightness):
            self.brightness = action.level
            if self.menu:
                self.menu.show_brightness(action.level)
        elif isinstance(action, HouseRule):
            self.house_rules.setdefault(action.game, {})[action.name] = action.value
        elif isinstance(action, SetPlayers):
            self.set_players(action)
        elif isinstance(action, ShowIP):
            self._pass(message_screen("IP address", [self._address()]))
        elif isinstance(action, ShowToday):
            self._pass(today_screen(self.storage))
        elif isinstance(action, PowerOff):
            self._notice = message_screen("Powering off", ["Wait for the screen to go dark"])
            self.emit("power_off")  # the daemon runs the configured command

    def say(self, text: str | None) -> None:
        """Show ``text`` on the screen's message line until replaced (None: no more)."""
        if text != self.message:
            self.message, self._dirty = text, True

    def _pass(self, screen: Screen) -> None:
        """Show a passing notice: until a button, the next board change or NOTICE_MS."""
        self._notice, self._notice_until = screen, self._now + NOTICE_MS

    def notice(self, screen: Screen | None) -> None:
        """Show ``screen`` until a button is pressed (the daemon's messages); None: no more."""
        self._notice, self._notice_until, self._answer = screen, None, None
        self._dirty = True

    def ask(self, screen: Screen, answer: Callable[[bool], None]) -> None:
        """Show the question ``screen`` until a button: OK calls ``answer(True)``, any other
        button ``answer(False)``."""
        self.notice(screen)
        self._answer = answer

    # -------------------------------------------------------------- idle spells
    def _wake(self) -> bool:
        """Someone is at the board: end an idle spell; True if one ended."""
        if self.idle is None or not self.idle.activity(self._now):
            return False
        self.emit("wake")
        return True

    def _idle_tick(self) -> None:
        what = cast(Idle, self.idle).tick(self._now, self._events)
        if what == "attract":
            self._notice = self._answer = None
            if self.menu:
                self.menu.close()
            self.emit("attract")
        elif what == "frame":
            self._dirty = True

    def _faces_shown(self, sites: frozenset[str]) -> bool:
        """True when polarity sensors read the face the game expects on every site."""
        north, faces = self.state.sides[0], self.state.faces()
        polarity = cast(Mapping[int, bool], self._polarity)
        readings = [polarity.get(self.layout.sensor[site]) for site in sites]
        return all(r is not None and r == (faces.get(s) == north) for s, r in zip(sites, readings))

    # ----------------------------------------------------------------- output
    def _refresh(self) -> None:
        self._dirty = False
        frame = build_frame(self.snapshot(), self.layout, self.brightness)
        if frame != self._frame:
            self._frame = frame
            self.frame_version += 1
        self._screen_due = True

    def _refresh_screen(self) -> None:
        if not self._screen_due:
            return
        self._screen_due = False
        lines = self.pager.show(build_screen(self.snapshot()), self._now)
        if lines is not None:
            self._events.append({"t": self._now, "event": "display", "lines": list(lines)})

    def frame(self) -> dict[int, Led]:
        """LED channel -> what it shows now."""
        return self._frame

    def screen(self) -> Screen:
        """What the OLED shows now (the page due of a long screen)."""
        return replace(build_screen(self.snapshot()), page=self.pager.page)



