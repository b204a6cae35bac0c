"""What the 128x64 OLED shows: a small model (:class:`Screen`) and its drawing.

Screens are drawn with luma's ``canvas`` on a luma device (a panel, or luma's ``dummy`` device for
PNGs, tests and the simulator), in Pillow's built-in font (Aileron, shipped inside Pillow, so a
fresh install draws the same everywhere). A status screen's main line ("White to move") is large,
for reading at arm's length; the rest is small, wrapped at word boundaries, and what does not fit
ends in "…".

>>> screen = status_screen("Antipalos 12", None, "white", None, 1, ["14 left"], None, None, None)
>>> screen.text_lines()
('Antipalos 12', 'White to move', 'Phase 1 · 14 left')
>>> screen.render().size
(128, 64)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # Pillow and luma load when the first screen is drawn, not at start-up
    from luma.core.device import device as LumaDevice
    from PIL import Image, ImageDraw, ImageFont

SIZE = (128, 64)
#: Font sizes in pixels: the large main line (shrunk to the next size when it does not fit),
#: and everything else.
LARGE_SIZES = (18, 15)
SMALL_SIZE = 11
ELLIPSIS = "…"
#: Characters the built-in font lacks, and what to show instead.
_PLAIN = str.maketrans({"–": "-", "—": "-", "‘": "'", "’": "'", "“": '"', "”": '"'})


@dataclass(frozen=True)
class Screen:
    """A title, then lines. ``large``: the first line is the main line, drawn large.
    ``selected``: for menus, the index of the highlighted line (lines are then one row each and
    scroll to keep it in view). ``invert_title``: the title is drawn dark on a lit bar."""

    title: str
    lines: tuple[str, ...] = ()
    invert_title: bool = False
    large: bool = False
    selected: int | None = None

    def text_lines(self) -> tuple[str, ...]:
        """The plain text, one string per line (the replay's ``display`` event); a menu's
        highlighted line starts with "> "."""
        lines = [
            f"> {line}" if i == self.selected else line for i, line in enumerate(self.lines)
        ]
        return tuple(line for line in (self.title, *lines) if line)

    def render(self, target: LumaDevice | tuple[int, int] = SIZE) -> Image.Image:
        """Draw on a luma device (which then shows it) or on a dummy device of a size; returns
        the image (mode "1")."""
        from luma.core.device import dummy
        from luma.core.render import canvas

        device = dummy(*target, mode="1") if isinstance(target, tuple) else target
        drawing = canvas(device)
        with drawing as draw:
            _draw(self, draw, device.width, device.height)
        return drawing.image


# ------------------------------------------------------------------------------ drawing
@dataclass(frozen=True)
class _Font:
    """A font with the heights that stack lines tightly: capitals above the baseline and the
    lowest descender below it."""

    font: ImageFont.FreeTypeFont | ImageFont.ImageFont
    cap: int
    descent: int
    #: What a space is drawn as: small sizes of the font have 2-pixel spaces, too narrow on an
    #: OLED to tell words apart, so they get two.
    space: str

    def width(self, text: str) -> float:
        return self.font.getlength(text.replace(" ", self.space))

    def draw(self, draw: ImageDraw.ImageDraw, x: int, baseline: int, text: str, fill: str) -> None:
        """Draw ``text`` with its left end at ``x`` and its baseline at ``baseline``."""
        text = text.replace(" ", self.space)
        draw.text((x, baseline), text, font=self.font, anchor="ls", fill=fill)


@lru_cache(maxsize=None)
def _font(size: int) -> _Font:
    from PIL import ImageFont

    font = ImageFont.load_default(size)
    cap = -font.getbbox("A", anchor="ls")[1]
    descent = font.getbbox("gjpqy", anchor="ls")[3]
    return _Font(font, cap, descent, "  " if font.getlength(" ") < 4 else " ")


@dataclass(frozen=True)
class _Row:
    """One row of text placed on the screen; ``lit`` rows are dark text on a lit bar."""

    top: int
    bottom: int
    text: str
    font: _Font
    x: int = 0
    lit: bool = False


def _draw(screen: Screen, draw: ImageDraw.ImageDraw, width: int, height: int) -> None:
    for row in _layout(screen, width, height):
        if row.lit:
            draw.rectangle((0, row.top, width - 1, row.bottom), fill="white")
        baseline = row.top + 1 + row.font.cap
        row.font.draw(draw, row.x, baseline, row.text, "black" if row.lit else "white")


def _layout(screen: Screen, width: int, height: int) -> list[_Row]:
    """Where each row of ``screen`` goes: the title, then the lines (wrapped) or menu items."""
    small = _font(SMALL_SIZE)
    rows = []
    if screen.title:
        title = _fit(_plain(screen.title), small, width - 2)
        rows.append(_Row(0, small.cap + small.descent + 1, title, small, 1, screen.invert_title))
    top = rows[0].bottom + 2 if rows else 0
    lines = [_plain(line) for line in screen.lines]
    if screen.selected is not None:
        return rows + _menu_rows(lines, screen.selected, small, top, width, height)
    wrapped: list[tuple[str, _Font]] = []
    if screen.large and lines:
        big = _large_font(lines[0], width) or small
        wrapped += [(text, big) for text in _wrap(lines.pop(0), big, width)]
    for line in lines:
        wrapped += [(text, small) for text in _wrap(line, small, width)]
    return rows + _stacked(wrapped, top, width, height)


def _stacked(rows: list[tuple[str, _Font]], top: int, width: int, height: int) -> list[_Row]:
    """The rows stacked from ``top``; when some do not fit, the last one shown ends in "…"."""
    placed = []
    for text, font in rows:
        bottom = top + font.cap + font.descent
        if bottom >= height:
            break
        placed.append(_Row(top, bottom, text, font))
        top = bottom + 1
    if placed and len(placed) < len(rows):
        last = placed[-1]
        placed[-1] = replace(last, text=_with_ellipsis(last.text, last.font, width))
    return placed


def _menu_rows(
    items: list[str], selected: int, font: _Font, top: int, width: int, height: int
) -> list[_Row]:
    """One row per item, scrolled so that the selected one (lit) is in view."""
    pitch = font.cap + font.descent + 2
    visible = max(1, (height - top) // pitch)
    first = min(max(0, selected - visible + 1), max(0, len(items) - visible))
    return [
        _Row(top + n * pitch, top + (n + 1) * pitch - 1, _fit(item, font, width - 4), font, 2,
             first + n == selected)
        for n, item in enumerate(items[first : first + visible])
    ]


def _large_font(text: str, width: int) -> _Font | None:
    """The largest large font that fits ``text`` on one row, or None."""
    for size in LARGE_SIZES:
        font = _font(size)
        if font.width(text) <= width:
            return font
    return None


def _plain(text: str) -> str:
    return " ".join(text.translate(_PLAIN).split())


def _fit(text: str, font: _Font, width: int) -> str:
    """``text``, cut short with "…" when it is wider than ``width``."""
    if font.width(text) <= width:
        return text
    return _with_ellipsis(text, font, width)


def _with_ellipsis(text: str, font: _Font, width: int) -> str:
    """``text`` ending in "…", shortened until it fits."""
    text = text.removesuffix(ELLIPSIS).rstrip()
    while text and font.width(text + ELLIPSIS) > width:
        text = text[:-1].rstrip()
    return text + ELLIPSIS


def _wrap(text: str, font: _Font, width: int) -> list[str]:
    """``text`` broken into rows at spaces; a word wider than a row is broken where it must."""
    rows: list[str] = []
    row = ""
    for word in text.split(" "):
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
) -> Screen:
    """The screen during a game. The main line is the result once there is one, else who is to
    move (with the side's colour where it differs from its name). Below it, most urgent first:
    the error (and the title bar lights up), the instruction, the phase with the game's own
    status lines, the match score (once there is a result, the score comes before the
    instruction: it is the news then)."""
    title = " · ".join(filter(None, (game_title, variant)))
    main = result or (_to_move(to_move, side_colour) if to_move else "Game over")
    status = list(status_lines)
    if phase is not None:
        status[:1] = [" · ".join([f"Phase {phase}", *status[:1]])]
    match = f"Match {match_score}" if match_score else None
    after = [match, instruction, *status] if result else [instruction, *status, match]
    lines = [main, *filter(None, [error, *after])]
    return Screen(title, tuple(lines), invert_title=bool(error), large=True)


def _to_move(side: str, colour: str | None) -> str:
    name = side if not colour or colour.lower() == side.lower() else f"{side} ({colour})"
    return f"{name[:1].upper()}{name[1:]} to move"


def menu_screen(title: str, items: Sequence[str], selected: int) -> Screen:
    """A menu page: the title lit, one item per row, the selected one lit."""
    return Screen(title, tuple(items), invert_title=True, selected=selected)


def message_screen(title: str, lines: Sequence[str] = ()) -> Screen:
    """A message: the title lit, then the lines (the first one large)."""
    return Screen(title, tuple(lines), invert_title=True, large=True)
