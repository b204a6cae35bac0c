"""Where each channel is wired and what parts a scanner or LED chain takes, for printed plans
(``reedboard plan``): the chip knowledge stays in this layer.

A scanner table is the config's ``[sensors]`` table (or just its ``backend``: the sizes then
follow from the number of channels the board needs).

>>> plan = scanner_plan({"backend": "74hc165"}, 20)
>>> plan.capacity, plan.terminal(9), plan.terminal(9, long=True)
(24, 'U1.B', 'register U1 (2nd from the Pi), input B (pin 12)')
>>> plan = scanner_plan({"backend": "gpio-matrix"}, 10)
>>> plan.title, plan.terminal(5)
('GPIO matrix: 3 rows x 4 columns, a diode per switch', 'R1C1')
>>> [p.count for p in scanner_plan({"backend": "mcp23017"}, 20).parts]  # chips, capacitors
[2, 2]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from hardware.backends import HardwareOptionError

#: The 74HC165's parallel inputs, A..H, and their pins on the DIP/SOIC package.
HC165_PINS = dict(zip("ABCDEFGH", (11, 12, 13, 14, 3, 4, 5, 6)))
#: An MCP23017's inputs: GPA0..7 are 0..7, GPB0..7 8..15; the pins of the DIP package.
MCP_PINS = {**{f"A{i}": 21 + i for i in range(8)}, **{f"B{i}": 1 + i for i in range(8)}}
#: Addresses an MCP23017 can take (A2 A1 A0 strapped), so at most eight chips on one bus.
MCP_ADDRESSES = tuple(range(0x20, 0x28))


@dataclass(frozen=True)
class Part:
    count: int
    name: str
    note: str = ""

    def line(self) -> str:
        return f"{self.count} x {self.name}" + (f" ({self.note})" if self.note else "")


@dataclass
class WiringPlan:
    """How a part's channels are wired: ``title``, how many channels it has, each channel's
    terminal (short, for the drawing; long, for the wiring sheet), its parts and notes."""

    title: str
    capacity: int
    short: Callable[[int], str]
    long: Callable[[int], str]
    parts: list[Part] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def terminal(self, channel: int, long: bool = False) -> str:
        return (self.long if long else self.short)(channel)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _pin(pins: list | None, i: int) -> str:
    return f" (GPIO {pins[i]})" if pins else ""


def _near_square(channels: int) -> tuple[int, int]:
    columns = max(1, math.ceil(math.sqrt(channels)))
    return math.ceil(channels / columns), columns


def _matrix(opt: dict, channels: int) -> WiringPlan:
    rows, columns = opt.get("rows"), opt.get("columns")
    r, c = (len(rows), len(columns)) if rows and columns else _near_square(channels)
    diodes = opt.get("diodes", True)
    parts = [Part(channels, "1N4148 diode", "one in series with each switch, cathode to the row")
             ] if diodes else []
    notes = [f"{r + c} GPIO pins: {r} rows driven low in turn, {c} columns read with pull-ups",
             "channel = row x columns + column"]
    if not diodes:
        notes.append("without diodes, three closed switches at the corners of a rectangle "
                     "make the fourth read closed: such readings are refused")
    return WiringPlan(
        f"GPIO matrix: {r} rows x {c} columns, " + ("a diode per switch" if diodes else "no diodes"),
        r * c, lambda ch: f"R{ch // c}C{ch % c}",
        lambda ch: f"row {ch // c}{_pin(rows, ch // c)}, column {ch % c}{_pin(columns, ch % c)}",
        parts, notes)


def _shift_registers(opt: dict, channels: int) -> WiringPlan:
    registers = opt.get("registers") or math.ceil(channels / 8)
    letters = "ABCDEFGH" if opt.get("bit_order", "a-first") == "a-first" else "HGFEDCBA"

    def long(ch: int) -> str:
        letter = letters[ch % 8]
        return (f"register U{ch // 8} ({_ordinal(ch // 8 + 1)} from the Pi), input {letter} "
                f"(pin {HC165_PINS[letter]})")

    return WiringPlan(
        f"74HC165 chain: {registers} registers, 8 inputs each", 8 * registers,
        lambda ch: f"U{ch // 8}.{letters[ch % 8]}", long,
        [Part(registers, "74HC165 shift register", "8 inputs each"),
         Part(8 * registers, "10 kΩ resistor", "pull-up on each input; or "
              f"{registers} x 9-pin 10 kΩ resistor network"),
         Part(registers, "100 nF capacitor", "one across each chip")],
        ["U0's QH to the Pi's MISO (GPIO 9), each register's SER to the next one's QH, the last "
         "SER to GND", "SH/LD of every register to the latch pin, CLK to SCLK (GPIO 11), "
         "CLK INH to the chip select", "each switch from its input to GND"])


def _expanders(opt: dict, channels: int) -> WiringPlan:
    rows = opt.get("rows")
    columns = channels if not rows else math.ceil(channels / len(rows))
    chips = max(1, math.ceil(columns / 16))
    if chips > len(MCP_ADDRESSES) and not opt.get("addresses"):
        raise HardwareOptionError(f"scanner.mcp23017: {channels} sensor channels need {chips} MCP23017s, "
                          "and one I2C bus takes at most 8: wire them as a matrix's columns "
                          "(rows = [...]) or use a 74hc165 chain")
    addresses = opt.get("addresses") or list(MCP_ADDRESSES[:chips])
    width = 16 * len(addresses)

    def port(column: int) -> tuple[int, str]:
        pin = column % 16
        return addresses[column // 16], f"{'AB'[pin // 8]}{pin % 8}"

    def short(ch: int) -> str:
        address, name = port(ch % width)
        return (f"R{ch // width}." if rows else "") + f"{address:02X}.{name}"

    def long(ch: int) -> str:
        address, name = port(ch % width)
        row = f"row {ch // width}{_pin(rows, ch // width)}, " if rows else ""
        return f"{row}chip {address:#04x} GP{name} (pin {MCP_PINS[name]})"

    span = f"{addresses[0]:#04x}" + (f"-{addresses[-1]:#04x}" if len(addresses) > 1 else "")
    parts = [Part(len(addresses), "MCP23017 I2C expander", f"16 inputs each, addresses {span}"),
             Part(len(addresses), "100 nF capacitor", "one across each chip")]
    notes = ["SDA to GPIO 2, SCL to GPIO 3, VDD 3.3 V, RESET to 3.3 V; A2 A1 A0 strapped "
             "to the chip's address - 0x20", "each switch from its input to GND (the chip's "
             "own pull-ups are used)"]
    if opt.get("interrupt") is not None:
        notes.append(f"INTA of every chip to GPIO {opt['interrupt']} (open drain, shared)")
    if rows:
        if opt.get("diodes", True):
            parts.append(Part(channels, "1N4148 diode", "one in series with each switch, "
                              "cathode to the row"))
        notes.append(f"{len(rows)} rows on the Pi's GPIO, driven low in turn; the chips' "
                     "inputs are the columns")
    kind = f"{len(rows)} rows x {width} columns on " if rows else ""
    return WiringPlan(f"MCP23017 expanders: {kind}{len(addresses)} chips on I2C",
                      width * (len(rows) if rows else 1), short, long, parts, notes)


def _serial(opt: dict, channels: int) -> WiringPlan:
    return WiringPlan(
        "the board's microcontroller over USB serial", opt.get("channels") or channels,
        lambda ch: f"ch{ch}", lambda ch: f"the microcontroller's sensor channel {ch}",
        [Part(1, "microcontroller board", "with reedboard's serial protocol firmware")],
        ["its firmware numbers the channels (docs/serial-protocol.md)"])


#: The scanner a plan is drawn for when the config names none (the simulated board): it reads
#: any number of sites with four of the Pi's pins.
DEFAULT_SCANNER = "74hc165"
SCANNERS = {"gpio-matrix": _matrix, "74hc165": _shift_registers, "mcp23017": _expanders,
            "serial": _serial}


def channel_groups(options: dict[str, Any], channels: int) -> Callable[[int], tuple[str, ...]]:
    """channel -> the wires it shares with other channels (``"row 3"``, ``"register U2"``,
    ``"chip 0x21"``): a group none of whose switches ever closes is most likely one loose
    wire. The simulated board is grouped as the matrix it models, when it models one.

    >>> channel_groups({"backend": "gpio-matrix", "rows": [5, 6], "columns": [13, 19]}, 4)(3)
    ('row 1', 'column 1')
    >>> channel_groups({"backend": "mcp23017", "addresses": [0x20, 0x24]}, 32)(17)
    ('chip 0x24',)
    """
    backend = options.get("backend")
    if backend == "sim" and options.get("columns"):
        width = options["columns"]
        return lambda ch: (f"row {ch // width}", f"column {ch % width}")
    if backend == "gpio-matrix":
        rows, columns = options.get("rows"), options.get("columns")
        width = len(columns) if rows and columns else _near_square(channels)[1]
        return lambda ch: (f"row {ch // width}", f"column {ch % width}")
    if backend == "74hc165":
        return lambda ch: (f"register U{ch // 8}",)
    if backend == "mcp23017":
        rows = options.get("rows")
        addresses = options.get("addresses") or list(MCP_ADDRESSES)
        width = 16 * len(addresses)

        def groups(ch: int) -> tuple[str, ...]:
            chip = (f"chip {addresses[ch % width // 16]:#04x}",)
            return (f"row {ch // width}", *chip) if rows else chip
        return groups
    return lambda ch: ()


def scanner_plan(options: dict[str, Any], channels: int) -> WiringPlan:
    """The wiring of a scanner table for a board of ``channels`` sensor channels; HardwareOptionError
    when the backend has no wiring (the simulated board) or holds too few channels."""
    backend = options.get("backend")
    if backend not in SCANNERS:
        raise HardwareOptionError(f"scanner: a plan needs a real scanner ({', '.join(SCANNERS)}), "
                          f"not {backend!r}")
    plan = SCANNERS[backend](options, channels)
    if plan.capacity < channels:
        raise HardwareOptionError(f"scanner.{backend}: the board needs {channels} sensor channels, and "
                          f"this one has {plan.capacity}")
    return plan


#: A fully lit WS2812 colour channel draws about this much (mA), so white ~60 mA a LED.
WS2812_MA = 20


def led_plan(options: dict[str, Any], channels: int, brightness: float) -> WiringPlan:
    """The LED chain for ``channels`` LEDs at the daemon's ``brightness`` (0..1)."""
    backend = options.get("backend")
    if backend == "max7219":
        modules = options.get("cascaded") or math.ceil(channels / 64)
        return WiringPlan(
            f"MAX7219 matrices: {modules} modules of 8x8", 64 * modules,
            lambda ch: f"M{ch // 64}.{ch % 64 // 8}{ch % 8}",
            lambda ch: f"module {ch // 64}, row {ch % 64 // 8}, column {ch % 8}",
            [Part(modules, "MAX7219 8x8 LED module")],
            ["DIN to MOSI (GPIO 10), CLK to SCLK (GPIO 11), CS to CE0 (GPIO 8); 5 V supply"])
    if backend == "serial":
        return WiringPlan("LEDs on the board's microcontroller", channels,
                          lambda ch: f"L{ch}", lambda ch: f"the microcontroller's LED {ch}")
    return _ws2812(options, channels, brightness)


