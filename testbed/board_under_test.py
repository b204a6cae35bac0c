"""The board under test: the daemon's controller on a simulated board and a virtual clock,
driven and read only as players, the simulator page and the café network can: pieces placed and
lifted, buttons pressed, the lit sites read back by what they ask (the legend of
``firmware_host/board/turn.py``), the OLED's text, the events, the stored games, the menu's actions
sent as commands, and a restart from the same database with the pieces left as they stand.

This is the only module of ``testbed`` that touches the controller: when the controller
changes, this is what to adapt.

>>> board = BoardUnderTest(Game.of("antipalos", 3)); board.settle()
True
>>> board.place("B2*"); board.settle()
True
>>> board.held(), board.stored(), board.screen()[1]
(('B2*',), ('B2*',), 'Black to move')
>>> board.place("A1*"); board.settle(); board.restart()
True
>>> board.held(), board.lit()
(('B2*', 'A1*'), {})
"""

from __future__ import annotations

import json
import math
import os
import random
import tempfile
from dataclasses import replace
from typing import Any

from engines.core import GameState
from firmware_host.actions.commands import Command, NewGame, SetPlayers, TakeBack
from firmware_host.board.controller import Controller, Game
from firmware_host.board.opponent import Computer
from firmware_host.board.view import LIGHTS
from firmware_host.net.mqtt import topics
from firmware_host.net.mqtt.commands import parse
from firmware_host.net.mqtt.link import Link
from firmware_host.net.mqtt.remote import Remote
from firmware_host.runtime.loop import IDLE_WAIT, longest_wait
from firmware_host.runtime.session import open_controller
from firmware_host.runtime.sound import Speaker
from firmware_host.store.config import Config, OpponentConfig
from firmware_host.store.layout import Layout, layout_toml
from firmware_host.store.players import League, read_players
from firmware_host.store.storage import Storage
from firmware_host.store.timecontrol import Clocks
from hardware.base import Led
from hardware.clock import VirtualClock
from hardware.sim import Noise, SimBoard
from testbed.bus import BusLink
from testbed.scratch import scratch

#: Light kinds that look alike, by the name the robot reads them as ("take this off").
SAME_LOOK = {"extra": "remove"}
#: How long outputs must stay unchanged before a board counts as settled (ms).
STILL_MS = 150
#: The longest wait for a board to settle (ms); a board still changing then is reported.
SETTLE_CAP_MS = 6000


def cafe_command(message: dict[str, Any]) -> Command:
    """The command a café's JSON ``message`` asks of the board, read as the board reads the
    broker's (docs/cafe.md).

    >>> cafe_command({"command": "players", "names": ["Anna", "Ben"]})
    SetNames(names=('Anna', 'Ben'))
    """
    return parse(json.dumps(message))[0]


def light_kind(led: Led, brightness: float) -> str | None:
    """The legend's kind an LED shows (``brightness`` scales its colours), or None.

    >>> light_kind(LIGHTS["flip"], 1.0), light_kind(Led((128, 100, 0), "slow"), 0.5)
    ('flip', 'twin')
    >>> light_kind(LIGHTS["extra"], 1.0)
    'remove'
    """
    for kind, want in LIGHTS.items():
        colour = want.colour if brightness >= 1 else tuple(round(c * brightness) for c in want.colour)
        if led == Led(colour, want.pattern):
            return SAME_LOOK.get(kind, kind)
    return None


def shuffled_layout(game: Game, rng: random.Random, path: str) -> str:
    """Write at ``path`` a layout file for ``game`` as a board wired by hand might be: each
    site's sensor and LED channel drawn at random, spare channels left between; the path.

    >>> import tempfile, tomllib
    >>> folder = tempfile.mkdtemp()
    >>> path = shuffled_layout(Game.of("antipode", None, "standard"), random.Random(1), folder + "/l.toml")
    >>> sites = tomllib.load(open(path, "rb"))["sites"]
    >>> len(sites), sorted(sites)[:2], max(s["sensor"] for s in sites.values()) >= len(sites)
    (61, ['a1', 'a2'], True)
    """
    labels = [site.label for site in game.new().sites()]
    channels = range(len(labels) + 8)
    layout = Layout(
        dict(zip(labels, rng.sample(channels, len(labels)))),
        dict(zip(labels, rng.sample(channels, len(labels)))),
    )
    with open(path, "w", encoding="utf-8") as out:
        out.write(layout_toml(layout, game.name, game.size, game.variant))
    return path


