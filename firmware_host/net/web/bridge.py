"""The daemon loop's side of the simulator page.

:class:`Hub` is the thread-safe meeting point of the wall-clock loop and the web server: the
server submits checked commands and reads the latest state; the loop calls
:meth:`WebBoard.sync` after every controller step, which applies the commands that are due to
the simulated board (or the controller) and publishes what changed. When nothing happens a sync
costs a few comparisons.

Published state (the page merges partial updates into it; a new game's first update, the one
with ``sites``, names every key, ``None`` for what the game lacks, and replaces the state whole):

- ``game``: {name, title, size, variant, sides}
- ``sites``: [{label, x, y, shape, point}] (``point``: the point a twin site stands for, as
  notation names it)
- ``drawing``: {lines, kinds}
- ``pieces``: [labels the sensors see]
- ``leds``: {label: [#rrggbb, pattern]}
- ``lights``: {label: kind}, what each lit site asks (``firmware_host.board.view.LIGHTS``)
- ``figures``: [{side, sites, kind, mark}], the pieces as the game expects them now
  (``firmware_host/net/web/story.py``)
- ``plan``: the opponent's move still to make, or null
- ``history``: [{move, side, from, to}]
- ``losses``: {side: pieces lost} or null
- ``oled``: PNG, base64
- ``status``: {to_move (the side that must act now), result, winner, moves, last, lines}
- ``settings``: {brightness, rules, takebacks, hints}
- ``noise``
- ``read``: how many of the pages' commands the loop has read (each applied before the step
  that publishes it, so its change is scanned and its button taken by then), and ``settled``:
  the board's readings had settled at that step (the debouncer quiet). Not yet the end of what
  a change brings: a computer's move carried out was seen recorded up to a second after
- ``events``: new daemon events only (the hub keeps a bounded log for new pages)

The spectators' view (``/watch``) is given only what it shows (:func:`watched`): the board, its
pieces, the game's story and state, the winning line's lights; never the OLED, the settings, the
event log, the opponent's plan nor any light asking the players something (a hint).
"""

from __future__ import annotations

import base64
import io
import json
import sys
import threading
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Iterable

from firmware_host.actions.commands import SEATS, NewGame
from firmware_host.board import Controls
from firmware_host.board.events import Event
from firmware_host.board.view import lights
from firmware_host.net.web import story
from firmware_host.net.web.commands import Drag, PageCommand, Press, SetNoise, SetUp, SiteChange
from firmware_host.net.web.drawn import drawn
from firmware_host.net.web.pieces import Geometry, SimPieces, Wired
from firmware_host.net.web.spacing import MAX_WAITING, Spacing
from firmware_host.net.web.tap import HardwareBoard
from firmware_host.ui.screens import result_words

if TYPE_CHECKING:  # a real board's page never loads the simulated board
    from hardware.sim import SimBoard

#: Lines a session recording keeps at most (then it stops growing, and says so).
MAX_RECORDED = 20_000

Update = dict[str, Any]


#: What ``/watch`` shows of the published state.
WATCHED = frozenset(
    {
        "game",
        "sites",
        "drawing",
        "pieces",
        "figures",
        "history",
        "losses",
        "status",
        "leds",
        "lights",
        "clock",
        "seats",
    }
)
#: The only lights spectators see: the rest ask something of the players.
WATCHED_LIGHTS = frozenset({"win"})


def watched(update: Update, lights: dict[str, str]) -> Update:
    """What spectators may see of ``update``; ``lights``: each lit site's kind now (for leds
    sent without them). The status keeps no screen lines.

    >>> watched({"oled": "...", "events": [{"event": "hint"}], "lights": {"a1": "hint",
    ...          "b2": "win"}, "leds": {"a1": ["#fff", "slow"], "b2": ["#fff", "pulse"]},
    ...          "status": {"to_move": "white", "lines": ["Hint: a1"]}}, {})
    {'lights': {'b2': 'win'}, 'leds': {'b2': ['#fff', 'pulse']}, 'status': {'to_move': 'white', 'lines': []}}
    """
    out = {key: value for key, value in update.items() if key in WATCHED}
    kinds = out.get("lights", lights)
    shown = {site for site, kind in kinds.items() if kind in WATCHED_LIGHTS}
    for key in ("lights", "leds"):
        if key in out:
            out[key] = {site: value for site, value in out[key].items() if site in shown}
    if "status" in out:
        out["status"] = {**out["status"], "lines": []}
    return out