def _ws2812(options: dict[str, Any], channels: int, brightness: float) -> WiringPlan:
    per_channel = options.get("ma_per_channel", WS2812_MA)
    cap = options.get("max_current_ma", 2000)
    full = channels * 3 * per_channel
    dimmed = full * brightness
    drawn = min(dimmed, cap)
    supply = math.ceil((drawn / 1000 + 0.5) * 1.2 * 2) / 2  # 0.5 A of idle draw, 20% margin
    return WiringPlan(
        f"WS2812B chain of {channels} LEDs", options.get("count") or channels,
        lambda ch: f"L{ch}", lambda ch: f"LED {ch} ({_ordinal(ch + 1)} along the chain)",
        [Part(channels, "WS2812B LED", "one under each site"),
         Part(math.ceil(channels / 2), "100 nF capacitor", "one per two LEDs, if not on the LED"),
         Part(1, f"5 V supply for the LEDs, {supply:g} A or more", "ground shared with the Pi"),
         Part(1, "74AHCT125 level shifter", "3.3 V data from GPIO 18 to 5 V"),
         Part(1, "330 Ω resistor", "in the data line at the first LED")],
        [f"all {channels} lit white at full power: {full / 1000:.1f} A; at brightness "
         f"{brightness:.0%}: {dimmed / 1000:.1f} A; the daemon scales a frame down to "
         f"max_current_ma = {cap:g} mA, so the LEDs draw at most {drawn / 1000:.1f} A",
         "inject 5 V and GND every 50-100 LEDs along the chain"])
