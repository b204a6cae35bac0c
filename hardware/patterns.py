"""How each LED pattern looks over time, shared by every sink (and the simulator page).

``level(pattern, t)`` is the brightness factor (0..1) at time ``t`` seconds. Colour sinks use
it directly: steady, slow blink (1 Hz), fast blink (4 Hz), pulse (a smooth 0.5 Hz swell).
Monochrome sinks (MAX7219 has one global intensity) cannot dim single LEDs, so they use
``on(pattern, t)``: the pulse becomes a double flash, still unlike the three others.

>>> [level("slow", t) for t in (0.1, 0.6)]
[1.0, 0.0]
>>> [on("pulse", t) for t in (0.05, 0.15, 0.25, 0.35, 0.6)]
[True, False, True, False, False]
"""

from __future__ import annotations

import math
from typing import Mapping

from hardware.base import PATTERNS, Led

Rgb = tuple[int, int, int]

#: Square-wave periods (seconds) of the blinking patterns.
PERIODS = {"slow": 1.0, "fast": 0.25}
PULSE_PERIOD = 2.0
#: Lowest brightness factor of the pulse (it never goes dark, unlike a blink).
PULSE_FLOOR = 0.08


def check_pattern(pattern: str) -> None:
    if pattern not in PATTERNS:
        raise ValueError(f"unknown LED pattern {pattern!r} (one of {', '.join(PATTERNS)})")


def check_frame(frame: Mapping[int, Led], channels: int) -> None:
    """ValueError naming the first LED a sink with ``channels`` LEDs cannot show."""
    for channel, led in frame.items():
        if not 0 <= channel < channels:
            raise ValueError(f"no LED channel {channel} (this sink has {channels})")
        check_pattern(led.pattern)
        if len(led.colour) != 3 or not all(0 <= v <= 255 for v in led.colour):
            raise ValueError(f"LED {channel}: colour {led.colour!r} is not three values 0-255")


def level(pattern: str, t: float) -> float:
    """Brightness factor 0..1 of ``pattern`` at time ``t``."""
    if pattern == "steady":
        return 1.0
    if pattern == "pulse":
        swell = 0.5 - 0.5 * math.cos(2 * math.pi * (t % PULSE_PERIOD) / PULSE_PERIOD)
        return PULSE_FLOOR + (1 - PULSE_FLOOR) * swell
    return 1.0 if (t % PERIODS[pattern]) < PERIODS[pattern] / 2 else 0.0


def on(pattern: str, t: float) -> bool:
    """Whether a monochrome LED showing ``pattern`` is lit at time ``t``."""
    if pattern == "pulse":  # double flash: on 0-0.1 s and 0.2-0.3 s of each second
        phase = t % 1.0
        return phase < 0.1 or 0.2 <= phase < 0.3
    return level(pattern, t) > 0.5


def render(frame: Mapping[int, Led], t: float) -> dict[int, Rgb]:
    """Channel -> colour actually shown at time ``t`` (dark channels left out)."""
    out: dict[int, Rgb] = {}
    for channel, led in frame.items():
        k = level(led.pattern, t)
        if k > 0:
            r, g, b = led.colour
            out[channel] = (round(r * k), round(g * k), round(b * k))
    return out


def render_mono(frame: Mapping[int, Led], t: float) -> set[int]:
    """The lit channels of a monochrome sink at time ``t`` (black counts as off)."""
    return {ch for ch, led in frame.items() if any(led.colour) and on(led.pattern, t)}


def next_change(frame: Mapping[int, Led], t: float, fps: float) -> float:
    """When the rendering of ``frame`` next changes after ``t``: the next blink edge, or the
    next animation tick while something pulses; infinity when everything is steady."""
    patterns = {led.pattern for led in frame.values()}
    if "pulse" in patterns:
        return t + 1 / fps
    edges = [(math.floor(t / (PERIODS[p] / 2)) + 1) * (PERIODS[p] / 2) for p in patterns if p in PERIODS]
    return min(edges, default=math.inf)
