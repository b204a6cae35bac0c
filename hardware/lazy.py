"""Modules a library imports that a board never uses, loaded only when something uses them.

luma's modules import Pillow's ImageDraw, which imports ImageText and ImageFont, which loads
FreeType and HarfBuzz (about 1.7 MB resident, with ``base64``), though the OLED's driver only
sends images and the screens draw their words from bitmaps of their own
(firmware_host/ui/font.py); Pillow's
Image imports its tables of Exif and TIFF tags (0.25 MB, for reading photos' metadata). And
luma's serial interfaces import ``multiprocessing`` (with ``pickle``: about 0.35 MB) for one
class a board never makes (an RGB LED's colour fade). :func:`luma_imports` puts a stand-in in
their place while Pillow and luma load; each still loads, as it was, when something first uses
it.

>>> colours = Deferred("colorsys")
>>> colours.rgb_to_hsv(1.0, 0.0, 0.0)
(0.0, 1.0, 1.0)
"""

from __future__ import annotations

import importlib
import sys
import types
from contextlib import contextmanager
from typing import Any, Iterator


class Deferred(types.ModuleType):
    """A stand-in for the module of its name: the first name asked of it imports the module (in
    its place in ``sys.modules``), which then answers."""

    def __getattr__(self, attr: str) -> Any:
        module = self.__dict__.get("_module")
        if module is None:
            if sys.modules.get(self.__name__) is self:
                del sys.modules[self.__name__]
            module = self.__dict__["_module"] = importlib.import_module(self.__name__)
        return getattr(module, attr)


class Later:
    """A callable of a module not imported yet (``from module import name`` while it is stood
    in for): called, it imports the module and calls the real one.

    >>> Later("colorsys", "hsv_to_rgb")(0.0, 1.0, 1.0)
    (1.0, 0.0, 0.0)
    """

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(self.module), self.name)(*args, **kwargs)


def defer(name: str) -> None:
    """Stand in for the module ``name`` until something uses it (nothing once it is loaded)."""
    if name not in sys.modules:
        sys.modules[name] = Deferred(name)


@contextmanager
def standing_in(name: str, *names: str) -> Iterator[None]:
    """While the block runs, ``from name import N`` gives, for each of ``names``, a
    :class:`Later`; afterwards ``name`` imports as usual (nothing if it is loaded already)."""
    if name in sys.modules:
        yield
        return
    stand_in = types.ModuleType(name)
    for each in names:
        setattr(stand_in, each, Later(name, each))
    sys.modules[name] = stand_in
    try:
        yield
    finally:
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]


#: Pillow's modules a board's drivers never use (loaded by those they use).
PILLOW_UNUSED = ("PIL.ImageFont", "PIL.ImageText", "PIL.ExifTags", "PIL.TiffTags")


@contextmanager
def luma_imports() -> Iterator[None]:
    """Import Pillow's and luma's modules in the block without what a board never uses."""
    for name in PILLOW_UNUSED:
        defer(name)
    with standing_in("multiprocessing", "Process"):
        yield
