"""The OLED's words look as they did when FreeType drew them: the bitmap font
(firmware_host/ui/font.py) against Pillow's built-in font letter by letter and on random text,
a few whole screens against the pixels FreeType drew (their digests, taken before the change),
and a board that draws its screens loads no FreeType until something else asks for it."""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys

import pytest
from luma.core.device import dummy
from PIL import Image, ImageDraw, ImageFont

from firmware_host.ui import fontmake
from firmware_host.ui.font import FILE, BitmapFont
from firmware_host.ui.screens import SIZE, menu_screen, message_screen, status_screen

#: Where text is drawn on the test's canvas: room on every side for any letter.
X, Y = 30, 40


def pixels(image: Image.Image) -> bytes:
    return image.tobytes()


def pillow(font: ImageFont.FreeTypeFont, text: str) -> Image.Image:
    image = Image.new("1", (80 + 30 * len(text), 70))
    ImageDraw.Draw(image).text((X, Y), text, font=font, anchor="ls", fill="white")
    return image


def ours(font: BitmapFont, text: str) -> Image.Image:
    image = Image.new("1", (80 + 30 * len(text), 70))
    font.draw(image, (X, Y), text, 255)
    return image


def texts(font: BitmapFont, seed: int) -> list[str]:
    """Every letter alone, the missing-letter box, random runs of letters and spaces, and the
    edge cases of Pillow's placement (a text below the baseline, spaces around it)."""
    letters = [chr(code) for code in font._records if code]
    rng = random.Random(seed)
    runs = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 14))) for _ in range(40)]
    return [*letters, *runs, "", " ", "_", " _", "_ ", ",_,", "ø€ł", "Zwilling auf c12 setzen", "Hint:E5*"]


@pytest.mark.parametrize("size", fontmake.sizes())
def test_every_letter_and_text_looks_as_pillow_draws_it(size):
    font, bitmaps = ImageFont.load_default(size), BitmapFont.of(size)
    for text in texts(bitmaps, size):
        assert pixels(ours(bitmaps, text)) == pixels(pillow(font, text)), (size, text)
        assert bitmaps.length(text) == font.getlength(text, mode="1"), (size, text)
        assert bitmaps.bbox(text) == tuple(font.getbbox(text, mode="1", anchor="ls")), (size, text)


def test_the_font_file_covers_every_size_the_screens_use():
    assert FILE.stat().st_size < 40_000  # small: a letter's bitmap is a few bytes
    for size in fontmake.sizes():
        assert BitmapFont.of(size).size == size
    with pytest.raises(KeyError):
        BitmapFont.of(12)


#: Screens with what each draws differently (large and small type, clocks on a lit bar, marks
#: over letters, an ellipsis, a menu's arrows, a page marker) and the SHA-256 of their pixels
#: as FreeType drew them.
SCREENS = {
    "status": (
        lambda: status_screen(
            "Antipalos 12", None, "white", None, 1, ["14 left"], "Place a token", None, None
        ),
        "2ba9b908",
    ),
    "clocks": (
        lambda: status_screen(
            "Antipod",
            None,
            "blue",
            "red",
            None,
            (),
            None,
            "Board differs: put back 1",
            None,
            clock=">4:58 5:00",
        ),
        "f9177f0b",
    ),
    "marks": (lambda: message_screen("Zurück", ["Zwilling auf ç12 setzen", "Prüfe é à ô"]), "41fa28a5"),
    "menu": (lambda: menu_screen("Menu", [f"Item {n}" for n in range(9)], 4, ["OK: choose"]), "2591d589"),
    "long": (
        lambda: status_screen(
            "Phalanx",
            "vertical",
            "green",
            None,
            2,
            ["Pieces: green 12 · yellow 11 · red 10 · blue 9", "Captured 3 this game"],
            "Take the piece on the lit site, then OK",
            None,
            None,
            news="Took back b1:a1",
        ),
        "b9726f04 bd76a3c7 49600dc0",
    ),
}


@pytest.mark.parametrize("name", SCREENS)
def test_screens_look_as_freetype_drew_them(name):
    make, digest = SCREENS[name]
    for number, page in enumerate(make().pages()):
        image = page.render(dummy(*SIZE, mode="1"))
        assert image.getbbox() is not None
        assert hashlib.sha256(pixels(image)).hexdigest()[:8] == digest.split()[number], (name, number)


def test_a_board_showing_its_screens_loads_neither_freetype_nor_multiprocessing():
    """Through the OLED's backend as the daemon opens it (luma's dummy panel); both still load,
    and work, when something asks for them."""
    code = """
import sys
from hardware.backends import make_display
from firmware_host.ui.screens import status_screen
display = make_display({"backend": "dummy"})
display.show(status_screen("Antipalos", None, "white", None, 1, ["14 left"], None, None, None).render())
def loaded():
    return "freetype" in open("/proc/self/maps").read().lower(), "multiprocessing" in sys.modules
print(*loaded(), display.redraws)
from PIL import ImageFont
from luma.core.interface.serial import pca9633  # its colour fade imports Process
print(ImageFont.load_default(11).getlength("White", mode="1"), *loaded())
from multiprocessing import Process
print(type(pca9633.transition.Process(target=print)) is Process)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False", "1", "30.0", "True", "False", "True"]
