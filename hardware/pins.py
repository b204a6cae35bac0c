"""Which GPIO pins a backend's options take, so a config can refuse a pin used twice before
any hardware is opened.

A pin is a BCM number or a name ("GPIO17" and "BCM17" are read as 17; other names such as
"J8:11" are kept, upper-cased). Besides the pins named in options, a backend on a bus takes
the bus's pins: bus lines (``bus`` set) may be shared by every user of that bus, a chip
select may not.

>>> sorted(gpio_pins("scanner", {"backend": "gpio-matrix", "rows": [5, "GPIO6"], "columns": [13]}))
[(5, 'rows', None), (6, 'rows', None), (13, 'columns', None)]
>>> gpio_pins("display", {"backend": "ssd1306", "port": 1})
[(2, 'I2C1 SDA', 'i2c1'), (3, 'I2C1 SCL', 'i2c1')]
"""

from __future__ import annotations

from typing import Any

#: Options that name GPIO pins, per (kind, backend); kinds as in hardware.backends' make_*.
PIN_OPTIONS = {
    ("scanner", "gpio-matrix"): ("rows", "columns"),
    ("scanner", "74hc165"): ("latch", "clock", "miso", "select"),
    ("scanner", "mcp23017"): ("rows", "interrupt"),
    ("buttons", "gpio"): ("ok", "back", "menu"),
}

_SPI0 = [(9, "SPI0 MISO"), (10, "SPI0 MOSI"), (11, "SPI0 SCLK")]
_SPI0_SELECT = {0: (8, "SPI0 CE0"), 1: (7, "SPI0 CE1")}
_I2C1 = [(2, "I2C1 SDA"), (3, "I2C1 SCL")]
_WS2812 = (18, "WS2812 data (PWM0)")

Pin = tuple[int | str, str, str | None]


def gpio_pins(kind: str, options: dict[str, Any]) -> list[Pin]:
    """(pin, what takes it, bus or None) for every GPIO pin the backend table ``options`` of
    ``kind`` takes. Values of the wrong type are left for the backend to refuse."""
    backend: str = options.get("backend") or ""
    pins = [
        (pin, key, None) for key in PIN_OPTIONS.get((kind, backend), ()) for pin in _listed(options.get(key))
    ]
    return pins + _bus_pins(kind, backend, options)


def _listed(value: Any) -> list[int | str]:
    out = []
    for pin in value if isinstance(value, list) else [value]:
        if isinstance(pin, str):
            number = pin.upper().removeprefix("GPIO").removeprefix("BCM")
            pin = int(number) if number.isdecimal() else pin.upper()
        if isinstance(pin, (int, str)) and not isinstance(pin, bool):
            out.append(pin)
    return out


def _bus_pins(kind: str, backend: Any, options: dict[str, Any]) -> list[Pin]:
    hardware_spi = (kind == "scanner" and backend == "74hc165" and "clock" not in options) or (
        kind == "leds" and backend == "max7219" and options.get("spi_port", 0) == 0
    )
    if hardware_spi:
        select = _SPI0_SELECT.get(options.get("spi_device", 0))
        return [(pin, what, "spi0") for pin, what in _SPI0] + ([(*select, None)] if select else [])
    on_i2c1 = (kind, backend) in (("display", "ssd1306"), ("display", "sh1106"), ("scanner", "mcp23017"))
    if on_i2c1 and options.get("port", 1) == 1:
        return [(pin, what, "i2c1") for pin, what in _I2C1]
    if kind == "leds" and backend == "ws2812":
        return [(*_WS2812, None)]
    return []
