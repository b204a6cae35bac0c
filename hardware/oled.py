"""The OLED through luma: any luma device (ssd1306, sh1106 over I2C; luma.core's ``dummy``
when there is no panel). A full frame over 100 kHz I2C costs about 90 ms, so an image is sent
only when its pixels differ from the last one sent.

>>> from luma.core.device import dummy
>>> screen = LumaDisplay(dummy(mode="1"))
>>> image = Image.new("1", (128, 64)); image.putpixel((3, 4), 1)
>>> screen.show(image); screen.show(image.copy()); screen.redraws
1
"""

from __future__ import annotations

from PIL import Image


class LumaDisplay:
    """A Display on a luma device; counts ``images_shown`` and actual ``redraws``."""

    def __init__(self, device) -> None:
        self.device = device
        self.size: tuple[int, int] = device.size
        self.images_shown = 0
        self.redraws = 0
        self._last: bytes | None = None

    def show(self, image: Image.Image) -> None:
        if image.size != self.size:
            raise ValueError(f"image is {image.size[0]}x{image.size[1]}, the display "
                             f"{self.size[0]}x{self.size[1]}")
        self.images_shown += 1
        image = image.convert(self.device.mode)
        data = image.tobytes()
        if data != self._last:
            self.device.display(image)
            self._last = data
            self.redraws += 1

    def close(self) -> None:
        self.device.cleanup()
