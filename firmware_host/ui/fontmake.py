"""Write ``firmware_host/ui/oledfont.bin``: Pillow's built-in font as FreeType draws it in one-bit
mode, a bitmap a letter at every size the OLED's screens use (firmware_host/ui/font.py reads it).

    .venv/bin/python -m firmware_host.ui.fontmake      # after a Pillow upgrade changes the built-in font

Each letter is measured from Pillow's own drawing: alone (its box, its advance, where Pillow sets
its bitmap), after "H " (where its pixels are from the pen and the baseline). A letter that
draws nothing (the space) still moves the text down by its bitmap's top, which only shows beside
a letter below the baseline ("_"): it is the least top that draws such pairs as Pillow does.
tests/ui/test_oled_font.py checks the file against Pillow.
"""

from __future__ import annotations

from firmware_host.ui import screens
from firmware_host.ui.font import FILE, MAGIC, RECORD

#: Where the probes are drawn: far enough from the image's edges for any letter.
X, Y = 40, 60
#: A letter no font has: what it draws is the missing-letter box, written as code point 0.
MISSING = "\U0010fffd"


def sizes() -> list[int]:
    """Every type size the screens draw in."""
    styles = {size for style in screens.STYLES for size in style}
    return sorted(styles | set(screens.LARGE_SIZES) | set(screens.CLOCK_SIZES))


def _lit(font, text: str) -> list[tuple[int, int]]:
    from PIL import Image, ImageDraw

    image = Image.new("1", (X * 4 + font.size * len(text) * 2, Y + 40))
    ImageDraw.Draw(image).text((X, Y), text, font=font, anchor="ls", fill="white")
    return _pixels(image)


def _pixels(image) -> list[tuple[int, int]]:
    """The lit pixels of ``image``, row by row."""
    return [(x, y) for y in range(image.height) for x in range(image.width) if image.getpixel((x, y))]


def letters(font) -> list[str]:
    """The letters ``font`` has (of the Basic Multilingual Plane): those not drawn as its box."""

    def looks(letter: str):
        mask, offset = font.getmask2(letter, mode="1", anchor="ls")
        return bytes(mask), mask.size, offset, font.getlength(letter, mode="1")

    missing = looks(MISSING)
    return [
        chr(code)
        for code in range(0x20, 0x10000)
        if not 0xD800 <= code < 0xE000 and looks(chr(code)) != missing
    ]


def measure(font, letter: str) -> tuple[tuple[int, ...], list[tuple[int, int]]]:
    """The numbers of :data:`RECORD` after the size (the top 0 for a letter that draws
    nothing: :func:`blank_top`), and the lit pixels from the pen and the baseline."""
    advance = int(font.getlength(letter, mode="1"))
    box = tuple(int(v) for v in font.getbbox(letter, mode="1", anchor="ls"))
    alone = _lit(font, letter)
    if not alone:
        return (advance, *box, 0, 0), []
    before = int(font.getlength("H ", mode="1"))
    h = int(font.getlength("H", mode="1"))
    left, top = (int(v) for v in font.getbbox("H " + letter, mode="1", anchor="ls")[:2])
    drawn = _lit(font, "H " + letter)
    h_bottom = max(y for x, y in drawn if x - X - left < h)
    raised = h_bottom - Y - top + 1  # H's bottom row is on the baseline
    pixels = [(x - X - left - before, y - Y - top - raised) for x, y in drawn if x - X - left >= h]
    corner_left = X + box[0] + min(x for x, _ in pixels) - min(x for x, _ in alone)
    corner_top = min(y for _, y in alone) - Y - box[1] - min(y for _, y in pixels)
    return (advance, *box, corner_left, corner_top), pixels


def record(code: int, size: int, numbers: tuple[int, ...], pixels: list[tuple[int, int]]) -> bytes:
    """One letter as :data:`RECORD` and its rows."""
    if not pixels:
        return RECORD.pack(code, size, *numbers, 0, 0, 0, 0)
    x0, y0 = min(x for x, _ in pixels), min(y for _, y in pixels)
    width = max(x for x, _ in pixels) - x0 + 1
    height = max(y for _, y in pixels) - y0 + 1
    stride = (width + 7) // 8
    rows = bytearray(stride * height)
    for x, y in pixels:
        rows[(y - y0) * stride + (x - x0) // 8] |= 0x80 >> ((x - x0) % 8)
    return RECORD.pack(code, size, *numbers, x0, y0, width, height) + bytes(rows)


def blank_top(font, letter: str, size: int) -> int:
    """The least top with which ``letter`` (drawing nothing) sets the text beside "_" and ","
    as Pillow does."""
    from firmware_host.ui.font import BitmapFont, _font

    reference = _font(size)
    for top in range(3 * size):
        trial = BitmapFont(size, reference._data, reference._records)
        trial._glyphs[ord(letter)] = reference._glyph(letter)._replace(top=top)
        if all(
            same(font, trial, text) for text in (letter + "_", "_" + letter, letter + ",", "_" + letter + "_")
        ):
            return top
    raise ValueError(f"no top draws {letter!r} at {size} as Pillow does")


def same(font, ours, text: str) -> bool:
    """Whether ``ours`` draws ``text`` as Pillow's ``font`` does."""
    from PIL import Image

    image = Image.new("1", (X * 4 + font.size * len(text) * 2, Y + 40))
    ours.draw(image, (X, Y), text, 255)
    return _lit(font, text) == _pixels(image)


def main() -> None:
    from PIL import ImageFont

    from firmware_host.ui import font as module

    letters_had = [MISSING, *letters(ImageFont.load_default(screens.SMALL_SIZE))]
    measured = {}
    for size in sizes():
        font = ImageFont.load_default(size)
        for letter in letters_had:
            measured[size, letter] = measure(font, letter)

    def write() -> None:
        parts = [MAGIC]
        for (size, letter), (numbers, pixels) in measured.items():
            parts.append(record(0 if letter == MISSING else ord(letter), size, numbers, pixels))
        FILE.write_bytes(b"".join(parts))
        module._font.cache_clear()
        module._data.cache_clear()
        module._records.cache_clear()

    write()
    for (size, letter), (numbers, pixels) in measured.items():
        if not pixels and letter != MISSING:  # its top, now that the other letters are written
            top = blank_top(ImageFont.load_default(size), letter, size)
            measured[size, letter] = ((*numbers[:-1], top), pixels)
    write()
    print(f"wrote {FILE} ({FILE.stat().st_size} bytes, sizes {', '.join(map(str, sizes()))})")


if __name__ == "__main__":
    main()
