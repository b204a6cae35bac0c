"""Build scanners, LED sinks, displays and buttons from plain option dicts (docs/hardware.md).

Each dict names a ``backend`` and that backend's options. A bad option raises
:class:`HardwareOptionError` (a ValueError) naming it; hardware that is missing (no I2C bus, not a
Raspberry Pi, a library only a Pi has) raises :class:`HardwareUnavailable` saying which.

>>> board = make_scanner({"backend": "sim", "channels": 16})
>>> make_leds({"backend": "sim"}, sim=board) is board.leds
True
>>> make_leds({"backend": "ws2812", "count": 400, "brightness": 3})
Traceback (most recent call last):
...
hardware.backends.HardwareOptionError: leds.ws2812: 'brightness' must be a number from 0 to 1, not 3
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Callable

from hardware import lazy

if TYPE_CHECKING:  # the simulated board's parts load with it: a real board needs none of them
    from hardware.sim import Noise, SimBoard

Options = dict[str, Any]
_REQUIRED = object()


class HardwareOptionError(ValueError):
    """A bad hardware option; the message is one line naming it."""


class HardwareUnavailable(RuntimeError):
    """The configured hardware cannot be opened; the message says what and why."""


class _Reader:
    """Takes typed options out of one backend's dict and complains about the rest."""

    def __init__(self, section: str, options: Options, backends: tuple[str, ...]) -> None:
        if not isinstance(options, dict):
            raise HardwareOptionError(f"{section}: expected a table of options, not {options!r}")
        self.options = dict(options)
        backend = self.options.pop("backend", None)
        if backend not in backends:
            raise HardwareOptionError(
                f"{section}: 'backend' must be one of {', '.join(backends)}, not {backend!r}"
            )
        self.backend, self.where = backend, f"{section}.{backend}"

    def _get(self, name: str, default: Any) -> Any:
        if name in self.options:
            return self.options.pop(name)
        if default is _REQUIRED:
            raise HardwareOptionError(f"{self.where}: missing option {name!r}")
        return default

    def fail(self, name: str, wanted: str, value: Any) -> HardwareOptionError:
        return HardwareOptionError(f"{self.where}: {name!r} must be {wanted}, not {value!r}")

    def int(self, name: str, default: Any = _REQUIRED, lo: int = 0, hi: int = 1 << 16) -> Any:
        value = self._get(name, default)
        ok = isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi
        if value is not default and not ok:
            raise self.fail(name, f"a whole number from {lo} to {hi}", value)
        return value

    def number(self, name: str, default: Any = _REQUIRED, lo: float = 0, hi: float = 1e9) -> Any:
        value = self._get(name, default)
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and lo <= value <= hi
        if value is not default and not ok:
            raise self.fail(name, f"a number from {lo:g} to {hi:g}", value)
        return value

    def bool(self, name: str, default: Any = _REQUIRED) -> Any:
        value = self._get(name, default)
        if not isinstance(value, bool):
            raise self.fail(name, "true or false", value)
        return value

    def text(self, name: str, default: Any = _REQUIRED) -> Any:
        value = self._get(name, default)
        if not isinstance(value, str) or not value:
            raise self.fail(name, "a string", value)
        return value

    def pin(self, name: str, default: Any = _REQUIRED) -> Any:
        value = self._get(name, default)
        if not _is_pin(value):
            raise self.fail(name, "a GPIO number or pin name", value)
        return value

    def pins(self, name: str) -> list:
        value = self._get(name, _REQUIRED)
        if not isinstance(value, list) or not value or not all(map(_is_pin, value)):
            raise self.fail(name, "a list of GPIO numbers or pin names", value)
        return value

    def done(self) -> None:
        if self.options:
            raise HardwareOptionError(f"{self.where}: unknown option {sorted(self.options)[0]!r}")


def _is_pin(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool) and value >= 0) or (
        isinstance(value, str) and bool(value)
    )


def _opening(what: str, build: Callable[[], Any]) -> Any:
    """Run ``build``; turn a missing device or library into HardwareUnavailable."""
    try:
        return build()
    except (HardwareOptionError, HardwareUnavailable):
        raise
    except Exception as error:  # the libraries raise many kinds: ImportError, OSError, ...
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise HardwareUnavailable(f"{what}: {reason}") from error


# -- the serial link, shared by the scanner and the LED sink on one port ----------------------

_links: dict[str, Any] = {}


def _link(port: str, baudrate: int):
    from hardware.serial_link import SerialLink

    link = _links.get(port)
    if link is None or link.shut:
        link = _links[port] = SerialLink(port, None, baudrate=baudrate)
    return link