class Table:
    """The virtual clock the boards at a table share, scanned together every ``period_ms``,
    and the message bus between them (if any). With ``waits`` each board is scanned as the
    daemon's loop scans wakeable hardware (:func:`wait_ms`): a settled board with nothing to
    say waits for a hand, a button, a command or the paired board's message, or
    :data:`IDLE_WAIT_MS`, before its next scan;
    without, every scan period (the loop on hardware that cannot wake it).

    >>> table = Table(waits=True)
    >>> board = BoardUnderTest(Game.of("antipalos", 3), table=table); board.settle()
    True
    >>> scans = table.scans; board.run(5000); table.scans - scans  # settled: twice a second
    10
    >>> board.place("B2*"); board.settle(); board.held()  # a hand wakes it: scanned at once
    True
    ('B2*',)
    """

    def __init__(self, period_ms: float = 10.0, bus: Any = None, waits: bool = False) -> None:
        self.clock = VirtualClock()
        self.period_ms = period_ms
        self.scans = 0
        self.bus = bus
        self.waits = waits
        self.boards: list[BoardUnderTest] = []
        self._now = 0.0

    @property
    def now_ms(self) -> float:
        """The time of the next scan (waiting: now)."""
        return self._now

    def _at(self, now: float) -> None:
        self._now = now
        self.clock.advance(max(0.0, now / 1000 - self.clock()))

    def run_until(self, t_ms: float) -> None:
        """Scan every board at each scan time before ``t_ms``."""
        if self.waits:
            return self._run_waiting(t_ms)
        while self.now_ms < t_ms:
            now = self.now_ms
            self._at(now)
            if self.bus is not None:
                self.bus.deliver(now)
            for board in self.boards:
                if not board.off:
                    board.scan(now)
            self.scans += 1
            self._now = self.scans * self.period_ms

    def _run_waiting(self, t_ms: float) -> None:
        while (now := self._next(t_ms)) < t_ms:
            self._at(max(now, self._now))
            if self.bus is not None:
                self.bus.deliver(self._now)  # a message wakes the board it is for
            due = [board for board in self.boards if board.due <= self._now]
            for board in due:
                board.scan(self._now)
                board.waiting = wait_ms(board)
                board.due = self._now + (board.waiting or self.period_ms)
            self.scans += bool(due)
        self._at(max(t_ms, self._now))

    def _next(self, t_ms: float) -> float:
        """When a waiting table's next scan or message arrival comes (``t_ms``: none before)."""
        first = min((board.due for board in self.boards), default=t_ms)
        if self.bus is not None and (arrival := self.bus.due()) is not None:
            return min(first, arrival)
        return first

    @property
    def latency_ms(self) -> float:
        """The longest a board takes to read what arrived for it (a message): a scan period,
        or waiting, at most the loop's longest wait and a period (a message wakes it)."""
        return self.period_ms + (IDLE_WAIT_MS if self.waits else 0.0)

    def quiet(self) -> bool:
        """Nothing in flight between the boards."""
        return self.bus is None or self.bus.idle()


#: The longest the daemon's loop waits on a settled board before it scans again (ms).
IDLE_WAIT_MS = 1000 * IDLE_WAIT


def wait_ms(board: "BoardUnderTest") -> float:
    """How long the daemon's loop would wait after ``board``'s last scan unless woken (0: it
    scans again after a period), as ``Daemon._can_wait`` decides on wakeable hardware: the
    step said nothing, the games can be saved, the board has settled and been judged and the
    simulated sensors have nothing under way; at most :data:`IDLE_WAIT_MS`, or until the
    kiosk's next change or the game clock's next draw or flag (``loop.longest_wait``)."""
    c = board.controller
    storage = c.settings.storage
    if (
        board.said
        or not (storage.failure is None or storage.in_memory)
        or board.woke
        or not c.quiet(board.now_ms)
        or not board.sim.quiet
    ):
        return 0.0
    return longest_wait(c, board.now_ms)


class _Waker:
    """The daemon loop's waker, as ``board``'s paired-board link sets it
    (:meth:`~firmware_host.net.mqtt.remote.Remote.wakes`)."""

    def __init__(self, board: "BoardUnderTest") -> None:
        self.board = board

    def set(self) -> None:
        self.board.woken()


