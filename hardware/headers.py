"""The pin headers a wiring sheet draws: the Raspberry Pi's 40-pin header and the Arduino
Mega's connectors, as blocks of rows of pins (a row holds one pin or two side by side).

A pin is ``(name, number, place)``: the number is the pin a :class:`~hardware.wiring.Wire`
names (the Pi's BCM number, the Arduino's pin number), None for power and ground.

>>> pi = header("Raspberry Pi")
>>> pi.blocks[0][1]
(('GPIO 2', 2, 3), ('5 V', None, 4))
>>> sum(len(row) for block in header("Arduino Mega 2560").blocks for row in block)
70
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.wiring import MEGA, PI, pin_name

#: The Pi's header, physical pin 1 to 40: a BCM number or a power pin's name.
PI_PINS: tuple[int | str, ...] = (
    "3.3 V",
    "5 V",
    2,
    "5 V",
    3,
    "GND",
    4,
    14,
    "GND",
    15,
    17,
    18,
    27,
    "GND",
    22,
    23,
    "3.3 V",
    24,
    10,
    "GND",
    9,
    25,
    11,
    8,
    "GND",
    7,
    0,
    1,
    5,
    "GND",
    6,
    12,
    13,
    "GND",
    19,
    16,
    26,
    20,
    "GND",
    21,
)

#: A pin: its name, its number (None: power) and its place on the connector (the Pi's
#: physical pin number; the Arduino's is its name).
Pin = tuple[str, int | None, int]


@dataclass(frozen=True)
class Header:
    """A controller's pins as drawn: ``blocks`` side by side, each a column of rows."""

    title: str
    blocks: tuple[tuple[tuple[Pin, ...], ...], ...]
    note: str
    #: True when a pin's place is a number to print beside its name (the Pi's pin 1 to 40).
    numbered: bool = False


def _pi_pin(physical: int) -> Pin:
    value = PI_PINS[physical - 1]
    return (value, None, physical) if isinstance(value, str) else (f"GPIO {value}", value, physical)


def _mega_pin(n: int) -> Pin:
    return pin_name(MEGA, n), n, n


def header(host: str) -> Header:
    """The pins of ``host`` (:data:`~hardware.wiring.PI` or :data:`~hardware.wiring.MEGA`)."""
    if host == PI:
        # Seen from above, the header at the board's top edge turned upright: odd pins on the
        # left, even pins on the right, pin 1 at the top.
        rows = tuple((_pi_pin(2 * i + 1), _pi_pin(2 * i + 2)) for i in range(20))
        return Header(PI, (rows,), "pin 1 (3.3 V) is the square pad, at the SD card's end", True)
    single = tuple((_mega_pin(n),) for n in range(0, 22))
    double = tuple((_mega_pin(n), _mega_pin(n + 1)) for n in range(22, 54, 2))
    analog = tuple((_mega_pin(n),) for n in range(54, 70))
    return Header(
        MEGA,
        (single, double, analog),
        "D0-D21 along the top edge, D22-D53 the double row at the end, A0-A15 along the bottom edge",
    )
