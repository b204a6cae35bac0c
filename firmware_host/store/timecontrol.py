"""Game clocks, pure: a time control in PGN's TimeControl notation, delays, and the clocks of
a game's sides (one per player) as values on a caller's clock (milliseconds).

A control is stages separated by ``:``; each stage is ``moves/seconds+increment`` (``moves/``
only where more stages follow), ``*seconds`` (a fixed time each move, nothing carried over) or
``-`` (no clock). The delay is ``bronstein:S`` (the time a move used is given back, at most S
seconds) or ``simple:S`` (the clock waits S seconds each move before it runs).

>>> c = TimeControl.parse("40/5400+30:1800+30")
>>> [(s.moves, s.seconds, s.increment) for s in c.stages]
[(40, 5400.0, 30.0), (None, 1800.0, 30.0)]
>>> TimeControl.parse("300+3", "bronstein:2").delay
Delay(kind='bronstein', seconds=2.0)
>>> TimeControl.parse("-") is None
True
>>> clocks = Clocks.start(TimeControl.parse("300+3"), ("white", "black"))
>>> clocks = clocks.run("white", 0).press(10_000)  # White's move took 10 s, then +3
>>> clocks.left["white"], clocks.moves["white"], clocks.running
(293000.0, 1, None)
>>> clock_text(293_000), clock_text(9_250)
('4:53', '9.2')
"""

from __future__ import annotations

import json
import re
from typing import Literal, Mapping, NamedTuple, Sequence

from firmware_host.i18n import N_

#: Whose clock runs while the players carry out the opponent's move (``[clock] carry``).
CARRIERS = ("nobody", "opponent", "players")
#: What a takeback does to the clocks (``[clock] takeback``).
TAKEBACKS = ("restore", "keep")

#: Below this (ms) a clock is shown in tenths.
TENTHS_BELOW = 10_000

#: A stage of a control (compiled when first used: a board without a clock never does).
_STAGE = r"(?:(\d+)/)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$"


class ControlError(ValueError):
    """A time control or delay that does not read; the message says what is expected."""


class Stage(NamedTuple):
    """``moves`` in ``seconds`` (None: the rest of the game), ``increment`` added after each
    move; ``per_move``: ``seconds`` is each move's own time, nothing carried over."""

    moves: int | None
    seconds: float
    increment: float = 0.0
    per_move: bool = False


class Delay(NamedTuple):
    """``bronstein``: a move's time is given back, at most ``seconds``; ``simple``: the clock
    waits ``seconds`` each move before it runs."""

    kind: Literal["bronstein", "simple"]
    seconds: float

    @classmethod
    def parse(cls, text: str) -> Delay | None:
        """``"bronstein:5"``, ``"simple:3"``; ``""`` none.

        >>> Delay.parse("simple:3")
        Delay(kind='simple', seconds=3.0)
        >>> try: Delay.parse("fischer:3")
        ... except ControlError as e: print(e)
        'fischer:3' is no delay: bronstein:S or simple:S (seconds)
        """
        if not text:
            return None
        kind, _, seconds = text.partition(":")
        if kind not in ("bronstein", "simple") or not re.fullmatch(r"\d+(\.\d+)?", seconds):
            raise ControlError(f"{text!r} is no delay: bronstein:S or simple:S (seconds)")
        return cls("bronstein" if kind == "bronstein" else "simple", float(seconds))


