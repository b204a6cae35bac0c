"""The wiring sheets to solder from: first the controllers' pins, each wire named at its pin;
then the board scaled to the page (a page per group of rows when the whole board would be too
small to read), every site with its name, its reed switch and where it is wired, its LED with
its number, and the LED chain's path from where its data comes in; and the same as a table, one
line per site in sensor-channel order (the order a register or an expander is soldered in)."""

from __future__ import annotations

import math
import textwrap
from typing import Sequence

from firmware_host.plan.board import (
    PAPERS,
    PRINT_MARGIN,
    SWITCH_BODY,
    BoardPlan,
    Channels,
    Paper,
    paper,
    rows_of,
    shifted,
)
from firmware_host.plan.parts import Build
from firmware_host.plan.sheet import Circle, Group, Item, Line, Sheet, Text
from hardware.headers import Header, header
from hardware.wiring import WiringPlan

#: Lines of the table on one printed page.
TABLE_LINES = 62
#: The least distance between two switches on a wiring sheet (mm): room for a site's name,
#: its switch's terminal and its LED's number.
READABLE = 11.0
#: Room at the top of a sheet for its title and legend (mm).
HEAD = 20.0
#: A pin row's height and a pin's radius on the header drawing (mm), and its labels' size.
ROW, PIN, PIN_TEXT = 4.4, 1.1, 2.3


def wiring_sheets(plan: BoardPlan, channels: Channels, build: Build, paper_name: str) -> list[Sheet]:
    """The pins sheet, then the board on one page or a page per group of rows."""
    return [pins_sheet(build, paper_name), *board_pages(plan, channels, build, paper_name)]


# ------------------------------------------------------------------------------------ pins
def _text_width(text: str, size: float) -> float:
    return 0.6 * size * len(text)


def _pin_label(pin: tuple[str, int | None, int], wires: dict[int, list[str]], numbered: bool) -> str:
    name, number, place = pin
    used = wires.get(number, []) if number is not None else []
    name = f"{name} (pin {place})" if numbered else name
    return f"{'; '.join(used)} - {name}" if used else name


def _header_items(head: Header, wires: dict[int, list[str]]) -> tuple[list[Item], float, float]:
    """``head`` drawn from (0, 0): each block a column of pins with the wires' labels beside
    them; its items, width and height."""
    x = y = 0.0
    items: list[Item] = [Text((x, y), head.title, 3.6, "label", "start")]
    top = y + 6
    for block in head.blocks:
        two = len(block[0]) == 2
        labels = [[_pin_label(p, wires, head.numbered) for p in row] for row in block]
        left = max(_text_width(row[0], PIN_TEXT) for row in labels) + 3 if two else 0.0
        right = max(_text_width(row[-1], PIN_TEXT) for row in labels) + 3
        centre = x + left + PIN * 2
        for i, row in enumerate(block):
            cy = top + i * ROW + ROW / 2
            for j, pin in enumerate(row):
                px = centre + j * 2.6 * PIN
                name, number, place = pin
                wired = wires.get(number, []) if number is not None else []
                used = bool(wired)
                at_left = two and j == 0
                tx = px - 2 * PIN if at_left else px + 2 * PIN
                parts: list[Item] = [
                    Circle((px, cy), PIN, "pin-used" if used else "pin-free"),
                    Text(
                        (tx, cy + PIN_TEXT * 0.35),
                        labels[i][j],
                        PIN_TEXT,
                        "label" if used else "note",
                        "end" if at_left else "start",
                    ),
                ]
                data: dict[str, object] = {"name": name, "place": place}
                if used:
                    data |= {"pin": number, "wire": "; ".join(wired)}
                items.append(Group("pin", data, parts))
        frame = (x + left, top, x + left + (5.2 if two else 2.6) * PIN + 1.4, top + len(block) * ROW)
        items.append(
            Line(
                ((frame[0], frame[1]), (frame[2], frame[1]), (frame[2], frame[3]), (frame[0], frame[3])),
                "frame",
                closed=True,
            )
        )
        x = centre + (2.6 * PIN if two else 0) + 2 * PIN + right + 6
    height = 6 + max(len(b) for b in head.blocks) * ROW + 4
    items.append(Text((0, top + height - 6), head.note, 2.2, "note", "start"))
    return items, x, height + 2


