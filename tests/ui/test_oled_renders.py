"""What the OLED shows in every game, rendered on luma's real dummy device and saved for a
person to look at (test-output/oled-<game>-<moment>.png, 4x): the start, a move carried out
(with the follow-up it asks for, where the game has one), a board that differs from the game,
and the menu; a takeback in every language (test-output/oled/)."""

from __future__ import annotations

from pathlib import Path

import pytest
from luma.core.device import dummy

from engines import GAME_NAMES
from firmware_host import i18n
from firmware_host.board.game import Game
from firmware_host.board.phase import Moving
from firmware_host.store.config import ClockConfig
from firmware_host.ui.menu import Menu, game_choices
from firmware_host.ui.screens import SIZE, fits
from testbed.drive import Drive
from testbed.language import speaking
from tests.ui.scenes import finish, play

OUTPUT = Path(__file__).resolve().parents[2] / "test-output"


def save(drive: Drive, name: str, folder: Path = OUTPUT) -> None:
    """Render what the controller shows now; check it fits and lights the panel; save it (as
    ``folder``/oled-<name>.png, or <name>.png in a folder of its own)."""
    screen = drive.ctl.screen()
    for number, page in enumerate(screen.pages()):
        assert fits(page), page.text_lines()
        image = page.render(dummy(*SIZE, mode="1"))
        assert image.getbbox() is not None, f"{name}: nothing lit"
        folder.mkdir(parents=True, exist_ok=True)
        suffix = f"-{number + 1}" if number else ""
        prefix = "oled-" if folder == OUTPUT else ""
        image.convert("L").resize((SIZE[0] * 4, SIZE[1] * 4)).save(folder / f"{prefix}{name}{suffix}.png")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_s_screens_render_and_fit(game):
    choices = game_choices()
    current = next(c for c in choices if c.game == game)
    drive = Drive(Game.of(game, None, None), menu=Menu(choices, current)).run(600)
    save(drive, f"{game}-start")
    state = drive.ctl.state
    move = state.legal_moves()[0]
    real = state.realisations(move)[0]
    for site in real.emptied:
        drive.lift(site)
    for site in real.filled:
        drive.place(site)
    drive.run(800)
    assert drive.ctl.moves or not isinstance(drive.ctl.phase, Moving), drive.ctl.screen().text_lines()
    save(drive, f"{game}-moved")
    free = sorted(set(drive.ctl.layout.sensor) - drive.ctl.board)
    drive.place(free[0]).place(free[len(free) // 2]).place(free[-1]).run(800)  # no move does that
    assert drive.ctl.sync is not None
    save(drive, f"{game}-differs")
    drive.press("menu")
    assert drive.ctl.menu.is_open
    save(drive, f"{game}-menu")


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_takeback_notice_renders_in_every_language(game, code):
    """A move taken back from the menu with the clocks running, on the game's largest board
    with its longest title, in each language: every page fits, the notice ("Took back C3*")
    shows, and no page shows a label ("Rückgängig:") without what it labels. Saved as
    test-output/oled/takeback-<game>-<language>[-<page>].png."""
    choices = game_choices()
    current = max((c for c in choices if c.game == game), key=lambda c: (c.size or 0, len(c.variant or "")))
    with speaking(code):
        drive = Drive(
            Game(game, current.size, current.variant), menu=Menu(choices, current), clock=ClockConfig("300+3")
        )
        move = str(drive.run(600).ctl.state.legal_moves()[0])
        finish(play(drive, move))
        drive.press("menu")
        for _ in range(drive.ctl.menu.screen().lines.index(i18n._("Take back"))):
            drive.press("menu")
        drive.press("ok").run(300)
        pages = drive.ctl.screen().pages()
        lines = [line for page in pages for line in page.lines]
        assert i18n._("Took back {moves}").format(moves=move) in lines, lines
        assert not [line for line in lines if line.endswith(":")], [page.text_lines() for page in pages]
        save(drive, f"takeback-{game}-{code}", OUTPUT / "oled")
