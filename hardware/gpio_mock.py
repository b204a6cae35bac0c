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

from typing import Sequence

from gpiozero.pins.mock import MockFactory, MockPin

from hardware.ghost import Cell, ghosted


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
        factory.reed_matrix = self

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
        matrix = getattr(self.factory, "reed_matrix", None)
        if matrix and self._function == "input" and self.info.name in matrix.columns:
            return not matrix.column_low(self.info.name)
        return super()._get_state()