class TimeControl(NamedTuple):
    """``stages`` in order (the last for the rest of the game), ``delay``; ``text`` the PGN
    notation, written back as ``[TimeControl "..."]``."""

    text: str
    stages: tuple[Stage, ...]
    delay: Delay | None = None

    @classmethod
    def parse(cls, text: str, delay: str = "") -> TimeControl | None:
        """The control ``text`` names (None for ``-``, no clock); ``delay`` as :meth:`Delay.parse`.

        >>> TimeControl.parse("*60").stages
        (Stage(moves=None, seconds=60.0, increment=0.0, per_move=True),)
        >>> try: TimeControl.parse("40/5400:")
        ... except ControlError as e: print(e)
        '40/5400:' is no time control: e.g. 300+3, 40/5400+30:1800+30, *60 or -
        """
        text = text.strip()
        if text == "-":
            return None
        parts = text.split(":")
        stages = tuple(_stage(part, last=i == len(parts) - 1) for i, part in enumerate(parts))
        if any(s is None for s in stages):
            raise ControlError(f"{text!r} is no time control: e.g. 300+3, 40/5400+30:1800+30, *60 or -")
        return cls(text, tuple(s for s in stages if s is not None), Delay.parse(delay))

    def stage(self, moves: int) -> Stage:
        """The stage a side is in after ``moves`` moves."""
        for stage in self.stages:
            if stage.moves is None or moves < stage.moves:
                return stage
            moves -= stage.moves
        return self.stages[-1]

    def to_go(self, moves: int) -> int | None:
        """The moves a side that made ``moves`` has to make in its stage's time (None: the
        rest of the game).

        >>> c = TimeControl.parse("40/5400+30:1800+30")
        >>> c.to_go(0), c.to_go(39), c.to_go(40), TimeControl.parse("*60").to_go(3)
        (40, 1, None, 1)
        """
        done = 0
        for stage in self.stages:
            if stage.per_move:
                return 1
            if stage.moves is None:
                return None
            done += stage.moves
            if moves < done:
                return done - moves
        return None

    def added(self, moves: int) -> float:
        """The seconds a side's clock gains as its move number ``moves`` + 1 begins (a
        stage's time at the stage's start; a per-move stage's time every move)."""
        done = 0
        for stage in self.stages:
            if stage.per_move:
                return stage.seconds if moves >= done else 0.0
            if moves == done:
                return stage.seconds
            if stage.moves is None:
                return 0.0
            done += stage.moves
        return 0.0


def _stage(text: str, last: bool) -> Stage | None:
    if text.startswith("*") and last and re.fullmatch(r"\*\d+(\.\d+)?", text):
        return Stage(None, float(text[1:]), per_move=True)
    found = re.match(_STAGE, text)
    if found is None or (found[1] is None) != last or float(found[2]) <= 0:
        return None
    return Stage(int(found[1]) if found[1] else None, float(found[2]), float(found[3] or 0))


