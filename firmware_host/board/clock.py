"""The game clocks at the board (:class:`Clock`), a part of the controller: whose clock runs as
the game goes from phase to phase, pressed at the sensor change that completed a turn (not when
it was recognised), kept with each move, set back by a takeback, resumed after a restart, and
the flag. The clocks themselves are values (:mod:`firmware_host.store.timecontrol`).

>>> from firmware_host.store.storage import Storage
>>> clock = Clock(TimeControl.parse("60+2"), False, Storage(":memory:"))
>>> clock.begin(1, ("white", "black"), 0)
>>> clock.mark(0); _ = clock.follow("white", 0, False, 0)
>>> clock.mark(5000); told = clock.follow("black", 1, False, 5300)
>>> told["left"], told["running"], told["elapsed"]  # pressed at the change, 300 ms before
({'white': 57000.0, 'black': 60000.0}, 'black', 300.0)
>>> clock.line(6300)
'0:57 >0:59'
"""

from __future__ import annotations

import json
import math
from typing import Callable, Mapping, cast

from firmware_host.actions.commands import Again, Command, NewGame, SetClock
from firmware_host.board.events import ClockEvent
from firmware_host.store.config import ClockConfig
from firmware_host.store.storage import Storage, StorageError
from firmware_host.store.timecontrol import Clocks, TimeControl, clock_text

#: The clocks are drawn again at most this often (ms): a few times a second.
DRAW_MS = 250
#: What is kept at the start of a game begun with no clock (a config's clock is not its).
NO_CLOCK = '{"control": "-"}'


