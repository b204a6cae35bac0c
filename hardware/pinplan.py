"""The pins a whole build takes (scanner, LEDs, OLED, buttons) and whether they fit: a matrix
is given the pins the other parts leave free, and a build that needs more pins than its
controller has is told which part to add instead (``reedboard plan``, docs/build.md).

>>> others = control_wires({}, {})
>>> sorted(w.pin for w in others)
[2, 3, 17, 22, 27]
>>> options = fit_scanner({"backend": "gpio-matrix"}, 20, others)
>>> options["rows"], options["columns"]
([5, 6, 12, 13], [16, 19, 20, 21, 26])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from hardware.wiring import I2C1, MCP_ADDRESSES, MEGA_USABLE, PI, SPI0, Wire, near_square, pin_name

#: The Pi's GPIO pins on its 40-pin header: GPIO 2 to 27 (0 and 1 are the HAT's ID EEPROM's).
PI_GPIO = tuple(range(2, 28))
#: The order a matrix is given the Pi's free pins: plain GPIOs first, SPI and UART pins last.
MATRIX_ORDER = (
    5,
    6,
    12,
    13,
    16,
    19,
    20,
    21,
    26,
    4,
    23,
    24,
    25,
    7,
    8,
    9,
    10,
    11,
    14,
    15,
    17,
    27,
    22,
    18,
    2,
    3,
)
#: The buttons' pins when the config names none.
DEFAULT_BUTTONS = {"ok": 17, "back": 27, "menu": 22}


def control_wires(display: dict[str, Any], buttons: dict[str, Any]) -> list[Wire]:
    """The Pi's wires to the OLED (on I2C) and the three buttons (the config's pins, else
    :data:`DEFAULT_BUTTONS`)."""
    pins = (
        {name: buttons.get(name, pin) for name, pin in DEFAULT_BUTTONS.items()}
        if buttons.get("backend") == "gpio"
        else DEFAULT_BUTTONS
    )
    wires = [Wire(PI, I2C1["SDA"], "SDA (I2C)", True), Wire(PI, I2C1["SCL"], "SCL (I2C)", True)]
    return wires + [
        Wire(PI, int(pin), f"button {name.upper()}") for name, pin in pins.items() if isinstance(pin, int)
    ]


def free_pins(taken: list[Wire]) -> list[int]:
    """The Pi's pins no wire in ``taken`` uses, in :data:`MATRIX_ORDER`."""
    used = {w.pin for w in taken if w.host == PI}
    return [p for p in MATRIX_ORDER if p not in used]


def expander_rows(channels: int, free: int) -> int | None:
    """The fewest rows on the Pi (at most ``free``) for MCP23017s as a matrix's columns, with
    the fewest chips; None when eight chips are too few.

    >>> expander_rows(128, 20), expander_rows(800, 20), expander_rows(5000, 20)
    (8, 17, None)
    """
    for chips in range(1, len(MCP_ADDRESSES) + 1):
        rows = math.ceil(channels / (16 * chips))
        if rows <= free:
            return rows
    return None


def fit_scanner(options: dict[str, Any], channels: int, others: list[Wire]) -> dict[str, Any]:
    """``options`` with the pins a plan chooses where the config names none: a GPIO matrix's
    rows and columns from the pins ``others`` leave free (when they are enough), the rows of
    MCP23017s that eight chips' inputs alone cannot hold, a 74HC165 chain's latch and chip
    select (CE1 when the LEDs have CE0)."""
    backend, free = options.get("backend"), free_pins(others)
    if backend == "gpio-matrix" and not (options.get("rows") and options.get("columns")):
        r, c = near_square(channels)
        if r + c <= len(free):
            return {**options, "rows": free[:r], "columns": free[r : r + c]}
    if (
        backend == "mcp23017"
        and not options.get("rows")
        and not options.get("addresses")
        and channels > 16 * len(MCP_ADDRESSES)
    ):
        rows = expander_rows(channels, len(free))
        if rows:
            return {**options, "rows": free[:rows]}
    if backend == "74hc165":
        taken = {w.pin for w in others if w.host == PI}
        if "latch" not in options:
            options = {**options, "latch": 25 if 25 in free else free[0]}
        if "spi_device" not in options and SPI0["CE0"] in taken:
            options = {**options, "spi_device": 1}  # CE0 is the LEDs' chip select
    return options


