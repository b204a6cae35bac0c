"""What the 128x64 OLED shows: a small model (:class:`Screen`) and its layout and drawing.

Screens are drawn with luma's ``canvas`` on a luma device (a panel, or luma's ``dummy`` device for
PNGs, tests and the simulator), in Pillow's built-in font (Aileron, shipped inside Pillow, so a
fresh install draws the same everywhere), as FreeType draws it but from bitmaps of our own
(:mod:`firmware_host.ui.font`: the same pixels without FreeType's memory). A small layout step
measures every row with that font and never clips or drops a line: it wraps at spaces, keeps a
margin of :data:`MARGIN` pixels at the sides, and when the text does not fit it tries smaller
type, step by step (:data:`STYLES`): first the large main line ("White to move") shrinks, then
the other lines. Menus show their position ("Menu 3/8") and a small arrow where more items follow.

>>> screen = status_screen("Antipalos 12", None, "white", None, 1, ["14 left"], None, None, None)
>>> screen.text_lines()
('Antipalos 12', 'White to move', 'Phase 1 · 14 left')
>>> screen.render().size
(128, 64)
>>> long = status_screen("Antipode", None, "blue", None, None, ["Pawns: blue e1, red e9"],
...                       "Flip the 2 lit tokens, then OK", "Board differs: put back 1", None)
>>> [fits(page) for page in long.pages()]
[True, True]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple, Sequence

from firmware_host.i18n import N_, _
from firmware_host.ui.font import BitmapFont

if TYPE_CHECKING:  # Pillow and luma load when the first screen is drawn, not at start-up
    from luma.core.device import device as LumaDevice
    from PIL import Image, ImageDraw

SIZE = (128, 64)
#: Pixels kept clear at the left and right ends of every row.
MARGIN = 2
#: Pixels a row's ink may reach beyond the font's measured advance (hinting at small sizes).
SLACK = 0
#: Font sizes in pixels: the large main line (shrunk to the next size when it does not fit),
#: and everything else.
LARGE_SIZES = (18, 15, 13)
SMALL_SIZE = 11
#: The layout's styles, tried in order until the text fits: (largest main line, other lines).
STYLES = ((18, 11), (15, 11), (13, 11), (11, 11), (10, 10), (9, 9))
#: The game clocks' type sizes, largest first: the largest that fits the row, at most the
#: style's (:data:`CLOCK_LARGEST`, by the style's main line), is drawn. They shrink with the
#: style, as the main line does: a screen crowded with words draws them smaller.
CLOCK_SIZES = (24, 22, 20, 18, 15, 13, 11, 10, 9)
CLOCK_LARGEST = {18: 24, 15: 20, 13: 18, 11: 15, 10: 11, 9: 9}
#: Pixels of the lit bar on each side of the running clock's digits.
CLOCK_PAD = 2
ELLIPSIS = "…"
#: A long screen's page number: "p1/2" (a menu's "3/8" is the item's position).
PAGE = "p{}/{}"
#: How a paged screen may break a line too long for a page of its own, tried in order: not at
#: all, where it says two things (" · "), then also between words.
BREAKS = ("whole", "parts", "rows")
#: Characters the built-in font lacks, and what to show instead.
_PLAIN = str.maketrans({"–": "-", "—": "-", "‘": "'", "’": "'", "“": '"', "”": '"'})


@dataclass(frozen=True)
class Screen:
    """A title, then lines. ``large``: the first line is the main line, drawn large.
    ``selected``: for menus, the index of the highlighted line (lines are then one row each and
    scroll to keep it in view). ``invert_title``: the title is drawn dark on a lit bar.
    A screen too long for the panel is shown as pages (:meth:`pages`): each shows the first
    ``keep`` lines and some of the others; ``page`` says which one is shown (modulo their
    number; the controller turns them every few seconds)."""

    title: str
    lines: tuple[str, ...] = ()
    invert_title: bool = False
    large: bool = False
    selected: int | None = None
    keep: int = 1
    page: int = 0
    #: A page number ("p1/2") drawn small at the right end of the first row, on pages whose
    #: title had to make room.
    marker: str = ""
    #: For menus: rows of help below the items (what the buttons do).
    footer: tuple[str, ...] = ()
    #: The style (of :data:`STYLES`) every page of a long screen is drawn in (None: the first
    #: that fits), so that its pages keep one type size.
    style: tuple[int, int] | None = None
    #: The first line is the game clocks (:func:`clock_fields`), drawn in a row of its own in
    #: the largest type that fits, spread across the panel, the running one on a lit bar.
    clocks: bool = False

    def pages(self, size: tuple[int, int] = SIZE) -> tuple["Screen", ...]:
        """The pages this screen is shown as on a panel of ``size``: itself when it fits,
        else pages titled "… p1/2", "… p2/2" that each fit (see :func:`paginate`)."""
        return paginate(replace(self, page=0), *size)

    def shown(self, size: tuple[int, int] = SIZE) -> "Screen":
        """The page shown now."""
        pages = self.pages(size)
        return pages[self.page % len(pages)]

    def text_lines(self) -> tuple[str, ...]:
        """The plain text of the page shown, one string per line (the replay's ``display``
        event); a menu's highlighted line starts with "> "."""
        page = self.shown()
        lines = [f"> {line}" if i == page.selected else line for i, line in enumerate(page.lines)]
        return tuple(line for line in (page.title, *lines, *page.footer, page.marker) if line)

    def render(self, target: LumaDevice | tuple[int, int] = SIZE) -> Image.Image:
        """Draw on a luma device (which then shows it) or on a dummy device of a size; returns
        the image (mode "1")."""
        from luma.core.device import dummy
        from luma.core.render import canvas

        device = dummy(*target, mode="1") if isinstance(target, tuple) else target
        drawing = canvas(device)
        with drawing as draw:
            _draw(self, drawing.image, draw)
        return drawing.image