def pins_sheet(build: Build, paper_name: str) -> Sheet:
    """Each controller's header with every wire at its pin, and what else is wired."""
    hosts: dict[str, dict[int, list[str]]] = {}
    for budget in build.budgets:
        hosts[budget.host] = {pin: list(what) for pin, what in budget.used.items()}
    drawn = []
    for host, wires in hosts.items():
        drawn.append(_header_items(header(host), wires))
    notes = [*build.scanner.notes, *build.leds.notes]
    width = max(sum(w for _, w, _ in drawn), 160)
    height = max(h for _, _, h in drawn) + 9 * len(notes) + 10
    page = paper(paper_name, width, height)
    w, h = page.window
    items: list[Item] = [
        Text((PRINT_MARGIN, PRINT_MARGIN + 5), f"{build.title} - the pins", 4.5, "label", "start"),
        Text(
            (PRINT_MARGIN, PRINT_MARGIN + 11),
            "each wire at the pin it goes to; grey pins stay free",
            2.8,
            "note",
            "start",
        ),
    ]
    x, y, row_h = PRINT_MARGIN, PRINT_MARGIN + HEAD, 0.0
    for parts, pw, ph in drawn:
        if x + pw > PRINT_MARGIN + w and x > PRINT_MARGIN:
            x, y, row_h = PRINT_MARGIN, y + row_h, 0.0
        items += [shifted(i, x, y) for i in parts]
        x, row_h = x + pw, max(row_h, ph)
    y += row_h + 4
    for note in notes:
        for i, line in enumerate(textwrap.wrap(note, int(w / _text_width("m", 2.6)))):
            items.append(
                Text((PRINT_MARGIN + (3 if i else 0), y), f"{'' if i else '- '}{line}", 2.6, "note", "start")
            )
            y += 4.2
    return Sheet(page.width, page.height, items, {"sheet": "pins"}, build.title)


# ------------------------------------------------------------------------------------ board
def _bands(plan: BoardPlan, scale: float, room: float) -> list[list[str]]:
    """The board's rows in groups, each no taller than ``room`` mm at ``scale``."""
    bands: list[list[str]] = []
    top = 0.0
    for row in rows_of(plan):
        y = min(plan.point(label)[1] for label in row)
        bottom = max(plan.point(label)[1] for label in row)
        if not bands or (bottom - top + plan.pitch) * scale > room:
            bands.append([])
            top = y
        bands[-1].extend(row)
    return bands