@dataclass
class Budget:
    """The pins a build takes on one controller: pin -> what uses it; ``usable`` how many it
    has; ``problems`` (too many, one pin for two things) and ``advice`` (what to add)."""

    host: str
    usable: int
    used: dict[int, list[str]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    advice: list[str] = field(default_factory=list)

    #: Pins a part needs that it has not been given (a matrix too large for the free pins).
    wanted: int = 0

    @property
    def fits(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        """The budget as the parts list prints it: a line per kind of wire, in wiring order.

        >>> b = Budget(PI, 26, {5: ["row 0"], 6: ["row 1"], 2: ["SDA (I2C)", "OLED"]})
        >>> b.lines()
        ['Raspberry Pi: 3 of 26 pins', '  rows 0-1: GPIO 5, 6', '  SDA (I2C); OLED: GPIO 2']
        """
        head = f"{self.host}: {len(self.used) + self.wanted} of {self.usable} pins"
        groups: dict[str, list[tuple[int, int]]] = {}
        for pin, what in self.used.items():
            word, _, number = what[0].partition(" ")
            if word in ("row", "column") and number.isdecimal():
                groups.setdefault(word + "s", []).append((int(number), pin))
            else:
                groups.setdefault("; ".join(what), []).append((-1, pin))
        body = []
        for kind, pins in groups.items():
            numbers = [n for n, _ in pins]
            span = f" {min(numbers)}-{max(numbers)}" if numbers[0] >= 0 else ""
            names = [pin_name(self.host, p) for _, p in pins]
            first, *rest = names
            prefix = first.split(" ")[0] + " " if " " in first else ""
            body.append(f"  {kind}{span}: {', '.join([first, *(n.removeprefix(prefix) for n in rest)])}")
        return [
            head + ("" if self.fits else " - DOES NOT FIT"),
            *body,
            *(f"  ! {p}" for p in self.problems),
            *(f"  -> {a}" for a in self.advice),
        ]


def budgets(wires: list[Wire], needed: dict[str, int]) -> list[Budget]:
    """The pin budget of every controller the ``wires`` go to, with the pins a part still
    needs and has none yet (``needed``: what -> pins, e.g. a matrix too large to be given
    pins) counted against it."""
    found: dict[str, Budget] = {}
    for host in dict.fromkeys([PI, *(w.host for w in wires)]):
        found[host] = Budget(host, len(PI_GPIO) if host == PI else MEGA_USABLE)
    for wire in wires:
        budget = found[wire.host]
        users = budget.used.setdefault(wire.pin, [])
        if users and not wire.bus:
            budget.problems.append(
                f"{pin_name(wire.host, wire.pin)} is wired to both {users[0]} and {wire.what}"
            )
        if wire.what not in users:
            users.append(wire.what)
    pi = found[PI]
    extra = pi.wanted = sum(needed.values())
    if len(pi.used) + extra > pi.usable:
        what = ", ".join(f"{n} for the {w}" for w, n in needed.items())
        pi.problems.append(
            f"{len(pi.used) + extra} pins needed ({len(pi.used)} wired, {what}), and the Pi has {pi.usable}"
        )
    return list(found.values())


def matrix_advice(channels: int, free: list[int]) -> list[str]:
    """What to add when a GPIO matrix of ``channels`` switches needs more pins than are
    ``free``: MCP23017s for its columns (the rows on the Pi), or a 74HC165 chain.

    >>> print(matrix_advice(128, [5, 6, 12, 13, 16, 19, 20, 21, 26])[0])
    ... # doctest: +NORMALIZE_WHITESPACE
    add an MCP23017: 8 rows on the Pi, the columns on its inputs
    ([sensors] backend = "mcp23017", rows = [5, 6, 12, 13, 16, 19, 20, 21])
    """
    advice = []
    rows = expander_rows(channels, len(free))
    if rows:
        chips = math.ceil(math.ceil(channels / rows) / 16)
        advice.append(
            f"add {'an MCP23017' if chips == 1 else f'{chips} MCP23017s'}: {rows} rows "
            f"on the Pi, the columns on {'its' if chips == 1 else 'their'} inputs "
            f'([sensors] backend = "mcp23017", rows = {free[:rows]})'
        )
    advice.append(f"or a 74HC165 chain: {math.ceil(channels / 8)} registers on 4 pins (--scanner 74hc165)")
    return advice
