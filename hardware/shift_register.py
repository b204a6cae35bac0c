"""A chain of 74HC165 parallel-in/serial-out shift registers, read through gpiozero's SPI.

Eight switches per register; a 20x20 Antipalos board (800 sites) needs a chain of 100. A scan
pulses SH/LD low (the latch: every register copies its eight inputs at once), then clocks the
whole chain out over SPI: the register wired to the Pi's MISO comes first, each register's
input H before G ... A. Channel = 8 * register + input, A..H = 0..7 (``a_first``; otherwise
H..A = 0..7), register 0 being the one nearest the Pi.

gpiozero picks the SPI: hardware SPI0 through spidev when the pins are SPI0's (clock GPIO11,
MISO GPIO9, select CE0/GPIO8 or CE1/GPIO7), bit-banged software SPI on any other pins, and
its mock SPI on a ``MockFactory`` (see :class:`hardware.gpio_mock.ShiftRegisterChainMock`).
The select line goes to CLK INH, so the chain only shifts while it is selected.
"""

from __future__ import annotations

import warnings
from typing import Any

from gpiozero import DigitalOutputDevice
from gpiozero.exc import SPISoftwareFallback
from gpiozero.pins.spi import SPISoftware

from hardware.base import Scan
from hardware.protocol import closed_channels

Pin = int | str


def _table(active_low: bool, a_first: bool) -> bytes:
    """byte as read (input H in bit 7) -> byte with channel i of the register in bit i, set
    when the switch is closed."""

    def convert(value: int) -> int:
        value = value ^ 0xFF if active_low else value
        return value if a_first else int(f"{value:08b}"[::-1], 2)

    return bytes(convert(v) for v in range(256))


def _describe(interface, spi: dict) -> str:
    """Which SPI ``interface`` is: hardware (spidev) or bit-banged, on which pins. (gpiozero
    2.0's own repr of a software SPI without a MOSI pin raises AttributeError.)"""
    if not isinstance(interface, SPISoftware):
        return repr(interface)  # e.g. SPI(port=0, device=0)
    pins = ", ".join(f"{k.removesuffix('_pin')} {v}" for k, v in spi.items() if v is not None)
    return f"software SPI ({pins})"


class ShiftRegisterChain:
    """The Scanner for ``registers`` chained 74HC165s. ``latch``: the GPIO wired to SH/LD.
    ``spi``: gpiozero SPI arguments (``port``/``device``, or ``clock_pin``, ``miso_pin``,
    ``select_pin`` with ``mosi_pin=None``). ``active_low``: a closed switch reads 0 (a reed
    switch to ground with a pull-up on the input). ``speed_hz``: the hardware SPI clock
    (software SPI goes as fast as Python toggles pins). ``interface`` describes the SPI used
    and ``fallback`` says why hardware SPI was not (None when it was, or was not asked for)."""

    senses_polarity = False

    def __init__(
        self,
        registers: int,
        latch: Pin,
        spi: dict | None = None,
        *,
        active_low: bool = True,
        a_first: bool = True,
        speed_hz: int = 1_000_000,
        pin_factory=None,
    ) -> None:
        if registers < 1:
            raise ValueError("a chain needs at least one register")
        self.registers, self.channels = registers, 8 * registers
        self._table = _table(active_low, a_first)
        self._spi: Any = None  # gpiozero's SPI interface, hardware or software (untyped)
        self._last: tuple[bytes, Scan] | None = None
        # SH/LD idles high (shift); on() pulls it low (load).
        self._latch = DigitalOutputDevice(latch, active_high=False, pin_factory=pin_factory)
        spi = spi or {"port": 0, "device": 0}
        try:
            self._spi, self.fallback = self._open(spi)
            self._spi.clock_mode = 0  # QH is valid before the first rising edge: sample on it
            if not isinstance(self._spi, SPISoftware):  # bit-banging has no rate control
                self._spi.rate = speed_hz
            self.interface = _describe(self._spi, spi)
        except Exception:
            self.close()
            raise

    def _open(self, spi: dict):
        """gpiozero's SPI interface, and its reason if it fell back from hardware to software."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", SPISoftwareFallback)
            # gpiozero declares pin_factory as None, without a type
            interface = self._latch.pin_factory.spi(**spi)  # type: ignore[attr-defined]
        fallback = [str(w.message) for w in caught if issubclass(w.category, SPISoftwareFallback)]
        return interface, (fallback[0] if fallback else None)

    def read(self) -> bytes:
        """Latch the inputs and shift the chain out: one byte per register, raw (H in bit 7)."""
        self._latch.on()
        self._latch.off()
        return bytes(self._spi.transfer([0] * self.registers))

    def scan(self) -> Scan:
        raw = self.read()
        if self._last is None or self._last[0] != raw:
            self._last = raw, Scan(closed_channels(raw.translate(self._table)))
        return self._last[1]

    def close(self) -> None:
        if self._spi is not None:
            self._spi.close()
            self._spi = None
        self._latch.close()
