"""Where each channel is wired and what parts a scanner or LED chain takes, for printed plans
(``reedboard plan``): the chip knowledge stays in this layer.

A scanner table is the config's ``[sensors]`` table (or just its ``backend``: the sizes then
follow from the number of channels the board needs).

>>> plan = scanner_plan({"backend": "74hc165"}, 20)
>>> plan.capacity, plan.terminal(9), plan.terminal(9, long=True)
(24, 'U1.B', 'register U1 (2nd from the Pi), input B (pin 12)')
>>> plan = scanner_plan({"backend": "gpio-matrix"}, 10)
>>> plan.title, plan.terminal(5)
('GPIO matrix: 2 rows x 5 columns, a diode per switch', 'R1C0')
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


@dataclass(frozen=True)
class Wire:
    """A wire from a controller's pin: ``host`` (:data:`PI` or :data:`MEGA`), ``pin`` (the Pi's
    BCM number, the Arduino's pin number) and what it goes to; ``bus``: a bus's line, which
    several parts may share."""

    host: str
    pin: int
    what: str
    bus: bool = False


#: The controllers a plan wires to.
PI, MEGA = "Raspberry Pi", "Arduino Mega 2560"


@dataclass
class WiringPlan:
    """How a part's channels are wired: ``title``, how many channels it has, each channel's
    terminal (short, for the drawing; long, for the wiring sheet), its parts, notes and the
    wires it takes from the Pi's or the Mega's pins."""

    title: str
    capacity: int
    short: Callable[[int], str]
    long: Callable[[int], str]
    parts: list[Part] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    wires: list[Wire] = field(default_factory=list)
    #: The channels where an LED chain begins, with where its data comes from.
    starts: dict[int, str] = field(default_factory=dict)

    def terminal(self, channel: int, long: bool = False) -> str:
        return (self.long if long else self.short)(channel)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def pin_name(host: str, pin: int) -> str:
    """A pin as printed beside it: ``GPIO 5`` on the Pi, ``D22`` or ``A0`` on the Mega.

    >>> pin_name(PI, 5), pin_name(MEGA, 22), pin_name(MEGA, 55)
    ('GPIO 5', 'D22', 'A1')
    """
    if host == PI:
        return f"GPIO {pin}"
    return f"A{pin - 54}" if pin >= 54 else f"D{pin}"


def _pin(host: str, pins: list | None, i: int) -> str:
    return f" ({pin_name(host, pins[i])})" if pins else ""


def near_square(channels: int) -> tuple[int, int]:
    """The rows and columns of the matrix with the fewest wires for ``channels`` switches,
    and of those the one with the fewest crossings left over.

    >>> near_square(128), near_square(288), near_square(61)
    ((10, 13), (16, 18), (7, 9))
    """
    least = min(math.ceil(channels / c) + c for c in range(1, channels + 1))
    shapes = [
        (math.ceil(channels / c), c) for c in range(1, channels + 1) if math.ceil(channels / c) + c == least
    ]
    return min(shapes, key=lambda rc: (rc[0] * rc[1], rc[0] > rc[1], rc[1]))


def _diode_matrix(
    host: str, rows: list | None, columns: list | None, r: int, c: int, channels: int, diodes: bool
) -> tuple[list[Part], list[str], list[Wire]]:
    """A matrix's diodes, notes and wires (rows and columns on ``host``'s pins)."""
    parts = (
        [
            Part(
                channels,
                "1N4148 diode",
                "one in series with each switch: anode to the switch's column, cathode (the ring) to its row",
            )
        ]
        if diodes
        else []
    )
    notes = [
        f"{r + c} pins: {r} rows driven low in turn, {c} columns read with pull-ups",
        "channel = row x columns + column; each switch from its column through its diode to its row",
    ]
    if not diodes:
        notes.append(
            "without diodes, three closed switches at the corners of a rectangle "
            "make the fourth read closed: such readings are refused"
        )
    wires = [Wire(host, pin, f"row {i}") for i, pin in enumerate(rows or [])]
    wires += [Wire(host, pin, f"column {i}") for i, pin in enumerate(columns or [])]
    return parts, notes, wires


def _matrix(opt: dict, channels: int) -> WiringPlan:
    rows, columns = opt.get("rows"), opt.get("columns")
    r, c = (len(rows), len(columns)) if rows and columns else near_square(channels)
    diodes = opt.get("diodes", True)
    parts, notes, wires = _diode_matrix(PI, rows, columns, r, c, channels, diodes)
    return WiringPlan(
        f"GPIO matrix: {r} rows x {c} columns, " + ("a diode per switch" if diodes else "no diodes"),
        r * c,
        lambda ch: f"R{ch // c}C{ch % c}",
        lambda ch: f"row {ch // c}{_pin(PI, rows, ch // c)}, column {ch % c}{_pin(PI, columns, ch % c)}",
        parts,
        notes,
        wires,
    )


#: The Pi's SPI0 and I2C1 pins (BCM), which a 74HC165 chain, a MAX7219 or an I2C part take.
SPI0 = {"MISO": 9, "MOSI": 10, "SCLK": 11, "CE0": 8, "CE1": 7}
I2C1 = {"SDA": 2, "SCL": 3}


def _shift_registers(opt: dict, channels: int) -> WiringPlan:
    registers = opt.get("registers") or math.ceil(channels / 8)
    letters = "ABCDEFGH" if opt.get("bit_order", "a-first") == "a-first" else "HGFEDCBA"
    latch = opt.get("latch", 25)
    select = SPI0["CE1"] if opt.get("spi_device", 0) == 1 else SPI0["CE0"]

    def long(ch: int) -> str:
        letter = letters[ch % 8]
        return (
            f"register U{ch // 8} ({_ordinal(ch // 8 + 1)} from the Pi), input {letter} "
            f"(pin {HC165_PINS[letter]})"
        )

    return WiringPlan(
        f"74HC165 chain: {registers} registers, 8 inputs each",
        8 * registers,
        lambda ch: f"U{ch // 8}.{letters[ch % 8]}",
        long,
        [
            Part(registers, "74HC165 shift register", "8 inputs each"),
            Part(
                8 * registers,
                "10 kΩ resistor",
                f"pull-up on each input; or {registers} x 9-pin 10 kΩ resistor network",
            ),
            Part(registers, "100 nF capacitor", "one across each chip"),
        ],
        [
            f"U0's QH to the Pi's MISO (GPIO {SPI0['MISO']}), each register's SER to the next "
            "one's QH, the last SER to GND",
            f"SH/LD of every register to the latch (GPIO {latch}), "
            f"CLK to SCLK (GPIO {SPI0['SCLK']}), CLK INH to the chip select (GPIO {select})",
            "each switch from its input to GND",
        ],
        [
            Wire(PI, SPI0["MISO"], "U0 QH (MISO)", True),
            Wire(PI, SPI0["SCLK"], "CLK (SCLK)", True),
            Wire(PI, select, "CLK INH (chip select)"),
            Wire(PI, latch, "SH/LD (latch)"),
        ],
    )


def _expanders(opt: dict, channels: int) -> WiringPlan:
    rows = opt.get("rows")
    columns = channels if not rows else math.ceil(channels / len(rows))
    chips = max(1, math.ceil(columns / 16))
    if chips > len(MCP_ADDRESSES) and not opt.get("addresses"):
        raise HardwareOptionError(
            f"scanner.mcp23017: {channels} sensor channels need {chips} MCP23017s, "
            "and one I2C bus takes at most 8: wire them as a matrix's columns "
            "(rows = [...]) or use a 74hc165 chain"
        )
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
        row = f"row {ch // width}{_pin(PI, rows, ch // width)}, " if rows else ""
        return f"{row}chip {address:#04x} GP{name} (pin {MCP_PINS[name]})"

    span = f"{addresses[0]:#04x}" + (f"-{addresses[-1]:#04x}" if len(addresses) > 1 else "")
    parts = [
        Part(len(addresses), "MCP23017 I2C expander", f"16 inputs each, addresses {span}"),
        Part(len(addresses), "100 nF capacitor", "one across each chip"),
    ]
    notes = [
        f"SDA to GPIO {I2C1['SDA']}, SCL to GPIO {I2C1['SCL']}, VDD 3.3 V, RESET to 3.3 V; "
        "A2 A1 A0 strapped to the chip's address - 0x20",
        "each switch from its input to GND (the chip's own pull-ups are used)",
    ]
    wires = [Wire(PI, I2C1["SDA"], "SDA (I2C)", True), Wire(PI, I2C1["SCL"], "SCL (I2C)", True)]
    if opt.get("interrupt") is not None:
        notes.append(f"INTA of every chip to GPIO {opt['interrupt']} (open drain, shared)")
        wires.append(Wire(PI, opt["interrupt"], "INTA of the expanders"))
    if rows:
        if opt.get("diodes", True):
            parts.append(Part(channels, "1N4148 diode", "one in series with each switch, cathode to the row"))
        notes.append(
            f"{len(rows)} rows on the Pi's GPIO, driven low in turn; the chips' inputs are the columns"
        )
        wires += [Wire(PI, pin, f"row {i}") for i, pin in enumerate(rows)]
    kind = f"{len(rows)} rows x {width} columns on " if rows else ""
    return WiringPlan(
        f"MCP23017 expanders: {kind}{len(addresses)} chips on I2C",
        width * (len(rows) if rows else 1),
        short,
        long,
        parts,
        notes,
        wires,
    )


#: The Mega's pins as the firmware's config.h gives them by default: the matrix rows (ports A
#: and C), columns (A0-A15, D42, D43) and the WS2812 chains (port H); then the pins a larger
#: matrix takes next. D0 and D1 are the USB serial, D13 (the on-board LED) is left free.
MEGA_ROWS = (22, 23, 24, 25, 26, 27, 28, 29, 37, 36, 35, 34, 33, 32, 31, 30)
MEGA_COLUMNS = (*range(54, 70), 42, 43)
MEGA_SPARE = (44, 45, 46, 47, 48, 49, 38, 39, 40, 41, 2, 3, 4, 5, 10, 11, 12, *range(14, 22), 50, 51, 52, 53)
MEGA_LED_PINS = (6, 7, 8, 9)
#: The Mega's pins a plan may use: all 70 but the USB serial's two and D13.
MEGA_USABLE = 67
#: LEDs a WS2812 chain takes (ms each): 24 bits of 1.25 us.
WS2812_MS = 0.03
#: The most LEDs on one of the Mega's chains for a frame written in 3 ms, so that a switch
#: change waiting for the write still reaches the host within 5 ms (docs/firmware.md).
MEGA_LEDS_PER_CHAIN = 100


def mega_matrix(channels: int) -> tuple[list[int], list[int]]:
    """The Mega's row and column pins for a matrix of ``channels`` switches: the firmware's
    defaults first, then the spare pins; ValueError when even all its pins are too few.

    >>> rows, columns = mega_matrix(288)
    >>> len(rows), len(columns), rows[0], columns[0]
    (16, 18, 22, 54)
    """
    r, c = near_square(channels)
    spare = list(MEGA_SPARE)
    rows = list(MEGA_ROWS[:r]) + [spare.pop(0) for _ in range(max(0, r - len(MEGA_ROWS))) if spare]
    columns = list(MEGA_COLUMNS[:c]) + [spare.pop(0) for _ in range(max(0, c - len(MEGA_COLUMNS))) if spare]
    if len(rows) < r or len(columns) < c:
        raise ValueError(f"{channels} switches need {r + c} matrix pins, more than the Mega has")
    return rows, columns


def _serial(opt: dict, channels: int) -> WiringPlan:
    """The Mega with reedboard's firmware: its default diode matrix, sized for the board."""
    try:
        rows, columns = mega_matrix(opt.get("channels") or channels)
    except ValueError as exc:
        raise HardwareOptionError(
            f"scanner.serial: {exc}: use a 74HC165 chain on the Mega (SCANNER_165, docs/firmware.md)"
        ) from None
    r, c = len(rows), len(columns)
    parts, notes, wires = _diode_matrix(MEGA, rows, columns, r, c, channels, True)
    names = [", ".join(map(str, pins)) for pins in (rows, columns)]
    notes += [
        f"the firmware built with ROW_PINS {names[0]} and COLUMN_PINS {names[1]} "
        f"(config.h: A0 is 54); the config's [sensors] channels = {r * c}",
        "the Mega's own pull-ups read the columns: no resistors",
    ]
    return WiringPlan(
        f"{MEGA} over USB: a {r} x {c} matrix, a diode per switch",
        r * c,
        lambda ch: f"R{ch // c}C{ch % c}",
        lambda ch: f"row {ch // c}{_pin(MEGA, rows, ch // c)}, column {ch % c}{_pin(MEGA, columns, ch % c)}",
        parts,
        notes,
        wires,
    )


