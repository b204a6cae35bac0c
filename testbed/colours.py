"""Colours as colour-blind people see them, for the tests of the page's and the café's palettes:
Machado, Oliveira and Fernandes (2009) simulations of protanopia and deuteranopia, and CIE76
distances between the colours seen.

>>> round(distance("#ffffff", "#000000"))
100
"""

from __future__ import annotations

import math

#: Machado, Oliveira and Fernandes (2009), severity 1.0, on linear sRGB.
SIMULATIONS = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
}

#: The least distance two colours that mean different things keep apart.
APART = 40


def seen(hex_colour: str, vision: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of "#rrggbb" as a person with ``vision`` sees it.

    >>> [round(v) for v in seen("#ffffff", "deuteranopia")]
    [100, 0, 0]
    """

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    rgb = [linear(int(hex_colour[i : i + 2], 16) / 255) for i in (1, 3, 5)]
    r, g, b = (min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in SIMULATIONS[vision])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def distance(a: str, b: str) -> float:
    """The smallest CIE76 distance between two colours under normal vision, protanopia and
    deuteranopia (simulated)."""
    return min(math.dist(seen(a, v), seen(b, v)) for v in SIMULATIONS)
