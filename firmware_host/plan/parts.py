"""The bill of materials of a board, as text: one line per part with its count."""

from __future__ import annotations

from hardware.wiring import Part, WiringPlan


def parts_text(title: str, sites: int, scanner: WiringPlan, leds: WiringPlan,
               display: dict, size_mm: tuple[float, float] | None) -> str:
    """The parts for a board of ``sites`` sites wired as ``scanner`` and ``leds``.

    >>> from hardware.wiring import led_plan, scanner_plan
    >>> text = parts_text("Antipode", 61, scanner_plan({"backend": "74hc165"}, 61),
    ...                   led_plan({"backend": "ws2812"}, 61, 0.5), {}, None)
    >>> lines = text.splitlines()
    >>> "  61 x reed switch (normally open, one under each site)" in lines
    True
    >>> "  8 x 74HC165 shift register (8 inputs each)" in lines
    True
    """
    panel = str(display.get("backend", "")).upper()
    panel = panel if panel in ("SSD1306", "SH1106") else "SSD1306 or SH1106"
    address = display.get("address", 0x3C)
    sections = [
        (f"Sensors: {scanner.title}",
         [Part(sites, "reed switch", "normally open, one under each site"),
          Part(sites, "magnet", "one in each piece, over its switch"), *scanner.parts],
         scanner.notes),
        (f"LEDs: {leds.title}", leds.parts, leds.notes),
        ("Controls", [
            Part(1, f"OLED 128x64, {panel}, I2C", f"address {address:#04x}"),
            Part(3, "push button", "OK, BACK and MENU, each from its GPIO to GND"),
            Part(1, "Raspberry Pi", "Zero 2 W, 3, 4 or 5, with its own 5 V supply and a "
                 "microSD card"),
        ], []),
    ]
    lines = [f"Bill of materials: {title}, {sites} sites"]
    if size_mm:
        lines.append(f"Board: {size_mm[0]:.0f} x {size_mm[1]:.0f} mm with its margin")
    for heading, parts, notes in sections:
        lines += ["", heading, *(f"  {p.line()}" for p in parts),
                  *(f"  - {note}" for note in notes)]
    return "\n".join(lines) + "\n"