#: The scanner a plan is drawn for when the config names none (the simulated board): it reads
#: any number of sites with four of the Pi's pins.
DEFAULT_SCANNER = "74hc165"
SCANNERS = {"gpio-matrix": _matrix, "74hc165": _shift_registers, "mcp23017": _expanders, "serial": _serial}
#: The option that sets how many sensor channels each scanner holds.
SIZED_BY = {"gpio-matrix": "rows", "74hc165": "registers", "mcp23017": "addresses", "serial": "channels"}


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
        width = len(columns) if rows and columns else near_square(channels)[1]
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
        raise HardwareOptionError(
            f"scanner: a plan needs a real scanner ({', '.join(SCANNERS)}), not {backend!r}"
        )
    plan = SCANNERS[backend](options, channels)
    if plan.capacity < channels:
        raise HardwareOptionError(
            f"scanner.{backend}.{SIZED_BY[backend]}: the board needs {channels} sensor channels, "
            f"and this {backend} scanner has {plan.capacity}"
        )
    return plan


#: How near (mm) a piece's magnet may close a reed switch, or keep one closed that its own
#: piece has left (docs/build.md, "Magnets and pitch"): a 10-20 AT glass switch with an
#: 8 x 3 x 3 mm neodymium magnet closes at 8.5-11 mm and opens again at 11-13 mm.
MAGNET_REACH = 13.0

