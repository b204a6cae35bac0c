"""The mcp23017 scanner against a stand-in I2C bus that models the chip's registers
(hardware/mcp23017_mock.py), with gpiozero's MockFactory for the rows and the interrupt line."""

import pytest
from gpiozero.pins.mock import MockFactory

from hardware import backends
from hardware.diagnose import hardware_checks
from hardware.mcp23017 import GPINTEN, GPIO, GPPU, INTCAP, INTF, IOCON, IOCON_VALUE, IODIR
from hardware.mcp23017_mock import ExpanderMatrix, I2cBus, Mcp23017
from hardware.wake import Waker


def bus_with(*addresses):
    bus = I2cBus()
    for address in addresses:
        bus.attach(Mcp23017(address))
    return bus


def scanner(bus, factory=None, **options):
    return backends.make_scanner(
        {"backend": "mcp23017", **options}, bus=bus, pin_factory=factory or MockFactory()
    )


def test_direct_wiring_reads_sixteen_switches_a_chip():
    bus = bus_with(0x20, 0x23)
    scan = scanner(bus, addresses=[0x20, 0x23])
    for chip in bus.chips.values():  # set up as the datasheet wants: inputs, pull-ups
        assert chip.registers[IODIR : IODIR + 2] == b"\xff\xff"
        assert chip.registers[GPPU : GPPU + 2] == b"\xff\xff"
        assert chip.registers[IOCON] == IOCON_VALUE
        assert chip.registers[GPINTEN : GPINTEN + 2] == b"\x00\x00"
    bus.chips[0x20].closed = {0, 15}
    bus.chips[0x23].closed = {7, 8}
    assert scan.channels == 32
    assert sorted(scan.scan().closed) == [0, 15, 16 + 7, 16 + 8]
    before = bus.transfers
    scan.scan()
    assert bus.transfers - before == 2  # one two-byte read per chip and scan
    scan.close()
    assert bus.closed


def test_a_missing_chip_is_named():
    with pytest.raises(backends.HardwareUnavailable, match="no chip answers at 0x21"):
        scanner(bus_with(0x20), addresses=[0x20, 0x21])


def test_a_device_that_is_no_mcp23017_is_refused():
    bus = bus_with(0x20)
    bus.chips[0x20].write = lambda value: None  # ignores every write, like a read-only device
    bus.chips[0x20].registers[IODIR] = 0
    with pytest.raises(backends.HardwareUnavailable, match="does not answer as an MCP23017"):
        scanner(bus)


def test_interrupts_wake_the_loop_and_spare_the_bus():
    factory = MockFactory()
    bus = bus_with(0x20, 0x21)
    line = factory.pin(4)
    line.drive_high()
    bus.on_interrupt = lambda low: line.drive_low() if low else line.drive_high()
    scan = scanner(bus, addresses=[0x20, 0x21], interrupt=4, factory=factory)
    waker = Waker()
    scan.wakes(waker)
    assert bus.chips[0x21].registers[GPINTEN : GPINTEN + 2] == b"\xff\xff"
    assert scan.scan().closed == frozenset()
    before = bus.transfers
    for _ in range(5):
        assert scan.scan().closed == frozenset()
    assert bus.transfers == before and scan.quiet  # nothing changed: the bus was not read
    bus.chips[0x21].closed = {9}
    bus.changed()
    assert line.state is False and waker.wait(1) and not scan.quiet
    assert scan.scan().closed == {16 + 9}
    assert line.state is True and scan.quiet  # reading GPIO cleared the interrupt
    waker.close()
    scan.close()


def test_as_a_matrixs_columns():
    factory = MockFactory()
    bus = bus_with(0x20, 0x21)
    matrix = ExpanderMatrix(bus, factory, rows=[5, 6, 12], diodes=True)
    scan = scanner(bus, addresses=[0x20, 0x21], rows=[5, 6, 12], settle_us=0, factory=factory)
    assert scan.channels == 3 * 32
    matrix.closed = {(0, 0), (1, 31), (2, 17)}
    assert sorted(scan.scan().closed) == [0, 32 + 31, 64 + 17]
    scan.close()


def test_without_diodes_a_ghosting_reading_is_ambiguous():
    factory = MockFactory()
    bus = bus_with(0x20)
    matrix = ExpanderMatrix(bus, factory, rows=[5, 6], diodes=False)
    scan = scanner(bus, rows=[5, 6], diodes=False, settle_us=0, factory=factory)
    matrix.closed = {(0, 0), (0, 1), (1, 0)}
    reading = scan.scan()
    assert reading.closed == frozenset() and sorted(reading.ambiguous) == [0, 1, 16, 17]
    scan.close()


