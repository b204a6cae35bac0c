"""The GPIO matrix and buttons on gpiozero's MockFactory, with pins that model the switches."""

import time

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st

from hardware.ghost import ghosted, to_cells, to_channels
from hardware.gpio import GpioButtons, GpioMatrix
from hardware.gpio_mock import ReedMatrix, ReedMatrixPin
from testbed.tools import wait_until

ROWS = [5, 6, 12, 16]
COLS = [13, 19, 20, 21, 26]
cells = st.sets(st.tuples(st.integers(0, 3), st.integers(0, 4)), max_size=12)


def matrix(diodes):
    factory = MockFactory(pin_class=ReedMatrixPin)
    model = ReedMatrix(factory, ROWS, COLS, diodes=diodes)
    scanner = GpioMatrix(ROWS, COLS, diodes=diodes, settle=0, pin_factory=factory)
    return model, scanner, factory


@given(cells)
def test_with_diodes_the_scan_is_the_truth(truth):
    model, scanner, _ = matrix(diodes=True)
    model.closed = truth
    scan = scanner.scan()
    assert scan.sound and scan.closed == to_channels(truth, len(COLS))
    scanner.close()


@given(cells)
def test_without_diodes_ghosts_are_never_reported_closed(truth):
    model, scanner, _ = matrix(diodes=False)
    model.closed = truth
    scan = scanner.scan()
    assert scan.closed | scan.ambiguous == to_channels(ghosted(truth), len(COLS))
    assert to_cells(scan.closed, len(COLS)) <= truth
    if scan.sound:
        assert scan.closed == to_channels(truth, len(COLS))
    scanner.close()


def test_ghost_in_an_l_shape_is_ambiguous():
    model, scanner, _ = matrix(diodes=False)
    model.closed = {(0, 0), (0, 2), (3, 0), (2, 4)}
    scan = scanner.scan()
    assert scan.ambiguous == {0, 2, 15, 17}  # (3, 2) is the ghost
    assert scan.closed == {14}


def test_rows_are_released_after_a_scan_and_never_driven_high():
    model, scanner, factory = matrix(diodes=True)
    model.closed = {(1, 1)}
    scanner.scan()
    for name in model.rows:
        pin = factory.pin(name)
        assert pin.function == "input" and not pin.driven_high
        assert [s.state for s in pin.states][-3:] == [True, False, True]  # selected once


def test_channels_and_bad_pins():
    _, scanner, factory = matrix(diodes=True)
    assert scanner.channels == 20 and not scanner.senses_polarity
    with pytest.raises(ValueError, match="different"):
        GpioMatrix([5, 6], [6, 7], pin_factory=factory)


@pytest.fixture
def buttons():
    factory = MockFactory()
    b = GpioButtons(
        {"ok": 17, "back": 27, "menu": 22},
        hold_time=0.2,
        min_press=0.02,
        bounce_time=None,
        pin_factory=factory,
    )
    yield b, {name: factory.pin(f"GPIO{n}") for name, n in (("ok", 17), ("back", 27), ("menu", 22))}
    b.close()


def test_short_press():
    factory = MockFactory()
    # a hold time far beyond the press, so that a stalled test thread cannot make it long
    b = GpioButtons(
        {"ok": 17, "back": 27, "menu": 22}, hold_time=5, min_press=0.02, bounce_time=None, pin_factory=factory
    )
    try:
        pin = factory.pin("GPIO17")
        pin.drive_low()
        time.sleep(0.05)
        pin.drive_high()
        assert [(e.button, e.long) for e in b.events()] == [("ok", False)]
        assert b.events() == []
    finally:
        b.close()


def test_long_press_is_reported_while_still_held(buttons):
    b, pins = buttons
    pins["menu"].drive_low()
    seen = []
    assert wait_until(lambda: seen.extend(b.events()) or seen, timeout=3.0)
    assert [(e.button, e.long) for e in seen] == [("menu", True)]
    pins["menu"].drive_high()
    assert b.events() == []


def test_chatter_is_not_a_press(buttons):
    b, pins = buttons
    for _ in range(5):
        pins["back"].drive_low()
        pins["back"].drive_high()
    assert b.events() == []


def test_unknown_button_name():
    with pytest.raises(ValueError, match="no button 'start'"):
        GpioButtons({"start": 4}, pin_factory=MockFactory())
