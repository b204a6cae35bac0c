"""What a plan is drawn from (:func:`make_plan`), and writing its sheets (:func:`write_plan`)."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.board.game import Game
from firmware_host.plan.board import BoardPlan, Channels, board_sheet, paper, serpentine, tiles
from firmware_host.plan.parts import Build, parts_text
from firmware_host.plan.pieces import clearance, pieces
from firmware_host.plan.sheet import Sheet, to_pdf, to_svg
from firmware_host.plan.wiring_sheet import table_lines, table_sheets, wiring_sheets
from firmware_host.store.config import DEFAULT_BRIGHTNESS, Config
from firmware_host.store.layout import Layout, layout_for, layout_toml
from hardware.backends import HardwareOptionError
from hardware.pinplan import budgets, control_wires, fit_scanner, free_pins, matrix_advice
from hardware.wiring import MAGNET_REACH, WiringPlan, led_plan, near_square, scanner_plan


@dataclass
class BuildPlan:
    """Everything a plan is drawn from."""

    title: str
    board: BoardPlan
    channels: Channels
    scanner: WiringPlan
    leds: WiringPlan
    config: Config
    build: Build
    #: The layout file to write beside the sheets (the LED path the sheet proposes), if any.
    layout_file: str | None = None

    def sheets(self, paper_name: str) -> tuple[Sheet, list[Sheet], list[Sheet]]:
        """The whole board, its pages (one when it fits), the wiring sheets and table."""
        whole = board_sheet(self.board, self.channels, self.title)
        page = paper(paper_name, whole.width, whole.height)
        pages = tiles(whole, page)
        wiring = [
            *wiring_sheets(self.board, self.channels, self.build, paper_name),
            *table_sheets(self.table(), page, self.title),
        ]
        return whole, pages, wiring

    def table(self) -> list[str]:
        return table_lines([s.label for s in self.board.sites], self.channels, self.scanner, self.leds)

    def parts(self, with_size: bool) -> str:
        size = (self.board.width, self.board.height) if with_size else None
        return parts_text(self.build, size)

    def problems(self) -> list[str]:
        """Why the build cannot be wired as planned (its pins do not fit)."""
        return [
            f"{b.host}: {p}" + (f"; {b.advice[0]}" if b.advice else "")
            for b in self.build.budgets
            for p in b.problems
        ]


def make_plan(
    config: Config,
    game: Game,
    pitch: float,
    layout_path: str | None = None,
    scanner: str | None = None,
    default_scanner: str = "74hc165",
    reach: float = MAGNET_REACH,
) -> BuildPlan:
    """The plan of ``game`` on the board ``config`` describes (``scanner``: another backend
    than the config's; ``default_scanner`` for a config on the simulated board); ConfigError,
    OptionError (a game) or HardwareOptionError (its wiring). Without a layout file the LEDs
    are chained along the rows, each row the other way round."""
    state = game.new()
    sites = state.sites()
    board = BoardPlan(sites, pitch)
    path = layout_path or config.layout
    layout: Layout = layout_for(path, sites)
    if path is None:
        layout = Layout(layout.sensor, {label: n for n, label in enumerate(serpentine(board))})
    sensors = config.hardware("sensors")
    if scanner and scanner != sensors["backend"] or sensors["backend"] == "sim":
        sensors = {"backend": scanner or default_scanner}
    brightness = config.leds.get("brightness", DEFAULT_BRIGHTNESS)
    chain = config.hardware("leds")
    if chain["backend"] == "sim":  # the LEDs of the board the scanner is on
        chain = {"backend": "serial" if sensors["backend"] == "serial" else "ws2812"}
    leds = led_plan(chain, layout.led_channels, brightness)
    if leds.capacity < layout.led_channels:
        raise HardwareOptionError(
            f"leds: the board needs {layout.led_channels} LED channels, and the chain has {leds.capacity}"
        )
    controls = control_wires(config.display, config.buttons)
    sensors = fit_scanner(sensors, layout.sensor_channels, [*controls, *leds.wires])
    scan = scanner_plan(sensors, layout.sensor_channels)
    wires = [*scan.wires, *leds.wires, *controls]
    needed = {}
    if sensors["backend"] == "gpio-matrix" and not sensors.get("rows"):
        needed["matrix"] = sum(near_square(layout.sensor_channels))
    found = budgets(wires, needed)
    if needed:
        found[0].advice = matrix_advice(layout.sensor_channels, free_pins(wires))
    channels = Channels(layout.sensor, layout.led, scan.terminal)
    by_label = {s.label: s for s in sites}
    build = Build(
        game.title,
        len(sites),
        pitch,
        pieces(state.piece_sets(), board, by_label),
        clearance(board, reach),
        scan,
        leds,
        config.display,
        found,
    )
    layout_file = None if path else layout_toml(layout, game.name, game.size, game.variant)
    return BuildPlan(game.title, board, channels, scan, leds, config, build, layout_file)


def write_plan(plan: BuildPlan, out: str, fmt: str, paper_name: str) -> list[str]:
    """Write the sheets; the files written. SVG: ``out`` is the whole board, and beside it
    ``-page-NN.svg`` (when it does not fit the paper), ``-pins.svg`` (the controllers' pins),
    ``-wiring.svg`` (``-wiring-NN.svg``
    when it takes pages), ``-wiring.txt`` and, without a layout file, ``-layout.toml`` (the
    LED path drawn). PDF: one file, the pages then the wiring sheets and table."""
    whole, pages, wiring = plan.sheets(paper_name)
    if fmt == "pdf":
        with open(out, "wb") as fp:
            fp.write(to_pdf(pages + wiring))
        return [out]
    stem = out[:-4] if out.endswith(".svg") else out
    files = {out: to_svg(whole)}
    if len(pages) > 1:
        files |= {f"{stem}-page-{n:02d}.svg": to_svg(p) for n, p in enumerate(pages, 1)}
    files[f"{stem}-pins.svg"] = to_svg(wiring[0])
    drawn = [w for w in wiring if w.data.get("sheet") == "wiring"]
    if len(drawn) == 1:
        files[f"{stem}-wiring.svg"] = to_svg(drawn[0])
    else:
        files |= {f"{stem}-wiring-{n:02d}.svg": to_svg(w) for n, w in enumerate(drawn, 1)}
    files[f"{stem}-wiring.txt"] = "\n".join(plan.table()) + "\n"
    if plan.layout_file:
        files[f"{stem}-layout.toml"] = plan.layout_file
    for path, text in files.items():
        with open(path, "w", encoding="utf-8") as fp:
            fp.write(text)
    return list(files)