@pytest.mark.parametrize(
    "options,message",
    [
        ({"addresses": [0x19]}, "'addresses' must be a list of different chip addresses"),
        ({"addresses": [0x20, 0x20]}, "'addresses' must be a list"),
        ({"rows": [5, 6], "interrupt": 4}, "'interrupt' works with direct wiring only"),
        ({"speed": 4}, "unknown option 'speed'"),
    ],
)
def test_bad_options_are_named(options, message):
    with pytest.raises(backends.HardwareOptionError, match=message):
        backends.make_scanner({"backend": "mcp23017", **options}, bus=bus_with(0x20))


def test_the_stand_in_keeps_the_datasheets_rules():
    bus = bus_with(0x20)
    chip = bus.chips[0x20]
    bus.write_i2c_block_data(0x20, GPPU, [0xFF, 0xFF])
    bus.write_i2c_block_data(0x20, GPINTEN, [0x01, 0x00])
    chip.closed = {0}
    bus.changed()
    assert chip.registers[INTF] == 0x01 and chip.registers[INTCAP] == 0xFE
    chip.closed = set()
    bus.changed()  # the capture holds the value at the interrupt until it is cleared
    assert chip.registers[INTCAP] == 0xFE
    assert bus.read_byte_data(0x20, INTCAP) == 0xFE and chip.registers[INTF] == 0
    bus.write_byte_data(0x20, IOCON, 0x20)  # SEQOP: byte mode toggles within the A/B pair
    assert bus.read_i2c_block_data(0x20, GPIO, 3) == [0xFF, 0xFF, 0xFF]
    assert bus.read_i2c_block_data(0x20, IODIR, 3) == [0xFF, 0xFF, 0xFF]


def test_doctor_finds_each_chip_at_its_address():
    bus = bus_with(0x20, 0x22)
    tables = {
        "sensors": {"backend": "mcp23017", "addresses": [0x20, 0x21, 0x22]},
        "leds": {"backend": "sim"},
        "display": {"backend": "sim"},
        "buttons": {"backend": "sim"},
    }
    lines = [c.line() for c in hardware_checks(tables, open_i2c=lambda port: bus)]
    assert "OK    sensors chip 0x20: MCP23017 answers at 0x20 on I2C bus 1" in lines
    assert any(
        line.startswith("FAIL  sensors chip 0x21: no device answers at 0x21") and "i2cdetect -y 1" in line
        for line in lines
    )
    bus.attach(Mcp23017(0x21))
    lines = [c.line() for c in hardware_checks(tables, open_i2c=lambda port: bus)]
    assert "OK    sensors: 48 channels read, 0 closed" in lines


def test_doctor_without_the_bus_says_how_to_enable_it(tmp_path, capsys):
    from firmware_host.cli.main import main

    config = tmp_path / "config.toml"
    config.write_text(f'storage = "{tmp_path}/games.db"\n[sensors]\nbackend = "mcp23017"\nport = 97\n')
    assert main(["doctor", "--config", str(config)]) == 1
    assert "FAIL  sensors i2c: /dev/i2c-97 does not exist -> enable I2C" in capsys.readouterr().out


def test_a_bad_option_in_the_config_names_the_file_and_the_table(tmp_path, capsys):
    from firmware_host.cli.main import main

    config = tmp_path / "config.toml"
    config.write_text('storage = ":memory:"\n[sensors]\nbackend = "mcp23017"\naddresses = [0x30]\n')
    assert main(["run", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"reedboard run: {config}: [sensors] mcp23017: 'addresses' must be")


def test_the_interrupt_pin_is_checked_against_the_other_tables(tmp_path):
    from firmware_host.store.config import ConfigError, load_config

    config = tmp_path / "config.toml"
    config.write_text(
        '[sensors]\nbackend = "mcp23017"\ninterrupt = 17\n'
        '[buttons]\nbackend = "gpio"\nok = 17\nback = 27\nmenu = 22\n'
    )
    with pytest.raises(
        ConfigError,
        match=r"\[buttons\] ok: GPIO pin 17 is also used by "
        r"\[sensors\] interrupt",
    ):
        load_config(str(config))