def board_pages(plan: BoardPlan, channels: Channels, build: Build, paper_name: str) -> list[Sheet]:
    """The board at a readable scale: one page when it fits, else a page per group of rows
    (and of columns, when a row is wider than the page)."""
    page = Paper(*PAPERS[paper_name])
    if plan.width > plan.height:
        page = Paper(page.height, page.width)
    w, h = page.window
    room = h - HEAD
    fit = min(1.0, w / plan.width, room / plan.height)
    scale = max(fit, min(1.0, READABLE / plan.nearest))
    across = max(1, math.ceil(plan.width * scale / w - 1e-9))
    bands = _bands(plan, scale, room) if scale > fit else [[s.label for s in plan.sites]]
    span = plan.width / across
    groups = [
        [
            label
            for label in band
            if int(plan.point(label)[0] // span) == col
            or col == across - 1
            and plan.point(label)[0] >= plan.width
        ]
        for band in bands
        for col in range(across)
    ]
    groups = [g for g in groups if g]
    page_of = {label: n for n, group in enumerate(groups) for label in group}
    return [
        _board_page(plan, channels, build, page, scale, group, n, len(groups), page_of)
        for n, group in enumerate(groups)
    ]


def _board_page(
    plan: BoardPlan,
    channels: Channels,
    build: Build,
    page: Paper,
    scale: float,
    group: list[str],
    n: int,
    pages: int,
    page_of: dict[str, int],
) -> Sheet:
    points = [p for label in group for p in (plan.point(label), plan.led(label))]
    top = min(y for _, y in points) - 0.5 * plan.pitch
    left = min(x for x, _ in points) - 0.5 * plan.pitch
    right = max(x for x, _ in points) + 0.5 * plan.pitch
    pad = max(0.0, (page.window[0] - (right - left) * scale) / 2)

    def at(p: tuple[float, float]) -> tuple[float, float]:
        return (PRINT_MARGIN + pad + (p[0] - left) * scale, PRINT_MARGIN + HEAD + (p[1] - top) * scale)

    size = max(1.3, min(3.0, plan.nearest * scale * 0.16))
    leds = build.leds
    part = f" - page {n + 1} of {pages} (sites {group[0]} to {group[-1]})" if pages > 1 else ""
    items: list[Item] = [
        Text((PRINT_MARGIN, PRINT_MARGIN + 5), f"{build.title} - wiring{part}", 4.5, "label", "start"),
        Text(
            (PRINT_MARGIN, PRINT_MARGIN + 10.5),
            f"sensors: {build.scanner.title}; LEDs: {leds.title}",
            2.6,
            "note",
            "start",
        ),
        Text(
            (PRINT_MARGIN, PRINT_MARGIN + 15),
            "each site: its name, the reed switch (the bar, "
            "lying left to right under the magnet) with its terminal below, the LED (the "
            "square) with its number; blue: the LEDs' data path from each dot",
            2.2,
            "note",
            "start",
        ),
    ]
    inside = set(group)
    for label in group:
        items.append(_site(plan, channels, label, at, scale, size))
    order = sorted(channels.led, key=channels.led.__getitem__)
    items += _chain(plan, order, inside, at, leds, page_of, size, page.width / 2)
    return Sheet(
        page.width,
        page.height,
        items,
        {"sheet": "wiring", "page": n + 1, "scale": f"{scale:.4f}"},
        build.title,
    )


def _site(plan: BoardPlan, channels: Channels, label: str, at, scale: float, size: float) -> Item:
    site = plan.site(label)
    sx, sy = at(plan.point(label))
    lx, ly = at(plan.led(label))
    half, thick = SWITCH_BODY[0] * scale / 2, max(0.5, SWITCH_BODY[1] * scale) / 2
    cell = max(1.2, 5.0 * scale) / 2
    sensor, led = channels.sensor[label], channels.led[label]
    items: list[Item] = []
    if site.shape:
        items.append(Line(tuple(at(plan.mm(*p)) for p in site.shape), "outline", closed=len(site.shape) > 2))
    items += [
        Line(
            (
                (sx - half, sy - thick),
                (sx + half, sy - thick),
                (sx + half, sy + thick),
                (sx - half, sy + thick),
            ),
            "switch-body",
            closed=True,
        ),
        Line(
            ((lx - cell, ly - cell), (lx + cell, ly - cell), (lx + cell, ly + cell), (lx - cell, ly + cell)),
            "led",
            closed=True,
        ),
        Text((lx + cell + 0.3, ly - cell - 0.3), f"L{led}", 0.8 * size, "channel", "start"),
        Text((sx, sy + thick + size), label, size, "label"),
        Text((sx, sy + thick + 1.9 * size), channels.terminal(sensor), 0.8 * size, "note"),
    ]
    return Group(
        "wire", {"site": label, "sensor": sensor, "led": led, "terminal": channels.terminal(sensor)}, items
    )


def _chain(
    plan: BoardPlan,
    order: list[str],
    inside: set[str],
    at,
    leds: WiringPlan,
    page_of: dict[str, int],
    size: float,
    middle: float,
) -> list[Item]:
    """The LED path through the page's sites, a dot where data comes in, and where a run
    goes on to another page."""
    items: list[Item] = []
    run: list[tuple[float, float]] = []
    for i, label in enumerate(order):
        if label in inside and i in leds.starts:
            x, y = at(plan.led(label))
            left = x < middle  # the words run towards the middle of the page
            items += [
                Circle((x, y), max(0.8, size * 0.45), "chain-start"),
                Text(
                    (x + (size if left else -size), y - 2.2 * size),
                    leds.starts[i],
                    0.8 * size,
                    "channel",
                    "start" if left else "end",
                ),
            ]
        if label in inside and i not in leds.starts:
            run.append(at(plan.led(label)))
        else:
            if len(run) > 1:
                items.append(Line(tuple(run), "chain"))
            run = [at(plan.led(label))] if label in inside else []
        if label in inside and i + 1 < len(order) and order[i + 1] not in inside and i + 1 not in leds.starts:
            x, y = run[-1]
            items.append(
                Text(
                    (x, y - size),
                    f"to L{i + 1}, page {page_of[order[i + 1]] + 1}",
                    0.8 * size,
                    "channel",
                    "start",
                )
            )
    if len(run) > 1:
        items.append(Line(tuple(run), "chain"))
    return items


# ------------------------------------------------------------------------------------ table
def table_lines(sites: Sequence[str], channels: Channels, scanner: WiringPlan, leds: WiringPlan) -> list[str]:
    """One line per site in sensor-channel order: channel, site, where its switch is wired,
    its LED and where that LED is along the chain."""
    rows = [("sensor", "site", "switch wired to", "LED", "LED wired as")]
    for site in sorted(sites, key=channels.sensor.__getitem__):
        sensor, led = channels.sensor[site], channels.led[site]
        rows.append(
            (str(sensor), site, scanner.terminal(sensor, long=True), str(led), leds.terminal(led, long=True))
        )
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return ["  ".join(cell.ljust(width) for cell, width in zip(r, widths + [0])).rstrip() for r in rows]


def table_sheets(lines: list[str], page: Paper, title: str) -> list[Sheet]:
    """The table on as many pages as it takes (a fixed-width text block per page)."""
    sheets = []
    body = lines[1:]
    pages = max(1, -(-len(body) // TABLE_LINES))
    size = min(2.8, page.window[0] / max(len(line) for line in lines) / 0.6)
    for n in range(pages):
        chunk = [lines[0], *body[n * TABLE_LINES : (n + 1) * TABLE_LINES]]
        items: list[Item] = [
            Text(
                (PRINT_MARGIN, PRINT_MARGIN + 5),
                f"{title} - wiring table {n + 1} of {pages}",
                4,
                "label",
                "start",
            )
        ]
        for i, line in enumerate(chunk):
            items.append(
                Text(
                    (PRINT_MARGIN, PRINT_MARGIN + 14 + i * 4.1),
                    line,
                    size,
                    "label" if i == 0 else "note",
                    "start",
                    mono=True,
                )
            )
        sheets.append(Sheet(page.width, page.height, items, {"sheet": "table"}, title))
    return sheets
