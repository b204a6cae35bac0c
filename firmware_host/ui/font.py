"""The OLED's font without FreeType: Pillow's built-in font (Aileron) as the panel draws it, a
bitmap for each letter and size, read from ``oledfont.bin`` (``python -m
firmware_host.ui.fontmake`` writes it).

Drawing one-bit text through FreeType costs a board about 1 MB of resident memory (FreeType's
and HarfBuzz's pages, the font's outlines and caches), and loading the libraries another 1.7 MB,
which the hardware's drivers leave unloaded (hardware/lazy.py). This font gives the same
pixels, lengths and boxes as ``ImageFont.load_default(size)`` in mode "1"
(tests/ui/test_oled_font.py compares them letter by letter and on random text): each letter is
the bitmap FreeType made of it, set at the pen as Pillow sets it, with Pillow's own placement of
the whole text (its box, measured from the outlines, and the bitmaps' corners). A letter the
font lacks is drawn as the font's missing-letter box, as FreeType does.

>>> font = BitmapFont.of(11)
>>> font.length("White"), font.bbox("White")
(30, (0, -8, 30, 0))
"""

from __future__ import annotations

import struct
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from PIL import Image

#: The bitmaps, every size in one file: :data:`MAGIC`, then one :data:`RECORD` a letter and
#: size, followed by its rows (each ``(width + 7) // 8`` bytes, the leftmost pixel the highest
#: bit). Code point 0 is the missing-letter box.
FILE = Path(__file__).with_name("oledfont.bin")
MAGIC = b"RBF1"
#: code point, size, advance, the box's left, top, right, bottom (Pillow's ``getbbox``), the
#: bitmap's corner as Pillow counts it (min(0, left), max(0, top)), the first row's and column's
#: offset from the pen and the baseline, the bitmap's width and height.
RECORD = struct.Struct("<HBBbbbbbbbbBB")


class Glyph(NamedTuple):
    """One letter at one size: its advance, its box (left, top, right, bottom from the pen and
    the baseline), the corner FreeType's bitmap starts at (as far as it moves the whole text:
    ``left`` at most 0, ``top`` at least 0), and its lit pixels: rows of bits (the leftmost the
    highest of ``width``) whose first is ``y`` below the baseline, starting ``x`` right of the pen."""

    advance: int
    box: tuple[int, int, int, int]
    left: int
    top: int
    x: int
    y: int
    width: int
    rows: tuple[int, ...]


class BitmapFont:
    """The built-in font at one ``size`` (pixels), as Pillow draws it in one-bit mode. A letter
    is read from the file's bytes when first drawn or measured."""

    def __init__(self, size: int, data: bytes, records: dict[int, int]) -> None:
        self.size = size
        self._data = data
        self._records = records
        self._glyphs: dict[int, Glyph] = {}
        self._advances: dict[str, int] = {}  # letter -> advance: layouts measure many texts

    @classmethod
    def of(cls, size: int) -> BitmapFont:
        """The font at ``size`` (KeyError: a size ``oledfont.bin`` lacks)."""
        return _font(size)

    def length(self, text: str) -> int:
        """The pixels the pen moves drawing ``text`` (Pillow's ``getlength``)."""
        advances = self._advances
        try:
            return sum(map(advances.__getitem__, text))
        except KeyError:  # a letter not measured yet
            for letter in text:
                advances.setdefault(letter, self._glyph(letter).advance)
            return sum(map(advances.__getitem__, text))

    def bbox(self, text: str) -> tuple[int, int, int, int]:
        """The box of ``text`` drawn at (0, 0) on its baseline (Pillow's ``getbbox``, anchor
        "ls"): (left, top, right, bottom); (0, 0, 0, 0) for no text."""
        return _box(self._set(text))

    def draw(self, image: Image.Image, xy: tuple[int, int], text: str, ink: int | tuple[int, ...]) -> None:
        """Draw ``text`` on ``image`` in ``ink`` with its pen starting at ``xy`` on the baseline."""
        from PIL import Image

        placed = self._set(text)
        left, top, right, bottom = _box(placed)
        width, height = right - left, bottom - top
        if width <= 0 or height <= 0:
            return
        stride = (width + 7) // 8
        bits = b"".join(row.to_bytes(stride, "big") for row in _rows(placed, width, height))
        mask = Image.frombytes("1", (width, height), bits)
        x, y = xy[0] + left, xy[1] + top
        image.paste(ink, (x, y, x + width, y + height), mask)

    def _set(self, text: str) -> list[tuple[Glyph, int]]:
        """The letters of ``text`` with their pens."""
        placed, pen = [], 0
        for letter in text:
            glyph = self._glyph(letter)
            placed.append((glyph, pen))
            pen += glyph.advance
        return placed

    def _glyph(self, letter: str) -> Glyph:
        code = ord(letter) if ord(letter) in self._records else 0
        glyph = self._glyphs.get(code)
        if glyph is None:
            glyph = self._glyphs[code] = _read(self._data, self._records[code])
        return glyph


