"""Checks of the hardware a config names, one :class:`Check` each, for ``reedboard doctor``.

Each says OK, or FAIL with the fix: the device node exists and is accessible, the device
answers (an I2C address, the board's handshake on a serial port), the driver opens.
"""

from __future__ import annotations

import fcntl
import os
import time
from dataclasses import dataclass
from typing import Callable, Iterator

from hardware import backends
from hardware.protocol import FIRMWARE, FLASH, SILENT, BoardInfo

_I2C_SLAVE = 0x0703  # ioctl: set the address of the device to talk to (linux/i2c-dev.h)


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""

    def line(self) -> str:
        if self.ok:
            return f"OK    {self.name}: {self.detail}"
        return f"FAIL  {self.name}: {self.detail}" + (f" -> {self.fix}" if self.fix else "")


def hardware_checks(
    tables: dict[str, dict], handshake_seconds: float = 3.0, open_i2c: Callable[[int], object] | None = None
) -> list[Check]:
    """The checks of the backend tables ``sensors``, ``leds``, ``display`` and ``buttons``.
    ``open_i2c(port)``: the I2C bus to probe expanders on (default: smbus2 on /dev/i2c-N)."""
    return [
        *_sensors(tables["sensors"], handshake_seconds, open_i2c),
        *_leds(tables["leds"], handshake_seconds),
        *_display(tables["display"]),
        *_buttons(tables["buttons"]),
    ]


def _device(name: str, path: str, enable: str, group: str) -> Check:
    """A device node exists and this user may read and write it."""
    if not os.path.exists(path):
        return Check(name, False, f"{path} does not exist", enable)
    if not os.access(path, os.R_OK | os.W_OK):
        user = os.environ.get("USER", "this user")
        return Check(name, False, f"no access to {path}", f"sudo usermod -aG {group} {user}")
    return Check(name, True, f"{path} is accessible")


def _spi(name: str, path: str) -> Check:
    return _device(name, path, "enable SPI: sudo raspi-config nonint do_spi 0, then reboot", "spi")


def _attempt(name: str, build: Callable[[], object], detail: Callable[[object], str]) -> Check:
    """Build a driver with the hardware factory and describe it; a failure becomes FAIL."""
    try:
        driver = build()
    except (backends.HardwareOptionError, backends.HardwareUnavailable) as exc:
        return Check(name, False, str(exc), "see docs/hardware.md for this backend's options")
    try:
        return Check(name, True, detail(driver))
    finally:
        close = getattr(driver, "close", None)
        if close:
            close()


def _gpio() -> Check:
    return _device(
        "gpio",
        "/dev/gpiochip0",
        "this is not a Raspberry Pi, or the kernel lacks gpiochip",
        "gpio",
    )


# ------------------------------------------------------------------------------ sensors
def _sensors(options: dict, handshake_seconds: float, open_i2c=None) -> Iterator[Check]:
    backend = options.get("backend")
    if backend == "sim":
        yield Check("sensors", True, "simulated board")
        return
    if backend == "gpio-matrix":
        gpio = _gpio()
        yield gpio
        if gpio.ok:
            yield _attempt("sensors", lambda: backends.make_scanner(options), _describe_scan)
        return
    if backend == "74hc165":
        yield from _shift_registers(options)
        return
    if backend == "mcp23017":
        yield from _expanders(options, open_i2c)
        return
    yield from _serial("sensors", options, handshake_seconds)


def _expanders(options: dict, open_i2c) -> Iterator[Check]:
    """The I2C bus, each chip at its address (read back as an MCP23017), then a scan."""
    port = options.get("port", 1)
    if open_i2c is None:
        node = _device(
            "sensors i2c",
            f"/dev/i2c-{port}",
            "enable I2C: sudo raspi-config nonint do_i2c 0, then reboot",
            "i2c",
        )
        yield node
        if not node.ok:
            return

        def open_i2c(port: int):
            from smbus2 import SMBus

            return SMBus(port)

    bus = open_i2c(port)
    found = True
    try:
        for address in options.get("addresses", [0x20]):
            check = _expander_at(bus, port, address)
            found = found and check.ok
            yield check
    finally:
        bus.close()
    if found:
        yield _attempt("sensors", lambda: backends.make_scanner(options, bus=open_i2c(port)), _describe_scan)


def _expander_at(bus, port: int, address: int) -> Check:
    """Whether a device answers at ``address`` (the scan that follows checks it is an MCP23017)."""
    name = f"sensors chip {address:#04x}"
    try:
        bus.read_byte_data(address, 0x00)
    except OSError:
        return Check(
            name,
            False,
            f"no device answers at {address:#04x} on I2C bus {port}",
            f"check its power, SDA/SCL and the A2 A1 A0 straps (i2cdetect -y {port})",
        )
    return Check(name, True, f"MCP23017 answers at {address:#04x} on I2C bus {port}")


def _shift_registers(options: dict) -> Iterator[Check]:
    """GPIO for the latch, the SPI device node unless the pins are given, then a read."""
    checks = [_gpio()]
    if not any(pin in options for pin in ("clock", "miso", "select")):
        checks.append(_spi("sensors spi", f"/dev/spidev0.{options.get('spi_device', 0)}"))
    yield from checks
    if all(check.ok for check in checks):
        yield _attempt("sensors", lambda: backends.make_scanner(options), _describe_chain)