# ------------------------------------------------------------------------------ drawing
#: Pixels of extra space before a colon (at small sizes the font sets it against a t's bar).
COLON_GAP = 1


class _Font(NamedTuple):
    """A font with the heights that stack lines tightly: the tallest letters above the baseline
    (``cap``) and the lowest descender below it."""

    font: BitmapFont
    cap: int
    descent: int
    #: What a space is drawn as: small sizes of the font have 2-pixel spaces, too narrow on an
    #: OLED to tell words apart, so they get two.
    space: str

    @property
    def height(self) -> int:
        return self.cap + self.descent

    def width(self, text: str) -> int:
        return _width(self, text)

    def box(self, x: int, baseline: int, text: str) -> tuple[int, int, int, int]:
        """The pixels ``text`` drawn at ``x``, ``baseline`` can touch (left, top, right, bottom)."""
        left, top, right, bottom = _ink(self, text)
        return x + left, baseline + top, x + right, baseline + bottom

    def draw(self, image: Image.Image, x: int, baseline: int, text: str, fill: str) -> None:
        """Draw ``text`` on ``image`` with its left end at ``x`` and its baseline at
        ``baseline``; a letter the font lacks as the letter it has with its mark (:func:`_glyph`)."""
        from PIL import ImageColor

        ink = ImageColor.getcolor(fill, image.mode)
        for offset, piece in self._pieces(text):
            self.font.draw(image, (x + offset, baseline), piece, ink)
        unit = 1 if self.cap <= 10 else 2  # the marks' dots grow with the type
        for i, letter in enumerate(text):
            base, mark = _glyph(letter)
            if mark in _MARKS:
                at = x + self.width(text[:i])
                left, top, right, _ = self.font.bbox(base)
                for dx, dy in _MARKS[mark]((right - left) // 2, right - left):
                    x0, y0 = at + left + dx * unit, baseline + (top + dy * unit if dy < 2 else dy - 1)
                    image.paste(ink, (x0, y0, x0 + unit, y0 + unit))

    def _pieces(self, text: str) -> list[tuple[int, str]]:
        """``text`` as drawn, cut before each colon: (offset from the left end, piece). A colon
        is set :data:`COLON_GAP` further right, so its dots do not touch the bar of a t or f.

        >>> font = _font(11)
        >>> font._pieces("Hint:E5*") == [(0, "Hint"), (font.width("Hint") + COLON_GAP, ":E5*")]
        True
        """
        head, *rest = _drawn(text).replace(" ", self.space).split(":")
        pieces, offset = [(0, head)], 0
        for piece in rest:
            offset += self.font.length(pieces[-1][1]) + COLON_GAP
            pieces.append((offset, ":" + piece))
        return pieces


@lru_cache(maxsize=4096)
def _width(font: _Font, text: str) -> int:
    """The pixels ``text`` takes in ``font``, as the panel draws it (measured once: laying out a
    paged screen asks for the same rows many times)."""
    pieces = font._pieces(text)
    return pieces[-1][0] + font.font.length(pieces[-1][1])


@lru_cache(maxsize=1024)
def _ink(font: _Font, text: str) -> tuple[int, int, int, int]:
    """The pixels ``text`` can touch drawn at (0, 0) on its baseline, colons set apart."""
    shown = _drawn(text).replace(" ", font.space)
    left, top, right, bottom = font.font.bbox(shown or " ")
    return left, top, right + COLON_GAP * shown.count(":"), bottom


#: Letters the built-in font lacks, spelt with letters it has: ß as Swiss German writes it, the
#: capitals with an umlaut as German does without one (a mark has no room above a capital).
_SPELT = {"ß": "ss", "œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"}
#: The marks the panel draws over or under a letter, as pixels from the left end of its ink (y
#: above its top, or at 2 a stroke under the baseline), by the ink's middle and width.
_MARKS = {
    "\u0308": lambda mid, wide: ((1, -2), (wide - 2, -2)),  # diaeresis: ä, ë, ï, ö, ü
    "\u0301": lambda mid, wide: ((mid, -2), (mid + 1, -3)),  # acute: é
    "\u0300": lambda mid, wide: ((mid - 1, -3), (mid, -2)),  # grave: à, è, ù
    "\u0302": lambda mid, wide: ((mid - 1, -2), (mid, -3), (mid + 1, -2)),  # circumflex: â, ê, ô
    "\u0327": lambda mid, wide: ((mid, 2), (mid - 1, 2)),  # cedilla: ç
}


@lru_cache(maxsize=256)
def _glyph(letter: str) -> tuple[str, str]:
    """What the built-in font (ASCII and a few signs) draws for ``letter``: letters it has,
    and the mark (a combining character of :data:`_MARKS`, else "") drawn with the last. A
    capital keeps no mark (French capitals often go without).

    >>> _glyph("ü"), _glyph("ß"), _glyph("É"), _glyph("a")
    (('u', '\u0308'), ('ss', ''), ('E', ''), ('a', ''))
    """
    if letter.isascii() or letter in "·…":
        return letter, ""
    if letter in _SPELT:
        return _SPELT[letter], ""
    import unicodedata  # only for letters beyond ASCII: 0.1 MB a board speaking English saves

    decomposed = unicodedata.normalize("NFD", letter)
    base, marks = decomposed[0], decomposed[1:]
    if not base.isascii():
        return letter, ""
    return base, marks[:1] if not base.isupper() else ""


def _drawn(text: str) -> str:
    """``text`` in the letters the font has (:func:`_glyph`)."""
    return text if text.isascii() else "".join(_glyph(letter)[0] for letter in text)


@lru_cache(maxsize=None)
def _font(size: int) -> _Font:
    font = BitmapFont.of(size)
    cap = -font.bbox("Abdfhklt")[1]  # the tallest letters
    descent = font.bbox("gjpqy")[3]
    return _Font(font, cap, descent, "  " if font.length(" ") < 4 else " ")


class Row(NamedTuple):
    """One row of text placed on the screen; ``lit`` rows are dark text on a lit bar."""

    top: int
    bottom: int
    text: str
    font: _Font
    x: int = MARGIN
    lit: bool = False
    #: Lit only around its text (the running clock), not across the panel.
    bar: bool = False

    @property
    def baseline(self) -> int:
        return self.top + 1 + self.font.cap

    def box(self) -> tuple[int, int, int, int]:
        """The pixels the row's text can touch: (left, top, right, bottom), right and bottom
        exclusive."""
        return self.font.box(self.x, self.baseline, self.text)


def _draw(screen: Screen, image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    width, height = image.size
    screen = screen.shown((width, height))
    rows, more = layout(screen, width, height)
    for row in rows:
        if row.lit and row.bar:
            right = row.x + round(row.font.width(row.text)) + CLOCK_PAD
            draw.rectangle((row.x - CLOCK_PAD, row.top, right, row.bottom), fill="white")
        elif row.lit:
            draw.rectangle((0, row.top, width - 1, row.bottom), fill="white")
        row.font.draw(image, row.x, row.baseline, row.text, "black" if row.lit else "white")
    if screen.marker and rows:
        font = _marker_font()
        font.draw(
            image,
            width - MARGIN - SLACK - round(font.width(screen.marker)),
            rows[0].top + 1 + font.cap,
            screen.marker,
            "white",
        )
    for row, up in more:  # small arrows at the right end: more items above / below
        x, mid = width - MARGIN - 3, (row.top + row.bottom) // 2
        tip, base = (mid - 2, mid + 1) if up else (mid + 2, mid - 1)
        draw.polygon([(x - 3, base), (x + 3, base), (x, tip)], fill="black" if row.lit else "white")


def layout(
    screen: Screen, width: int = SIZE[0], height: int = SIZE[1]
) -> tuple[list[Row], list[tuple[Row, bool]]]:
    """Where each row of ``screen`` goes, and for a menu the rows that get an arrow
    (True: more items above, False: below). The first style of :data:`STYLES` in which
    everything fits wins. A text too long even for the last (no message the daemon sends:
    tests/ui/test_oled_fit.py renders them all) ends in "…" where the panel ends."""
    if screen.selected is not None:
        return _menu_layout(screen, width, height)
    for style in (screen.style,) if screen.style else STYLES:
        rows = _text_layout(screen, style, width)
        if rows[-1].bottom < height:
            return rows, []
    shown = [row for row in rows if row.bottom < height]  # a message no test knows of
    if shown:
        last = shown[-1]
        shown[-1] = last._replace(text=_fit(last.text + ELLIPSIS, last.font, width - 2 * MARGIN))
    return shown, []


@lru_cache(maxsize=64)
def paginate(screen: Screen, width: int = SIZE[0], height: int = SIZE[1]) -> tuple[Screen, ...]:
    """``screen`` as pages that fit the panel: itself when it fits; else pages that each show
    the first ``screen.keep`` lines and as many of the others, in order, as fit. Few pages
    come first (2, then 3, ...), then large type. A line too long for a page of its own is
    broken where it says two things (" · ") before it is broken between words, and only where
    no page count and no type size keeps it whole: a fragment alone on a page reads as nonsense.

    >>> long = status_screen("Phalanx", None, "green", None, None,
    ...                      ["Green 15 pcs 130 pts", "Red 13 pcs 115 pts", "Green removes g2sw"],
    ...                      "Remove the 2 lit pieces", "Board differs: put back 12", None)
    >>> [page.text_lines()[0] for page in long.pages()]
    ['Phalanx p1/3', 'Phalanx p2/3', 'Phalanx p3/3']
    >>> all(fits(page) for page in long.pages())
    True
    """
    if screen.selected is not None or _fits_one(screen, width, height):
        return (screen,)
    return (
        _paged(screen, _styles(screen), width, height) or _paged(screen, STYLES, width, height) or (screen,)
    )


def _paged(
    screen: Screen, styles: tuple[tuple[int, int], ...], width: int, height: int
) -> tuple[Screen, ...] | None:
    """:func:`paginate` in one of ``styles`` (None: in none of them)."""
    fixed, rest = screen.lines[: screen.keep], screen.lines[screen.keep :]
    # When the kept lines leave no room for the title, the title becomes a line of the last
    # page and the page number moves to the right end of the first row.
    for title, rest in ((screen.title, rest), ("", (*rest, screen.title))):
        base = replace(screen, title=title)
        for breaks in BREAKS:
            found = []
            for order, style in enumerate(styles):
                chunks = _chunks(base, fixed, rest, style, width, height, breaks)
                if chunks:
                    found.append((max(2, len(chunks)), order, chunks))
                    if len(chunks) <= 2:
                        break  # no later style can do better
            if found:
                _, order, chunks = min(found)
                if len(chunks) == 1:  # one page after all, in a small style
                    return (replace(screen, style=styles[order]),)
                return _numbered(replace(base, style=styles[order]), fixed, chunks)
    return None


def _styles(screen: Screen) -> tuple[tuple[int, int], ...]:
    """The styles ``screen`` is tried in first: a screen with the clocks pages rather than
    draw them small (below 15 px; a crowded one that cannot page otherwise still does)."""
    return tuple(s for s in STYLES if CLOCK_LARGEST[s[0]] >= 15) if screen.clocks else STYLES


def _numbered(screen: Screen, fixed: tuple[str, ...], chunks: list[tuple[str, ...]]) -> tuple[Screen, ...]:
    n = len(chunks)
    if screen.title:
        return tuple(
            replace(screen, title=f"{screen.title} {PAGE.format(i, n)}", lines=fixed + chunk)
            for i, chunk in enumerate(chunks, 1)
        )
    return tuple(
        replace(screen, lines=fixed + chunk, marker=PAGE.format(i, n)) for i, chunk in enumerate(chunks, 1)
    )


def _chunks(
    screen: Screen,
    fixed: tuple[str, ...],
    rest: tuple[str, ...],
    style: tuple[int, int],
    width: int,
    height: int,
    breaks: str,
) -> list[tuple[str, ...]] | None:
    """``rest`` split greedily into runs that fit below ``fixed`` in ``style``, a line too
    long alone broken as ``breaks`` allows (None: one such line cannot be)."""

    def fit(lines: tuple[str, ...]) -> bool:
        title = f"{screen.title} {PAGE.format(9, 9)}" if screen.title else ""
        page = replace(screen, title=title, lines=fixed + lines, marker="" if title else PAGE.format(9, 9))
        rows = _text_layout(page, style, width)
        return rows[-1].bottom < height and _marker_clear(page, rows, width)

    chunks: list[tuple[str, ...]] = []
    current: tuple[str, ...] = ()
    queue = list(rest)
    while queue:
        line = queue.pop(0)
        if fit(current + (line,)):
            current += (line,)
        elif current and fit((line,)):
            chunks.append(current)
            current = (line,)
        else:  # too long even alone: its parts become lines of their own
            parts = _broken(line, breaks, _font(style[1]), width)
            if len(parts) == 1:
                return None
            queue[:0] = parts
    return chunks + [current] if current else chunks


def _broken(line: str, breaks: str, font: _Font, width: int) -> tuple[str, ...]:
    """``line`` in the parts :data:`BREAKS` ``breaks`` allows: whole; the things it says
    (" · "), as many to a row as fit; or in rows.

    >>> _broken("Phase 1 · In hand: White 17 · Black 18", "parts", _font(11), 128)
    ('Phase 1', 'In hand: White 17', 'Black 18')
    """
    if breaks != "whole" and " · " in line:
        return _packed(line, font, width - 2 * MARGIN)
    if breaks == "rows":
        return _labelled(_wrap(_plain(line), font, width - 2 * MARGIN))
    return (line,)


def _labelled(rows: tuple[str, ...]) -> tuple[str, ...]:
    """``rows``, a row that ends in a label ("Took back:") joined by the row it labels: the
    two stay on one page (a label alone on a page says nothing).

    >>> _labelled(("Rückgängig:", "c1-c2", "d4-d5"))
    ('Rückgängig: c1-c2', 'd4-d5')
    """
    joined: list[str] = []
    for row in rows:
        if joined and joined[-1].endswith(":"):
            joined[-1] += f" {row}"
        else:
            joined.append(row)
    return tuple(joined)


def _packed(text: str, font: _Font, width: int) -> tuple[str, ...]:
    """The things ``text`` says (" · "), as many to a row of ``width`` as fit; one wider than
    a row alone on its own.

    >>> _packed("White 28 · Black 28 · Red 28 · Blue 29", _font(11), 124)
    ('White 28 · Black 28', 'Red 28 · Blue 29')
    """
    rows: list[str] = []
    for part in text.split(" · "):
        joined = f"{rows[-1]} · {part}" if rows else part
        if rows and font.width(joined) <= width:
            rows[-1] = joined
        else:
            rows.append(part)
    return tuple(rows)


def _marker_clear(screen: Screen, rows: list[Row], width: int) -> bool:
    """True when the first row (the clocks: all of them) leaves room at its right end for the
    page marker."""
    right = max(row.box()[2] + (CLOCK_PAD if row.bar else 0) for row in rows if row.top == rows[0].top)
    return not screen.marker or right + 4 <= width - MARGIN - SLACK - _marker_font().width(screen.marker)


def _marker_font() -> _Font:
    return _font(9)


def _fits_one(screen: Screen, width: int, height: int) -> bool:
    """True when ``screen`` fits one page: in its own style, if it has one (a page of a
    paged screen is not paged again)."""
    styles = (screen.style,) if screen.style else _styles(screen)
    return any(_text_layout(screen, style, width)[-1].bottom < height for style in styles)


def fits(screen: Screen, width: int = SIZE[0], height: int = SIZE[1]) -> bool:
    """True when every word of ``screen`` (one page: call it per page; for a menu, every item
    shown) is drawn, whole, inside the panel."""
    rows, _ = layout(screen, width, height)
    if not _marker_clear(screen, rows, width):
        return False
    shown = _letters("".join(row.text for row in rows))
    lines = list(screen.lines)
    if screen.clocks and lines:  # the clocks as drawn: the running one's mark is its bar
        lines[0] = "".join(text for text, _ in clock_fields(lines[0]))
    whole = _letters("".join(_plain(t) for t in (screen.title, *lines)))
    if screen.selected is not None:  # a menu shows its whole title and some items, each whole
        items = {_plain(item) for item in (*screen.lines, *screen.footer)}
        if rows[0].text.endswith(ELLIPSIS) and not screen.title.endswith(ELLIPSIS):
            return False  # the title or its position ("3/8") cut short
        shown, whole = "", "".join(row.text for row in rows[1:] if row.text not in items)
    return shown == whole and _clear_margins(screen, rows, width, height)


def _letters(text: str) -> str:
    """``text`` without the spaces and the "·" a row break between two things said replaces."""
    return text.replace(" ", "").replace("·", "")


def _clear_margins(screen: Screen, rows: list[Row], width: int, height: int) -> bool:
    """True when the drawn screen has no ink in the side margins (but for lit bars) and every
    row lies on the panel: measured on the pixels, not the font's metrics."""
    if any(row.top < 0 or row.bottom >= height for row in rows):
        return False
    image = screen.render((width, height))
    bars = {y for row in rows if row.lit for y in range(row.top, row.bottom + 1)}
    edges = [*range(MARGIN - 1), *range(width - MARGIN + 1, width)]
    return not any(image.getpixel((x, y)) for y in range(height) if y not in bars for x in edges)


def _text_layout(screen: Screen, style: tuple[int, int], width: int) -> list[Row]:
    """The rows of a screen in ``style`` (main line size, other lines size), stacked from the
    top, whether or not they fit."""
    main_size, small_size = style
    small = _font(small_size)
    inner = width - 2 * MARGIN - SLACK
    rows: list[Row] = []
    top = 0
    if screen.title:
        for text in _wrap(_plain(screen.title), small, inner):
            rows.append(Row(top, top + small.height + 1, text, small, lit=screen.invert_title))
            top = rows[-1].bottom + 1
        top += 1
    lines = [_plain(line) for line in screen.lines]
    if screen.clocks and lines:
        rows += _clock_rows(lines.pop(0), top, inner, CLOCK_LARGEST.get(main_size, main_size))
        top = rows[-1].bottom + 1
    elif screen.large and lines:
        big = _large_font(lines[0], inner, main_size) or _font(main_size)  # else it wraps
        for text in _wrap(lines.pop(0), big, inner):
            rows.append(Row(top, top + big.height, text, big))
            top = rows[-1].bottom + 1
    for line in lines:
        for text in _wrap(line, small, inner):
            rows.append(Row(top, top + small.height, text, small))
            top = rows[-1].bottom + 1
    return rows or [Row(0, 0, "", small)]


def clock_fields(line: str) -> list[tuple[str, bool]]:
    """The game clocks' line as drawn: each clock's text, True for the running one (marked
    ``>`` in the line, drawn on a lit bar instead); a pause's ``||`` and a flag's ``!`` stay.

    >>> clock_fields(">4:58 5:00"), clock_fields("|| 4:58 !0.0")
    ([('4:58', True), ('5:00', False)], [('||', False), ('4:58', False), ('!0.0', False)])
    """
    return [(f[1:], True) if f.startswith(">") else (f, False) for f in line.split()]


def _clock_rows(line: str, top: int, inner: int, largest: int) -> list[Row]:
    """The clocks of ``line`` side by side from ``top``, spread across ``inner`` pixels, in
    the largest of :data:`CLOCK_SIZES` up to ``largest`` in which they fit."""
    fields = clock_fields(line)
    sizes = [s for s in CLOCK_SIZES if s <= largest] or [CLOCK_SIZES[-1]]
    for size in sizes:
        font = _font(size)
        widths = [font.width(text) + 2 * CLOCK_PAD for text, _ in fields]
        if sum(widths) + CLOCK_PAD * (len(fields) - 1) <= inner:
            break
    gap = (inner - sum(widths)) / max(1, len(fields) - 1)
    rows, x = [], float(MARGIN)
    for (text, running), w in zip(fields, widths):
        bottom = top + (font.height if "|" in line else font.cap + 2)  # digits have no descenders
        rows.append(Row(top, bottom, text, font, round(x) + CLOCK_PAD, running, bar=True))
        x += w + gap
    return rows


def _menu_layout(screen: Screen, width: int, height: int) -> tuple[list[Row], list[tuple[Row, bool]]]:
    """The title with the position ("Menu 3/8"), then one row per item, scrolled so that the
    selected one (lit) is in view; arrows mark the rows beyond which more items follow."""
    font = _font(SMALL_SIZE)
    items = [_plain(item) for item in screen.lines]
    selected = min(max(screen.selected or 0, 0), max(len(items) - 1, 0))
    position = f"{selected + 1}/{len(items)}" if len(items) > 1 else ""
    title = " ".join(filter(None, (_plain(screen.title), position)))
    head = Row(0, font.height, _fit(title, font, width - 2 * MARGIN), font, lit=screen.invert_title)
    top = head.bottom + 2
    pitch = font.height + 1
    visible = max(1, (height - top) // pitch - len(screen.footer))
    first = min(max(0, selected - visible + 1), max(0, len(items) - visible))
    arrow = 10  # room at the right end for the arrows
    rows = [
        Row(
            top + n * pitch,
            top + (n + 1) * pitch - 1,
            _fit(item, font, width - 2 * MARGIN - arrow),
            font,
            lit=first + n == selected,
        )
        for n, item in enumerate(items[first : first + visible])
    ]
    more = []
    if rows and first > 0:
        more.append((rows[0], True))
    if rows and first + visible < len(items):
        more.append((rows[-1], False))
    below = top + visible * pitch
    help_rows = [
        Row(below + n * pitch, below + (n + 1) * pitch - 1, _plain(text), font)
        for n, text in enumerate(screen.footer)
    ]
    return [head, *rows, *help_rows], more


def _large_font(text: str, width: int, largest: int) -> _Font | None:
    """The largest large font, at most ``largest`` pixels, that fits ``text`` on one row."""
    for size in LARGE_SIZES:
        font = _font(size)
        if size <= largest and font.width(text) <= width:
            return font
    return None


def _plain(text: str) -> str:
    return " ".join(text.translate(_PLAIN).split())


def _fit(text: str, font: _Font, width: int) -> str:
    """``text``, cut short with "…" when it is wider than ``width`` (menu items, whose labels
    are short by design, and the last resort of :func:`layout`)."""
    if font.width(text) <= width:
        return text
    text = text.removesuffix(ELLIPSIS).rstrip()
    while text and font.width(text + ELLIPSIS) > width:
        text = text[:-1].rstrip()
    return text + ELLIPSIS


@lru_cache(maxsize=1024)
def _wrap(text: str, font: _Font, width: int) -> tuple[str, ...]:
    """``text`` broken into rows at spaces, and between the things it says (" · ") where that
    takes no more rows (a row break beside a " · " stands for it); a word wider than a row is
    broken where it must.

    >>> _wrap("Phase 2 · Move or turn a Trirod", _font(11), 124)
    ('Phase 2', 'Move or turn a Trirod')
    >>> _wrap("Phase 1 · In hand: White 28 · Black 28 · Red 28 · Blue 29", _font(11), 124)
    ('Phase 1 · In hand:', 'White 28 · Black 28', 'Red 28 · Blue 29')
    """
    rows = _word_rows(text, font, width)
    if " · " in text:
        packed = [row for part in _packed(text, font, width) for row in _word_rows(part, font, width)]
        if len(packed) <= len(rows):
            rows = packed
        else:  # the row break stands for a " · " it falls beside
            rows = [row.removesuffix(" ·").removeprefix("· ") for row in rows]
    return _no_widow(rows, font, width)


def _word_rows(text: str, font: _Font, width: int) -> list[str]:
    """``text`` broken into rows at spaces, but not before a count ("White" / "15"); a word
    wider than a row where it must."""
    rows: list[str] = []
    row = ""
    words: list[str] = []
    for word in text.split(" "):
        if words and word.isdigit():
            words[-1] += f" {word}"
        else:
            words.append(word)
    for word in words:
        candidate = f"{row} {word}" if row else word
        if font.width(candidate) <= width:
            row = candidate
            continue
        if row:
            rows.append(row)
        while font.width(word) > width:
            cut = _longest_prefix(word, font, width)
            rows.append(word[:cut])
            word = word[cut:]
        row = word
    if row or not rows:
        rows.append(row)
    return rows


def _no_widow(rows: list[str], font: _Font, width: int) -> tuple[str, ...]:
    """The rows, a last row of one word joined by the word before it when they fit ("Place
    the twin on the lit" / "site" becomes "Place the twin on the" / "lit site"), unless that
    would leave a label ("Took back:") at the end of its row.

    >>> _no_widow(["Place the twin on the lit", "site"], _font(11), 124)
    ('Place the twin on the', 'lit site')
    """
    if len(rows) > 1 and " " not in rows[-1] and " " in rows[-2]:
        head, moved = rows[-2].rsplit(" ", 1)
        if font.width(f"{moved} {rows[-1]}") <= width and not head.endswith(":"):
            rows[-2:] = [head, f"{moved} {rows[-1]}"]
    return tuple(rows)


def _longest_prefix(word: str, font: _Font, width: int) -> int:
    cut = len(word)
    while cut > 1 and font.width(word[:cut]) > width:
        cut -= 1
    return cut


# ------------------------------------------------------------------------------- screens
def status_screen(
    game_title: str,
    variant: str | None,
    to_move: str | None,
    side_colour: str | None,
    phase: int | None,
    status_lines: Sequence[str],
    instruction: str | None,
    error: str | None,
    result: str | None,
    match_score: str | None = None,
    news: str | None = None,
    clock: str | None = None,
) -> Screen:
    """The screen during a game. The main line is the result once there is one, else who is to
    move (with the side's colour where it differs from its name). Below it, most urgent first:
    the error (and the title bar lights up), the instruction, the news (what just happened:
    "Took back b1:a1", "Flip of a1 counted"), the phase with the game's own status lines, the
    match score (once there is a result, the score comes before the instruction: it is the news
    then). The error and the instruction are on every page of a long screen. The game
    ``clock`` line, when there is one, comes first, in the large type, on every page.

    >>> status_screen("Antipalos", None, "white", None, None, (), None, None, None,
    ...               clock=">4:58 5:00").lines
    ('>4:58 5:00', 'White to move')
    """
    title = " · ".join(filter(None, (game_title, variant)))
    main = result or (_to_move(to_move, side_colour) if to_move else _("Game over"))
    status = list(status_lines)
    if phase is not None:
        status[:1] = [" · ".join([_("Phase {n}").format(n=phase), *status[:1]])]
    match = _("Match {score}").format(score=match_score) if match_score else None
    after = [match, instruction, news, *status] if result else [instruction, news, *status, match]
    lines = [main, *filter(None, [error, *after])]
    keep = 1 + sum(1 for line in (error, instruction) if line)
    if result:
        keep = 1 + sum(1 for line in (match, instruction) if line)
    if clock:
        lines, keep = [clock, *lines], keep + 1
    return Screen(title, tuple(lines), invert_title=bool(error), large=True, keep=keep, clocks=bool(clock))


def result_words(winner: str, result: str) -> str:
    """A result as the screen and the page say it.

    >>> result_words("white", "connection"), result_words("draw", "repetition")
    ('White wins: connection', 'Draw: repetition')
    """
    if winner == "draw":
        return _("Draw: {result}").format(result=_(result))
    return _("{side} wins: {result}").format(side=side_name(winner), result=_(result))


def side_name(side: str) -> str:
    """A side (or a colour) by its name in the language spoken, with a capital.

    >>> side_name("white")
    'White'
    """
    name = _(side)
    return name[:1].upper() + name[1:]


def fit_name(name: str, after: str = " to move") -> str:
    """``name`` as the main line can show it followed by ``after`` on one row in its smallest
    type: cut short with "…" when it is too long.

    >>> fit_name("Anna"), fit_name("Maximiliane Wolkenstein-Rodenegg")
    ('Anna', 'Maximilia…')
    """
    font, width = _font(LARGE_SIZES[-1]), SIZE[0] - 2 * MARGIN - SLACK
    name = _plain(name)
    if font.width(name + after) <= width:
        return name
    while name and font.width(name + ELLIPSIS + after) > width:
        name = name[:-1].rstrip()
    return name + ELLIPSIS


def _to_move(side: str, colour: str | None) -> str:
    name = side_name(side)
    if colour and colour.lower() != side.lower():
        name = f"{name} ({_(colour)})"
    return _("{side} to move").format(side=name)


#: The words the engines give for sides and results, translated where they are shown.
ENGINE_WORDS = (
    N_("white"),
    N_("black"),
    N_("red"),
    N_("blue"),
    N_("green"),
    N_("yellow"),
    N_("connection"),
    N_("ring"),
    N_("forfeit"),
    N_("captures"),
    N_("no-moves"),
    N_("trapped"),
    N_("repetition"),
    N_("no-captures"),
    N_("time"),
    N_("pawn"),
    N_("yes"),
    N_("no"),
)


def menu_screen(title: str, items: Sequence[str], selected: int, footer: Sequence[str] = ()) -> Screen:
    """A menu page: the title lit, one item per row, the selected one lit; ``footer``: help
    rows below."""
    return Screen(title, tuple(items), invert_title=True, selected=selected, footer=tuple(footer))


def message_screen(title: str, lines: Sequence[str] = ()) -> Screen:
    """A message: the title lit, then the lines (the first one large)."""
    return Screen(title, tuple(lines), invert_title=True, large=True)
