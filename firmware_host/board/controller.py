"""One board's game as a state machine on a caller's clock: debounced scans, touches, button
presses, commands and the opponent's word in; events, an LED frame and a screen out.

Where the game stands is one value, :attr:`Controller.phase` (``firmware_host/board/phase.py``); the
game itself is :attr:`Controller.record`, the only writer to storage. What a settled board, a
touch or a button does in each phase is the table in ``firmware_host/board/judge.py``, which
returns decisions (``firmware_host/board/decisions.py``) that :meth:`Controller.apply` carries
out in order, the one place they act; the frame and
the screen are functions of :meth:`Controller.snapshot` (``firmware_host/board/view.py``). The
controller knows a game only through the GameState interface and the physical contract, and
time only through the ``now`` (ms) it is given.

Its parts, each the one owner of its state: :class:`~firmware_host.board.model.Model` (the record
and the phase), :class:`~firmware_host.board.sensing.Sensing` (debounced scans, the board, the
hand), :class:`~firmware_host.board.notices.Notices` (message, flashes, notices, pages),
:class:`~firmware_host.board.output.Output` (events, frame, screen) and
:class:`~firmware_host.board.settings.Settings` (what the board is set up with).
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from functools import partial
from typing import Any, Callable, Iterable, Literal, TypeVar, cast

from engines.core import FollowUp, GameState, IllegalMove, Outcome
from firmware_host import i18n
from firmware_host.actions.commands import (
    Again,
    Command,
    HouseRule,
    NewGame,
    PowerOff,
    Roster,
    SetBrightness,
    SetClock,
    SetNames,
    SetPlayers,
    ShowIP,
    ShowToday,
    TableRound,
    TakeBack,
)
from firmware_host.board import decisions as dc
from firmware_host.board import doubt, judge, recognise
from firmware_host.board import events as ev
from firmware_host.board.clock import Clock
from firmware_host.board.events import Event
from firmware_host.board.game import Game, win_sites
from firmware_host.board.hand import Hand
from firmware_host.board.matchplay import OngoingMatch
from firmware_host.board.model import Model
from firmware_host.board.notices import Notices
from firmware_host.board.opponent import (
    Adopt,
    Ask,
    Asked,
    Corrected,
    Heard,
    Hints,
    Intent,
    Opponent,
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
from firmware_host.board.output import Output
from firmware_host.board.phase import Awaiting, Choosing, Following, Moving, Over, Phase, Restoring, Why
from firmware_host.board.record import GameRecord
from firmware_host.board.seating import Seating
from firmware_host.board.sensing import Sensing
from firmware_host.board.settings import Opponents, Settings
from firmware_host.board.turn import Pending, Sync, Touch, Turn, TurnChoice, directions
from firmware_host.board.view import Snapshot, build_screen
from firmware_host.store.config import ClockConfig, ConfigError, Timing
from firmware_host.store.layout import Layout
from firmware_host.store.players import League
from firmware_host.store.storage import Storage, StorageError
from firmware_host.store.timecontrol import TimeControl
from firmware_host.ui import menu as menus
from firmware_host.ui.kiosk import Idle
from firmware_host.ui.menu import Menu
from firmware_host.ui.screens import Screen, message_screen
from firmware_host.ui.stats import today_screen
from hardware.base import ButtonEvent, Led, Scan

T = TypeVar("T")


class _Seen:
    """The ``Seen`` an opponent was shown last and what it was made of: the record, the phase,
    the seating and the opponent (each the same object while it holds), and the record's and
    the clocks' counts of their changes (``version``, ``clock_version``)."""

    __slots__ = ("seen", "record", "phase", "seating", "opponent", "version", "clock_version")

    def __init__(
        self,
        seen: Seen,
        record: GameRecord,
        phase: Phase,
        seating: Seating,
        opponent: Opponent | None,
        version: int,
        clock_version: int,
    ) -> None:
        self.seen, self.record, self.phase, self.seating = seen, record, phase, seating
        self.opponent, self.version, self.clock_version = opponent, version, clock_version


