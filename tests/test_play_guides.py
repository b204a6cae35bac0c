"""The players' guides (docs/play/): one per game, linked from the README and from the page's
help, every picture they show present and small, and served as pages by the board."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engines import GAME_NAMES
from firmware_host.net.web import guides

ROOT = Path(__file__).resolve().parents[1]
PLAY = ROOT / "docs" / "play"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_has_a_guide_with_its_pictures(game):
    text = (PLAY / f"{game}.md").read_text()
    for heading in ("## The rules", "## Making a", "## When something is off", "ouse rules"):
        assert heading in text, (game, heading)
    pictures = re.findall(r"!\[[^\]]*\]\((img/[^)]+)\)", text)
    assert len(pictures) >= 3, game
    for picture in pictures:
        path = PLAY / picture
        assert path.is_file(), picture
        assert path.stat().st_size < 64 * 1024, picture  # small files in the repository
    page = guides.page(game)
    assert page and "<h2>" in page and 'src="img/' in page


def test_the_guides_are_linked_from_the_readme_the_index_and_the_page():
    readme = (ROOT / "README.md").read_text()
    index = (PLAY / "README.md").read_text()
    for game in GAME_NAMES:
        assert f"docs/play/{game}.md" in readme and f"({game}.md)" in index
    assert 'id="guide"' in (ROOT / "firmware_host/net/web/static/index.html").read_text()
    for picture in re.findall(r"\((img/[^)]+)\)", index):
        assert (PLAY / picture).is_file(), picture