def _serial(opt: "_Reader", count: str) -> tuple[Any, int]:
    """A serial backend's options (``port``, the channel ``count``, ``baudrate``): the link its
    port shares with the other serial backend, and the count."""
    port, channels = opt.text("port"), opt.int(count, lo=1, hi=1 << 14)
    baudrate = opt.int("baudrate", 115200, lo=1200, hi=1 << 24)
    opt.done()
    return _link(port, baudrate), channels


# -- scanners --------------------------------------------------------------------------------


def make_scanner(options: Options, *, pin_factory=None, bus=None):
    """A Scanner: ``sim``, ``gpio-matrix``, ``74hc165``, ``mcp23017`` or ``serial``.
    ``bus=``: an I2C bus object to use instead of opening ``/dev/i2c-N`` (tests)."""
    opt = _Reader("scanner", options, ("sim", "gpio-matrix", "74hc165", "mcp23017", "serial"))
    if opt.backend == "sim":
        channels, polarity = opt.int("channels", lo=1, hi=1 << 14), opt.bool("senses_polarity", False)
        noise = _noise(opt, opt._get("noise", None))
        columns, diodes = opt.int("columns", None, lo=1), opt.bool("diodes", True)
        leds = opt.int("leds", None, lo=0, hi=1 << 14)
        wiring = opt._get("wiring", None)
        opt.done()
        if not diodes and not columns:
            raise HardwareOptionError("scanner.sim: a diode-less board ('diodes' false) needs 'columns'")
        if wiring is not None:
            wiring = _wiring(opt, wiring, channels)
            leds = max(leds or 0, max((led + 1 for _, led in wiring.values()), default=0)) or None
        from hardware.sim import SimBoard

        return SimBoard(
            channels, polarity, noise=noise, columns=columns, diodes=diodes, leds=leds, wiring=wiring
        )
    if opt.backend == "gpio-matrix":
        from hardware.gpio import GpioMatrix

        rows, columns = opt.pins("rows"), opt.pins("columns")
        diodes = opt.bool("diodes", True)
        settle = opt.number("settle_us", 20, hi=10000) / 1e6
        opt.done()
        if len(set(rows) | set(columns)) != len(rows) + len(columns):
            raise HardwareOptionError("scanner.gpio-matrix: the row and column pins must all differ")
        return _opening(
            "gpio-matrix",
            lambda: GpioMatrix(rows, columns, diodes=diodes, settle=settle, pin_factory=pin_factory),
        )
    if opt.backend == "74hc165":
        return _shift_registers(opt, pin_factory)
    if opt.backend == "mcp23017":
        return _expanders(opt, pin_factory, bus)
    from hardware.serial_link import SerialScanner

    link, channels = _serial(opt, "channels")
    link.channels = channels
    return SerialScanner(link)


def _wiring(opt: _Reader, wiring: Any, channels: int) -> dict[str, tuple[int, int]]:
    """The simulated board's true wiring: site -> (sensor, LED) channel (the config reads it
    from a layout file)."""
    ok = isinstance(wiring, dict) and all(
        isinstance(pair, (list, tuple))
        and len(pair) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in pair)
        for pair in wiring.values()
    )
    if not ok:
        raise opt.fail("wiring", "site -> [sensor, led] channels", wiring)
    if any(sensor >= channels for sensor, _ in wiring.values()):
        raise HardwareOptionError(
            f"{opt.where}: the wiring uses sensor channels beyond the board's {channels}"
        )
    return {site: (pair[0], pair[1]) for site, pair in wiring.items()}


#: The software-SPI pin options of the 74hc165 scanner and gpiozero's names for them.
_SPI_PINS = {"clock": "clock_pin", "miso": "miso_pin", "select": "select_pin"}


def _shift_registers(opt: _Reader, pin_factory):
    from hardware.shift_register import ShiftRegisterChain

    registers, latch = opt.int("registers", lo=1, hi=2048), opt.pin("latch")
    order = opt._get("bit_order", "a-first")
    if order not in ("a-first", "h-first"):
        raise opt.fail("bit_order", "'a-first' or 'h-first'", order)
    active_low = opt.bool("active_low", True)
    speed = opt.int("speed_hz", 1_000_000, lo=10_000, hi=32_000_000)
    device = opt.int("spi_device", None, hi=1)
    pins = {name: opt.pin(name) for name in _SPI_PINS if name in opt.options}
    opt.done()
    if pins and (device is not None or len(pins) < len(_SPI_PINS)):
        raise HardwareOptionError(
            f"{opt.where}: give either 'spi_device' (hardware SPI0) or all of "
            "'clock', 'miso' and 'select' (any GPIO pins), not a mix"
        )
    if len({latch, *pins.values()}) != 1 + len(pins):
        raise HardwareOptionError(f"{opt.where}: the latch, clock, miso and select pins must all differ")
    spi = (
        {_SPI_PINS[name]: pin for name, pin in pins.items()} | {"mosi_pin": None}
        if pins
        else {"port": 0, "device": device or 0}
    )
    return _opening(
        "74hc165",
        lambda: ShiftRegisterChain(
            registers,
            latch,
            spi,
            active_low=active_low,
            a_first=order == "a-first",
            speed_hz=speed,
            pin_factory=pin_factory,
        ),
    )


