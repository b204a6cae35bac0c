"""``reedboard replay``: the daemon's controller on the simulated board and a virtual clock,
fed from a JSON-lines file of sensor and button events; one JSON line out per daemon event.

Input lines (``t`` in ms, never decreasing)::

    {"setup": "start"}                    optional first line ("start" default, or "empty")
    {"setup": "start", "game": "antipalos", "size": 12, "variant": "two", "moves": ["F2*"]}
                                          ... naming the game and its moves so far (a resumed
                                          game): "start" is then the position after them
    {"t": 120, "site": "B4*", "on": true} a site's switch closes (true) or opens (false)
    {"t": 900, "button": "ok"}            ok | back | menu (add "long": true for a long press)
    {"t": 5000}                           time passes

Scans run every 1000/scan_hz ms from t=0; an input at ``t`` is seen by the scans at ``t`` and
later. The last output line is ``{"event": "end", "moves": [...], "position": {...}}``.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from typing import IO, Any, Callable, Container, Iterable, Iterator, Mapping, TextIO

from firmware_host.actions import inbound
from firmware_host.board import Controls
from firmware_host.board.game import Game
from firmware_host.runtime.session import open_controller
from firmware_host.store.config import Config
from firmware_host.store.records import position_summary
from firmware_host.store.storage import Storage
from hardware.base import BUTTONS
from hardware.sim import SimBoard

SETUPS = ("start", "empty")


@dataclass(frozen=True)
class Setup:
    """A replay's first line: how the board starts (``kind``: the game's position, or
    ``empty``), and, in files that name it, the game and the moves already played."""

    kind: str = "start"
    game: str | None = None
    size: int | None = None
    variant: str | None = None
    moves: tuple[str, ...] = ()

    @classmethod
    def read(cls, obj: dict[str, Any]) -> "Setup":
        """The setup line's fields, checked; ValueError saying what is wrong."""
        unknown = set(obj) - {"setup", "game", "size", "variant", "moves"}
        if unknown or obj["setup"] not in SETUPS:
            raise ValueError(
                'setup must be {"setup": "start"} or {"setup": "empty"}, with '
                'optional "game", "size", "variant" and "moves"'
            )
        size, moves = obj.get("size"), obj.get("moves", [])
        if "game" in obj and not isinstance(obj["game"], str):
            raise ValueError("'game' must be a game's name")
        if size is not None and (isinstance(size, bool) or not isinstance(size, int)):
            raise ValueError("'size' must be a whole number")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise ValueError("'moves' must be a list of moves in notation")
        variant = obj.get("variant")
        if variant is not None and not isinstance(variant, str):
            raise ValueError("'variant' must be a variant's name")
        return cls(obj["setup"], obj.get("game"), size, variant, tuple(moves))

    def line(self) -> dict[str, Any]:
        """The first line of a replay file that reproduces this start."""
        named = {"game": self.game, "size": self.size, "variant": self.variant}
        return {
            "setup": self.kind,
            **{k: v for k, v in named.items() if v is not None},
            "moves": list(self.moves),
        }


class ReplayError(Exception):
    """A malformed input line; ``str()`` names the line."""


@dataclass(frozen=True)
class Input:
    """One input line: at ``t`` ms, a site change, a button press, or only time passing."""

    line: int
    t: float
    site: str | None = None
    on: bool = False
    button: str | None = None
    long: bool = False

    def apply_to(self, board: SimBoard, sensor: Mapping[str, int | None]) -> None:
        """Do it on the simulated ``board`` (``sensor``: site -> sensor channel, None for a
        site whose switch is dead)."""
        if self.button:
            board.buttons.press(self.button, self.long)
        elif self.site is not None and (channel := sensor[self.site]) is not None:
            (board.place if self.on else board.lift)(channel)


def parse(lines: Iterable[str], sites: Iterable[str]) -> Iterator[Input | Setup]:
    """The setup (first, if given) and the inputs; ReplayError naming the first bad line."""
    known = frozenset(sites)
    last = 0.0
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        item = parse_line(number, text, known, last)
        if isinstance(item, Input):
            last = item.t
        elif number != 1:
            raise ReplayError(f"line {number}: setup is only allowed on the first line")
        yield item


def parse_line(
    number: int, text: str, sites: Container[str], last: float = 0.0, timed: bool = True
) -> Input | Setup:
    """One line: a Setup or an Input. ``timed=False``: ``t`` is optional (and ignored)."""

    def bad(why: str) -> ReplayError:
        return ReplayError(f"line {number}: {why}")

    try:
        obj = inbound.loads(text.rstrip("\r\n"))
    except inbound.Unreadable as exc:
        raise bad(str(exc)) from None
    if not isinstance(obj, dict):
        raise bad("expected a JSON object")
    if "setup" in obj:
        try:
            return Setup.read(obj)
        except ValueError as exc:
            raise bad(str(exc)) from None
    t = obj.pop("t", None if timed else last)
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 <= t < 1e12:
        raise bad("needs a time 't' in ms (a number, 0 or more)")
    if t < last and timed:
        raise bad(f"time goes back ({t} after {last})")
    keys = set(obj)
    if keys == {"site", "on"}:
        if not isinstance(obj["site"], str) or obj["site"] not in sites:
            raise bad(f"unknown site {obj['site']!r}")
        if not isinstance(obj["on"], bool):
            raise bad("'on' must be true or false")
        return Input(number, t, site=obj["site"], on=obj["on"])
    if keys in ({"button"}, {"button", "long"}):
        if obj["button"] not in BUTTONS:
            raise bad(f"unknown button {obj['button']!r} (one of {', '.join(BUTTONS)})")
        if not isinstance(obj.get("long", False), bool):
            raise bad("'long' must be true or false")
        return Input(number, t, button=obj["button"], long=obj.get("long", False))
    if keys:
        raise bad(f"unexpected keys {', '.join(sorted(keys))} (site+on, button, or only t)")
    return Input(number, t)


