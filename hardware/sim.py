"""The simulated board: sensors, LEDs, display and buttons in memory.

The same daemon code runs on it as on a Pi. Tests and ``reedboard replay`` drive it on a virtual
clock; the simulator page drives it on the wall clock.

>>> board = SimBoard(channels=8)
>>> board.place(3); board.place(5); board.lift(3)
>>> sorted(board.scan().closed)
[5]
>>> board.buttons.press("ok"); board.buttons.events()
[ButtonEvent(button='ok', long=False)]

``place``/``lift``/``flip`` change the board at once. Realistic noise comes on request, timed
by the board's clock and reproducible from a seed: contact bounce around every change
(:class:`Noise`), a piece slid across several sites (:meth:`SimBoard.slide`), a hand hovering
(:meth:`SimBoard.hover`, or at random), a missed read, and ghosting on a diode-less matrix:

>>> from hardware.clock import VirtualClock
>>> clock = VirtualClock()
>>> board = SimBoard(channels=16, clock=clock, columns=4, diodes=False)
>>> for ch in (0, 1, 4):
...     board.place(ch)
>>> scan = board.scan()
>>> sorted(scan.ambiguous), sorted(scan.closed)
([0, 1, 4, 5], [])
>>> board.lift(4); board.slide([0, 2, 3], step=0.02)
>>> readings = []
>>> for _ in range(4):
...     clock.advance(0.01); readings.append(sorted(board.scan().closed))
>>> readings
[[0, 1], [1, 2], [1, 2], [1, 3]]
"""

from __future__ import annotations

import heapq
import itertools
import random
import threading
from collections import deque
from typing import TYPE_CHECKING, Callable, Mapping, NamedTuple, Sequence

from hardware import patterns
from hardware.base import Led, Scan
from hardware.clock import Clock, wall_clock
from hardware.ghost import ghosted, matrix_scan, to_cells, to_channels
from hardware.simbuttons import SimButtons
from hardware.wake import Waker

if TYPE_CHECKING:
    from PIL import Image


class SimLeds:
    """An LED sink that keeps the last frame it was given, and a short history of frames."""

    def __init__(self, channels: int, clock: Clock = wall_clock, history: int = 256) -> None:
        self.channels = channels
        self.clock = clock
        self.frame: dict[int, Led] = {}
        self.frames_shown = 0
        #: (time, frame) of the most recent frames shown.
        self.history: deque[tuple[float, dict[int, Led]]] = deque(maxlen=history)

    def show(self, frame: Mapping[int, Led]) -> None:
        patterns.check_frame(frame, self.channels)
        self.frame = dict(frame)
        self.frames_shown += 1
        self.history.append((self.clock(), self.frame))

    def rendered(self, t: float | None = None) -> dict[int, tuple[int, int, int]]:
        """Channel -> colour a real chain would show now (blinks and pulses applied)."""
        return patterns.render(self.frame, self.clock() if t is None else t)

    def close(self) -> None:
        self.frame = {}


class SimDisplay:
    """A display that keeps the last image it was given."""

    size = (128, 64)

    def __init__(self) -> None:
        self._image: Image.Image | None = None
        self.images_shown = 0

    @property
    def image(self) -> Image.Image:
        """The last image shown (blank before the first; Pillow loads only when asked)."""
        if self._image is None:
            from PIL import Image

            self._image = Image.new("1", self.size)
        return self._image

    def show(self, image: Image.Image) -> None:
        self._image = image.copy()
        self.images_shown += 1

    def close(self) -> None:
        pass


class Noise(NamedTuple):
    """Noise the simulated sensors add, reproducible from ``seed``.

    ``bounce``: (shortest, longest) chatter in seconds around each place/lift, or None.
    ``missed_read``: chance that one scan drops one closed channel.
    ``hover_rate``: random hand hovers per second over empty sites, each ``hover_time`` long.
    """

    bounce: tuple[float, float] | None = (0.0005, 0.001)
    missed_read: float = 0.0
    hover_rate: float = 0.0
    hover_time: float = 0.03
    seed: int = 0


class _Wired(dict):
    """site -> channel of a wired board; a site it lacks is wired to nothing (None)."""

    def __missing__(self, site: str) -> None:
        return None


class _Blip(NamedTuple):
    """For ``start <= t < end`` the sensor of ``channel`` reads ``closed``."""

    start: float
    end: float
    channel: int
    closed: bool


