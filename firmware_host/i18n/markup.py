"""Babel's extractor for the pages' markup (babel.cfg names it): the words the page's script
translates (``firmware_host/net/web/shared/i18n.js``), each as that script looks them up.

An element marked ``data-i18n`` is one message, its inner HTML (keep such markup plain: double
quotes, no entities, as a browser writes it back); any other text between tags is one, and so is
each ``aria-label``, ``title`` and ``alt``. Spaces are made single.

>>> import io
>>> page = b'<p title="Zoom in">New <b>game</b></p><p data-i18n>Click <b>here</b>.</p>'
>>> [m for _, _, m, _ in extract_html(io.BytesIO(page), (), (), {})]
['Click <b>here</b>.', 'Zoom in', 'New', 'game']
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import IO, Any, Iterator

#: The attributes whose words are shown (or read out).
LABELS = ("aria-label", "title", "alt")
#: Elements whose text is no words of the page.
SKIP = {"script", "style", "code"}
_WHOLE = re.compile(r"<(\w+)\b[^>]*\bdata-i18n\b[^>]*>(.*?)</\1>", re.S)


def message(text: str) -> str:
    """``text`` as the page looks it up: spaces made single, none at the ends."""
    return " ".join(text.split())


class _Words(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in LABELS and value and re.search(r"[A-Za-z]", value):
                self.found.append((self.getpos()[0], message(value)))
        if tag not in ("meta", "link", "img", "input", "br"):
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            del self.open[len(self.open) - 1 - self.open[::-1].index(tag) :]

    def handle_data(self, data: str) -> None:
        if re.search(r"[A-Za-z]", data) and not SKIP & set(self.open):
            self.found.append((self.getpos()[0], message(data)))


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """(line, None, message, []) for each of the page's words, as Babel's extractors give them."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for whole in _WHOLE.finditer(source):
        yield source.count("\n", 0, whole.start()) + 1, None, message(whole.group(2)), []
    parser = _Words()
    parser.feed(_WHOLE.sub(lambda m: m.group(0).replace(m.group(2), "", 1), source))  # said whole
    for line, text in parser.found:
        yield line, None, text, []
