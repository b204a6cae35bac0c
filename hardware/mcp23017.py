"""MCP23017 I2C port expanders as a scanner: up to eight chips on one bus, 16 inputs each.

Two ways to wire them (docs/build.md):

- *direct*: each input holds one reed switch to GND, read through the chip's own pull-up
  (GPPU). Channel = 16 x chip + pin, the chips in the order of ``addresses``, GPA0..7 = 0..7,
  GPB0..7 = 8..15. Eight chips read 128 switches.
- *matrix columns* (``rows``: the Pi's GPIO pins): the chips' inputs are a matrix's columns,
  the rows are driven low one at a time as for the GPIO matrix. Channel = row x columns +
  column, column = 16 x chip + pin. Without diodes a ghosting reading is reported ambiguous.

With ``interrupt`` (direct wiring: every chip's INTA, open drain and mirrored, on one GPIO with
a pull-up) a scan reads the bus only after the line went low, and the line wakes the daemon;
otherwise every scan reads every chip (two bytes each, GPIOA and GPIOB in one sequential read).

The chips are set up with IOCON.BANK = 0 (registers of A and B interleaved, so a two-byte block
read from GPIOA returns both ports), MIRROR, ODR, and sequential addressing.
"""

from __future__ import annotations

import time
from typing import Sequence

from hardware.base import Scan
from hardware.ghost import matrix_scan
from hardware.protocol import closed_channels
from hardware.wake import Waker

# Register addresses with IOCON.BANK = 0 (port A; port B is the next one).
IODIR, IPOL, GPINTEN, DEFVAL, INTCON, IOCON, GPPU, INTF, INTCAP, GPIO, OLAT = (
    0x00,
    0x02,
    0x04,
    0x06,
    0x08,
    0x0A,
    0x0C,
    0x0E,
    0x10,
    0x12,
    0x14,
)
# IOCON bits.
BANK, MIRROR, SEQOP, DISSLW, HAEN, ODR, INTPOL = 0x80, 0x40, 0x20, 0x10, 0x08, 0x04, 0x02
#: What this driver writes to IOCON: mirrored, open-drain interrupt outputs (several chips can
#: share one line), sequential addressing, BANK = 0.
IOCON_VALUE = MIRROR | ODR

Pin = int | str


class Mcp23017Scanner:
    """The Scanner for MCP23017 expanders at ``addresses`` on ``bus`` (an smbus2 ``SMBus`` or
    anything with its ``read_i2c_block_data``/``write_i2c_block_data``). ``rows``: GPIO pins
    driving a matrix's rows (None: direct wiring). ``interrupt``: the GPIO pin the chips' INTA
    share (direct wiring only). Raises OSError when a chip does not answer, ValueError when
    what answers is not an MCP23017 set up as asked."""

    senses_polarity = False

    def __init__(
        self,
        bus,
        addresses: Sequence[int],
        *,
        rows: Sequence[Pin] | None = None,
        diodes: bool = True,
        interrupt: Pin | None = None,
        settle: float = 20e-6,
        pin_factory=None,
    ) -> None:
        if not addresses:
            raise ValueError("at least one chip address is needed")
        if rows and interrupt is not None:
            raise ValueError("interrupts need direct wiring (no rows)")
        self.bus, self.addresses = bus, list(addresses)
        self.width = 16 * len(self.addresses)
        self.channels = self.width * (len(rows) if rows else 1)
        self.diodes, self.settle = diodes, settle
        self.reads = 0
        self._rows: list = []
        self._line = None
        self._last: tuple[bytes, Scan] | None = None
        self._waker: Waker | None = None
        try:
            for address in self.addresses:
                self._set_up(address, interrupts=interrupt is not None)
            if rows:
                from hardware.gpio import MatrixRow

                self._rows = [MatrixRow(pin, pin_factory=pin_factory) for pin in rows]
            if interrupt is not None:
                self._line = self._interrupt_line(interrupt, pin_factory)
        except Exception:
            self.close()
            raise

    def _set_up(self, address: int, interrupts: bool) -> None:
        write = self.bus.write_i2c_block_data
        write(address, IOCON, [IOCON_VALUE])
        write(address, IODIR, [0xFF, 0xFF])  # every pin an input
        write(address, IPOL, [0x00, 0x00])  # GPIO reads the pins as they are
        write(address, GPPU, [0xFF, 0xFF])  # 100 kΩ pull-ups: a switch to GND reads 0
        write(address, INTCON, [0x00, 0x00])  # interrupt on any change...
        write(address, GPINTEN, [0xFF if interrupts else 0x00] * 2)  # ...of any pin, if wired
        check = self.bus.read_i2c_block_data(address, IOCON, 1)[0]
        direction = self.bus.read_i2c_block_data(address, IODIR, 2)
        if check & ~HAEN != IOCON_VALUE or list(direction) != [0xFF, 0xFF]:
            raise ValueError(
                f"the device at {address:#04x} does not answer as an MCP23017 "
                f"(IOCON {check:#04x}, IODIR {bytes(direction).hex()})"
            )
        self.bus.read_i2c_block_data(address, GPIO, 2)  # clears a pending interrupt

    def _interrupt_line(self, pin: Pin, pin_factory):
        from gpiozero import DigitalInputDevice

        line = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
        line.when_activated = self._wake  # active = pulled low by a chip
        return line

    def _wake(self) -> None:
        if self._waker is not None:
            self._waker.set()

    def wakes(self, waker: Waker) -> None:
        """Set ``waker`` when a chip signals a change (only with ``interrupt``)."""
        self._waker = waker

    @property
    def quiet(self) -> bool:
        """False while the daemon must keep polling: always without an interrupt line, and
        while the line is held low."""
        return self._line is not None and not self._line.is_active

    def read(self) -> bytes:
        """Both ports of every chip, raw (a closed switch reads 0), chip by chip: A then B."""
        self.reads += 1
        data = bytearray()
        for address in self.addresses:
            data += bytes(self.bus.read_i2c_block_data(address, GPIO, 2))
        return bytes(data)

    def scan(self) -> Scan:
        if self._rows:
            return self._scan_matrix()
        if self._line is not None and self._last is not None and not self._line.is_active:
            return self._last[1]  # no chip saw a change since the last read
        raw = self.read()
        if self._last is None or self._last[0] != raw:
            closed = closed_channels(bytes(b ^ 0xFF for b in raw))
            self._last = raw, Scan(closed)
        return self._last[1]

    def _scan_matrix(self) -> Scan:
        reading: list[int] = []
        for r, row in enumerate(self._rows):
            row.select()
            try:
                if self.settle:
                    time.sleep(self.settle)
                raw = self.read()
            finally:
                row.release()
            reading.extend(r * self.width + c for c in closed_channels(bytes(b ^ 0xFF for b in raw)))
        return matrix_scan(reading, self.width, self.diodes)

    def close(self) -> None:
        for device in [*self._rows, self._line]:
            if device is not None:
                device.close()
        self._rows, self._line = [], None
        close = getattr(self.bus, "close", None)
        if close is not None:
            close()