class SimBoard:
    """Which sensor channels are closed (and, optionally, which face is up), plus simulated
    LEDs, display and buttons. Implements the Scanner interface itself.

    ``clock`` times noise and scheduled actions (the wall clock by default). ``noise`` adds
    :class:`Noise`. ``columns`` and ``diodes=False`` model a diode-less matrix of that many
    columns (channel = row * columns + column), which ghosts. ``wiring``: site -> (sensor
    channel, LED channel) as this board is really wired (a scrambled board, for testing the
    set-up wizard); a site it leaves out has a dead switch and no LED.
    """

    def __init__(
        self,
        channels: int,
        senses_polarity: bool = False,
        *,
        clock: Clock = wall_clock,
        noise: Noise | None = None,
        columns: int | None = None,
        diodes: bool = True,
        leds: int | None = None,
        wiring: Mapping[str, tuple[int, int]] | None = None,
    ) -> None:
        if not diodes and not columns:
            raise ValueError("a diode-less matrix needs its number of columns")
        self.channels = channels
        self.senses_polarity = senses_polarity
        self.clock = clock
        self.noise = noise
        self.columns = columns
        self.diodes = diodes
        self.closed: set[int] = set()
        self.north: dict[int, bool] = {}
        self.leds = SimLeds(channels if leds is None else leds, clock)
        self.display = SimDisplay()
        self.buttons = SimButtons()
        self.scans = 0
        self._rng = random.Random(noise.seed if noise else 0)
        self._blips: list[_Blip] = []
        self._schedule: list[tuple[float, int, Callable[[], object]]] = []
        self._order = itertools.count()
        self._cached: Scan | None = None
        self._last_scan_time: float | None = None
        self._lock = threading.RLock()
        #: Counts changes to which pieces stand where (for watchers that redraw on change).
        self.changes = 0
        self._waker: Waker | None = None
        self.wiring = dict(wiring) if wiring is not None else None
        self._wired = (
            None
            if wiring is None
            else (
                _Wired({site: pair[0] for site, pair in wiring.items()}),
                _Wired({site: pair[1] for site, pair in wiring.items()}),
            )
        )

    def sensors(self, believed: Mapping[str, int]) -> Mapping[str, int | None]:
        """site -> the channel a piece put on it closes: this board's own ``wiring`` when it
        has one (None for a dead switch), else ``believed`` (the layout the daemon uses)."""
        return believed if self._wired is None else self._wired[0]

    def lights(self, believed: Mapping[str, int]) -> Mapping[str, int | None]:
        """site -> the LED channel that lights it, as :meth:`sensors` for the LEDs."""
        return believed if self._wired is None else self._wired[1]

    # -- the instantaneous API ------------------------------------------------------------

    def place(self, channel: int, north: bool = True) -> None:
        self._check(channel)
        with self._lock:
            self._bounce(channel, was_closed=channel in self.closed)
            self.closed.add(channel)
            self.north[channel] = north
            self._changed()

    def lift(self, channel: int) -> None:
        self._check(channel)
        with self._lock:
            self._bounce(channel, was_closed=channel in self.closed)
            self.closed.discard(channel)
            self.north.pop(channel, None)
            self._changed()

    def flip(self, channel: int) -> None:
        with self._lock:
            if channel in self.closed:
                self.north[channel] = not self.north[channel]
                self._changed()

    # -- timed helpers --------------------------------------------------------------------

    def slide(self, path: Sequence[int], step: float = 0.03) -> None:
        """Slide the piece on ``path[0]`` along ``path`` to ``path[-1]``, taking ``step``
        seconds per site; neighbouring sites overlap briefly, as a magnet closes two reeds."""
        for channel in path:
            self._check(channel)
        if len(path) < 2 or path[0] not in self.closed:
            raise ValueError("a slide needs a path of two or more sites from an occupied one")
        with self._lock:
            now, overlap = self.clock(), step / 4
            north = self.north[path[0]]
            self.closed.discard(path[0])
            self.north.pop(path[0], None)
            self.closed.add(path[-1])
            self.north[path[-1]] = north
            self._blips.append(_Blip(now, now + step, path[0], True))
            for i, channel in enumerate(path[1:-1], start=1):
                self._blips.append(_Blip(now + i * step - overlap, now + (i + 1) * step, channel, True))
            arrival = now + (len(path) - 1) * step - overlap
            self._blips.append(_Blip(now, arrival, path[-1], False))
            self._changed()

    def hover(self, channel: int, duration: float = 0.03) -> None:
        """A hand (holding a piece) passes over ``channel``: it reads closed for ``duration``."""
        self._check(channel)
        with self._lock:
            now = self.clock()
            self._blips.append(_Blip(now, now + duration, channel, True))
        self._wake()

    def schedule(self, delay: float, action: Callable[[], object]) -> None:
        """Run ``action`` (e.g. ``lambda: board.place(3)``) at the first scan ``delay`` seconds
        or more from now."""
        with self._lock:
            heapq.heappush(self._schedule, (self.clock() + delay, next(self._order), action))
        self._wake()

    def pieces(self) -> frozenset[int]:
        """The channels that hold a piece (not what a noisy scan reads), safe from any thread."""
        with self._lock:
            return frozenset(self.closed)

    def _changed(self) -> None:
        self._cached = None
        self.changes += 1
        self._wake()

    # -- waking a waiting loop ------------------------------------------------------------

    def wakes(self, waker: Waker) -> None:
        """Set ``waker`` whenever the reading may change (a piece moved, noise scheduled)."""
        self._waker = waker

    @property
    def quiet(self) -> bool:
        """True when the reading cannot change until someone moves a piece: no bounce, slide
        or hover in progress, nothing scheduled, no random noise. Until then scans must go on."""
        with self._lock:
            return not (self._blips or self._schedule or self._random_noise())

    def _wake(self) -> None:
        if self._waker:
            self._waker.set()

    # -- the Scanner interface ------------------------------------------------------------

    def scan(self) -> Scan:
        with self._lock:
            self.scans += 1
            if not (self._blips or self._schedule or self._random_noise()):
                if self._cached is None:
                    self._cached = self._reading(self.closed)
                return self._cached
            return self._noisy_scan(self.clock())

    def close(self) -> None:
        pass

    # -- internals ------------------------------------------------------------------------

    def _random_noise(self) -> bool:
        return bool(self.noise and (self.noise.missed_read or self.noise.hover_rate))

    def _noisy_scan(self, now: float) -> Scan:
        while self._schedule and self._schedule[0][0] <= now:
            heapq.heappop(self._schedule)[2]()
        self._random_hover(now)
        self._blips = [b for b in self._blips if b.end > now]
        sensed = set(self.closed)
        for blip in self._blips:
            if blip.start <= now:
                (sensed.add if blip.closed else sensed.discard)(blip.channel)
        if self.noise and sensed and self._rng.random() < self.noise.missed_read:
            sensed.discard(self._rng.choice(sorted(sensed)))
        return self._reading(sensed)

    def _random_hover(self, now: float) -> None:
        last, self._last_scan_time = self._last_scan_time, now
        if not (self.noise and self.noise.hover_rate) or last is None:
            return
        if self._rng.random() < self.noise.hover_rate * (now - last):
            channel = self._rng.randrange(self.channels)
            self._blips.append(_Blip(now, now + self.noise.hover_time, channel, True))

    def _bounce(self, channel: int, was_closed: bool) -> None:
        """Chatter: within a short window after the change the old state flickers back."""
        if not (self.noise and self.noise.bounce):
            return
        now = self.clock()
        window = self._rng.uniform(*self.noise.bounce)
        cuts = sorted(self._rng.uniform(0, window) for _ in range(2 * self._rng.randint(1, 3)))
        for start, end in zip(cuts[::2], cuts[1::2]):
            self._blips.append(_Blip(now + start, now + end, channel, was_closed))

    def _reading(self, sensed: set[int]) -> Scan:
        polarity = None
        if self.senses_polarity:
            polarity = {c: self.north.get(c, True) for c in sensed}
        if self.diodes:
            return Scan(frozenset(sensed), polarity=polarity)
        assert self.columns
        reading = to_channels(ghosted(to_cells(sensed, self.columns)), self.columns)
        return matrix_scan(reading, self.columns, diodes=False, polarity=polarity)

    def _check(self, channel: int) -> None:
        if not 0 <= channel < self.channels:
            raise ValueError(f"no sensor channel {channel} (board has {self.channels})")