class Controller:
    """One board's game: ``step(now, scan, buttons)`` -> events; :meth:`frame`, :meth:`screen`.
    What other rooms may use of it is :class:`firmware_host.board.Controls`.

    ``storage`` holds the game (a new one is begun unless ``resume`` gives the stored game's id
    and moves, and ``history`` its stored takebacks and token); ``layouts`` gives the layout
    for a game's state (a new game may change it).
    ``match``: the match a resumed game belongs to (default: a new one when ``game.match``).
    ``idle``: kiosk mode's idle spells; ``house_rules``: the config's options by game, for the
    games the menu or the page start; ``opponent``: who plays the other side away from the
    board, ``opponents`` makes one for a choice of players; ``hints`` on a long OK;
    ``clock``: the config's ``[clock]`` (none: no clock); ``players``: the names at the
    seats (the config's ``[players] names``; a resumed game keeps its own).
    """

    def __init__(
        self,
        game: Game,
        layouts: Callable[[GameState[Any]], Layout],
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
        clock: ClockConfig | None = None,
        players: tuple[str, ...] = (),
    ) -> None:
        self.settings = Settings(
            storage,
            layouts,
            timing,
            takebacks,
            brightness,
            {} if house_rules is None else house_rules,
            menu,
            address,
            idle,
            opponents,
            hints,
        )
        self.opponent = opponent
        self.sensing = Sensing(timing)
        self.notes = Notices()  # the message line (a daemon's, a refused save's), flashes, notices
        self.output = Output(self.notes.pager)
        self.clock, self._now = Clock.of(clock or ClockConfig(), storage), 0.0
        self._queue: deque[Step] | None = None  # what is being applied (see apply)
        self._seen: _Seen | None = None  # what an opponent saw last, and what made it
        match = match or game.new_match()
        self.seating = Seating(players) if resume is None else _seated(storage, resume[0], players)
        if resume is None:
            record = GameRecord.begin(storage, game, match, self._who(game.new()), self.seating.kept())
        else:
            record = GameRecord.resume(storage, game, resume[0], resume[1], match, history)
        by = record.undo_by or record.state.to_move  # kept before the steps' side was
        undo = Turn.undo(record.undo, record.board, by) if record.undo else None
        self._begin(record, Restoring(undo, why="resume" if resume else "new game"))
        self._resume(record.doubted(), undo)

    def _resume(self, doubted: Turn | None, undo: Turn | None) -> None:
        """What was left to do when the daemon stopped, asked again (``undo``); or the last
        move, ``doubted``, was in doubt (``doubt.py``): the doubt goes on, its steps asked
        again, and the move is said (or dropped) as it would have been, once."""
        if doubted is not None and doubted.done:
            self.begin_turn(correctable=True, late=doubted.untouched, last=doubted)
        elif doubted is not None:
            self.go(Following(doubted, correctable=True))
            self.guide(doubted)
        elif undo is not None:
            self.guide(undo)

    def _begin(self, record: GameRecord, phase: Phase) -> None:
        self.model = Model(record, phase)
        self.clock.begin(record.game_id, record.state.players, len(record.moves))
        self.sensing.regame(self.settings.layouts(record.state))
        if self.settings.menu:  # the menu's "New game" means this game from now on
            game = record.game
            self.settings.menu.current = menus.GameChoice.of(game.name, game.size, game.variant or "")
            self.settings.menu.match = game.match
            self.settings.menu.control = self.clock.control.text if self.clock.control else "-"
            self.settings.menu.names = self.seating.names
        self.sync: Sync | None = None
        self.targets: frozenset[str] = frozenset()
        self.hinted: frozenset[str] = frozenset()
        self._evaluated: tuple[frozenset[str], int] | None = None  # the board last judged, the moves then

    # ------------------------------------------------------------------ reading
    @property
    def record(self) -> GameRecord:
        """The game being played (the only writer to storage)."""
        return self.model.record

    @property
    def phase(self) -> Phase:
        """Where the game stands (``firmware_host/board/phase.py``)."""
        return self.model.phase

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
    def state(self) -> GameState[Any]:
        return self.record.state

    @property
    def states(self) -> list[GameState[Any]]:
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
        return self.phase.opponent_move()

    @property
    def expected(self) -> frozenset[str]:
        """The occupancy the board should show now."""
        return self.phase.expected(self.record.board)

    @property
    def to_act(self) -> str | None:
        """The side who must act now: during a move's steps (or a takeback's undoing) the side
        whose steps they are."""
        return self.phase.acting(self.state)

    def seen(self) -> Seen:
        """What an opponent sees now (the computer and a paired board ask at every scan): made
        again only when what it is made of changed (the record's and the clocks' counts of
        changes, the phase, the seating, the opponent); how long the running turn has run is
        read at every call."""
        r, kept, turn = self.record, self._seen, self.clock.turn(self._now)
        if (
            kept is None
            or kept.record is not r
            or kept.phase is not self.phase
            or kept.seating is not self.seating
            or kept.opponent is not self.opponent
            or kept.version != r.version
            or kept.clock_version != self.clock.version
        ):
            seen = self._made_seen(turn)
            self._seen = _Seen(
                seen, r, self.phase, self.seating, self.opponent, r.version, self.clock.version
            )
            return seen
        if kept.seen.turn != turn:
            kept.seen = kept.seen.at_turn(turn)
        return kept.seen

    def _made_seen(self, turn: tuple[str, float] | None) -> Seen:
        r, phase = self.record, self.phase
        undecided = phase.in_doubt()  # the players' move may have been a knock
        awaiting = (phase.awaits_answer() and not undecided) or self._opponent_next()
        pending = self.pending.text if self.pending else None
        return Seen(
            r.game,
            r.game_id,
            tuple(r.moves),
            tuple(r.states),
            awaiting,
            phase.final and not undecided,
            pending,
            r.token,
            tuple(r.rewrites),
            self.clock.clocks,
            self.clock.used,
            turn,
            self.seating,
            self.clock.corrections,
            r.follows,
        )

    def snapshot(self) -> Snapshot:
        """Everything the frame and the screen are drawn from."""
        movers = (
            frozenset(
                s for s in self.expected - self.board - judge.capturable(self) if self.targets_of(-1, s)
            )
            if self.targets
            else frozenset()
        )
        return Snapshot(
            self.phase,
            self.record.standing(),
            self.board,
            self.sync,
            self.targets,
            movers,
            self.hinted,
            self.notes.message,
            self.notes.flashed,
            self.notes.notice,
            self.menu.screen() if self.menu and self.menu.is_open else None,
            self.idle.spell(self.state.sites(), self.layout.led) if self.idle else None,
            self.sensing.connected,
            self.opponent.note if self.opponent else None,
            self.clock.drawn(self._now),
            self.clock.low(self._now),
            self.seating.away(self._remote_seat()),
        )

    def quiet(self, now: float) -> bool:
        """True when the board has settled at ``now`` (no hand over it): a good moment to stop."""
        return self.sensing.debouncer.quiet(now)

    def settles_at(self) -> float | None:
        """When (ms, the steps' clock) the board settles if nothing changes first: a step then
        judges it at once, not a scan period later (None: settled, or the scans will tell)."""
        return self.sensing.debouncer.settles_at()

    @property
    def board(self) -> frozenset[str]:
        """The sites the debounced board shows."""
        return self.sensing.board

    @property
    def layout(self) -> Layout:
        return self.sensing.layout

    @property
    def hand(self) -> Hand:
        """The touches under way."""
        return self.sensing.hand

    @property
    def storage(self) -> Storage:
        """Where the games are kept."""
        return self.settings.storage

    @property
    def timing(self) -> Timing:
        return self.settings.timing

    @property
    def brightness(self) -> float:
        return self.settings.brightness

    @property
    def house_rules(self) -> dict[str, dict[str, Any]]:
        return self.settings.house_rules

    @property
    def menu(self) -> Menu | None:
        return self.settings.menu

    @property
    def idle(self) -> Idle | None:
        return self.settings.idle

    @property
    def hints(self) -> Hints | None:
        """The computer's suggestions, on a long OK (None: none)."""
        return self.settings.hints

    @hints.setter
    def hints(self, hints: Hints | None) -> None:
        self.settings.hints = hints

    @property
    def connected(self) -> bool:
        """False while the board does not answer (the daemon says): nothing is judged."""
        return self.sensing.connected

    @property
    def frame_version(self) -> int:
        """How many times the LED frame changed (the daemon sends a changed one)."""
        return self.output.version

    @property
    def message(self) -> str | None:
        """The screen's message line (a daemon's, a refused save's), until replaced."""
        return self.notes.message

    @property
    def now(self) -> float:
        """The time of the step under way (ms)."""
        return self._now

    def sorted(self, sites: Iterable[str]) -> list[str]:
        """Sites in the engine's order."""
        return self.record.sorted(sites)

    def touchable(self) -> frozenset[str]:
        """The sites a legal move of the position turns over or taps, asked once."""
        return self.model.asked((-1, "touchable"), lambda: recognise.touchable(self.state))

    def captures(self) -> recognise.Captures:
        """The legal moves of the position that take pieces off, asked once."""
        return self.model.asked((-1, "captures"), lambda: recognise.captures(self.state))

    def targets_of(self, index: int, site: str) -> frozenset[str]:
        """The targets of a piece lifted from ``site`` in position ``index``, asked once."""
        return self.model.asked((index, site), lambda: self.states[index].targets(site))

    # ------------------------------------------------------------------- input
    def step(
        self, now: float, scan: Scan, buttons: Iterable[ButtonEvent] = (), screen: bool = True
    ) -> list[Event]:
        """Take one scan (and the button presses since the last) at ``now`` ms; the events.
        With ``screen`` False a changed screen is laid out (and its ``display`` event given)
        only by :meth:`screen_step`: the daemon sends the LED frame first."""
        self._now = now
        fresh, change = self.sensing.feed(now, scan)
        self.clock.mark(self.sensing.debouncer.changed_at)  # a turn ends at its last change
        if fresh:
            self._in_hand_at_start()
            self.apply(judge.changed(self))
        elif change.closed or change.opened:
            self._wake()
            self._on_change(self.sensing.sites(change.opened), self.sensing.sites(change.closed))
        buttons = list(buttons)
        if buttons:
            self.clock.mark(now)
        if change.settled:
            self.clock.mark(self.sensing.debouncer.changed_at)
            self._on_settle()
        self._pressed(now, buttons)
        self.clock.mark(now)
        self._tick(now)
        self.output.show(self.snapshot(), now, self.layout, self.settings.brightness, screen)
        return self.output.take()

    def screen_step(self) -> list[Event]:
        """After a ``step(..., screen=False)``: the screen laid out if it changed; its
        ``display`` event."""
        self.output.show_screen()
        return self.output.take()

    def emit(self, event: Event) -> None:
        self.output.tell(event)

    def _tick(self, now: float) -> None:
        """What time alone brings: an idle spell, a page turn, a message's end, a piece held
        back long enough to be a takeback, the opponent's and the hints' answers."""
        if self.settings.idle:
            self._idle_tick()
        self._time(now)
        self.notes.tick(now)
        for _ in range(3):  # a hold, a doubt, a token off: each at most once
            lapse = self.phase.lapsed(now, self.settings.timing.takeback_ms, self.quiet(now))
            if lapse is None:
                break
            if lapse == "held":
                self.apply(judge.held_back(self, self.board))
            else:  # a doubted move read after all, a token off for long pointed out
                self.go(lapse)
                self.rejudge()
        if self.opponent and (not self.seating.waiting or self.opponent.level is None):  # a paired board
            for intent in self.opponent.poll(self.seen()):
                self._obey(intent)
            if self.notes.heard(self.opponent.note) and self.sync is not None and self.sync.waiting:
                self.rejudge()  # the answer the board waits for came
        if (hints := self.settings.hints) and hints.asked and (hint := hints.poll(self.seen())):
            self._hint(hint)

    def _time(self, now: float) -> None:
        """A flag fallen at ``now``: the game lost on time, or said in a casual one."""
        away = self.opponent.side_in(self.state) if self.opponent and self.opponent.times_itself else None
        away = self._player(away)
        flag = self.clock.flag_due(now, self.quiet(now), self.sensing.debouncer.changed_at, away)
        if flag is not None:
            self._flag(flag)

    def _flag(self, flag: str) -> None:
        """``flag``'s time is out: the game is lost on time (or goes on, the flag shown)."""
        now = self._now
        self._tell_clocks()
        if self.clock.casual or len(self.state.sides) > 2:  # a cut-throat game has no loser alone
            return self.flash(f"{flag[:1].upper()}{flag[1:]}: time is up")
        outcome = self.record.lose_on_time(self.state.player_side(flag))  # a team loses together
        aim = judge.set_back_aim(self, self.board)  # pieces set back, a flip under way: no set-up
        self.go(Over.flagged(self.phase, self.board, now, aim))
        self.emit(
            ev.GameOver(t=now, event="game_over", winner=outcome.winner, result=outcome.result, sites=[])
        )
        if self.match:
            self._score()  # a game won on time counts in the match

    def _tell_clocks(self) -> None:
        if (told := self.clock.told(self._now)) is not None:
            self.emit(told)

    # -------------------------------------------------- debounced sensor changes
    def _in_hand_at_start(self) -> None:
        """Tokens still to turn over that are off the board at the first scan (the daemon
        restarted mid-flip) are in the hand: set back, each counts as turned."""
        turn = self.phase.unseen()
        if turn is not None:
            self.hand.changed(self._now, turn.to_touch() - self.board, (), self._holding())

    def _on_change(self, lifted: frozenset[str], placed: frozenset[str]) -> None:
        for site in self.hand.changed(self._now, lifted, placed, self._holding()):
            self._tapped(site)
        self.hinted = frozenset()
        self.notes.board_changed()
        self.apply(judge.changed(self))
        self.sensing.debouncer.expect(self.phase.settle(self.state, self.board))

    def _on_settle(self) -> None:
        if self.seating.waiting and self.phase.players_to_move:  # nothing counts before the OKs
            return
        self.apply([dc.CountTouches(self.board, self._holding()), self._ok_waited, self._judge_settled])

    def _ok_waited(self) -> None:
        """OK pressed while a hand was over the board: judged now it has settled."""
        if self.sensing.presses.waited():
            self._ok()

    def _judge_settled(self) -> None:
        """Judge the settled board, once per board and number of moves (a move recorded by a
        touch or OK begins a turn that is judged on the board as it stands)."""
        if (self.board, len(self.moves)) == self._evaluated or not self.sensing.connected:
            return
        self._evaluated = (self.board, len(self.moves))
        self.apply([*judge.settled(self, self.board), self._judged])

    def _judged(self) -> None:
        """After a judgement: the turn a move just recorded began is judged too."""
        if self._evaluated is not None:
            self._evaluated = (self.board, len(self.moves))

    def _tapped(self, site: str) -> None:
        """A token set back that picks a move counts at once (the move is known as the tap
        lands); a flip waits for the board to settle (a token brushing its switch mid-flip is
        not yet set back)."""
        if self.phase.picks(self.hand.touch(site)):
            self.apply(judge.touched(self, self.hand.take(site)))

    def _holding(self) -> frozenset[str]:
        """The sites the game has a piece on now (a choice's: with the move's pieces placed)."""
        return self.phase.pieces(self.record.board)

    def rejudge(self) -> None:
        """Judge the board again now, if it is settled (the game changed under it, or a move
        storage refused is to be tried again)."""
        self._evaluated = None
        if self.quiet(self._now):
            self._on_settle()

    def set_connected(self, connected: bool) -> None:
        """The board stopped answering (False: no guidance about pieces nobody can see) or
        answers again (True: the board is judged again)."""
        if connected == self.sensing.connected:
            return
        self.sensing.connected = connected
        if connected:
            self.rejudge()
        else:
            self.sync, self.targets = None, frozenset()

    # ------------------------------------------------------------------ effects
    def apply(self, decisions: Iterable[Step]) -> None:
        """Carry out what the judge decided, in order: the one place its decisions act
        (:data:`APPLIED`). What a decision brings (the judge asked again, the board judged
        again, a step of the controller's own) is carried out next, before the rest: queued
        first, run once the decision that brought it is done (so the board is judged again
        only after a takeback is complete), and nothing recurses."""
        steps = list(decisions)
        if self._queue is not None:  # applying already: these come next
            self._queue.extendleft(reversed(steps))
            return
        self._queue = deque(steps)
        try:
            while self._queue:
                step = self._queue.popleft()
                if isinstance(step, dc.Then):
                    self._queue.extendleft(reversed(step.judged(self)))
                elif callable(step):
                    step()
                else:
                    APPLIED[type(step)](self, step)
        finally:
            self._queue = None

    def go(self, phase: Phase) -> None:
        """Enter ``phase`` (what is left to do that the sensors cannot see, a move's flips or
        a takeback's undoing, is kept with the game: a restart still asks for it)."""
        unsaid = self.phase.unsaid()
        self.model.go(phase)
        if unsaid is not None and phase.unsaid() is None:
            self._say(unsaid)  # the doubt passed: the move stands
        self._run_clock(phase)

    def _run_clock(self, phase: Phase) -> None:
        """Whose clock runs in ``phase``: nobody's before a league round's OKs, nor the players'
        here before a paired board is heard (the time until it is there is nobody's)."""
        away = self.opponent.side_in(self.state) if self.opponent else None
        pending = phase.opponent_move()
        waits = self.opponent is not None and self.opponent.times_itself
        alone = waits and self.opponent is not None and not self.opponent.present
        timed = self._timed(phase, away)
        held = self.seating.waiting or alone and timed != away
        runs = None if held else self._player(timed)
        told = self.clock.follow(
            runs, len(self.moves), pending is not None, self._now, self._player(away), waits
        )
        if told is not None:
            self.emit(told)

    def _player(self, side: str | None) -> str | None:
        """The player of ``side`` whose turn it is or was last (a team's players each have a
        clock)."""
        if side is not None:
            for state in reversed(self.record.states):
                if state.to_move == side:
                    player: str | None = state.player_to_move
                    return player
        return side

    def _timed(self, phase: Phase, away: str | None) -> str | None:
        """Whose clock runs in ``phase``; while the players carry out the opponent's move (or
        its steps), as ``[clock] carry`` says."""
        pending, steps = phase.opponent_move(), phase.unseen()
        if pending is None and (steps is None or steps.side != away):
            return phase.timed(self.state, away)
        state = self.state
        return self.clock.carrier(
            away, lambda: (state if pending is None else state.apply(pending.move)).to_move
        )

    def in_sync(self) -> None:
        if self.sync:
            self.sync = None
            self.emit(ev.InSync(t=self._now, event="in_sync"))

    def out_of_sync(self, sync: Sync) -> None:
        """Guide the board back: ``sync`` says what differs and why."""
        if sync == self.sync:
            return
        self.sync, self.targets = sync, frozenset()
        self.emit(
            ev.OutOfSync(t=self._now, event="out_of_sync", missing=list(sync.missing), extra=list(sync.extra))
        )
        if sync.reason:
            kind: Literal["waiting", "illegal"] = "waiting" if sync.waiting else "illegal"
            self.emit(
                ev.Refused(
                    t=self._now,
                    event=kind,
                    reason=sync.reason,
                    sites=self.sorted(set(sync.missing) | set(sync.extra)),
                )
            )

    def light_targets(self, targets: frozenset[str]) -> None:
        if targets != self.targets:
            self.targets = targets
            self.emit(ev.Targets(t=self._now, event="targets", sites=self.sorted(targets)))

    def flash(self, text: str) -> None:
        """Show ``text`` briefly: until the next board change or a few seconds pass."""
        self.notes.flash(text, self._now)

    def offer(self, choice: TurnChoice, late: frozenset[str] = frozenset()) -> None:
        """Let the players choose among moves (several explain the board); ``late``: the last
        turn's flips a touch may still come for."""
        self.go(Choosing(choice, late))
        self.targets = frozenset()
        self.emit(ev.Guide(t=self._now, event="guide", action=choice.action, sites=self.sorted(choice.sites)))

    def accept(self, turn: Turn, correct: bool = False, correctable: bool = True) -> bool:
        """Save ``turn``'s move (``correct``: in place of the last move), then announce it and
        start its steps; False when storage refused it (the screen says why)."""
        if (unsaid := self.phase.unsaid()) is not None:
            self._say(unsaid)  # the move in doubt stands: said before the next
        before = self.states[-2] if correct else self.state
        side = before.maker(turn.move)
        try:
            if correct:
                text, replaced = self.record.correct(turn.move)
            else:
                text = self.record.play(turn.move)
        except StorageError as exc:
            self.notes.message = str(exc)
            return False
        self.notes.message, self.targets = None, frozenset()
        self.model.forget()
        if correct:
            self.clock.corrected()
            self.emit(ev.Corrected(t=self._now, event="correction", move=text, replaces=replaced, side=side))
            self.flash(i18n._("Corrected to {move}").format(move=text))
        elif not doubt.maybe_knock(turn):  # else said once the doubt has passed
            self.emit(ev.Moved(t=self._now, event="move", move=text, side=side))
        while (pick := turn.pick_index()) is not None:
            turn = turn.complete(pick)  # the move is known, so its pick is made
        self.go(Following(replace(turn, side=side), correctable))
        self.follow(announce=True)
        return True

    def accepted(self, accept: dc.Accept) -> None:
        """:meth:`accept` ``accept``'s turn; once saved, the judge asked what follows."""
        if self.accept(accept.turn, accept.correct, accept.correctable) and accept.then:
            self.apply([dc.Then(accept.then)])

    def follow(self, announce: bool = False) -> None:
        """Run the recorded move's steps from the current one until one must wait; then the
        next turn."""
        phase = cast(Following, self.phase)
        faces = partial(self.sensing.faces_shown, self.state) if self.sensing.reads_faces else None
        turn = phase.turn.advance(self.board, faces)
        self.go(replace(phase, turn=turn))
        if not turn.done:
            if announce or turn.step != phase.turn.step:
                self.guide(turn)
            return
        self.begin_turn(
            correctable=phase.correctable,
            late=turn.untouched,
            touched=phase.touched,
            last=turn if turn.early or turn.knocked else None,
        )

    def guide(self, turn: Turn) -> None:
        """Announce ``turn``'s current step: its action and the sites it still needs."""
        self.emit(
            ev.Guide(
                t=self._now,
                event="guide",
                action=cast(FollowUp, turn.current).action,
                sites=self.sorted(turn.remaining(self.board)),
            )
        )

    def begin_turn(
        self,
        correctable: bool = False,
        late: frozenset[str] = frozenset(),
        touched: tuple[Touch, ...] = (),
        last: Turn | None = None,
    ) -> None:
        """The next turn: the game over, the opponent's to answer, or the players' (a removal
        that is their whole turn guided, a move that needs no hand change offered);
        ``touched``: touches already made for it (the last turn's steps took none of them)."""
        state = self.state
        if state.outcome():
            return self._game_over()
        if self.opponent and state.to_move == self.opponent.side_in(state):
            return self.go(
                Awaiting(
                    correctable=correctable,
                    late=late,
                    touched=touched,
                    last=last,
                    doubted=doubt.opened(self._now, self.record.board, last, correctable),
                )
            )
        self.go(Moving(correctable=correctable, late=late, touched=touched, last=last))
        due = state.due()
        if due is not None:
            self.emit(ev.Guide(t=self._now, event="guide", action=due.action, sites=self.sorted(due.sites)))
        elif offered := recognise.offered(state):
            self.offer(
                TurnChoice(
                    tuple(Turn.of(c, self.record.board, state.to_move) for c in offered), self.record.board
                ),
                late,
            )
        elif state.ok_move() is not None:
            self.emit(ev.Guide(t=self._now, event="guide", action="confirm", sites=[]))

    def _game_over(self) -> None:
        self.go(Over())
        self.record.finish()
        outcome = cast(Outcome, self.state.outcome())
        self.emit(
            ev.GameOver(
                t=self._now,
                event="game_over",
                winner=outcome.winner,
                result=outcome.result,
                sites=self.sorted(win_sites(self.state)),
            )
        )
        if self.match:
            self._score()

    def _score(self) -> None:
        """The match's totals, told (after a game, or a takeback of its last move)."""
        m = cast(OngoingMatch, self.match)
        self.emit(
            ev.MatchScore(
                t=self._now,
                event="match",
                totals=dict(m.match.totals),
                target=m.target,
                winner=m.match.winner,
            )
        )

    def take_back(
        self, keep: int, why: Why = "takeback", then: Play | None = None, made: tuple[Touch, ...] = ()
    ) -> None:
        """Take the game back to its first ``keep`` moves; the board is then guided back to that
        position (pieces, tokens to turn back, unseen pieces to carry), in any order. ``then``:
        the opponent's move in place of the one undone, carried out from the board as it
        stands (one motion: the piece moved on) when nothing unseen is to be undone; ``made``:
        the tokens already turned back by hand, counted before its first step is told."""
        over, unsaid = self.phase.over, self._holds(self.phase.unsaid())  # in doubt: never said
        undone = self.record.take_back(keep)
        if (told := self.clock.taken_back(self.game_id, self.state.players, keep, self._now)) is not None:
            self.emit(told)
        self.targets = frozenset()
        self.model.forget()
        for text in undone[1:] if unsaid else undone:
            self.emit(ev.TookBack(t=self._now, event="takeback", move=text))
        if over and undone and self.match:
            self._score()
        steps = self.record.undo
        if (
            then is not None
            and not steps
            and self.opponent
            and self.state.to_move == self.opponent.side_in(self.state)
        ):
            self.go(Awaiting())
            return self._expect(then)
        undo = (
            Turn.undo(steps, self.record.board, self.state.to_move).counted(made, self.board)
            if steps
            else None
        )
        self.go(Restoring(undo, why))
        if undo is not None and not undo.done:
            self.guide(undo)
        if undone:
            self.flash(i18n._("Took back {moves}").format(moves=", ".join(undone)))
        self.rejudge()

    def drop_last(self) -> None:
        """Undo the last move with nothing to guide (a correction reaching past it, a knock
        set right: a move never said is dropped unsaid)."""
        unsaid = self._holds(self.phase.unsaid())
        for text in self.record.take_back(len(self.moves) - 1):
            if not unsaid:
                self.emit(ev.TookBack(t=self._now, event="takeback", move=text))

    def _holds(self, turn: Turn | None) -> bool:
        """Whether the game's last move is ``turn``'s."""
        return turn is not None and self.record.holds(turn)

    def _say(self, turn: Turn) -> None:
        """Announce ``turn``, the game's last move held unsaid while in doubt (if still so)."""
        if self._holds(turn):
            side = self.states[-2].maker(turn.move)
            self.emit(ev.Moved(t=self._now, event="move", move=self.moves[-1], side=side))

    def ask_takeback(self) -> None:
        """The players ask to take back (the menu, the page): the last turn, or with an
        opponent away from the board its last turn and the players' before it (asked of the
        other board first, which answers later)."""
        if not self.moves or not self.settings.takebacks:
            return
        keep = self.opponent.takeback(self.seen()) if self.opponent else len(self.moves) - 1
        if not isinstance(keep, Asked):  # asked: the opponent's note says so
            self.take_back(keep)

    def new_game(self, game: Game) -> None:
        """Begin ``game`` (the menu, the page, another board): the next game of the match when it
        continues the one being played (an unfinished game is abandoned unscored), else a new
        match or a single game. The board is then read from the pieces once they settle."""
        game = game.with_options(self.settings.house_rules.get(game.name))
        try:
            self.settings.layouts(game.new())
        except ConfigError as exc:  # the board's layout lacks the game's sites: it goes on
            return self.say(
                i18n._("Cannot play {game} here: {why}").format(
                    game=game.title, why=" ".join(str(exc).split())[:80]
                )
            )
        self.record.abandon()
        self.notes.board_changed()  # the last game's flash ("Corrected to *B1") is not this one's
        match = self.match if self.match and game == self.game and not self.match.won else game.new_match()
        seats = self.seating.kept()
        record = GameRecord.begin(self.settings.storage, game, match, self._who(game.new()), seats)
        self._begin(record, Restoring(why="new game"))
        self.emit(
            ev.NewGame(t=self._now, event="new_game", game=game.name, size=game.size, variant=game.variant)
        )
        self.apply(judge.changed(self))  # a board already showing the start needs no settle
        if self.board != self.record.board:  # still restoring
            self.sensing.debouncer.restart(self._now)  # read once the hands have set the pieces

    def set_players(self, players: SetPlayers, game: Game | None = None) -> None:
        """A new game (of ``game``, default the current one) in which the computer plays
        ``players.computer`` (None: nobody)."""
        if self.opponent:
            self.opponent.close()
        self.opponent = self.settings.opponents(players)
        if self.settings.menu:
            self.settings.menu.players = (players.computer, players.level)
        self.new_game(game or self.game)

    def _who(self, state: GameState[Any]) -> str | None:
        return self.opponent.record(state) if self.opponent else None

    # ------------------------------------------------------------- the opponent
    def _opponent_next(self) -> bool:
        """Only unseen pieces are left to carry (a takeback's pawn going back) and the opponent
        is to move next: its move may come now, and ends them (a flip is always waited for)."""
        state = self.state
        return (
            self.opponent is not None
            and state.to_move == self.opponent.side_in(state)
            and self.phase.only_carries_left()  # the dearest, asked last
        )

    def _obey(self, intent: Intent) -> None:
        """Carry out what the opponent wants done."""
        if isinstance(intent, Play) and self._opponent_next():
            self.go(self.phase.finish_unsensed())
            self.follow()  # the opponent's move ends the steps left
        if isinstance(intent, Play) and self.phase.opponents_turn:
            self._expect(intent)
        elif isinstance(intent, Started):
            self._started(intent)
        elif isinstance(intent, Heard):
            self._run_clock(self.phase)
        elif isinstance(intent, Corrected) and self.clock.relayed(intent.left, intent.paused, self._now):
            self._tell_clocks()
        elif isinstance(intent, TimeUp) and self.clock.fall(intent.side):
            self._flag(intent.side)
        elif isinstance(intent, Retimed):
            self._retimed(intent)
        elif isinstance(intent, TakeBackTo):
            # the tokens turned back while it was asked count for its undoing
            self.take_back(intent.keep, then=intent.then, made=self.phase.touches())
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
        elif isinstance(intent, Seated):
            self._seated(intent.seating)

    def _retimed(self, word: Retimed) -> None:
        """The opponent timed its last move's turn as ``word.used`` ms where it was played."""
        if self.opponent is not None:
            side = cast(str, self._player(self.opponent.side_in(self.state)))  # its last move's
            if (told := self.clock.retimed(word.ply, side, word.used, self._now)) is not None:
                self.emit(told)

    def _started(self, word: Started) -> None:
        """The opponent's turn has run ``word.used`` ms where it is played."""
        if self.opponent is not None:
            side = self.opponent.side_in(self.state)
            due = self.state.to_move == side  # its turn, whatever steps the players here still do
            player = cast(str, self._player(side))
            if (told := self.clock.started(player, word.used, self._now, word.anew, due)) is not None:
                self.emit(told)

    def _expect(self, play: Play) -> None:
        """Light the opponent's move for the players to carry out (its clock pressed with the
        time it took where it was made, if said); a move that is not legal here is said, never
        lit."""
        if play.used is not None and self.opponent is not None:
            self.clock.moved(cast(str, self._player(self.opponent.side_in(self.state))), play.used, self._now)
        state = self.state
        try:
            move = state.parse_move(play.move)
            state.check(move)
        except IllegalMove:
            return self.say(f"Opponent's move {play.move} is illegal here")
        pending = Pending(move, state.notation(move), state.realisations(move)[0], play.say)
        self.go(self.phase.answered(pending))
        real = pending.real
        self.emit(
            ev.Expect(
                t=self._now,
                event="expect",
                move=pending.text,
                empty=self.sorted(real.emptied),
                fill=self.sorted(real.filled),
            )
        )
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
            self.notes.message = str(exc)
            return  # asked again at the next step
        self.targets = frozenset()
        self.model.forget()
        self.go(Restoring(why="takeback"))
        self.rejudge()

    def _hint(self, move_text: str) -> None:
        """Light ``move_text`` as a hint for the side to move until the board changes."""
        state = self.state
        move = state.parse_move(move_text)
        real = state.realisations(move)[0]
        self.hinted = real.emptied | real.filled
        self.emit(
            ev.Hint(t=self._now, event="hint", move=state.notation(move), sites=self.sorted(self.hinted))
        )
        self.flash(f"Hint: {directions(state, move)}")

    # ----------------------------------------------------------------- buttons
    def _pressed(self, now: float, buttons: list[ButtonEvent]) -> None:
        """The presses due at ``now`` (one made as a piece lands waits for the settle, so the
        placing is judged first)."""
        for press in self.sensing.presses.due(now, buttons, not self.sensing.debouncer.moving(now)):
            if not self._wake():  # a press that wakes the board does nothing else
                self._on_button(press)

    def _on_button(self, press: ButtonEvent) -> None:
        if self.notes.press(press):  # any button closes a notice
            return
        if self.settings.menu and (self.settings.menu.is_open or press.button == "menu"):
            self.command(self.settings.menu.press(press))
        elif press.long:
            if press.button == "ok" and self.settings.hints and self.phase.players_to_move:
                self.settings.hints.ask(self.seen())  # a long OK: the computer's suggestion
        elif press.button == "ok" and self.seating.waiting:
            self._ready()
        elif press.button == "ok":
            self._ok()
            if self.quiet(self._now):
                self._judge_settled()
        elif press.button == "back":
            self.apply(judge.back(self))

    def _ok(self) -> None:
        if self.phase.players_to_move and self.board != self.record.board and not self.quiet(self._now):
            return self.sensing.presses.wait()  # a hand over the board: OK is judged at the settle
        self.apply(judge.ok(self))

    def command(self, action: Command | None) -> None:
        """Carry out one of the board's commands (``firmware_host.actions.commands``), whoever
        gave it: the menu, the page, the café network (None: the menu gave none)."""
        self.clock.choose(action)  # a new game's time control
        if isinstance(action, (SetNames, TableRound, Roster)):
            return self.seat(action)
        if isinstance(action, NewGame):
            self._new(action)
        elif isinstance(action, Again):
            self.new_game(self.game)
        elif isinstance(action, TakeBack):
            self.ask_takeback()
        elif isinstance(action, SetBrightness):
            self.settings.brightness = action.level
            if self.settings.menu:
                self.settings.menu.show_brightness(action.level)
        elif isinstance(action, HouseRule):
            self.settings.house_rules.setdefault(action.game, {})[action.name] = action.value
        elif isinstance(action, SetPlayers):
            self.set_players(action)
        elif isinstance(action, SetClock) and self.clock.arbiter(action, self._now):
            self._tell_clocks()
        elif isinstance(action, ShowIP):
            self.notes.pass_by(message_screen(i18n._("IP address"), [self.settings.address()]), self._now)
        elif isinstance(action, ShowToday):
            self.notes.pass_by(today_screen(self.settings.storage), self._now)
        elif isinstance(action, PowerOff):
            self.notes.notice = message_screen(
                i18n._("Powering off"), [i18n._("Wait for the screen to go dark")]
            )
            self.emit(ev.Signal(t=self._now, event="power_off"))  # the daemon runs the configured command

    def _new(self, action: NewGame) -> None:
        """A new game asked (the menu, the page, the broker): no league round's, on the
        config's clock."""
        self.seating = self.seating.casual()
        self.clock.use(self.clock.configured)
        game = Game(action.game, action.size, action.variant, action.match)
        players = action.players()
        if players is None:
            self.new_game(game)
        else:
            self.set_players(players, game)

    def seat(self, action: SetNames | TableRound | Roster) -> None:
        """Name the players at the seats (the menu offers the café's ``Roster``); for a league
        round, set its game up with them and its clock, to begin once each has pressed OK."""
        menu = self.settings.menu
        if isinstance(action, Roster):
            if menu:
                menu.roster = action.names
            return None
        if isinstance(action, SetNames):
            self.seating = self.seating.seated(action.names)
            if menu:
                menu.names = self.seating.names
            return self.record.set_players(self.seating.kept()[0])
        self.seating = Seating.table(action.names, League(action.event, action.round, action.table))
        self.clock.use(TimeControl.parse(action.control or "-"))
        new = action.new
        game = Game(new.game, new.size, new.variant, new.match)
        if self.opponent and self.opponent.level is not None:  # the round is the players' alone
            return self.set_players(SetPlayers(None, self.opponent.level), game)
        self.new_game(game)

    def _ready(self) -> None:
        """The seat whose turn it was pressed OK: the next one's turn, or the game begins (its
        clock runs from now). A seat played at a paired board presses OK there."""
        if self.seating.ready is None or self.seating.ready != self._remote_seat():
            self._seated(self.seating.pressed())

    def _remote_seat(self) -> int | None:
        """The seat a paired board's players take (None: none)."""
        if self.opponent is None or self.opponent.level is not None:  # no opponent, or the computer
            return None
        return self.state.seat_sides.index(self.opponent.side_in(self.state))

    def _seated(self, seating: Seating) -> None:
        """The players at the seats are ``seating`` (the paired board's, or an OK pressed):
        kept with the game; the game begins once no OK is awaited."""
        waiting, self.seating = self.seating.waiting, seating
        self.record.set_seats(seating.kept())
        if self.settings.menu:  # the Names page shows them
            self.settings.menu.names = seating.names
        if waiting and not self.seating.waiting:  # the board is read from the start again: no move yet
            self.go(self.phase.reread())  # a takeback's steps still owed
            if self.board == self.record.board:  # the start stands: the first move may come at once
                self._evaluated = None
                return self._judge_settled()
            self.rejudge()

    def say(self, text: str | None) -> None:
        """Show ``text`` on the screen's message line until replaced (None: no more)."""
        self.notes.say(text)

    def notice(self, screen: Screen | None) -> None:
        """Show ``screen`` until a button is pressed (the daemon's messages); None: no more."""
        self.notes.show(screen)

    def ask(self, screen: Screen, answer: Callable[[bool], None]) -> None:
        """Show the question ``screen`` until a button: OK calls ``answer(True)``, any other
        button ``answer(False)``."""
        self.notes.show(screen, answer)

    # -------------------------------------------------------------- idle spells
    def _wake(self) -> bool:
        """Someone is at the board: end an idle spell; True if one ended."""
        if self.settings.idle is None or not self.settings.idle.activity(self._now):
            return False
        self.emit(ev.Signal(t=self._now, event="wake"))
        return True

    def _idle_tick(self) -> None:
        what = cast(Idle, self.settings.idle).tick(self._now, self.output.events)
        if what == "attract":
            self.notes.attract()
            if self.settings.menu:
                self.settings.menu.close()
            self.emit(ev.Signal(t=self._now, event="attract"))

    # ----------------------------------------------------------------- output
    def frame(self) -> dict[int, Led]:
        """LED channel -> what it shows now."""
        return self.output.frame

    def screen(self) -> Screen:
        """What the OLED shows now (the page due of a long screen)."""
        return replace(build_screen(self.snapshot()), page=self.notes.pager.page)


