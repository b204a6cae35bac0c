"""A stand-in for an I2C bus with MCP23017 chips on it, modelled on the datasheet (DS20001952):
the 22 registers of IOCON.BANK = 0, sequential or byte-mode addressing, pull-ups, input
polarity, interrupt on change or against DEFVAL, INTF/INTCAP and the mirrored, open-drain or
push-pull INT output. Tests and the simulated board drive its pins.

>>> bus = I2cBus()
>>> chip = bus.attach(Mcp23017(0x20))
>>> bus.write_i2c_block_data(0x20, 0x0C, [0xFF, 0xFF])    # GPPU: pull-ups on both ports
>>> chip.closed = {3, 9}                                   # switches to GND on GPA3, GPB1
>>> [f"{b:08b}" for b in bus.read_i2c_block_data(0x20, 0x12, 2)]
['11110111', '11111101']
>>> bus.read_byte_data(0x27, 0x12)
Traceback (most recent call last):
...
OSError: [Errno 121] Remote I/O error: no device at 0x27
"""

from __future__ import annotations

import errno
from typing import Callable

from hardware.mcp23017 import (
    BANK,
    DEFVAL,
    GPINTEN,
    GPIO,
    GPPU,
    INTCAP,
    INTCON,
    INTF,
    INTPOL,
    IOCON,
    IODIR,
    IPOL,
    MIRROR,
    ODR,
    OLAT,
    SEQOP,
)

#: Registers with IOCON.BANK = 0: 0x00..0x15; the pointer rolls over after the last.
REGISTERS = 0x16
#: Power-on values: IODIR all inputs, everything else 0.
RESET = {IODIR: 0xFF, IODIR + 1: 0xFF}
#: Read-only registers: the interrupt flags and captures; GPIO writes go to OLAT.
READ_ONLY = {INTF, INTF + 1, INTCAP, INTCAP + 1}


class Mcp23017:
    """One chip at ``address``. Its pins: ``closed`` (pins joined to GND by a switch) or, when
    a test sets ``line``, ``line(pin)`` -> True (high), False (low) or None (floating). An
    input with no pull-up that nothing drives reads 0, as a floating CMOS input may."""

    def __init__(self, address: int) -> None:
        self.address = address
        self.registers = bytearray(REGISTERS)
        for register, value in RESET.items():
            self.registers[register] = value
        self.closed: set[int] = set()
        self.line: Callable[[int], bool | None] | None = None
        self._pointer = 0
        self._previous = self.levels()

    # -- the pins ----------------------------------------------------------------------------
    def level(self, pin: int) -> bool:
        """The level at ``pin`` (0..15, GPA0 = 0, GPB0 = 8) as the input buffer sees it."""
        port, bit = divmod(pin, 8)
        if not self.registers[IODIR + port] >> bit & 1:  # an output drives its latch
            return bool(self.registers[OLAT + port] >> bit & 1)
        driven = self.line(pin) if self.line else (False if pin in self.closed else None)
        if driven is None:
            return bool(self.registers[GPPU + port] >> bit & 1)
        return driven

    def levels(self) -> int:
        return sum(self.level(pin) << pin for pin in range(16))

    def port_value(self, port: int) -> int:
        """GPIO as read: the levels, inverted where IPOL says so."""
        return ((self.levels() >> 8 * port) & 0xFF) ^ self.registers[IPOL + port]

    def changed(self) -> None:
        """The pins may have changed: raise the interrupts the chip is set to raise."""
        now = self.levels()
        for port in (0, 1):
            enabled = self.registers[GPINTEN + port]
            level = (now >> 8 * port) & 0xFF
            if self.registers[INTCON + port]:  # compared against DEFVAL
                differ = level ^ self.registers[DEFVAL + port]
            else:  # compared against the previous value
                differ = level ^ ((self._previous >> 8 * port) & 0xFF)
            flags = differ & enabled
            if flags and not self.registers[INTF + port]:
                self.registers[INTCAP + port] = self.port_value(port)
            self.registers[INTF + port] |= flags
        self._previous = now

    @property
    def interrupt(self) -> tuple[bool, bool]:
        """(INTA, INTB) active: a port with a flag set (either, when MIRROR)."""
        a, b = bool(self.registers[INTF]), bool(self.registers[INTF + 1])
        return (a or b, a or b) if self.registers[IOCON] & MIRROR else (a, b)

    def int_pulls_low(self) -> bool:
        """Whether INTA pulls its line low: active-low push-pull or open drain when active,
        or (push-pull, active high) low when inactive."""
        active = self.interrupt[0]
        iocon = self.registers[IOCON]
        if iocon & ODR:
            return active
        return active != bool(iocon & INTPOL)

    # -- the bus side ------------------------------------------------------------------------
    def point(self, register: int) -> None:
        if not 0 <= register < REGISTERS:
            raise OSError(errno.EIO, f"register {register:#04x} does not exist")
        self._pointer = register

    def read(self) -> int:
        register = self._pointer
        if register in (GPIO, GPIO + 1):
            value = self.port_value(register - GPIO)
            self._clear(register - GPIO)
        elif register in (INTCAP, INTCAP + 1):
            value = self.registers[register]
            self._clear(register - INTCAP)
        else:
            value = self.registers[register]
        self._advance()
        return value

    def write(self, value: int) -> None:
        register = self._pointer
        if register in (GPIO, GPIO + 1):
            self.registers[OLAT + register - GPIO] = value
        elif register in (IOCON, IOCON + 1):  # one register at two addresses
            if value & BANK:
                raise NotImplementedError("this stand-in models IOCON.BANK = 0 only")
            self.registers[IOCON] = self.registers[IOCON + 1] = value & 0xFE
        elif register not in READ_ONLY:
            self.registers[register] = value
        self._advance()

    def _clear(self, port: int) -> None:
        self.registers[INTF + port] = 0

    def _advance(self) -> None:
        if self.registers[IOCON] & SEQOP:  # byte mode, BANK = 0: toggles within the A/B pair
            self._pointer ^= 1
        else:
            self._pointer = (self._pointer + 1) % REGISTERS