#: The addresses an MCP23017 can be strapped to (A2 A1 A0): eight chips on one bus.
MCP23017_ADDRESSES = range(0x20, 0x28)


def _expanders(opt: _Reader, pin_factory, bus):
    from hardware.mcp23017 import Mcp23017Scanner

    port = opt.int("port", 1, hi=99)
    addresses = opt._get("addresses", [0x20])
    if not (
        isinstance(addresses, list)
        and addresses
        and len(set(addresses)) == len(addresses)
        and all(a in MCP23017_ADDRESSES and not isinstance(a, bool) for a in addresses)
    ):
        raise opt.fail(
            "addresses", "a list of different chip addresses from 0x20 to 0x27 (32 to 39)", addresses
        )
    rows = opt.pins("rows") if "rows" in opt.options else None
    interrupt = opt._get("interrupt", None)
    if interrupt is not None and not _is_pin(interrupt):
        raise opt.fail("interrupt", "a GPIO number or pin name", interrupt)
    diodes = opt.bool("diodes", True)
    settle = opt.number("settle_us", 20, hi=10000) / 1e6
    opt.done()
    if rows and interrupt is not None:
        raise HardwareOptionError(f"{opt.where}: 'interrupt' works with direct wiring only (no 'rows')")
    if rows and len(set(rows)) != len(rows):
        raise HardwareOptionError(f"{opt.where}: the row pins must all differ")
    if rows and interrupt in rows:
        raise HardwareOptionError(f"{opt.where}: the interrupt pin is also a row")

    def build():
        if bus is None:
            from smbus2 import SMBus

            opened = SMBus(port)
        else:
            opened = bus
        try:
            return Mcp23017Scanner(
                opened,
                addresses,
                rows=rows,
                diodes=diodes,
                interrupt=interrupt,
                settle=settle,
                pin_factory=pin_factory,
            )
        except OSError as error:
            raise HardwareUnavailable(
                f"mcp23017 on I2C bus {port}: no chip answers at "
                f"{_no_answer(opened, addresses):#04x} ({error.strerror or error})"
            ) from error

    return _opening(f"mcp23017 on I2C bus {port}", build)


def _no_answer(bus, addresses: list[int]) -> int:
    """The first of ``addresses`` where nothing answers on ``bus`` (the first, if all do)."""
    for address in addresses:
        try:
            bus.read_byte_data(address, 0)
        except OSError:
            return address
    return addresses[0]


def _noise(opt: _Reader, noise: Any) -> Noise | None:
    if noise is None or noise is False:
        return None
    from hardware.sim import Noise

    if noise is True:
        return Noise()
    if not isinstance(noise, dict):
        raise opt.fail("noise", "true, false or a table of noise settings", noise)
    sub = _Reader(opt.where + ".noise", {"backend": "-", **noise}, ("-",))
    bounce = sub._get("bounce_ms", [0.5, 1.0])
    if bounce is not False and not (
        isinstance(bounce, list)
        and len(bounce) == 2
        and all(isinstance(v, (int, float)) for v in bounce)
        and 0 <= bounce[0] <= bounce[1]
    ):
        raise sub.fail("bounce_ms", "[shortest, longest] or false", bounce)
    result = Noise(
        bounce=None if bounce is False else (bounce[0] / 1000, bounce[1] / 1000),
        missed_read=sub.number("missed_read", 0.0, hi=1),
        hover_rate=sub.number("hover_rate", 0.0, hi=1000),
        hover_time=sub.number("hover_time", 0.03, hi=10),
        seed=sub.int("seed", 0, hi=1 << 62),
    )
    sub.done()
    return result


def simulated(scanner: Any) -> SimBoard | None:
    """``scanner`` if it is the simulated board, else None (without loading hardware.sim,
    which a board built from it has loaded)."""
    sim = sys.modules.get("hardware.sim")
    return scanner if sim is not None and isinstance(scanner, sim.SimBoard) else None


# -- LED sinks -------------------------------------------------------------------------------


def make_leds(options: Options, *, sim: SimBoard | None = None, device=None):
    """An LedSink: ``sim``, ``ws2812``, ``max7219`` or ``serial``. ``sim=`` the board whose
    LEDs to use; ``device=`` a ready luma device (tests)."""
    opt = _Reader("leds", options, ("sim", "ws2812", "max7219", "serial"))
    if opt.backend == "sim":
        count = opt.int("count", None, lo=1, hi=1 << 14)
        opt.done()
        if sim is not None:
            return sim.leds
        if count is None:
            raise HardwareOptionError("leds.sim: missing option 'count' (or give the simulated board)")
        from hardware.sim import SimLeds

        return SimLeds(count)
    if opt.backend == "serial":
        from hardware.serial_link import SerialLeds

        link, count = _serial(opt, "count")
        link.leds = count
        return SerialLeds(link)
    return _luma_leds(opt, device)