class Clocks(NamedTuple):
    """The clocks of a game's sides: ``left`` (ms) and ``moves`` made per side, as of
    ``since`` (ms) when ``running`` began its turn (None: no clock runs); ``flag``: the side
    whose time ran out first (None: none yet); ``paused``: an arbiter stopped the clocks
    (nobody's time runs, whoever's turn it is)."""

    control: TimeControl
    left: Mapping[str, float]
    moves: Mapping[str, int]
    running: str | None = None
    since: float = 0.0
    flag: str | None = None
    paused: bool = False

    @classmethod
    def start(cls, control: TimeControl, sides: tuple[str, ...]) -> Clocks:
        """Every side's clock at the game's start."""
        return cls(control, {s: control.added(0) * 1000 for s in sides}, {s: 0 for s in sides})

    def readings(self, mover: str | None = None, used: float | None = None) -> str:
        """The clocks as storage keeps them (none running), with the side whose move they
        follow and the time (ms) that move's turn took: JSON.

        >>> c = Clocks.start(TimeControl.parse("300+3"), ("a", "b"))
        >>> c.readings()
        '{"control": "300+3", "left": {"a": 300000, "b": 300000}, "moves": {"a": 0, "b": 0}}'
        >>> Clocks.read(c.control, c.readings()) == c
        True
        """
        kept: dict[str, object] = {
            "control": self.control.text,
            "left": {side: round(ms) for side, ms in self.left.items()},
            "moves": dict(self.moves),
        }
        delay = self.control.delay
        if delay is not None:
            kept["delay"] = f"{delay.kind}:{delay.seconds:g}"
        if mover:
            kept["mover"] = mover
        if used is not None:
            kept["used"] = round(used)
        return json.dumps(kept)

    @staticmethod
    def control_of(readings: str) -> TimeControl | None:
        """The control (with its delay) :meth:`readings` were kept on (None: it does not read).

        >>> c = Clocks.start(TimeControl.parse("60+1", "simple:2"), ("a", "b"))
        >>> Clocks.control_of(c.readings()) == c.control
        True
        """
        try:
            kept = json.loads(readings)
            return TimeControl.parse(kept["control"], kept.get("delay", ""))
        except (ValueError, KeyError, TypeError):
            return None

    @classmethod
    def read(cls, control: TimeControl, readings: str) -> Clocks:
        """The clocks as :meth:`readings` kept them, on ``control``."""
        kept = json.loads(readings)
        return cls(
            control,
            {s: float(ms) for s, ms in kept["left"].items()},
            {s: int(n) for s, n in kept["moves"].items()},
        )

    def ahead(self, side: str) -> tuple[float, float, int | None]:
        """What ``side`` has for its next move: the seconds left (as of its turn's start), the
        seconds its move gives back (increment and delay) and the moves to make in that time
        (None: the rest of the game).

        >>> Clocks.start(TimeControl.parse("40/600+5:300", "simple:2"), ("a", "b")).ahead("a")
        (600.0, 7.0, 40)
        """
        moves, delay = self.moves[side], self.control.delay
        back = self.control.stage(moves).increment + (delay.seconds if delay is not None else 0.0)
        return self.left[side] / 1000, back, self.control.to_go(moves)

    def used(self, now: float) -> float:
        """What the running side's turn has cost it so far at ``now`` (ms): a simple delay
        waits first.

        >>> c = Clocks.start(TimeControl.parse("60", "simple:5"), ("a", "b")).run("a", 0)
        >>> c.used(3000), c.used(8000)
        (0.0, 3000.0)
        """
        if self.paused:
            return 0.0
        spent = max(0.0, now - self.since)
        delay = self.control.delay
        if delay is not None and delay.kind == "simple":
            return max(0.0, spent - delay.seconds * 1000)
        return spent

    def shown(self, now: float) -> dict[str, float]:
        """Each side's time left at ``now`` (ms; below zero once out)."""
        shown = dict(self.left)
        if self.running is not None:
            shown[self.running] -= self.used(now)
        return shown

    def run(self, side: str | None, at: float) -> Clocks:
        """``side``'s clock runs from ``at`` (None: nobody's); the running one stops, charged
        what it used, with no move made (its increment is for a move)."""
        left = self.shown(at)
        return self._replace(left=left, running=side, since=at)

    def press(self, at: float) -> Clocks:
        """The running side completed a move at ``at``: charged, then its increment (or a
        Bronstein delay's give-back), and the next stage's time when a stage ends; no clock
        runs until :meth:`run`.

        >>> c = Clocks.start(TimeControl.parse("60", "bronstein:5"), ("a", "b"))
        >>> c.run("a", 0).press(3000).left["a"], c.run("a", 0).press(8000).left["a"]
        (60000.0, 57000.0)
        """
        side = self.running
        if side is None:
            return self
        spent, stage = self.used(at), self.control.stage(self.moves[side])
        back = stage.increment * 1000
        delay = self.control.delay
        if delay is not None and delay.kind == "bronstein":
            back += min(spent, delay.seconds * 1000)
        made = self.moves[side] + 1
        if stage.per_move:
            left = self.control.added(made) * 1000
        else:
            left = self.left[side] - spent + back + self.control.added(made) * 1000
        return self._replace(
            left={**self.left, side: left}, moves={**self.moves, side: made}, running=None, since=at
        )

    def out(self) -> float | None:
        """When (ms) the running side's time runs out (None: no clock runs)."""
        if self.running is None or self.paused:
            return None
        delay = self.control.delay
        wait = delay.seconds * 1000 if delay is not None and delay.kind == "simple" else 0.0
        return self.since + wait + self.left[self.running]

    def pause(self, at: float) -> Clocks:
        """Every clock stopped at ``at`` (the running side charged until then), the turn kept.

        >>> c = Clocks.start(TimeControl.parse("60"), ("a", "b")).run("a", 0).pause(5000)
        >>> c.shown(99_000)["a"], c.out(), c.resume(99_000).shown(100_000)["a"]
        (55000.0, None, 54000.0)
        """
        return self if self.paused else self._replace(left=self.shown(at), since=at, paused=True)

    def resume(self, at: float) -> Clocks:
        """The clocks go on from ``at`` after a pause."""
        return self._replace(since=at, paused=False) if self.paused else self

    def adjust(self, side: str, ms: float) -> Clocks:
        """``side``'s clock given ``ms`` more (less when negative; never below zero).

        >>> Clocks.start(TimeControl.parse("60"), ("a", "b")).adjust("b", -90_000).left
        {'a': 60000.0, 'b': 0.0}
        """
        return self._replace(left={**self.left, side: max(0.0, self.left[side] + ms)})

    def flagged(self, side: str) -> Clocks:
        """``side``'s flag fell (the first flag is kept)."""
        return self if self.flag is not None else self._replace(flag=side)