#: A fully lit WS2812 colour channel draws about this much (mA), so white ~60 mA a LED.
WS2812_MA = 20


def led_plan(options: dict[str, Any], channels: int, brightness: float) -> WiringPlan:
    """The LED chain for ``channels`` LEDs at the daemon's ``brightness`` (0..1)."""
    backend = options.get("backend")
    if backend == "max7219":
        modules = options.get("cascaded") or math.ceil(channels / 64)
        return WiringPlan(
            f"MAX7219 matrices: {modules} modules of 8x8",
            64 * modules,
            lambda ch: f"M{ch // 64}.{ch % 64 // 8}{ch % 8}",
            lambda ch: f"module {ch // 64}, row {ch % 64 // 8}, column {ch % 8}",
            [Part(modules, "MAX7219 8x8 LED module")],
            [
                f"DIN to MOSI (GPIO {SPI0['MOSI']}), CLK to SCLK (GPIO {SPI0['SCLK']}), CS to CE0 "
                f"(GPIO {SPI0['CE0']}); 5 V supply"
            ],
            [
                Wire(PI, SPI0["MOSI"], "MAX7219 DIN (MOSI)", True),
                Wire(PI, SPI0["SCLK"], "MAX7219 CLK (SCLK)", True),
                Wire(PI, SPI0["CE0"], "MAX7219 CS (CE0)"),
            ],
            {0: f"module 0: DIN from GPIO {SPI0['MOSI']}"},
        )
    if backend == "serial":
        return _mega_chains(options, channels, brightness)
    return _ws2812(options, channels, brightness)


