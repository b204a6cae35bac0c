"""A reed-switch matrix at pin level for gpiozero's ``MockFactory``: a column pin reads low when
a closed switch joins it to a row driven low; without diodes, current also runs back through
other closed switches, so the readings ghost as on a real diode-less board.

>>> from gpiozero.pins.mock import MockFactory
>>> factory = MockFactory(pin_class=ReedMatrixPin)
>>> matrix = ReedMatrix(factory, rows=[5, 6], columns=[13, 19], diodes=False)
>>> matrix.closed = {(0, 0), (0, 1), (1, 0)}
>>> from hardware.gpio import GpioMatrix
>>> scanner = GpioMatrix([5, 6], [13, 19], diodes=False, settle=0, pin_factory=factory)
>>> sorted(scanner.scan().ambiguous)
[0, 1, 2, 3]
"""

from __future__ import annotations

import weakref
from contextlib import contextmanager
from typing import Iterator, Sequence

from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin, MockSPIDevice

from hardware.ghost import Cell, ghosted

#: The matrix wired to each factory's pins.
_MATRICES: weakref.WeakKeyDictionary[MockFactory, ReedMatrix] = weakref.WeakKeyDictionary()


class ReedMatrix:
    """The switches of a matrix wired to the pins of a ``MockFactory`` whose ``pin_class`` is
    :class:`ReedMatrixPin`. ``closed``: the closed (row, column) cells."""

    def __init__(
        self, factory: MockFactory, rows: Sequence[int], columns: Sequence[int], diodes: bool
    ) -> None:
        self.rows = [f"GPIO{p}" for p in rows]
        self.columns = [f"GPIO{p}" for p in columns]
        self.diodes = diodes
        self.closed: set[Cell] = set()
        self.factory = factory
        _MATRICES[factory] = self

    def column_low(self, name: str) -> bool:
        """Whether column pin ``name`` is pulled low by the driven rows."""
        col = self.columns.index(name)
        driven = {r for r, row in enumerate(self.rows) if self._driven_low(row)}
        if not driven:
            return False
        cells = self.closed if self.diodes else ghosted(self.closed)
        return any((r, col) in cells for r in driven)

    def _driven_low(self, name: str) -> bool:
        pin = next((p for info, p in self.factory.pins.items() if info.name == name), None)
        return pin is not None and pin.function == "output" and not pin.state


class ReedMatrixPin(MockPin):
    """A mock pin that, as a matrix column, reads what the switches and driven rows make it.
    ``driven_high`` records whether it was ever driven high as an output."""

    driven_high = False

    def _set_state(self, value):
        if self._function == "output" and value:
            self.driven_high = True
        super()._set_state(value)

    def _get_state(self):
        matrix = _MATRICES.get(self.factory)
        if matrix and self._function == "input" and self.info.name in matrix.columns:
            return not matrix.column_low(self.info.name)
        return super()._get_state()


@contextmanager
def default_factory(factory: MockFactory) -> Iterator[MockFactory]:
    """Make ``factory`` gpiozero's default pin factory meanwhile. Software SPI needs this:
    gpiozero 2.0's ``SPISoftwareBus`` is a Device built without the ``pin_factory`` it is given
    (its pins get it), so it falls back to the default factory, and there is none off a Pi."""
    # gpiozero declares the class attribute as None, without a type
    saved, Device.pin_factory = Device.pin_factory, factory  # type: ignore[assignment]
    try:
        yield factory
    finally:
        Device.pin_factory = saved


class LatchPin(MockPin):
    """The SH/LD pin of a :class:`ShiftRegisterChainMock`: driven low, it loads the chain."""

    chain: "ShiftRegisterChainMock | None" = None

    def _set_state(self, value):
        super()._set_state(value)
        if self.chain is not None and self._function == "output" and not value:
            self.chain.load()


class ShiftRegisterChainMock(MockSPIDevice):
    """A chain of ``registers`` 74HC165s on the pins of a ``MockFactory``, for gpiozero's mock
    SPI. SH/LD low loads every input (clocks are ignored meanwhile); then each rising clock edge
    while CLK INH is low shifts one bit out on QH: register 0's input H first, down to A, then
    register 1's H, ... and after the last register, the grounded serial input (0s).

    - ``latch``: the SH/LD pin; ``select``: CLK INH; ``miso``: QH; ``clock``: CLK
    - ``closed``: the closed switch channels (8 * register + input, A..H = 0..7)
    - ``active_low``: a closed switch reads 0
    - ``loads``: the latch pulses counted

    >>> from hardware.shift_register import ShiftRegisterChain
    >>> with default_factory(MockFactory()) as factory:
    ...     chain = ShiftRegisterChainMock(factory, registers=3, latch=25)
    ...     chain.closed = {0, 9, 23}
    ...     scanner = ShiftRegisterChain(3, 25, pin_factory=factory)
    ...     sorted(scanner.scan().closed)
    ...     scanner.close()
    [0, 9, 23]
    """

    def __init__(
        self,
        factory: MockFactory,
        registers: int,
        latch: int,
        *,
        clock: int = 11,
        miso: int = 9,
        select: int = 8,
        active_low: bool = True,
    ) -> None:
        super().__init__(clock, miso_pin=miso, select_pin=select, pin_factory=factory)
        self.registers, self.active_low = registers, active_low
        self.closed: set[int] = set()
        self.loads = 0
        self.latch_pin = factory.pin(latch, pin_class=LatchPin)
        self.latch_pin.chain = self

    def load(self) -> None:
        """SH/LD went low: the shift register takes the inputs' levels (QH first)."""
        self.loads += 1
        level = (lambda ch: ch not in self.closed) if self.active_low else self.closed.__contains__
        self.tx_buf = [int(level(8 * r + i)) for r in range(self.registers) for i in reversed(range(8))]

    def on_start(self):
        # CLK INH going low selects the chain; unlike an SPI slave's transaction, this does
        # not clear what the latch loaded.
        self.rx_bit, self.rx_buf = 0, []

    def on_clock(self):
        if self.latch_pin.state:  # while SH/LD is low the register follows its inputs
            super().on_clock()