def clock_text(ms: float) -> str:
    """A clock as shown: ``h:mm:ss``, ``m:ss``, or seconds in tenths in the last 10 s.

    >>> [clock_text(t) for t in (5_400_000, 298_000, 59_999, 9_999, -200)]
    ['1:30:00', '4:58', '1:00', '9.9', '0.0']
    """
    ms = max(0.0, ms)
    if ms < TENTHS_BELOW:
        return f"{int(ms // 100) / 10:.1f}"
    seconds = int(-(-ms // 1000))  # whole seconds, up: a clock shows 0:00 only when out
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def pgn_clocks(readings: Sequence[str]) -> tuple[str | None, list[str]]:
    """From the readings kept after each move: the control (None: no clock) and each move's
    ``%clk`` comment, the mover's time left ("" where none was kept).

    >>> kept = Clocks.start(TimeControl.parse("300+3"), ("a", "b")).run("a", 0).press(5_000)
    >>> pgn_clocks([kept.readings("a"), ""])
    ('300+3', ['{[%clk 0:04:58]}', ''])
    """
    control, comments = None, []
    for text in readings:
        kept = json.loads(text) if text else {}
        control = control or kept.get("control")
        mover = kept.get("mover")
        comments.append(f"{{[%clk {pgn_clock(kept['left'][mover])}]}}" if mover else "")
    return control, comments


def pgn_clock(ms: float) -> str:
    """A reading as PGN's ``%clk`` writes it: ``h:mm:ss``.

    >>> pgn_clock(298_400), pgn_clock(-5)
    ('0:04:58', '0:00:00')
    """
    seconds = int(max(0.0, ms) // 1000)
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


#: The time controls offered to choose from, no clock first, with their names (translated
#: where they are shown): the menu's Clock page, and the board's page and the café dashboard's
#: New game (served to them as ``/controls.json``).
CONTROLS = {
    "-": N_("No clock"),
    "180+2": N_("3 min + 2 s"),
    "300+3": N_("5 min + 3 s"),
    "600+5": N_("10 min + 5 s"),
    "900+10": N_("15 min + 10 s"),
    "1800+30": N_("30 min + 30 s"),
    "5400+30": N_("90 min + 30 s"),
}


def control_label(control: str) -> str:
    """A time control as the menu and the pages name it (in English: translated where it is
    shown): one of :data:`CONTROLS`, or its stages in minutes and seconds.

    >>> [control_label(c) for c in ("-", "180+2", "5400+30", "600", "40/5400+30:1800+30")]
    ['No clock', '3 min + 2 s', '90 min + 30 s', '10 min', '40/5400+30:1800+30']
    """
    if control in CONTROLS:
        return CONTROLS[control]
    base, _sep, plus = control.partition("+")
    if not base.isdigit() or not (plus.isdigit() or not plus):
        return control
    minutes = seconds_label(int(base))
    return f"{minutes} + {plus} s" if plus else minutes


def seconds_label(seconds: int) -> str:
    """``90 min``, ``10 s``."""
    return f"{seconds // 60} min" if seconds % 60 == 0 else f"{seconds} s"


def control_refusal(command: str, control: str | None, delay: str = "") -> str | None:
    """Why ``command``'s time ``control`` and ``delay`` (as the config's ``[clock]`` reads
    them) are refused (None: they read, or name none): the one message of every command that
    names a control.

    >>> control_refusal("new_game", "300+3", "bronstein:2") is None, control_refusal("table", None) is None
    (True, True)
    >>> control_refusal("table", "3 minutes")
    "table: bad 'control': '3 minutes' is no time control: e.g. 300+3, 40/5400+30:1800+30, *60 or -"
    """
    for name, text, parse in (("control", control or "-", TimeControl.parse), ("delay", delay, Delay.parse)):
        try:
            if len(text) > 40:
                raise ControlError(f"{text[:40]!r}... is too long")
            parse(text)
        except ControlError as exc:
            return f"{command}: bad {name!r}: {exc}"
    return None