class Hub:
    """Commands from the page to the loop; state from the loop to the pages."""

    def __init__(self, log_size: int = 2000) -> None:
        self._lock = threading.Lock()
        self._commands: deque[PageCommand] = deque()
        self._state: Update = {}
        self._log: deque[dict[str, Any]] = deque(maxlen=log_size)
        self._listeners: list[Callable[[Update], None]] = []
        self.recording = Recorder()
        #: The current board's site labels (replaced whole, so readable from any thread).
        self.labels: frozenset[str] = frozenset()
        #: Called (from the server's thread) after each command: wakes the loop.
        self.on_submit: Callable[[], None] | None = None
        #: The games file the page lists stored games from (None: not known yet).
        self.storage: str | None = None

    # -- the web server's side
    def submit(self, command: PageCommand) -> bool:
        """Queue ``command`` for the loop; False when MAX_WAITING already wait."""
        with self._lock:
            if len(self._commands) >= MAX_WAITING:
                return False
            self._commands.append(command)
        if self.on_submit:
            self.on_submit()
        return True

    def lights(self) -> dict[str, str]:
        """Each lit site's kind, as last published."""
        with self._lock:
            return dict(self._state.get("lights", {}))

    def current(self) -> Update:
        """The whole state, with the event log, for a page that has just connected."""
        with self._lock:
            return {**self._state, "events": list(self._log)}

    def listen(self, listener: Callable[[Update], None]) -> None:
        """Call ``listener(update)`` (from the loop's thread) on every publish."""
        with self._lock:
            self._listeners.append(listener)

    # -- the loop's side
    @property
    def pending(self) -> bool:
        return bool(self._commands)

    def take(self, most: int = MAX_WAITING) -> list[PageCommand]:
        """The oldest ``most`` commands waiting."""
        with self._lock:
            n = min(most, len(self._commands))
            return [self._commands.popleft() for _ in range(n)]

    def publish(self, update: Update) -> None:
        """Merge ``update`` into the state and hand it to the listeners. An update with
        ``sites`` starts a new game (or the wizard): the state is that update alone, so nothing
        of the last game's outlives it."""
        with self._lock:
            if "sites" in update:
                self._log.clear()
                self._state = {}
            self._log.extend(update.get("events", ()))
            self._state.update({k: v for k, v in update.items() if k != "events"})
            listeners = list(self._listeners)
        for listener in listeners:
            listener(update)


