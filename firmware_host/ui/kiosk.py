"""Kiosk mode's idle spells. After ``idle_minutes`` with no change on the board and no button
pressed, the board dims: its lights give way to a slow, dim pulse wave rolling across the sites
and the screen shows today's games; the game is kept. Any board change or button ends the spell
at once and the game's lights come back (a button that wakes the board does nothing else).

Until a move is played after a spell the game counts as *stale*: a board put back in the start
position then starts a new game of the same kind, where it would otherwise take moves back or be
out of sync. The controller asks :class:`Idle` at each step; no clock of its own.

>>> from firmware_host.ui.screens import message_screen
>>> idle = Idle(60_000, lambda: message_screen("Today"))
>>> idle.tick(0, []), idle.tick(59_990, []), idle.tick(60_000, []), idle.stale
(None, None, 'attract', True)
>>> idle.tick(60_150, []), idle.tick(60_200, [])
(None, 'frame')
>>> idle.activity(60_220), idle.attracting, idle.stale
(True, False, True)
>>> idle.tick(61_000, [{"event": "move"}]), idle.stale
(None, False)
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable, Mapping, NamedTuple, Sequence

from engines.core import Site
from firmware_host.ui.screens import Screen
from hardware.base import Led

#: One pulse passes each site every WAVE_MS; corner to corner is SPREAD of a wavelength, so a
#: single bright band rolls across the board.
WAVE_MS = 6000
SPREAD = 0.8
#: A new animation frame every FRAME_MS (the LED sink animates nothing itself here). With only
#: the crest lit (half the sites) an 800-site board sends ~10 kB/s over a serial LED link.
FRAME_MS = 200
#: The wave's brightest point, as a share of the board's LED brightness, and its colour.
PEAK = 0.3
COLOUR = (255, 170, 70)
#: Brightness steps of the wave: few, so most frames repeat what most LEDs already show. Only
#: the upper half of them light: a band rolls across a dark board.
STEPS = 12
DARK_BELOW = STEPS // 2

#: Events after which the game is no longer stale (someone is playing it again).
PLAYING = frozenset({"move", "takeback", "new_game"})


class Idle:
    """Idle tracking for one board: ``idle_ms`` without activity starts the attract animation.
    ``screen`` gives what the OLED shows during a spell (built when the spell begins)."""

    def __init__(self, idle_ms: float, screen: Callable[[], Screen]) -> None:
        self.idle_ms = idle_ms
        self.attracting = False
        self.stale = False
        self.screen: Screen | None = None
        self._make_screen = screen
        self._last: float | None = None
        self._frame_at = 0.0
        self._phases: tuple[object, tuple[tuple[int, float], ...]] | None = None

    def activity(self, now: float) -> bool:
        """A board change or a button press at ``now``; True if it ended an idle spell."""
        self._last = now
        woke, self.attracting = self.attracting, False
        return woke

    def due(self, now: float) -> float:
        """Milliseconds from ``now`` until :meth:`tick` has something to do (a loop that waits
        for news wakes by then).

        >>> idle = Idle(60_000, lambda: None)
        >>> _ = idle.activity(1000)
        >>> idle.due(1000), idle.due(70_000)
        (60000, 0.0)
        """
        if self._last is None:
            return 0.0
        at = self._frame_at + FRAME_MS if self.attracting else self._last + self.idle_ms
        return max(0.0, at - now)

    def tick(self, now: float, events: Sequence[Mapping[str, object]]) -> str | None:
        """One controller step at ``now`` with the events it produced so far: "attract" when an
        idle spell begins, "frame" when its animation moves on, else None."""
        if any(event["event"] in PLAYING for event in events):
            self.stale = False
        if self._last is None:
            self._last = now
        if self.attracting:
            if now - self._frame_at < FRAME_MS:
                return None
            self._frame_at = now
            return "frame"
        if now - self._last < self.idle_ms:
            return None
        self.attracting = self.stale = True
        self._frame_at = now
        self.screen = self._make_screen()
        return "attract"

    def spell(self, sites: Sequence[Site], led: Mapping[str, int]) -> Spell | None:
        """The idle spell under way as a value (None: none), its wave laid over ``sites``."""
        if not self.attracting:
            return None
        return Spell(self.screen, self._frame_at, self._site_phases(sites, led))

    def _site_phases(self, sites: Sequence[Site], led: Mapping[str, int]) -> tuple[tuple[int, float], ...]:
        """(LED channel, where its site lies along the wave, 0..1), cached per layout."""
        if self._phases is None or self._phases[0] is not led:
            spots = {led[s.label]: s.x + s.y for s in sites if s.label in led}
            low, high = min(spots.values(), default=0), max(spots.values(), default=0)
            span = (high - low) or 1
            self._phases = (led, tuple((ch, SPREAD * (d - low) / span) for ch, d in spots.items()))
        return self._phases[1]


class Spell(NamedTuple):
    """An idle spell at one moment: the ``screen`` shown, the time of the animation's frame
    (``at``, ms) and where each LED channel lies along the wave (``phases``)."""

    screen: Screen | None
    at: float
    phases: tuple[tuple[int, float], ...]

    def frame(self, brightness: float) -> dict[int, Led]:
        """The dim pulse wave rolling diagonally over the sites (LED channel -> colour; dark
        channels left out).

        >>> wave = Spell(None, 0.0, ((0, 0.0), (1, 0.5)))
        >>> sorted(wave.frame(1.0)), sorted(Spell(None, WAVE_MS / 2, wave.phases).frame(1.0))
        ([1], [0])
        """
        lights = _lights(brightness)
        frame = {}
        for channel, phase in self.phases:
            wave = 0.5 - 0.5 * math.cos(2 * math.pi * (self.at / WAVE_MS - phase))
            light = lights[round(wave * STEPS)]
            if light is not None:
                frame[channel] = light
        return frame


@lru_cache(maxsize=4)
def _lights(brightness: float) -> tuple[Led | None, ...]:
    """The wave's light at each of its STEPS + 1 levels (None: dark)."""
    lights = []
    for step in range(STEPS + 1):
        level = (step - DARK_BELOW) / (STEPS - DARK_BELOW) * PEAK * brightness
        red, green, blue = (round(c * level) for c in COLOUR)
        lights.append(Led((red, green, blue)) if step > DARK_BELOW and (red or green or blue) else None)
    return tuple(lights)