def _power(
    options: dict[str, Any], channels: int, brightness: float, host: str
) -> tuple[list[Part], list[str]]:
    """The LEDs, their capacitors and the 5 V supply sized for the current they may draw."""
    per_channel = options.get("ma_per_channel", WS2812_MA)
    cap = options.get("max_current_ma", 2000)
    full = channels * 3 * per_channel
    dimmed = full * brightness
    drawn = min(dimmed, cap)
    supply = math.ceil((drawn / 1000 + 0.5) * 1.2 * 2) / 2  # 0.5 A of idle draw, 20% margin
    parts = [
        Part(channels, "WS2812B LED", "one under each site"),
        Part(math.ceil(channels / 2), "100 nF capacitor", "one per two LEDs, if not on the LED"),
        Part(1, f"5 V supply for the LEDs, {supply:g} A or more", f"ground shared with the {host}"),
        Part(1, "1000 µF capacitor, 10 V or more", "across the LEDs' 5 V where it comes in"),
    ]
    notes = [
        f"all {channels} lit white at full power: {full / 1000:.1f} A; at brightness "
        f"{brightness:.0%}: {dimmed / 1000:.1f} A; the frame is scaled down to "
        f"max_current_ma = {cap:g} mA, so the LEDs draw at most {drawn / 1000:.1f} A",
        "inject 5 V and GND every 50-100 LEDs along a chain",
    ]
    return parts, notes


