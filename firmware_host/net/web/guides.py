"""The players' guides (docs/play/GAME.md) as pages of the board's own site, with their
pictures (docs/play/img/). They are found beside the source the daemon runs from; an install
without the docs says where they are instead.

>>> page("no-such-game") is None, image("../../etc/passwd") is None
(True, True)
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path

#: Where the guides are: docs/play/ of the source tree this package runs from.
GUIDES = Path(__file__).resolve().parents[3] / "docs" / "play"

TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · reedboard</title>
<link rel="stylesheet" href="/static/guide.css"></head>
<body><nav><a href="/">Back to the board</a></nav><main>
{body}
</main></body></html>
"""


def page(game: str) -> str | None:
    """The guide to ``game`` as an HTML page (None: no such guide here)."""
    path = GUIDES / f"{game}.md"
    if not re.fullmatch(r"[a-z-]+", game) or not path.is_file():
        return None
    return _render(path, path.stat().st_mtime)


@lru_cache(maxsize=8)
def _render(path: Path, _mtime: float) -> str:
    import markdown  # loaded when a guide is first asked for

    text = path.read_text(encoding="utf-8")
    # Links between guides and to the other docs, as they are written for the repository.
    text = re.sub(r"\]\((?!https?:|/|#)([a-z-]+)\.md\)", r"](/guide/\1)", text)
    body = markdown.markdown(text, extensions=["tables"], output_format="html")
    title = re.search(r"^# (.+)$", text, re.M)
    return TEMPLATE.format(title=html.escape(title.group(1) if title else path.stem), body=body)


def image(name: str) -> Path | None:
    """A guide's picture (None: no such file)."""
    path = GUIDES / "img" / name
    if not re.fullmatch(r"[a-z0-9-]+\.(png|svg)", name) or not path.is_file():
        return None
    return path
