"""What a plan is drawn from (:func:`make_plan`), and writing its sheets (:func:`write_plan`)."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_host.board.game import Game
from firmware_host.plan.board import BoardPlan, Channels, board_sheet, paper, tiles
from firmware_host.plan.parts import parts_text
from firmware_host.plan.sheet import Sheet, to_pdf, to_svg
from firmware_host.plan.wiring_sheet import chain_sheet, table_lines, table_sheets
from firmware_host.store.config import DEFAULT_BRIGHTNESS, Config
from firmware_host.store.layout import Layout, layout_for
from hardware.backends import HardwareOptionError
from hardware.wiring import WiringPlan, led_plan, scanner_plan


@dataclass
class BuildPlan:
    """Everything a plan is drawn from."""

    title: str
    board: BoardPlan
    channels: Channels
    scanner: WiringPlan
    leds: WiringPlan
    config: Config

    def sheets(self, paper_name: str) -> tuple[Sheet, list[Sheet], list[Sheet]]:
        """The whole board, its pages (one when it fits), the wiring sheet and table."""
        whole = board_sheet(self.board, self.channels, self.title)
        page = paper(paper_name, whole.width, whole.height)
        pages = tiles(whole, page)
        wiring_page = paper(paper_name, self.board.width, self.board.height + 18)
        wiring = [chain_sheet(self.board, self.channels, self.scanner, self.leds, wiring_page,
                              self.title), *table_sheets(self.table(), page, self.title)]
        return whole, pages, wiring

    def table(self) -> list[str]:
        return table_lines([s.label for s in self.board.sites], self.channels, self.scanner,
                           self.leds)

    def parts(self, with_size: bool) -> str:
        size = (self.board.width, self.board.height) if with_size else None
        return parts_text(self.title, len(self.board.sites), self.scanner, self.leds,
                          self.config.display, size)


def make_plan(config: Config, game: Game, pitch: float, layout_path: str | None = None,
              scanner: str | None = None, default_scanner: str = "74hc165") -> BuildPlan:
    """The plan of ``game`` on the board ``config`` describes (``scanner``: another backend
    than the config's; ``default_scanner`` for a config on the simulated board);
    ConfigError, OptionError (a game) or HardwareOptionError (its wiring)."""
    sites = game.new().sites()
    layout: Layout = layout_for(layout_path or config.layout, sites)
    sensors = config.hardware("sensors")
    if scanner and scanner != sensors["backend"] or sensors["backend"] == "sim":
        sensors = {"backend": scanner or default_scanner}
    scan = scanner_plan(sensors, layout.sensor_channels)
    brightness = config.leds.get("brightness", DEFAULT_BRIGHTNESS)
    leds = led_plan(config.hardware("leds"), layout.led_channels, brightness)
    if leds.capacity < layout.led_channels:
        raise HardwareOptionError(f"leds: the board needs {layout.led_channels} LED channels, "
                                  f"and the chain has {leds.capacity}")
    channels = Channels(layout.sensor, layout.led, scan.terminal)
    return BuildPlan(game.title, BoardPlan(sites, pitch), channels, scan, leds, config)


def write_plan(plan: BuildPlan, out: str, fmt: str, paper_name: str) -> list[str]:
    """Write the sheets; the files written. SVG: ``out`` is the whole board, and beside it
    ``-page-NN.svg`` (when it does not fit the paper), ``-wiring.svg`` and ``-wiring.txt``.
    PDF: one file, the pages then the wiring sheet and table."""
    whole, pages, wiring = plan.sheets(paper_name)
    if fmt == "pdf":
        with open(out, "wb") as fp:
            fp.write(to_pdf(pages + wiring))
        return [out]
    stem = out[:-4] if out.endswith(".svg") else out
    files = {out: to_svg(whole)}
    if len(pages) > 1:
        files |= {f"{stem}-page-{n:02d}.svg": to_svg(p) for n, p in enumerate(pages, 1)}
    files[f"{stem}-wiring.svg"] = to_svg(wiring[0])
    files[f"{stem}-wiring.txt"] = "\n".join(plan.table()) + "\n"
    for path, text in files.items():
        with open(path, "w", encoding="utf-8") as fp:
            fp.write(text)
    return list(files)