class BoardUnderTest:
    """One board: ``game`` played on a simulated board at ``table`` (a new one by default),
    saved in the SQLite file ``path`` (a new temporary one by default). ``computer``: the side
    the configured computer plays (level 1); ``remote``: the bus link of a board paired as
    ``config`` says (``[mqtt] board``, ``[opponent] kind = "remote"``) for board-to-board
    play; ``noise``: the simulated sensors' contact bounce; ``wiring``: the board is wired in
    an order drawn from it, read from a layout file (:func:`shuffled_layout`), instead of the
    default one; ``speech``: the daemon's ``say`` events too."""

    #: How long the players wait for the computer's or the other board's move (ms).
    opponent_ms = 3000.0

    def __init__(
        self,
        game: Game,
        path: str | None = None,
        *,
        table: Table | None = None,
        computer: str | None = None,
        remote: Link | None = None,
        noise: Noise | None = None,
        config: Config | None = None,
        wiring: random.Random | None = None,
        speech: bool = False,
    ) -> None:
        if path is None:
            handle, path = tempfile.mkstemp(suffix=".db", prefix="robot-", dir=scratch())
            os.close(handle)
            os.unlink(path)
        self.game, self.path, self.remote = game, path, remote
        config = config or Config()
        opponent = OpponentConfig("computer", computer, 1) if computer else config.opponent
        self.config = replace(config, opponent=opponent)
        if wiring is not None:
            self.config = replace(self.config, layout=shuffled_layout(game, wiring, path + ".layout.toml"))
        self.table = table or Table(1000 / self.config.timing.scan_hz)
        self.storage = Storage(path)
        self.controller = self._open()
        layout = self.controller.layout
        self.sim = SimBoard(
            layout.sensor_channels, clock=self.table.clock, noise=noise, leds=layout.led_channels
        )
        self.events: list[dict[str, Any]] = []
        #: The loop's speaker (``speech``): its ``say`` events join the step's (a voice, when
        #: ``[sound] speech`` is on, only speaks them).
        self.speaker = Speaker() if speech else None
        self.restarts: list[int] = []  # how many events came before each restart
        self.lines: list[dict[str, Any]] = []  # what the scans read, as replay lines
        self.setup = {
            "setup": "empty",
            "game": game.name,
            "size": game.size,
            "variant": game.variant,
            "moves": [],
        }
        self._read: frozenset[int] = frozenset()
        self._frame_version = -1
        self.changed_at = self.acted_at = 0.0  # the last output change, the last hand action
        self.due = self.table.now_ms  # the next scan (a waiting table's)
        self.off = False  # the daemon stopped (a power cut) until it restarts
        self.waiting = 0.0  # how long a waiting table's loop waits for a hand (0: scanning)
        self.said = False  # the last step had events
        self.woke = False  # the loop's waker was set since the last scan began
        self._lit: dict[str, str] | None = None  # what lit() and screen() read since the last step
        self._lines: tuple[str, ...] | None = None
        for site in self.controller.boards[-1]:
            self.sim.place(layout.sensor[site])
        self.table.boards.append(self)

    def _open(self) -> Controller:
        controller = open_controller(
            self.config, self.storage, self.game, say=lambda _: None, sync=True
        )  # the computer thinks at once, on the virtual clock
        if self.remote is not None:
            remote = Remote.configured(self.remote, self.config, clock=lambda: self.now_ms / 1000)
            remote.wakes(_Waker(self))
            controller.opponent = remote
            self._say(topics.ONLINE)  # connected, as the daemon says it
        return controller

    def _say(self, availability: str) -> None:
        """The board's availability, retained, as the daemon says it on its broker."""
        if self.remote is not None:
            self.remote.publish(
                topics.availability_topic(self.config.mqtt.board_id), availability, retain=True
            )

    # -------------------------------------------------------------------- time
    @property
    def now_ms(self) -> float:
        return self.table.now_ms

    def scan(self, now: float) -> None:
        """One scan of the simulated board stepped through the controller at ``now`` ms."""
        reading, presses = self.sim.scan(), self.sim.buttons.events()
        self.woke = False
        for channel in sorted(reading.closed ^ self._read):
            site = self.controller.layout.site_of_sensor(channel)
            self.lines.append({"t": now, "site": site, "on": channel in reading.closed})
        self._read = reading.closed
        self.lines += [{"t": now, "button": p.button, **({"long": True} if p.long else {})} for p in presses]
        events = self.controller.step(now, reading, presses)
        if self.speaker is not None:  # what the daemon's loop says after each step
            events += self.speaker.step(now, self.controller, events, presses)
        self.events += events
        if any(e["event"] == "new_game" for e in events):  # read from the pieces a settle later
            self.acted_at = now  # (the other board's new game too): waited for as a hand's change
        self.said = bool(events)
        self._lit = self._lines = None
        if events or self.controller.frame_version != self._frame_version:
            self._frame_version = self.controller.frame_version
            self.changed_at = now

    def run(self, ms: float) -> None:
        """Let ``ms`` pass (every board at the table scanning)."""
        self.table.run_until(self.now_ms + ms)

    def settle(self) -> bool:
        """Wait as a player waits for the lights: until the board has had the settle time since
        the last hand action (or new game: the board reads the pieces once they settle) and the
        lights and screen have stopped changing; False if they still change after
        :data:`SETTLE_CAP_MS`."""
        begin, settle_ms = self.now_ms, self.config.timing.settle_ms
        while True:
            self.table.run_until(max(self.now_ms, self.acted_at + settle_ms + 2 * STILL_MS))
            if self.now_ms - self.changed_at >= STILL_MS and self.sim.quiet:
                return True
            if self.now_ms - begin > SETTLE_CAP_MS:
                return False
            self.run(self.table.period_ms)

    # ------------------------------------------------------------------ hands
    def _channel(self, site: str) -> int:
        return self.controller.layout.sensor[site]

    def _acted(self) -> None:
        """A hand, a button or a command: a waiting loop wakes and scans at once (a scanning
        one keeps its pace: a wake-up must not hurry the debounce count)."""
        self.acted_at = self.now_ms
        if self.waiting:
            self.due, self.waiting = self.now_ms, 0.0
        self._lit = self._lines = None

    def woken(self) -> None:
        """The loop's waker set (the paired board's message, news to publish): a waiting board
        scans at once; one woken during its scan does not wait after it."""
        self.woke = True
        if self.waiting:
            self.due, self.waiting = self.now_ms, 0.0

    def place(self, site: str) -> None:
        self.sim.place(self._channel(site))
        self._acted()

    def lift(self, site: str) -> None:
        self.sim.lift(self._channel(site))
        self._acted()

    def hover(self, site: str, seconds: float) -> None:
        """A hand passing over ``site`` (it reads closed meanwhile)."""
        self.sim.hover(self._channel(site), seconds)
        self._acted()

    def slide(self, path: tuple[str, ...], seconds_per_site: float) -> None:
        """The piece on ``path[0]`` slid across ``path`` to its last site."""
        self.sim.slide([self._channel(s) for s in path], step=seconds_per_site)
        self._acted()
        self.acted_at += 1000 * seconds_per_site * len(path)

    def press(self, button: str, long: bool = False) -> None:
        self.sim.buttons.press(button, long)
        self._acted()

    def occupied(self) -> frozenset[str]:
        """The sites holding a piece (what stands on the board, not what the sensors read)."""
        return self.controller.layout.sites_of(self.sim.pieces())

    # ------------------------------------------------------------------ what it shows
    def lit(self) -> dict[str, str]:
        """Site -> the kind of light it shows (``extra`` reads as ``remove``: they look alike);
        read once per step."""
        if self._lit is None:
            self._lit = self._read_lights()
        return dict(self._lit)

    def _read_lights(self) -> dict[str, str]:
        brightness = self.config.leds.get("brightness", 1.0)
        by_led = {ch: site for site, ch in self.controller.layout.led.items()}
        out = {}
        for channel, led in self.controller.frame().items():
            kind = light_kind(led, brightness)
            if kind is not None and channel in by_led:
                out[by_led[channel]] = kind
        return out

    def screen(self) -> tuple[str, ...]:
        """The OLED's text now, one string per line (read once per step)."""
        if self._lines is None:
            self._lines = self.controller.screen().text_lines()
        return self._lines

    # ------------------------------------------------------------------ the game
    def held(self) -> tuple[str, ...]:
        """The moves of the game the controller holds."""
        return tuple(self.controller.moves)

    def position(self) -> GameState:
        """The engine's position of the game the controller holds."""
        return self.controller.state

    def game_id(self) -> int:
        return self.controller.game_id

    def token(self) -> str:
        """The token naming the game a paired board plays ("" until the pair agrees on one)."""
        return self.controller.record.token

    def stored(self) -> tuple[str, ...] | None:
        """The moves saved for the game the controller holds (None: no such game saved)."""
        games = self.storage.games(self.controller.game_id)
        return games[0].moves if games else None

    def seated(self) -> tuple[tuple[str, ...], League | None]:
        """The players and the league round the stored game keeps (a games file's record)."""
        games = self.storage.games(self.controller.game_id)
        return (read_players(games[0].players), League.read(games[0].league)) if games else ((), None)

    def clocks(self) -> Clocks | None:
        """The game clocks as they stand (None: no clock)."""
        return self.controller.clock.clocks

    def timed_out(self) -> bool:
        """The game ended on a flag (a casual game goes on after one)."""
        clocks = self.clocks()
        return clocks is not None and clocks.flag is not None and self.controller.record.over

    def computer(self) -> str | None:
        """The side the computer plays now (None: nobody; the other board is no computer)."""
        opponent = self.controller.opponent
        if isinstance(opponent, Computer):
            return opponent.side_in(self.controller.state)
        return None

    def remote_side(self) -> str | None:
        """The side the other board plays (None: not paired)."""
        opponent = self.controller.opponent
        return opponent.side_in(self.controller.state) if isinstance(opponent, Remote) else None

    # ------------------------------------------------------------------ commands
    def command(self, name: str, side: str | None = None, **fields: Any) -> None:
        """What the page or the café network sends: ``takeback``, ``new_game``, ``players``
        (the computer plays ``side``; None: nobody), or the café's JSON message of the
        command ``name`` with ``fields`` (``cafe``: ``{"command": "players", "names": [...]}``,
        ``{"command": "table", ...}``, read as docs/cafe.md says the board reads it)."""
        line: dict[str, Any] = {"t": self.now_ms, "command": name}
        c = self.controller
        if fields:
            line.update(fields)
            c.command(cafe_command({"command": name, **fields}))
        elif name == "takeback":
            c.command(TakeBack())
        elif name == "new_game":
            g = c.game
            c.command(NewGame(g.name, g.size, g.variant or "", g.match))
        elif name == "players":
            line["side"] = side
            c.command(SetPlayers(side, 1))
        else:
            raise ValueError(f"unknown command {name!r}")
        self.lines.append(line)
        self._acted()

    def restart(self) -> None:
        """The daemon restarted: a new controller from the same database; the pieces, the
        table and the clock stay as they are."""
        self.lines.append({"t": self.now_ms, "restart": True})
        self.restarts.append(len(self.events))
        self.off, self.due = False, self.now_ms
        if self.controller.opponent is not None:
            self.controller.opponent.close()
        self.storage.close()
        self.storage = Storage(self.path)
        self.controller = self._open()
        self._frame_version = -1
        self._acted()

    def power_off(self) -> None:
        """The daemon stops (a power cut): the board is no longer scanned and its connection
        is gone (the broker keeps what it published), until it starts again (:meth:`restart`)."""
        self.off, self.due = True, math.inf
        if isinstance(self.remote, BusLink):
            self.remote.drop()
        self._say(topics.OFFLINE)  # the broker's last will for it

    def close(self) -> None:
        if self.controller.opponent is not None:
            self.controller.opponent.close()
        self.storage.close()
        for suffix in ("", "-wal", "-shm", ".layout.toml"):
            if os.path.exists(self.path + suffix):
                os.unlink(self.path + suffix)

    # ------------------------------------------------------------------ the stream
    @classmethod
    def replay(cls, text: str, computer: str | None = None) -> "BoardUnderTest":
        """A board that played the stream ``text`` (as :meth:`dump` writes it; the board set
        up empty, pieces placed as the scans read them; ``computer``: the configured one)."""
        lines = [json.loads(line) for line in text.splitlines() if line.strip()]
        setup = lines.pop(0)
        game = Game.of(setup["game"], setup.get("size"), setup.get("variant"))
        board = cls(game, computer=computer)
        for site in board.occupied():
            board.sim.lift(board._channel(site))
        for line in lines:
            board.table.run_until(line["t"])
            if "site" in line:
                (board.place if line["on"] else board.lift)(line["site"])
            elif "button" in line:
                board.press(line["button"], line.get("long", False))
            elif "command" in line:
                fields = {k: v for k, v in line.items() if k not in ("t", "command", "side")}
                board.command(line["command"], line.get("side"), **fields)
            elif line.get("restart"):
                board.restart()
        board.run(board.table.period_ms)
        return board

    def dump(self) -> str:
        """What this board's scans read and its buttons, as ``reedboard replay`` lines (the
        setup names the game; robot-only lines: ``command``, ``restart``), up to now."""
        lines = [self.setup, *self.lines, {"t": self.now_ms}]
        return "".join(json.dumps(line) + "\n" for line in lines)