#: A step :meth:`Controller.apply` carries out: a decision, or one of the controller's own.
Step = dc.Decision | Callable[[], None]

#: What each of the judge's decisions does (``firmware_host/board/decisions.py``).
APPLIED: dict[type[dc.Decision], Callable[[Controller, Any], None]] = {
    dc.Go: lambda c, d: c.go(d.phase),
    dc.InSync: lambda c, d: c.in_sync(),
    dc.OutOfSync: lambda c, d: c.out_of_sync(d.sync),
    dc.Light: lambda c, d: c.light_targets(d.targets),
    dc.Flash: lambda c, d: c.flash(d.text),
    dc.Emit: lambda c, d: c.emit(d.event),
    dc.Offer: lambda c, d: c.offer(d.choice, d.late),
    dc.Accept: lambda c, d: c.accepted(d),
    dc.Follow: lambda c, d: c.follow(d.announce),
    dc.GuideStep: lambda c, d: c.guide(d.turn),
    dc.BeginTurn: lambda c, d: c.begin_turn(d.correctable, d.late, d.touched, d.last),
    dc.AskTakeBack: lambda c, d: c.apply(d.then(c, cast(Opponent, c.opponent).takeback(c.seen(), d.keep))),
    dc.TakeBack: lambda c, d: c.take_back(d.keep, made=d.made),
    dc.DropLast: lambda c, d: c.drop_last(),
    dc.NewGame: lambda c, d: c.new_game(d.game),
    dc.Forget: lambda c, d: c.hand.forget(d.sites),
    dc.CountTouches: lambda c, d: c.apply(
        [dc.Then(judge.touch_judged(t)) for t in c.hand.settled(c.now, d.board, d.holding)]
    ),
    dc.Rejudge: lambda c, d: c.rejudge(),
}


def _seated(storage: Storage, game_id: int, names: tuple[str, ...]) -> Seating:
    """The seating game ``game_id`` was stored with (``names`` where it kept none)."""
    try:
        (stored,) = storage.games(game_id)
    except (StorageError, ValueError):
        return Seating(names)
    return Seating.stored(stored, names)
