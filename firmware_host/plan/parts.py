"""The parts list of a build, as text: the pieces to make and their magnets, one line per part
with its count, and the pins each controller gives (``reedboard plan --parts``)."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.plan.pieces import Clearance, Pieces, magnets
from hardware.pinplan import Budget
from hardware.wiring import MEGA, PI, Part, WiringPlan


@dataclass(frozen=True)
class Build:
    """What a parts list is made from."""

    title: str
    sites: int
    pitch: float
    pieces: list[Pieces]
    clearance: Clearance
    scanner: WiringPlan
    leds: WiringPlan
    display: dict
    budgets: list[Budget]


def parts_text(build: Build, size_mm: tuple[float, float] | None) -> str:
    """The parts for ``build``, section by section; ``size_mm``: the board's size, when the
    pitch was given."""
    panel = str(build.display.get("backend", "")).upper()
    panel = panel if panel in ("SSD1306", "SH1106") else "SSD1306 or SH1106"
    address = build.display.get("address", 0x3C)
    count = magnets(build.pieces)
    sections = [
        (f"Pieces at pitch {build.pitch:g} mm", [], [p.line() for p in build.pieces]),
        (
            f"Sensors: {build.scanner.title}",
            [
                Part(
                    build.sites,
                    "reed switch",
                    "normally open, glass 14 mm or shorter, one under each site's switch mark",
                ),
                Part(count, "magnet", "neodymium, 8 x 3 x 3 mm or alike: the pieces' magnets above"),
                *build.scanner.parts,
            ],
            [*build.scanner.notes, build.clearance.line(build.pitch)],
        ),
        (f"LEDs: {build.leds.title}", build.leds.parts, build.leds.notes),
        (
            "Controls",
            [
                Part(1, f"OLED 128x64, {panel}, I2C", f"address {address:#04x}"),
                Part(3, "push button", "OK, BACK and MENU, each from its GPIO to GND"),
                Part(1, PI, "Zero 2 W, 3, 4 or 5, with its own 5 V supply and a microSD card"),
                *(
                    [
                        Part(
                            1,
                            MEGA,
                            "with reedboard's firmware (docs/firmware.md), on a USB A-B cable from the Pi",
                        )
                    ]
                    if any(b.host == MEGA for b in build.budgets)
                    else []
                ),
            ],
            [],
        ),
        ("Pins", [], [line for b in build.budgets for line in b.lines()]),
    ]
    lines = [f"Parts: {build.title}, {build.sites} sites"]
    if size_mm:
        lines.append(f"Board: {size_mm[0]:.0f} x {size_mm[1]:.0f} mm with its margin")
    for heading, parts, notes in sections:
        lines += ["", heading, *(f"  {p.line()}" for p in parts)]
        lines += [f"  - {note}" if parts else f"  {note}" for note in notes]
    return "\n".join(lines) + "\n"