class I2cBus:
    """The smbus2 ``SMBus`` calls the scanner makes, on the chips attached. ``transfers``
    counts the bus transactions; a missing address raises EREMOTEIO (no acknowledge), as
    the kernel's driver does. ``interrupt_low`` says whether any chip pulls the shared INTA
    line low; ``on_interrupt(low)`` is called whenever that may have changed."""

    def __init__(self) -> None:
        self.chips: dict[int, Mcp23017] = {}
        self.transfers = 0
        self.closed = False
        self.on_interrupt: Callable[[bool], None] | None = None

    def attach(self, chip: Mcp23017) -> Mcp23017:
        self.chips[chip.address] = chip
        return chip

    def _chip(self, address: int) -> Mcp23017:
        self.transfers += 1
        if address not in self.chips:
            raise OSError(errno.EREMOTEIO, f"Remote I/O error: no device at {address:#04x}")
        return self.chips[address]

    def read_i2c_block_data(self, address: int, register: int, length: int) -> list[int]:
        chip = self._chip(address)
        chip.point(register)
        data = [chip.read() for _ in range(length)]
        self._signal()
        return data

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        chip = self._chip(address)
        chip.point(register)
        for value in data:
            chip.write(value)
        chip.changed()  # the chip samples its pins all the time: a new pull-up shows at once
        self._signal()

    def read_byte_data(self, address: int, register: int) -> int:
        return self.read_i2c_block_data(address, register, 1)[0]

    def write_byte_data(self, address: int, register: int, value: int) -> None:
        self.write_i2c_block_data(address, register, [value])

    def changed(self) -> None:
        """The switches moved: every chip compares its pins and raises its interrupts."""
        for chip in self.chips.values():
            chip.changed()
        self._signal()

    @property
    def interrupt_low(self) -> bool:
        return any(chip.int_pulls_low() for chip in self.chips.values())

    def _signal(self) -> None:
        if self.on_interrupt is not None:
            self.on_interrupt(self.interrupt_low)

    def close(self) -> None:
        self.closed = True


class ExpanderMatrix:
    """A reed matrix whose columns are the chips' inputs (16 per chip, in ``bus``'s order of
    attachment) and whose rows are pins of a gpiozero ``MockFactory``: a column reads low when
    a closed switch joins it to a row driven low; without diodes current runs back through
    other closed switches, so readings ghost. ``closed``: (row, column) cells."""

    def __init__(self, bus: I2cBus, factory, rows: list[int], diodes: bool = True) -> None:
        self.factory, self.rows, self.diodes = factory, [f"GPIO{r}" for r in rows], diodes
        self.closed: set[tuple[int, int]] = set()
        for i, chip in enumerate(bus.chips.values()):
            chip.line = lambda pin, base=16 * i: self._column(base + pin)

    def _column(self, column: int) -> bool | None:
        from hardware.ghost import ghosted

        driven = {r for r, name in enumerate(self.rows) if self._low(name)}
        cells = self.closed if self.diodes else ghosted(self.closed)
        return False if any((r, column) in cells for r in driven) else None

    def _low(self, name: str) -> bool:
        pin = next((p for info, p in self.factory.pins.items() if info.name == name), None)
        return pin is not None and pin.function == "output" and not pin.state