class Clock:
    """``control``: the time control (None: no clock; then nothing here does anything);
    ``casual``: a game goes on after a flag; ``storage`` keeps the readings after each move;
    ``warn``: the seconds left below which the running clock is low (0: never); ``keep``: a
    takeback leaves the clocks as they read (else they are set back); ``carry``: whose clock
    runs while the players carry out the opponent's move (``CARRIERS`` of
    :mod:`~firmware_host.store.timecontrol`)."""

    def __init__(
        self,
        control: TimeControl | None,
        casual: bool,
        storage: Storage,
        warn: float = 0,
        keep: bool = False,
        carry: str = "nobody",
    ) -> None:
        self.control, self.casual, self.storage, self.warn = control, casual, storage, warn
        self.keep, self.carry = keep, carry
        #: The time (ms) each move's turn took, by the moves made after it (as kept).
        self.used: dict[int, float] = {}
        #: The side away from the board whose clock waits for word that its turn began.
        self._waiting: str | None = None
        #: The moves before the last press, and the clocks before it.
        self._undo: tuple[int, Clocks] | None = None
        #: The last move was recorded but its turn not yet over (and pressed) when resumed.
        self._unpressed = False
        #: Its mover and the time (ms) its turn had taken when recorded, as kept then (None:
        #: none kept): pressed with that once its turn is over, whoever's clock runs after.
        self._recorded: tuple[str, float] | None = None
        self._noted: tuple[int, int] | None = None  # the game and move so kept last
        #: The control a game begun at the board goes back to after a league round's: the
        #: config's, or the one a new game named since.
        self.configured = self._config = control
        #: Counts the changes of what an opponent sees of the clocks (the clocks, the time each
        #: turn took, the corrections): what is built from them is built again only then.
        self.version = 0
        self._clocks: Clocks | None = None
        self._game_id, self._plies, self._at = 0, 0, 0.0
        self._drawn, self._drawn_at = "", -math.inf
        self._marks: tuple[str | None, str | None, bool] | None = None  # who ran, flagged, paused
        #: The arbiter's corrections made here (a paired board relays each to the other).
        self.corrections = 0

    @property
    def clocks(self) -> Clocks | None:
        """The game clocks (None: no clock)."""
        return self._clocks

    @clocks.setter
    def clocks(self, clocks: Clocks | None) -> None:
        self._clocks, self.version = clocks, self.version + 1

    @classmethod
    def of(cls, config: ClockConfig, storage: Storage) -> Clock:
        """The clocks the config's ``[clock]`` asks for."""
        keep = config.takeback == "keep"
        return cls(config.time_control(), config.casual, storage, config.warn, keep, config.carry)

    def choose(self, action: Command | None) -> None:
        """The time control of the games begun from now on, as a new game ``action`` from the
        menu, the page or the broker names it (its ``control``: ``"-"`` no clock, None as it is)."""
        if isinstance(action, (NewGame, Again)) and action.control is not None:
            self.control = self.configured = TimeControl.parse(action.control, action.delay)

    def use(self, control: TimeControl | None) -> None:
        """The control of the games begun from now on (a league round's; None: no clock)."""
        self.control = control
        if control is None:
            self.clocks = None

    def begin(self, game_id: int, sides: tuple[str, ...], plies: int) -> None:
        """Game ``game_id`` at ``plies`` moves (a new game, a resumed or taken back one): its
        clocks as kept after that move, on the control kept with them (a new game's may differ
        from the config's), none running (the start's when none were kept)."""
        self._game_id, self._plies, self._marks = game_id, plies, None  # drawn again
        self._waiting, self._undo, self._noted = None, None, None
        kept = {p: text for p, text in self._kept().items() if p <= plies}
        read = {p: json.loads(text) for p, text in kept.items()}
        self.used = {p: float(r["used"]) for p, r in read.items() if "used" in r and not r.get("recorded")}
        self.version += 1
        ply = max(kept, default=None)
        last = read.get(plies, {})
        self._recorded = (last["mover"], float(last["used"])) if last.get("recorded") else None
        # the last move's turn went on when the daemon stopped
        self._unpressed = (ply or 0) < plies or self._recorded is not None
        if ply is not None:
            self.control = None if kept[ply] == NO_CLOCK else Clocks.control_of(kept[ply]) or self.control
        if self.control is None:
            self.clocks = None
            if ply is None and self._config is not None:  # begun with none on a clocked config:
                self._keep_text(0, NO_CLOCK)  # it has none after a restart too
        elif ply is not None:
            self.clocks = Clocks.read(self.control, kept[ply])
        else:  # a new game: its clocks kept at its start, so a restart before a move keeps them
            self.clocks = Clocks.start(self.control, sides)
            self._keep(self.clocks, 0, None)

    def taken_back(self, game_id: int, sides: tuple[str, ...], plies: int, now: float) -> ClockEvent | None:
        """The game taken back to ``plies`` moves: the clocks as they stood at that position,
        or (``keep``) as they read at ``now``, none running; the event, the clocks set back at
        ``now`` (``elapsed`` 0: none ran since; None: no clock).

        >>> clock = Clock(TimeControl.parse("60"), False, Storage(":memory:"), keep=True)
        >>> clock.begin(1, ("white", "black"), 0)
        >>> _ = clock.follow("white", 0, False, 0)
        >>> told = clock.taken_back(1, ("white", "black"), 0, 4000)
        >>> told["left"], told["running"], told["elapsed"]
        ({'white': 56000.0, 'black': 60000.0}, None, 0.0)
        """
        before = self.clocks
        self.begin(game_id, sides, plies)
        if self.keep and before is not None and self.clocks is not None:
            self.clocks = self.clocks._replace(left=before.shown(now), since=now)
        told = self.told(now)
        if told is not None:
            told["elapsed"] = 0.0  # set back now; the turn restarted is charged from its change
        return told

    def carrier(self, away: str | None, players: Callable[[], str | None]) -> str | None:
        """Whose clock runs while the players carry out the move of the opponent playing
        ``away``: nobody's, the opponent's, or the ``players``' (the side to move after it).

        >>> Clock(None, False, Storage(":memory:"), carry="opponent").carrier("black", lambda: "white")
        'black'
        """
        if self.carry == "opponent":
            return away
        return players() if self.carry == "players" else None

    def _kept(self) -> dict[int, str]:
        try:
            return self.storage.clocks(self._game_id)
        except StorageError:
            return {}

    def mark(self, at: float) -> None:
        """A switch from now on is charged at ``at``: the time of the sensor change being
        judged, or of the press or the step under way."""
        self._at = at

    def follow(
        self,
        runs: str | None,
        plies: int,
        answered: bool,
        now: float,
        away: str | None = None,
        waits: bool = False,
    ) -> ClockEvent | None:
        """The game now runs ``runs``'s clock (None: nobody's) at ``plies`` moves; ``answered``:
        the opponent away from the board (``away``, whose clock starts when it is told, not at
        the change; ``waits``: when :meth:`started` says) chose its move. A side whose clock
        stops with a move made (or chosen) has its move pressed (its increment, the readings
        kept); the event."""
        undone = self._undone(plies)
        clocks = self.clocks
        made = plies > self._plies or answered or self._unpressed
        if waits and runs is None and clocks is not None and clocks.running == away and clocks.flag is None:
            runs = None if made else away  # timed where it is played: a hold-up here stops it not
        self._waiting = runs if waits and runs is not None and runs == away else None
        before, carried = self._recorded or (None, 0.0)
        # a move recorded before a restart whose turn is over now: pressed, with no more time
        resumed = (
            before is not None
            and clocks is not None
            and clocks.running is None
            and runs not in (None, before)
        )
        if self._waiting is not None and (clocks is None or clocks.running != runs):
            runs = None  # until word comes (if it came, the clock runs on)
        if clocks is not None and runs == clocks.running and plies > self._plies and not answered:
            self._note_recorded(clocks, plies, now)
        if clocks is None or runs == clocks.running and not resumed:
            return self.told(now) if undone else None
        at = min(max(self._at, clocks.since), now)
        if resumed:
            clocks = clocks._replace(running=before, since=at)
        if clocks.running is not None and made:
            self._undo, self._unpressed = (plies - 1, clocks) if not answered else None, False
            pressed, self._recorded = clocks.press(at), None
            self._keep(pressed, plies + answered, clocks.running, at - clocks.since + carried)
            clocks = pressed
        self.clocks, self._plies = clocks.run(runs, now if runs is not None and runs == away else at), plies
        return self.told(now)

    def _note_recorded(self, clocks: Clocks, plies: int, now: float) -> None:
        """The move ``plies`` recorded while its turn goes on (its flips, a tap, its removals):
        the clocks kept as they read now, marked so, once, so that a restart before its turn is
        over charges the mover what the turn took so far (the other board, paired, timed it
        all along), not nothing."""
        if self._noted == (self._game_id, plies) or clocks.running is None:
            return
        self._noted = (self._game_id, plies)
        at = min(max(self._at, clocks.since), now)
        kept = json.loads(clocks.run(None, at).readings(clocks.running, at - clocks.since))
        self._keep_text(plies, json.dumps({**kept, "recorded": True}))

    def corrected(self) -> None:
        """The players' last move corrected before the next side began: the other sides'
        clocks as they read after that move (as kept), none of theirs running, so that their
        turn begins again once the corrected move stands, as a paired board, which takes the
        move back and makes the corrected one, times it too.

        >>> storage = Storage(":memory:")
        >>> clock = Clock(TimeControl.parse("60"), False, storage)
        >>> clock.begin(storage.start("antipod", 4, None), ("white", "black"), 0)
        >>> _ = clock.follow("white", 0, False, 0)
        >>> clock.mark(2000); _ = clock.follow("black", 1, False, 2000)
        >>> clock.line(9000)
        '0:58 >0:53'
        >>> clock.corrected(); clock.line(9000)  # Black's turn begins again
        '0:58 1:00'
        """
        clocks, kept = self.clocks, self._kept().get(self._plies)
        if clocks is None or kept is None:
            return
        mover, read = json.loads(kept).get("mover"), Clocks.read(clocks.control, kept)
        left = {side: ms if side == mover else read.left.get(side, ms) for side, ms in clocks.left.items()}
        running = clocks.running if clocks.running == mover else None
        self.clocks = clocks._replace(left=left, running=running)

    def _keep_correction(self) -> None:
        """An arbiter's correction kept at once with the readings after the last move, so that
        a restart resumes with it."""
        kept = self._kept().get(self._plies)
        if kept and self.clocks is not None:
            self._keep(self.clocks, self._plies, json.loads(kept).get("mover"))

    def retimed(self, ply: int, side: str, used: float, now: float) -> ClockEvent | None:
        """``side``'s move ``ply`` (the last) took ``used`` ms where it was made, said only
        after it was pressed here: its clock charged that instead (None: nothing to change)."""
        clocks, charged = self.clocks, self.used.get(ply)
        if clocks is None or ply != self._plies or charged is None or charged == used:
            return None
        self.clocks = clocks._replace(left={**clocks.left, side: clocks.left[side] + charged - used})
        self._keep(self.clocks, ply, side, used)
        return self.told(now)

    def _undone(self, plies: int) -> bool:
        """Whether the last move pressed was dropped (read while a token lay off its switch,
        then set right: never a move): the clocks then are as they were before its press, its
        side's turn going on."""
        undo = self._undo
        if undo is None or plies != undo[0] or plies >= self._plies:
            return False
        self.clocks, self._plies, self._undo = undo[1], plies, None
        return True

    def started(
        self, side: str, used: float, now: float, anew: bool = True, due: bool = False
    ) -> ClockEvent | None:
        """Word from the board where ``side`` is played: its turn there had taken ``used`` ms
        by ``now``, so its clock runs here as from then (with ``anew`` False, only if that is
        earlier than it runs from: a message that came late says it began later than it did);
        None when it is not its turn here (``due``: it is, by the record, though the players
        here still do steps of their own, a takeback's undoing, and its clock waits for none).

        >>> clock = Clock(TimeControl.parse("60"), False, Storage(":memory:"))
        >>> clock.begin(1, ("white", "black"), 0)
        >>> _ = clock.follow("white", 0, False, 0, away="white", waits=True)
        >>> clock.clocks.running, clock.started("white", 400, 1000)["elapsed"]
        (None, 400.0)
        >>> clock.started("white", 100, 1100, anew=False)["elapsed"]  # late: it began at 600
        500.0
        """
        clocks = self.clocks
        waits = self._waiting == side or due
        if clocks is None or not (clocks.running == side or clocks.running is None and waits):
            return None
        since = now - used if anew or clocks.running is None else min(clocks.since, now - used)
        self.clocks, self._waiting = clocks._replace(running=side, since=since), None
        return self.told(now)

    def moved(self, side: str, used: float, now: float) -> None:
        """``side``'s move, made where it is played, took ``used`` ms there: its clock is to be
        pressed with that (the next :meth:`follow` that stops it, at ``now``)."""
        clocks = self.clocks
        if clocks is not None and clocks.running in (None, side):
            self.clocks, self._waiting = clocks._replace(running=side, since=now - used), None

    def turn(self, now: float) -> tuple[str, float] | None:
        """The side whose clock runs and how long it has run (ms) at ``now`` (None: none)."""
        clocks = self.clocks
        if clocks is None or clocks.running is None:
            return None
        return clocks.running, max(0.0, now - clocks.since)

    def _keep(self, clocks: Clocks, ply: int, mover: str | None, used: float | None = None) -> None:
        if used is not None:
            self.used[ply], self.version = used, self.version + 1
        self._keep_text(ply, clocks.readings(mover, used))

    def _keep_text(self, ply: int, readings: str) -> None:
        try:
            self.storage.set_clocks(self._game_id, ply, readings)
        except StorageError:
            pass  # the move itself was kept; its clocks are worth no stop

    def flag_due(self, now: float, quiet: bool, changed_at: float, away: str | None = None) -> str | None:
        """The side whose flag falls at ``now``: its time is out, and no sensor change from
        before then may still complete its turn (the board is quiet, or changed since); never
        ``away``'s, timed where it is played (:meth:`fall`)."""
        clocks = self.clocks
        out = clocks.out() if clocks is not None and clocks.flag is None else None
        if (
            clocks is None
            or clocks.running is None
            or clocks.running == away
            or out is None
            or now < out
            or (not quiet and changed_at < out)
        ):
            return None
        self.clocks = clocks.flagged(clocks.running)
        return clocks.running

    def refusal(self, action: SetClock) -> str | None:
        """Why an arbiter's ``action`` cannot be done (None: it can).

        >>> Clock(None, False, Storage(":memory:")).refusal(SetClock("pause"))
        'this game has no clock'
        """
        if self.clocks is None:
            return "this game has no clock"
        sides = tuple(self.clocks.left)
        if action.action == "adjust" and action.side_in(sides) is None:
            named = str(action.side)[:40]
            return f"no side {named!r} in this game (0 to {len(sides) - 1} or {', '.join(sides)})"
        return None

    def arbiter(self, action: SetClock, now: float) -> bool:
        """An arbiter's correction at ``now``: pause, resume, or adjust (a side's clock given
        seconds more, less when negative); False when not done (:meth:`refusal` says why).

        >>> clock = Clock(TimeControl.parse("60"), False, Storage(":memory:"))
        >>> clock.begin(1, ("white", "black"), 0); _ = clock.follow("white", 0, False, 0)
        >>> clock.arbiter(SetClock("pause"), 4000), clock.line(9000)
        (True, '|| 0:56 1:00')
        >>> clock.arbiter(SetClock("adjust", "black", -30), 9000), clock.line(9000)
        (True, '|| 0:56 0:30')
        >>> _ = clock.arbiter(SetClock("resume"), 10_000); clock.line(11_000)
        '>0:55 0:30'
        """
        clocks = self.clocks
        if clocks is None or self.refusal(action):
            return False
        if action.action == "pause":
            self.clocks = clocks.pause(now)
        elif action.action == "resume":
            self.clocks = clocks.resume(now)
        else:
            self.clocks = clocks.adjust(cast(str, action.side_in(tuple(clocks.left))), action.seconds * 1000)
            self._keep_correction()
        self._drawn_at, self.corrections = -math.inf, self.corrections + 1  # shown at once
        return True

    def relayed(self, left: Mapping[str, float] | None, paused: bool, now: float) -> bool:
        """An arbiter's correction made on the paired board, heard at ``now``: each side's time
        ``left`` (as of the running clock's last switch; None: as it is) and the pause; False
        when this game has no clock.

        >>> clock = Clock(TimeControl.parse("60"), False, Storage(":memory:"))
        >>> clock.begin(1, ("white", "black"), 0); _ = clock.follow("white", 0, False, 0)
        >>> _ = clock.relayed({"white": 50_000, "black": 90_000}, True, 4000); clock.line(9000)
        '|| 0:50 1:30'
        >>> _ = clock.relayed(None, False, 10_000); clock.line(11_000)
        '>0:49 1:30'
        """
        clocks = self.clocks
        if clocks is None:
            return False
        clocks = clocks.pause(now) if paused else clocks
        if left is not None:
            clocks = clocks._replace(left={s: float(left.get(s, ms)) for s, ms in clocks.left.items()})
        self.clocks = clocks if paused else clocks.resume(now)
        if left is not None:
            self._keep_correction()
        self._drawn_at = -math.inf
        return True

    def fall(self, side: str) -> bool:
        """``side``'s flag fell where it is played; False when a flag fell already (or no
        clock)."""
        if self.clocks is None or self.clocks.flag is not None:
            return False
        self.clocks = self.clocks.flagged(side)
        return True

    def told(self, now: float) -> ClockEvent | None:
        """The clocks as an event (None: no clock)."""
        if self.clocks is None:
            return None
        c = self.clocks
        return ClockEvent(
            t=now,
            event="clock",
            left={s: float(round(ms)) for s, ms in c.left.items()},
            running=c.running,
            elapsed=float(round(now - c.since)),
            flag=c.flag,
        )

    def line(self, now: float) -> str | None:
        """Every side's clock in one line, the running one marked ``>``, a fallen flag ``!``
        (None: no clock)."""
        if self.clocks is None:
            return None
        marks = {None if self.clocks.paused else self.clocks.running: ">", self.clocks.flag: "!"}
        line = " ".join(
            f"{marks.get(side, '')}{clock_text(ms)}" for side, ms in self.clocks.shown(now).items()
        )
        return f"|| {line}" if self.clocks.paused else line

    def low(self, now: float) -> bool:
        """True while the running clock has less than ``warn`` seconds left (not paused, no flag).

        >>> clock = Clock(TimeControl.parse("30"), False, Storage(":memory:"), warn=10)
        >>> clock.begin(1, ("white", "black"), 0); _ = clock.follow("white", 0, False, 0)
        >>> clock.low(19_000), clock.low(21_000)
        (False, True)
        """
        c = self.clocks
        if c is None or c.running is None or c.paused or c.flag is not None or not self.warn:
            return False
        return c.shown(now)[c.running] < self.warn * 1000

    def drawn(self, now: float) -> str | None:
        """The clocks' line as the screen shows it at ``now`` (None: no clock): read again when
        who runs or has flagged changes, else every :data:`DRAW_MS` (in the last 10 s the
        tenths change faster than the screen is drawn; :meth:`due` says when).

        >>> clock = Clock(TimeControl.parse("60"), False, Storage(":memory:"))
        >>> clock.begin(1, ("white", "black"), 0); _ = clock.follow("white", 0, False, 0)
        >>> clock.drawn(100), clock.drawn(340), clock.drawn(1350)
        ('>1:00 1:00', '>1:00 1:00', '>0:59 1:00')
        """
        if self.clocks is None:
            return None
        marks = (self.clocks.running, self.clocks.flag, self.clocks.paused)
        if marks != self._marks or (self.clocks.running is not None and now - self._drawn_at >= DRAW_MS):
            self._drawn, self._drawn_at, self._marks = self.line(now) or "", now, marks
        return self._drawn

    def due(self, now: float) -> float | None:
        """The ms from ``now`` until the running clock wants a step: drawn again
        (:data:`DRAW_MS` after it last was) or its time out, its flag due (None: no clock
        runs, so none), so that a loop waiting for a hand wakes for it.

        >>> clock = Clock(TimeControl.parse("1"), False, Storage(":memory:"))
        >>> clock.begin(1, ("white", "black"), 0); _ = clock.follow("white", 0, False, 0)
        >>> _ = clock.drawn(100); clock.due(200)  # drawn again at 350
        150.0
        >>> _ = clock.drawn(800); clock.due(900)  # out at 1000, before the next draw
        100.0
        """
        clocks = self.clocks
        out = clocks.out() if clocks is not None and clocks.flag is None else None
        return None if out is None else max(0.0, float(min(self._drawn_at + DRAW_MS, out) - now))

    def shown(self, now: float) -> dict[str, object] | None:
        """The clocks as the page shows them (the published state's ``clock``), as the screen
        last drew them: the control, each side's time as text, who runs, the flag (None: no
        clock).

        >>> Clock(TimeControl.parse("300+3"), False, Storage(":memory:")).shown(0) is None
        True
        """
        if self.clocks is None:
            return None
        at = min(now, max(self._drawn_at, self.clocks.since))  # as last drawn: a few times a second
        text = {s: clock_text(ms) for s, ms in self.clocks.shown(at).items()}
        return {
            "control": self.clocks.control.text,
            "running": self.clocks.running,
            "flag": self.clocks.flag,
            "paused": self.clocks.paused,
            "text": text,
        }

    def state(self, now: float) -> dict[str, object] | None:
        """The clocks as the café network's state gives them: the control, each side's time
        left at ``now`` (ms), whose runs, the flag, a pause (None: no clock).

        >>> clock = Clock(TimeControl.parse("300+3"), False, Storage(":memory:"))
        >>> clock.begin(1, ("white", "black"), 0); _ = clock.follow("white", 0, False, 0)
        >>> shown = clock.state(1500.4)
        >>> shown["left"], shown["running"], shown["flag"], shown["paused"]
        ({'white': 298500, 'black': 300000}, 'white', None, False)
        """
        if self.clocks is None:
            return None
        c = self.clocks
        left = {s: max(0, round(ms)) for s, ms in c.shown(now).items()}
        return {
            "control": c.control.text,
            "left": left,
            "running": c.running,
            "flag": c.flag,
            "paused": c.paused,
        }