class Replayer:
    """Runs a controller on a simulated board, stepping scans on a virtual clock; ``channels``:
    the board's sensors and LEDs (default: the game's; more for games begun later)."""

    def __init__(self, controller: Controls, scan_hz: int, out: IO[str], channels: int = 0) -> None:
        self.controller = controller
        self.period = 1000 / scan_hz
        self.out = out
        self.scans = 0
        layout = controller.layout
        self.board = SimBoard(
            max(layout.sensor_channels, channels, 1), leds=max(layout.led_channels, channels, 1)
        )
        self._frame_version = -1

    def setup(self, kind: str) -> None:
        """Set up the board: the game's current position (``start``), or nothing."""
        if kind == "start":
            for site in self.controller.record.boards[-1]:
                self.board.place(self.controller.layout.sensor[site])

    def apply(self, item: Input) -> None:
        self.run_until(item.t, inclusive=False)
        item.apply_to(self.board, self.controller.layout.sensor)

    def run_until(self, t: float, inclusive: bool = True) -> None:
        """Scan at every scan time before ``t`` (and at ``t`` if ``inclusive``)."""
        while (now := self.scans * self.period) < t or (inclusive and now == t):
            self.scans += 1
            events = self.controller.step(now, self.board.scan(), self.board.buttons.events())
            if self.controller.frame_version != self._frame_version:
                self._frame_version = self.controller.frame_version
                self.board.leds.show(self.controller.frame())
            for event in events:
                self.emit({**event, "t": _ms(event["t"])})

    def emit(self, obj: dict[str, Any]) -> None:
        print(json.dumps(obj), file=self.out, flush=True)

    def end(self) -> None:
        c = self.controller
        position = position_summary(c.record.state, c.record.game.name)
        self.emit({"event": "end", "moves": list(c.record.moves), "position": position})


def _ms(t: float) -> float | int:
    t = round(t, 3)
    return int(t) if t == int(t) else t


def first_setup(lines: list[str]) -> Setup:
    """The setup a replay file begins with (the default when its first line is none)."""
    for number, text in enumerate(lines, 1):
        if text.strip():
            try:
                item = parse_line(number, text, (), timed=False)
            except ReplayError:
                return Setup()
            return item if isinstance(item, Setup) else Setup()
    return Setup()


def replay(lines: Iterable[str], config: Config, game: Game, out: IO[str] = sys.stdout) -> int:
    """Replay ``lines``; exit status 0, or 2 (message on stderr, nothing on ``out``) for a
    malformed line. Sites are those of the game the replay starts with; a first line naming
    the moves already played resumes the game after them."""
    lines = list(lines)
    storage = Storage(":memory:")
    setup = first_setup(lines)
    if setup.moves:
        game_id = storage.start(game.name, game.size, game.variant)
        for ply, move in enumerate(setup.moves, 1):
            storage.add_move(game_id, ply, move)
    controller = open_controller(config, storage, game, say=lambda _: None, sync=True)
    if len(controller.record.moves) != len(setup.moves):
        print(
            f"reedboard replay: the first line's moves are not a legal game of {game.name}", file=sys.stderr
        )
        return 2
    labels = [s.label for s in controller.record.state.sites()]
    try:
        items = list(parse(lines, labels))
    except ReplayError as exc:
        print(f"reedboard replay: {exc}", file=sys.stderr)
        return 2
    replayer = Replayer(controller, config.timing.scan_hz, out)
    inputs = [item for item in items if isinstance(item, Input)]  # a setup line only leads
    replayer.setup(setup.kind)
    for item in inputs:
        replayer.apply(item)
    replayer.run_until(inputs[-1].t if inputs else 0)
    replayer.end()
    return 0


def feed(
    board: SimBoard, believed: Callable[[], Mapping[str, int]], stream: TextIO, command: str, gap: float = 0.0
) -> None:
    """Apply replay-format lines from ``stream`` (``t`` optional and ignored: a line acts when
    it arrives) to the simulated ``board`` until the stream ends. ``believed()``: the layout's
    site -> sensor channel now (the board's own wiring, if it has one, decides instead). A bad
    line is said on stderr and skipped. ``gap``: seconds kept at least between two changes of
    one site, so that the debouncer sees a quick place-and-lift."""
    changed: dict[str, float] = {}
    for number, text in enumerate(inbound.lines(stream), 1):
        if not text.strip():
            continue
        sensor = believed()
        try:
            item = parse_line(number, text, sensor, timed=False)
        except ReplayError as exc:
            print(f"reedboard {command}: stdin {exc}", file=sys.stderr)
            continue
        if isinstance(item, Setup):
            continue
        if gap and item.site is not None:
            time.sleep(max(0.0, changed.get(item.site, 0.0) + gap - time.monotonic()))
            changed[item.site] = time.monotonic()
        item.apply_to(board, board.sensors(sensor))