def _luma_leds(opt: _Reader, device):
    from hardware.leds import LumaLeds

    common = {
        "brightness": opt.number("brightness", 1.0, hi=1),
        "fps": opt.number("fps", 50, lo=1, hi=200),
    }
    if opt.backend == "ws2812":
        count = opt.int("count", lo=1, hi=4096)
        mapping = opt._get("mapping", None)
        if mapping is not None and sorted(mapping) != list(range(count)):
            raise opt.fail("mapping", f"a reordering of 0..{count - 1}", mapping)
        common["max_current_ma"] = opt.number("max_current_ma", 2000, lo=1, hi=1e6)
        common["ma_per_channel"] = opt.number("ma_per_channel", 20, lo=0.1, hi=100)
        opt.done()

        def build():
            import _rpi_ws281x  # noqa: F401  (luma needs it; fail before luma half-builds)

            with lazy.luma_imports():
                from luma.led_matrix.device import ws2812

            return ws2812(cascaded=count, mapping=mapping)

        what = "ws2812 (needs the rpi_ws281x module and root on a Raspberry Pi)"
    else:
        cascaded = opt.int("cascaded", 1, lo=1, hi=64)
        port, spi_device = opt.int("spi_port", 0, hi=9), opt.int("spi_device", 0, hi=9)
        orientation = opt._get("block_orientation", 0)
        if orientation not in (0, 90, -90, 180):
            raise opt.fail("block_orientation", "0, 90, -90 or 180", orientation)
        opt.done()

        def build():
            with lazy.luma_imports():
                from luma.core.interface.serial import spi
                from luma.led_matrix.device import max7219

            return max7219(
                spi(port=port, device=spi_device), cascaded=cascaded, block_orientation=orientation
            )

        what = f"max7219 on SPI {port}.{spi_device} (needs spidev and SPI enabled)"
    device = device or _opening(what, build)
    return LumaLeds(device, **common)


# -- displays --------------------------------------------------------------------------------


def make_display(options: Options, *, sim: SimBoard | None = None):
    """A Display: ``sim``, ``dummy`` (luma's, no panel), ``ssd1306`` or ``sh1106``."""
    opt = _Reader("display", options, ("sim", "dummy", "ssd1306", "sh1106"))
    if opt.backend == "sim":
        opt.done()
        if sim is not None:
            return sim.display
        from hardware.sim import SimDisplay

        return SimDisplay()
    from hardware.oled import LumaDisplay

    rotate = opt.int("rotate", 0, hi=3)
    size = {"width": opt.int("width", 128, lo=8, hi=256), "height": opt.int("height", 64, lo=8, hi=128)}
    if opt.backend == "dummy":
        opt.done()
        with lazy.luma_imports():
            from luma.core.device import dummy

        return LumaDisplay(dummy(mode="1", rotate=rotate, **size))
    port, address = opt.int("port", 1, hi=99), opt.int("address", 0x3C, lo=0x03, hi=0x77)
    opt.done()

    def build():
        with lazy.luma_imports():
            from luma.core.interface.serial import i2c
            from luma.oled import device as oled

        panel = getattr(oled, opt.backend)
        return panel(i2c(port=port, address=address), rotate=rotate, **size)

    return LumaDisplay(
        _opening(f"{opt.backend} on I2C bus {port} address {address:#04x}", build), thread=True
    )


# -- buttons ---------------------------------------------------------------------------------


def make_buttons(options: Options, *, sim: SimBoard | None = None, pin_factory=None):
    """Buttons: ``sim`` or ``gpio`` (pins ``ok``, ``back``, ``menu``)."""
    opt = _Reader("buttons", options, ("sim", "gpio"))
    if opt.backend == "sim":
        opt.done()
        from hardware.simbuttons import SimButtons

        return sim.buttons if sim is not None else SimButtons()
    from hardware.gpio import GpioButtons

    pins = {name: opt.pin(name) for name in ("ok", "back", "menu")}
    hold = opt.number("hold_time", 1.0, lo=0.1, hi=10)
    min_press = opt.number("min_press", 0.03, hi=1)
    opt.done()
    if len(set(pins.values())) != len(pins):
        raise HardwareOptionError("buttons.gpio: the ok, back and menu pins must all differ")
    return _opening(
        "gpio buttons",
        lambda: GpioButtons(pins, hold_time=hold, min_press=min_press, pin_factory=pin_factory),
    )