def _box(placed: list[tuple[Glyph, int]]) -> tuple[int, int, int, int]:
    """The union of the letters' boxes."""
    if not placed:
        return 0, 0, 0, 0
    return (
        min(glyph.box[0] + pen for glyph, pen in placed),
        min(glyph.box[1] for glyph, _ in placed),
        max(glyph.box[2] + pen for glyph, pen in placed),
        max(glyph.box[3] for glyph, _ in placed),
    )


def _rows(placed: list[tuple[Glyph, int]], width: int, height: int) -> list[int]:
    """The text's pixels in its box of ``width`` x ``height``: rows of bits, each padded to
    whole bytes. As Pillow's FreeType text: the bitmaps are set from the box's corner, moved
    right by the leftmost bitmap's overhang and down by the highest bitmap's top, and cut to
    the box."""
    padded = (width + 7) // 8 * 8
    keep = ((1 << padded) - 1) ^ ((1 << (padded - width)) - 1)
    shift_x = -min([0] + [glyph.left + pen for glyph, pen in placed])
    shift_y = max([0] + [glyph.top for glyph, _ in placed])
    rows = [0] * height
    for glyph, pen in placed:
        shift = padded - (shift_x + pen + glyph.x + glyph.width)
        for n, row in enumerate(glyph.rows, start=shift_y + glyph.y):
            if 0 <= n < height:
                rows[n] |= row << shift if shift >= 0 else row >> -shift
    return [row & keep for row in rows]


def _read(data: bytes, at: int) -> Glyph:
    """The letter whose record starts at ``at``."""
    _, _, advance, *numbers, width, height = RECORD.unpack_from(data, at)
    left, top, right, bottom, corner_left, corner_top, x, y = numbers
    stride = (width + 7) // 8
    at += RECORD.size
    rows = tuple(
        int.from_bytes(data[at + n * stride : at + (n + 1) * stride], "big") >> (stride * 8 - width)
        for n in range(height)
    )
    return Glyph(advance, (left, top, right, bottom), corner_left, corner_top, x, y, width, rows)


@lru_cache(maxsize=None)
def _font(size: int) -> BitmapFont:
    records = _records().get(size)
    if not records:
        raise KeyError(size)
    return BitmapFont(size, _data(), records)


@lru_cache(maxsize=1)
def _records() -> dict[int, dict[int, int]]:
    """Where each letter's record starts, by size: the file read through once for every size
    (the first screen uses four)."""
    data = _data()
    sizes: dict[int, dict[int, int]] = {}
    at = len(MAGIC)
    while at < len(data):
        code, size, *_, width, height = RECORD.unpack_from(data, at)
        sizes.setdefault(size, {})[code] = at
        at += RECORD.size + (width + 7) // 8 * height
    return sizes


@lru_cache(maxsize=1)
def _data() -> bytes:
    data = FILE.read_bytes()
    if not data.startswith(MAGIC):
        raise ValueError(f"{FILE}: not a font file (write it with python -m firmware_host.ui.fontmake)")
    return data