class Recorder:
    """The session as a replay input file (``reedboard replay``): a setup line, then site
    changes and button presses with ``t`` in ms from the start of the game, then the time the
    session has reached."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._head: list[dict[str, Any]] = []
        self._items: list[dict[str, Any]] = []
        self.t0 = 0.0
        #: The loop's latest time: the file ends there, so a replay runs as long as the session.
        self.now = 0.0
        #: When the recording filled up (it ends there); infinity while it has room.
        self.cut = float("inf")
        self.game: dict[str, Any] = {}

    def restart(
        self, t0: float, game: dict[str, Any], start: bool, pieces: Iterable[str], moves: Iterable[str] = ()
    ) -> None:
        """Begin a new recording of ``game`` after ``moves`` (a resumed game's); the board
        shows that position (``start``), or ``pieces``. The first line names all of it, so
        the file replays with no options."""
        from firmware_host.runtime.replay import Setup  # a recording starts after READY

        setup = Setup(
            "start" if start else "empty",
            game.get("name"),
            game.get("size"),
            game.get("variant"),
            tuple(moves),
        )
        head = [setup.line()]
        if not start:
            head += [{"t": 0, "site": site, "on": True} for site in pieces]
        with self._lock:
            self.t0, self.game, self._head, self._items = t0, game, head, []
            self.cut = float("inf")

    def add(self, now: float, **fields: Any) -> None:
        with self._lock:
            if len(self._items) < MAX_RECORDED:
                self._items.append({"t": self.ms(now), **fields})
            elif self.cut == float("inf"):  # full: the file ends where it stopped
                self.cut = self.now

    def ms(self, now: float) -> int:
        return max(0, round(now - self.t0))

    def text(self) -> str:
        with self._lock:
            items = sorted(self._items, key=lambda item: item["t"])  # stable: slides interleave
            lines = self._head + items + [{"t": self.ms(min(self.now, self.cut))}]
        return "".join(f"{_json(line)}\n" for line in lines)


def _json(obj: Any) -> str:
    return json.dumps(obj, separators=(", ", ": "))


class WebBoard:
    """Applies the page's commands to ``board`` and a controller, publishes to ``hub``."""

    def __init__(
        self, board: SimBoard | HardwareBoard, hub: Hub, gap_ms: float = 60.0, gap_scans: int = 0
    ) -> None:
        self.board = board
        self.hub = hub
        #: Changes of one site are spaced at least ``gap_ms`` and ``gap_scans`` scans apart, so
        #: that the debouncer sees each (a quick click-click is a lift and a placing, a tap).
        self.spacing = Spacing(gap_ms, gap_scans)
        self._now = 0.0
        self._applied = 0  # the page's commands applied so far
        self._game_id: Any = object()
        self._shown: dict[str, Any] = {}
        #: The simulated pieces the page moves (None on real hardware: the pieces are real).
        self.hands = None if isinstance(board, HardwareBoard) else SimPieces(board, self.spacing, ())
        self._led_sites: dict[int, list[str]] = {}
        self._history = _History()
        #: False on real hardware: the pieces are real (the page's piece controls are refused).
        self.simulated = getattr(board, "simulated", True)

    # ------------------------------------------------------------------ the loop calls
    @property
    def quiet(self) -> bool:
        """True when no command waits: none submitted and none held back by ``gap_ms``."""
        return not self.spacing.waiting and not self.hub.pending

    def sync(self, now: float, controller: Controls, events: Iterable[Event]) -> None:
        """After a controller step at ``now`` ms: apply the due commands, publish changes."""
        self._now = self.hub.recording.now = now
        settled = controller.quiet(now)
        read = {"read": self._applied, "settled": settled}  # as this step found them
        for command in self.spacing.due(now, self.hub.take, settled):
            self._applied += 1
            try:
                self._apply(command, controller)
            except Exception as exc:  # noqa: BLE001 - a command must never end the daemon
                why = " ".join(str(exc).split())[:160]
                print(
                    f"reedboard run: the page's {type(command).__name__} failed: {type(exc).__name__}: {why}",
                    file=sys.stderr,
                )
        self._publish(controller, list(events), read)

    # ------------------------------------------------------------------ commands
    def _apply(self, command: PageCommand, controller: Controls) -> None:
        if isinstance(command, (SiteChange, Drag, SetNoise)):
            if self.hands:
                self._record(self.hands.apply(command, self._wired(controller), self._now))
        elif isinstance(command, Press):
            self.board.buttons.press(command.button, command.long)
            held = {"long": True} if command.long else {}
            self.hub.recording.add(self._now, button=command.button, **held)
        elif isinstance(command, SetUp):
            self._set_board(controller, controller.snapshot().expected if command.board == "expected" else ())
        else:  # one of the board's own commands: as the menu's and the broker's
            controller.command(command)
            if isinstance(command, NewGame) and self.simulated:
                self._set_board(controller, controller.record.boards[0])

    def _wired(self, controller: Controls) -> Wired:
        return self.board.sensors(controller.layout.sensor)

    def _record(self, changes: Iterable[tuple[float, str, bool]]) -> None:
        for t, site, on in changes:
            self.hub.recording.add(t, site=site, on=on)

    def _set_board(self, controller: Controls, sites: Iterable[str]) -> None:
        if not self.hands:
            return  # real pieces: the page cannot move them
        wanted, wired = frozenset(sites), self._wired(controller)
        for site in sorted(controller.layout.sites_of(self.board.pieces()) - wanted):
            self._record(self.hands.set(wired, site, False, self._now))
        for site in sorted(wanted):
            self._record(self.hands.set(wired, site, True, self._now))

    # ------------------------------------------------------------------ publishing
    def _publish(self, controller: Controls, events: list[Event], read: dict[str, Any]) -> None:
        update: dict[str, Any] = {}
        fresh = controller.record.game_id != self._game_id
        if fresh:
            update.update(self._new_game(controller))
        if fresh or self.board.changes != self._shown.get("changes"):  # not every scan
            self._shown["changes"] = self.board.changes
            self._put(update, "pieces", self._pieces(controller))
        leds = self.board.leds
        lit = fresh or leds.frames_shown != self._shown.get("frames")
        if lit:
            self._shown["frames"] = leds.frames_shown
            self._put(update, "leds", self._leds(leds.frame))
        display = self.board.display
        if fresh or display.images_shown != self._shown.get("images"):
            self._shown["images"] = display.images_shown
            self._put(update, "oled", _png(display.image))
        if fresh or events or lit:
            snap = controller.snapshot()
            self._put(update, "lights", lights(snap))
            self._put(update, "figures", story.expected(snap))
            self._put(update, "plan", story.plan(snap))
        if fresh or events:
            self._put(update, "status", _status(controller))
            self._put(update, "history", self._history.of(controller.record))
            self._put(update, "losses", story.losses(controller.record.states[0], controller.record.state))
        self._put(update, "clock", controller.clock.shown(controller.now))  # sent as its text changes
        self._put(update, "settings", _settings(controller))
        self._put(update, "seats", _seats(controller))
        self._put(update, "noise", self.board.noise is not None)
        for key, value in read.items():
            self._put(update, key, value)
        if events:
            rec = self.hub.recording
            update["events"] = [{**e, "t": rec.ms(e["t"])} for e in events]
        if update:
            self.hub.publish(update)

    def _put(self, update: dict[str, Any], key: str, value: Any) -> None:
        put(self._shown, update, key, value)

    def _new_game(self, controller: Controls) -> dict[str, Any]:
        self._game_id = controller.record.game_id
        self.hub.storage = controller.settings.storage.path
        self._shown, self._history = {}, _History()
        state, game, layout = controller.record.state, controller.record.game, controller.layout
        sites = state.sites()
        if self.hands:
            self.hands.geometry = Geometry(sites)
        self._led_sites = {}
        lights = self.board.lights(layout.led)  # where each LED really is
        for site in sites:
            if (led := lights[site.label]) is not None:
                self._led_sites.setdefault(led, []).append(site.label)
        self.hub.labels = frozenset(s.label for s in sites)
        info = {
            "name": game.name,
            "title": game.title,
            "size": game.size,
            "variant": game.variant,
            "shown_variant": game.shown_variant,
            "sides": list(state.sides),
        }
        pieces = self._pieces(controller)
        self.hub.recording.restart(
            self._now, info, set(pieces) == controller.record.boards[-1], pieces, controller.record.moves
        )
        return {"game": {**info, **_players(controller)}, **drawn(state)}

    def _pieces(self, controller: Controls) -> list[str]:
        return sorted(controller.layout.sites_of(self.board.pieces()))

    def _leds(self, frame: dict) -> dict[str, list[str]]:
        lit = {}
        for channel, led in frame.items():
            for site in self._led_sites.get(channel, ()):
                lit[site] = ["#%02x%02x%02x" % tuple(led.colour), led.pattern]
        return lit


def put(shown: dict[str, Any], update: Update, key: str, value: Any) -> None:
    """Add ``key`` to ``update`` unless ``shown`` already has that value for it; a key not
    shown yet is always added, whatever its value (a new game's ``None`` clears the last one's).

    >>> shown, update = {}, {}
    >>> put(shown, update, "losses", None); put(shown, update, "plan", {"move": "c1"})
    >>> update
    {'losses': None, 'plan': {'move': 'c1'}}
    >>> update.clear(); put(shown, update, "losses", None); update
    {}
    """
    if key not in shown or shown[key] != value:
        shown[key] = update[key] = value


def _players(controller: Controls) -> dict[str, Any]:
    """Who plays, as the page's picker offers it: the computer's seat ("first", "second", or
    None at the table) and its level.

    A page reloaded during a game against the computer shows that game's players, so New game
    does not quietly start one at the table."""
    opponent = controller.opponent
    if opponent is None or opponent.level is None:  # another board is not the picker's to set
        return {"computer": None, "level": None}
    seat = controller.record.state.sides.index(opponent.side_in(controller.record.state))
    return {"computer": SEATS[seat] if seat < len(SEATS) else None, "level": opponent.level}


def _seats(controller: Controls) -> dict[str, Any]:
    """Who sits at each seat, the league round's table and whose OK it waits for."""
    seating = controller.seating
    return {"players": list(seating.names), "table": seating.title(), "ready": seating.asked()}


def _settings(controller: Controls) -> dict[str, Any]:
    """What the page's settings show: the LED brightness, the house rules for the next game,
    whether takebacks and hints are offered."""
    return {
        "brightness": controller.settings.brightness,
        "rules": {game: dict(options) for game, options in controller.settings.house_rules.items()},
        "takebacks": controller.settings.takebacks,
        "hints": controller.settings.hints is not None,
    }


class _History:
    """The moves so far for the page, worked out again only from the first that changed."""

    def __init__(self) -> None:
        self.moves: list[str] = []
        self.items: list[dict[str, Any]] = []

    def of(self, record) -> list[dict[str, Any]]:
        moves = list(record.moves)
        same = next(
            (i for i, (a, b) in enumerate(zip(moves, self.moves)) if a != b), min(len(moves), len(self.moves))
        )
        self.items = self.items[:same] + story.history(record.states[same:-1], moves[same:])
        self.moves = moves
        return self.items


def _status(controller: Controls) -> dict[str, Any]:
    outcome = controller.record.outcome  # a flag's too
    return {
        "to_move": None if outcome else controller.snapshot().to_act,
        "result": result_words(outcome.winner, outcome.result) if outcome else None,
        "winner": outcome.winner if outcome else None,
        "moves": len(controller.record.moves),
        "last": controller.record.moves[-1] if controller.record.moves else None,
        "lines": list(controller.screen().text_lines()),
    }


def _png(image) -> str:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode("ascii")
