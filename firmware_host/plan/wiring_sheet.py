"""The wiring sheet: the board scaled to a page with each site's sensor terminal and the LED
chain drawn through the sites in its order, and the same as a table, one line per site in
sensor-channel order (the order a builder solders a register or an expander in)."""

from __future__ import annotations

from typing import Sequence

from firmware_host.plan.board import PRINT_MARGIN, BoardPlan, Channels, Paper
from firmware_host.plan.sheet import Circle, Group, Item, Line, Sheet, Text
from hardware.wiring import WiringPlan

#: Lines of the table on one printed page.
TABLE_LINES = 62


def chain_sheet(plan: BoardPlan, channels: Channels, scanner: WiringPlan, leds: WiringPlan,
                page: Paper, title: str) -> Sheet:
    """The board fitted to ``page``: sites with their sensor terminal, and the LED chain as a
    line from LED 0 (a filled dot) through every LED in order."""
    w, h = page.window
    head = 18.0
    scale = min(w / plan.width, (h - head) / plan.height)

    def at(p: tuple[float, float]) -> tuple[float, float]:
        return PRINT_MARGIN + p[0] * scale, PRINT_MARGIN + head + p[1] * scale

    size = max(1.2, min(3.0, plan.pitch * scale * 0.22))
    items: list[Item] = [
        Text((PRINT_MARGIN, PRINT_MARGIN + 5), title, 4.5, "label", "start"),
        Text((PRINT_MARGIN, PRINT_MARGIN + 11), f"sensors: {scanner.title}; "
             f"LEDs: {leds.title} (blue line: the data's path, from the dot)", 2.8, "note", "start"),
    ]
    order = sorted(channels.led, key=channels.led.__getitem__)
    items.append(Line(tuple(at(plan.point(s)) for s in order), "chain"))
    items.append(Circle(at(plan.point(order[0])), max(0.8, size * 0.5), "chain-start"))
    for site in plan.sites:
        x, y = at(plan.point(site.label))
        sensor = channels.sensor[site.label]
        items.append(Group("wire", {"site": site.label, "sensor": sensor,
                                    "led": channels.led[site.label]}, [
            Circle((x, y), max(0.4, size * 0.2), "centre"),
            Text((x, y - size * 0.4), channels.terminal(sensor), size, "channel"),
        ]))
    return Sheet(page.width, page.height, items, {"sheet": "wiring"}, title)


def table_lines(sites: Sequence[str], channels: Channels, scanner: WiringPlan,
                leds: WiringPlan) -> list[str]:
    """One line per site in sensor-channel order: channel, site, where its switch is wired,
    its LED and where that LED is along the chain."""
    rows = [("sensor", "site", "switch wired to", "LED", "LED wired as")]
    for site in sorted(sites, key=channels.sensor.__getitem__):
        sensor, led = channels.sensor[site], channels.led[site]
        rows.append((str(sensor), site, scanner.terminal(sensor, long=True), str(led),
                     leds.terminal(led, long=True)))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return ["  ".join(cell.ljust(width) for cell, width in zip(r, widths + [0])).rstrip()
            for r in rows]


def table_sheets(lines: list[str], page: Paper, title: str) -> list[Sheet]:
    """The table on as many pages as it takes (a fixed-width text block per page)."""
    sheets = []
    body = lines[1:]
    pages = max(1, -(-len(body) // TABLE_LINES))
    size = min(2.8, page.window[0] / max(len(line) for line in lines) / 0.6)
    for n in range(pages):
        chunk = [lines[0], *body[n * TABLE_LINES:(n + 1) * TABLE_LINES]]
        items: list[Item] = [Text((PRINT_MARGIN, PRINT_MARGIN + 5),
                                  f"{title} - wiring table {n + 1} of {pages}", 4, "label", "start")]
        for i, line in enumerate(chunk):
            items.append(Text((PRINT_MARGIN, PRINT_MARGIN + 14 + i * 4.1), line, size,
                              "label" if i == 0 else "note", "start", mono=True))
        sheets.append(Sheet(page.width, page.height, items, {"sheet": "table"}, title))
    return sheets