def _ws2812(options: dict[str, Any], channels: int, brightness: float) -> WiringPlan:
    parts, notes = _power(options, channels, brightness, PI)
    parts += [
        Part(1, "74AHCT125 level shifter", "3.3 V data from GPIO 18 to 5 V"),
        Part(1, "330 Ω resistor", "in the data line at the first LED"),
    ]
    return WiringPlan(
        f"WS2812B chain of {channels} LEDs",
        options.get("count") or channels,
        lambda ch: f"L{ch}",
        lambda ch: f"LED {ch} ({_ordinal(ch + 1)} along the chain)",
        parts,
        notes,
        [Wire(PI, 18, "LED data (74AHCT125)")],
        {0: "data in from GPIO 18 (74AHCT125, 330 Ω)"},
    )


def mega_chains(leds: int) -> int:
    """How many chains the Mega's LEDs take: the fewest of at most
    :data:`MEGA_LEDS_PER_CHAIN` LEDs each, up to its four pins of one port.

    >>> mega_chains(61), mega_chains(288), mega_chains(800)
    (1, 3, 4)
    """
    return max(1, min(len(MEGA_LED_PINS), math.ceil(leds / MEGA_LEDS_PER_CHAIN)))


def _mega_chains(options: dict[str, Any], channels: int, brightness: float) -> WiringPlan:
    """WS2812B chains on the Mega's pins of one port, each its equal run of the channels."""
    chains = mega_chains(channels)
    per = math.ceil(channels / chains)
    pins = MEGA_LED_PINS[:chains]
    parts, notes = _power(options, channels, brightness, MEGA)
    parts.append(Part(chains, "330 Ω resistor", "in each chain's data line at its first LED"))
    names = ", ".join(map(str, pins))
    notes += [
        f"{chains} chains of up to {per} LEDs: LED n is the (n mod {per})th of chain "
        f"n / {per}; each takes {per * WS2812_MS:.1f} ms to write; the firmware built "
        f"with LED_PINS {names} and LED_COUNT {channels}"
    ]
    if per > MEGA_LEDS_PER_CHAIN:
        notes.append(
            f"more than {MEGA_LEDS_PER_CHAIN} LEDs a chain: a switch change may wait "
            f"{per * WS2812_MS:.1f} ms for a write; more chains need a port with more "
            "free pins (docs/firmware.md)"
        )
    return WiringPlan(
        f"WS2812B on the Mega: {chains} chain{'s' if chains > 1 else ''} of {per} LEDs",
        options.get("count") or channels,
        lambda ch: f"L{ch}",
        lambda ch: (
            f"LED {ch} ({_ordinal(ch % per + 1)} along chain {ch // per}, {pin_name(MEGA, pins[ch // per])})"
        ),
        parts,
        notes,
        [
            Wire(MEGA, pin, f"LED chain {i} (L{i * per}-L{min(channels, (i + 1) * per) - 1})")
            for i, pin in enumerate(pins)
        ],
        {i * per: f"chain {i}: data in from {pin_name(MEGA, pin)} (330 Ω)" for i, pin in enumerate(pins)},
    )
