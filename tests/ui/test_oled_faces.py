"""The OLED asking for the start's token faces, which no reed switch sees, in every language:
an Antipode game just won, the board half cleared and set up again, and the new game begun.
Each screen fits one page and is saved for a person to look at
(test-output/oled/faces-<moment>-<language>.png, 4x)."""

from __future__ import annotations

import pytest

from firmware_host import i18n
from firmware_host.board.view import next_words
from testbed.drive import Drive
from testbed.language import speaking
from tests.board.test_start_faces import CORNERS, GAME
from tests.ui.scenes import resumed
from tests.ui.test_oled_renders import OUTPUT, save


def shown(drive: Drive, moment: str, code: str) -> tuple[str, ...]:
    """The screen now, on one page, saved."""
    pages = drive.ctl.screen().pages()
    assert len(pages) == 1, [page.text_lines() for page in pages]
    save(drive, f"faces-{moment}-{code}", OUTPUT / "oled")
    return pages[0].text_lines()


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_the_start_s_faces_are_asked_on_one_page_in_every_language(code):
    with speaking(code):
        faces = [
            i18n._("{side} face up: {sites}").format(side=i18n._(side).capitalize(), sites=sites)
            for side, sites in (("blue", "a5 e1 i9"), ("red", "a1 e9 i5"))
        ]
        drive = resumed("antipode", GAME[:-1]).place("f2").run(600)
        for site in ("e1", "f3", "g3", "d7", "c6"):  # turned over, d7 tapped: f2:d7 wins
            drive.lift(site).run(300).place(site).run(600)
        assert shown(drive, "over", code)[-3:] == (i18n._("Set up to play again"), *faces)
        for site in sorted(drive.ctl.board):
            drive.lift(site)
        drive.run(600)
        for site in CORNERS[:3]:
            drive.place(site)
        assert shown(drive.run(600), "setting-up", code)[-2:] == tuple(faces)
        for site in CORNERS[3:]:
            drive.place(site)
        lines = shown(drive.run(600), "begun", code)
        assert drive.ctl.record.moves == [] and lines[-3:] == (next_words(drive.ctl.state), *faces)