def _describe_chain(scanner) -> str:
    slow = f" ({scanner.fallback})" if scanner.fallback else ""
    return f"{_describe_scan(scanner)} over {scanner.interface}{slow}"


def _describe_scan(scanner) -> str:
    scan = scanner.scan()
    ghost = f", ambiguous reading on {len(scan.ambiguous)} channels" if scan.ambiguous else ""
    return f"{scanner.channels} channels read, {len(scan.closed)} closed{ghost}"


def _serial(name: str, options: dict, handshake_seconds: float) -> Iterator[Check]:
    port = str(options.get("port", ""))
    if port.startswith("/dev/"):
        node = _device(
            f"{name} port",
            port,
            "plug in the board's USB cable (or check the port name: ls /dev/serial/by-id/)",
            "dialout",
        )
        yield node
        if not node.ok:
            return
    found: list[BoardInfo] = []

    def connect() -> BoardInfo:
        found.append(_connected(name, options, handshake_seconds))
        return found[0]

    yield _attempt(name, connect, lambda info: f"board on {port} answered: {info}")
    if found:
        yield firmware_check(f"{name} firmware", found[0], port)


def firmware_check(name: str, info: BoardInfo, port: str) -> Check:
    """The board's firmware release against the one this host ships, in one line.

    >>> firmware_check("firmware", BoardInfo(1, 64, 64, False, firmware=1), "/dev/ttyS9").fix
    'reedboard firmware flash --port /dev/ttyS9'
    """
    if info.firmware != FIRMWARE:
        return Check(
            name,
            False,
            f"the board runs firmware {info.firmware}, this host ships {FIRMWARE}",
            f"{FLASH} --port {port}",
        )
    return Check(name, True, f"firmware {info.firmware}, serial protocol v{info.version}, as this host's")


def _connected(name: str, options: dict, seconds: float) -> BoardInfo:
    """Open the link and wait for the board's handshake; what the board said of itself. A board
    whose channel or LED count differs from the options is refused, as ``reedboard run`` would."""
    from hardware.serial_link import SerialLink

    link = SerialLink(
        options["port"],
        options.get("channels"),
        options.get("count", 0),
        baudrate=options.get("baudrate", 115200),
    )
    try:
        deadline = time.monotonic() + seconds
        while not link.connected and link.error is None and time.monotonic() < deadline:
            time.sleep(0.02)
            link.poll()
        if link.error:
            raise backends.HardwareUnavailable(f"{name}: the board refused: {link.error}")
        if not link.connected or link.info is None:
            raise backends.HardwareUnavailable(
                f"{name}: no handshake from the board on {options['port']} within {seconds:g} s "
                f"({SILENT} --port {options['port']})"
            )
        return link.info
    finally:
        link.close()


# -------------------------------------------------------------------- LEDs, display, buttons
def _leds(options: dict, handshake_seconds: float) -> Iterator[Check]:
    backend = options.get("backend")
    if backend == "sim":
        yield Check("leds", True, "simulated board")
    elif backend == "serial":
        yield from _serial("leds", options, handshake_seconds)
    elif backend == "max7219":
        node = _spi("leds", f"/dev/spidev{options.get('spi_port', 0)}.{options.get('spi_device', 0)}")
        yield node
        if node.ok:
            yield _attempt("leds", lambda: backends.make_leds(options), lambda d: "MAX7219 ready")
    else:
        yield _attempt("leds", lambda: backends.make_leds(options), lambda d: f"{backend} ready")


def _display(options: dict) -> Iterator[Check]:
    backend = options.get("backend")
    if backend in ("sim", "dummy"):
        yield Check("display", True, f"{backend} display (no panel)")
        return
    port, address = options.get("port", 1), options.get("address", 0x3C)
    bus = f"/dev/i2c-{port}"
    node = _device("display", bus, "enable I2C: sudo raspi-config nonint do_i2c 0, then reboot", "i2c")
    yield node
    if not node.ok:
        return
    if not _i2c_answers(bus, address):
        yield Check(
            "display",
            False,
            f"no device answers at {address:#04x} on {bus}",
            f"check the wiring and the address (i2cdetect -y {port})",
        )
        return
    yield _attempt(
        "display", lambda: backends.make_display(options), lambda d: f"{backend} at {address:#04x} on {bus}"
    )


def _i2c_answers(bus: str, address: int) -> bool:
    """Whether a device acknowledges a one-byte read at ``address``."""
    try:
        fd = os.open(bus, os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.ioctl(fd, _I2C_SLAVE, address)
        os.read(fd, 1)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def _buttons(options: dict) -> Iterator[Check]:
    if options.get("backend") == "sim":
        yield Check("buttons", True, "simulated buttons")
        return
    gpio = _gpio()
    yield gpio
    if gpio.ok:
        yield _attempt("buttons", lambda: backends.make_buttons(options), lambda d: "OK, BACK and MENU ready")
