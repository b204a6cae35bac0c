"""The 74HC165 chain scanner on gpiozero's MockFactory and mock SPI, with a MockSPIDevice
subclass modelling the chain (hardware/gpio_mock.py)."""

from contextlib import contextmanager

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st

from hardware import diagnose
from hardware.backends import HardwareOptionError, HardwareUnavailable, make_scanner
from hardware.diagnose import Check
from hardware.gpio_mock import ShiftRegisterChainMock, default_factory
from hardware.shift_register import ShiftRegisterChain

LATCH = 25


@contextmanager
def chain(registers, options=(), **pins):
    """A mock chain and the scanner make_scanner builds for it from ``options``."""
    with default_factory(MockFactory()) as factory:
        model = ShiftRegisterChainMock(
            factory, registers, LATCH, **pins, active_low=dict(options).get("active_low", True)
        )
        scanner = make_scanner(
            {"backend": "74hc165", "registers": registers, "latch": LATCH, **dict(options)},
            pin_factory=factory,
        )
        try:
            yield model, scanner
        finally:
            scanner.close()
            model.close()


@given(
    st.integers(1, 6).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.sets(st.integers(0, 8 * n - 1)),
            st.booleans(),
            st.sampled_from(["a-first", "h-first"]),
        )
    )
)
def test_the_scan_reads_every_switch(case):
    registers, closed, active_low, order = case
    with chain(registers, {"active_low": active_low, "bit_order": order}) as (model, scanner):
        model.closed = set(closed)
        expected = closed if order == "a-first" else {ch ^ 7 for ch in closed}
        scan = scanner.scan()
        assert scan.closed == expected and scan.sound and scanner.channels == 8 * registers


def test_one_latch_pulse_then_exactly_the_chain_clocked_out():
    with chain(4) as (model, scanner):
        model.closed = {3}
        scanner.scan()
        assert model.loads == 1 and model.rx_bit == 32
        assert model.latch_pin.state and model.select_pin.state  # SH/LD and CLK INH idle high
        scanner.scan()
        assert model.loads == 2


def test_a_change_is_seen_and_an_unchanged_scan_is_the_same_object():
    with chain(100) as (model, scanner):
        model.closed = {0, 417, 799}
        first = scanner.scan()
        assert first.closed == {0, 417, 799} and scanner.scan() is first
        model.closed.discard(417)
        assert scanner.scan().closed == {0, 799}


def test_software_spi_on_any_pins():
    pins = {"clock": 21, "miso": 19, "select": 16}
    with chain(2, pins, **pins) as (model, scanner):
        model.closed = {1, 14}
        assert scanner.scan().closed == {1, 14}
        assert scanner.interface == "software SPI (clock 21, miso 19, select 16)"
        assert scanner.fallback is None


def test_spi_device_1_selects_with_ce1():
    with chain(1, {"spi_device": 1}, select=7) as (model, scanner):
        model.closed = {5}
        assert scanner.scan().closed == {5}
        assert scanner.interface == "software SPI (port 0, device 1)"


@pytest.mark.filterwarnings("ignore::gpiozero.exc.PinFactoryFallback")
def test_without_a_pin_factory_off_a_pi_the_error_is_one_line():
    with pytest.raises(HardwareUnavailable) as error:
        make_scanner({"backend": "74hc165", "registers": 2, "latch": 25})
    assert str(error.value).startswith("74hc165: ") and "\n" not in str(error.value)


@pytest.mark.parametrize(
    "options, message",
    [
        ({}, "scanner.74hc165: missing option 'registers'"),
        ({"registers": 0, "latch": 25}, "'registers' must be a whole number from 1 to 2048, not 0"),
        ({"registers": 2}, "missing option 'latch'"),
        (
            {"registers": 2, "latch": 25, "bit_order": "msb"},
            "'bit_order' must be 'a-first' or 'h-first', not 'msb'",
        ),
        ({"registers": 2, "latch": 25, "active_low": 1}, "'active_low' must be true or false"),
        ({"registers": 2, "latch": 25, "spi_device": 2}, "'spi_device' must be a whole number from 0 to 1"),
        ({"registers": 2, "latch": 25, "speed_hz": 10}, "'speed_hz' must be a whole number"),
        ({"registers": 2, "latch": 25, "clock": 21}, "give either 'spi_device' (hardware SPI0) or all of"),
        ({"registers": 2, "latch": 25, "clock": 21, "miso": 19, "select": 16, "spi_device": 0}, "not a mix"),
        ({"registers": 2, "latch": 21, "clock": 21, "miso": 19, "select": 16}, "pins must all differ"),
        ({"registers": 2, "latch": 25, "mosi": 10}, "unknown option 'mosi'"),
    ],
)
def test_bad_options_name_the_option(options, message):
    with pytest.raises(HardwareOptionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_scanner({"backend": "74hc165", **options}, pin_factory=MockFactory())


def test_a_chain_needs_a_register():
    with pytest.raises(ValueError, match="at least one register"):
        ShiftRegisterChain(0, LATCH, pin_factory=MockFactory())


def test_doctor_checks_gpio_and_the_spi_node_then_reads(monkeypatch):
    asked = []

    def device(name, path, enable, group):
        asked.append(path)
        return Check(name, True, f"{path} is accessible")

    monkeypatch.setattr(diagnose, "_device", device)
    with default_factory(MockFactory()) as factory:
        model = ShiftRegisterChainMock(factory, 100, LATCH, select=7)
        model.closed = {1, 2, 799}
        checks = list(
            diagnose._sensors({"backend": "74hc165", "registers": 100, "latch": LATCH, "spi_device": 1}, 0)
        )
        model.close()
    assert asked == ["/dev/gpiochip0", "/dev/spidev0.1"]
    assert checks[-1].line() == (
        "OK    sensors: 800 channels read, 3 closed over software SPI (port 0, device 1)"
    )
