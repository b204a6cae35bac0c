"""The game clocks on the OLED of every game, rendered on luma's real dummy device and saved for a
person to look at (test-output/oled-clock-<game>-<moment>.png, 4x): both (or all) clocks in the
largest type that fits, the running one on a lit bar, the last seconds in tenths, a pause, a
flag, and a screen crowded with a board that differs."""

from __future__ import annotations

from pathlib import Path

import pytest
from luma.core.device import dummy

from engines import GAME_NAMES
from firmware_host.board.game import Game
from firmware_host.store.config import ClockConfig
from firmware_host.ui.screens import CLOCK_SIZES, SIZE, Screen, fits, layout, status_screen
from testbed.drive import Drive

OUTPUT = Path(__file__).resolve().parents[2] / "test-output"


def save(screen: Screen, name: str) -> list:
    """Render every page of ``screen``, check it fits and lights the panel, save it; the first
    page's image."""
    images = []
    for number, page in enumerate(screen.pages()):
        assert fits(page), page.text_lines()
        image = page.render(dummy(*SIZE, mode="1"))
        assert image.getbbox() is not None, f"{name}: nothing lit"
        OUTPUT.mkdir(exist_ok=True)
        suffix = f"-{number + 1}" if number else ""
        image.convert("L").resize((SIZE[0] * 4, SIZE[1] * 4)).save(OUTPUT / f"oled-clock-{name}{suffix}.png")
        images.append(image)
    return images


def clock_rows(screen: Screen):
    """The rows the clocks are drawn in (the first page's)."""
    page = screen.pages()[0]
    rows, _ = layout(page)
    return [row for row in rows if row.bar]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_shows_its_clocks_large_the_running_one_lit(game):
    drive = Drive(Game.of(game), clock=ClockConfig("300+3")).run(600)
    screen = drive.ctl.screen()
    first = drive.ctl.state.sides[0]
    assert screen.lines[0] == ">5:00 5:00" and f"{first.capitalize()} to move" in screen.lines
    image = save(screen, f"{game}-start")[0]
    rows = clock_rows(screen)
    assert [row.text for row in rows] == ["5:00", "5:00"] and [row.lit for row in rows] == [True, False]
    assert rows[0].font.font.size >= 15 > layout(screen.pages()[0])[0][-1].font.font.size  # larger
    left, top, right, bottom = rows[0].font.box(rows[0].x, rows[0].baseline, rows[0].text)
    assert image.getpixel((left - 1, (top + bottom) // 2))  # the bar lit beside the digits
    assert rows[1].x > SIZE[0] // 2  # the other clock at the far end
    free = sorted(set(drive.ctl.layout.sensor) - drive.ctl.board)
    drive.place(free[0]).place(free[len(free) // 2]).place(free[-1]).run(800)  # a crowded screen
    crowded = drive.ctl.screen()
    pages = save(crowded, f"{game}-differs")
    assert all(page.lines[0] == crowded.lines[0] for page in crowded.pages())  # on every page
    assert len(pages) >= 1


def test_the_last_seconds_in_tenths_a_pause_and_a_flag():
    for name, line in [
        ("tenths", "4:58 >9.4"),
        ("paused", "|| 4:58 0:31"),
        ("flag", "4:58 !0.0"),
        ("hours", ">1:29:58 1:30:00"),
        ("four", ">4:58 5:00 5:00 5:00"),
    ]:
        screen = status_screen(
            "Antipalos 12", None, "black", None, None, ["Place a trirod"], None, None, None, clock=line
        )
        save(screen, name)
        rows = clock_rows(screen)
        assert "".join(r.text for r in rows) == line.replace(">", "").replace(" ", "")
    four = clock_rows(
        status_screen(
            "Antipalos 12", None, "black", None, None, (), None, None, None, clock=">4:58 5:00 5:00 5:00"
        )
    )
    two = clock_rows(
        status_screen("Antipalos 12", None, "black", None, None, (), None, None, None, clock=">4:58 5:00")
    )
    assert four[0].font.font.size < two[0].font.font.size <= CLOCK_SIZES[0]  # the largest that fits


def test_a_running_clock_in_its_last_ten_seconds_shows_tenths():
    drive = Drive(Game.of("antipalos", 5), clock=ClockConfig("12")).run(600)
    drive.run(4000)
    assert drive.ctl.screen().lines[0] == ">7.4 0:12" or drive.ctl.screen().lines[0].startswith(">7.")
    save(drive.ctl.screen(), "antipalos-tenths")


def test_a_game_of_four_players_shows_four_clocks_in_one_row():
    drive = Drive(Game.of("antipalos", 5, "cut-throat-4"), clock=ClockConfig("600")).run(600)
    screen = drive.ctl.screen()
    rows = clock_rows(screen)
    assert [row.text for row in rows] == ["10:00"] * 4 and [row.lit for row in rows] == [
        True,
        False,
        False,
        False,
    ]
    assert len({row.top for row in rows}) == 1 and rows[-1].x > rows[0].x
    save(screen, "antipalos-cut-throat-4")
