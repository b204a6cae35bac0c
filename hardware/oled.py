"""The OLED through luma: any luma device (ssd1306, sh1106 over I2C; luma.core's ``dummy``
when there is no panel). A full frame over 100 kHz I2C costs about 90 ms, so an image is sent
only when its pixels differ from the last one sent, and a panel is written by a thread of its
own (``thread=True``): the scan loop hands it the image and goes on scanning. A writer thread
that dies is started again by :meth:`LumaDisplay.check` and sends the newest image again.

>>> from luma.core.device import dummy
>>> screen = LumaDisplay(dummy(mode="1"))
>>> image = Image.new("1", (128, 64)); image.putpixel((3, 4), 1)
>>> screen.show(image); screen.show(image.copy()); screen.redraws
1
"""

from __future__ import annotations

import threading

from hardware import lazy
from hardware.base import RETRY_SECONDS
from hardware.supervise import Supervised

with lazy.luma_imports():
    from PIL import Image, ImageChops


class LumaDisplay:
    """A Display on a luma device; counts ``images_shown`` and actual ``redraws``.

    With ``thread`` the device is written by a thread: :meth:`show` returns at once, and of
    the images that come while one is being sent only the newest is sent next (``skipped``
    counts the others). A write that fails sets ``failure`` (what went wrong, None again once a
    write goes through) and is tried again every :data:`RETRY_SECONDS` until a newer image
    comes."""

    def __init__(self, device, *, thread: bool = False) -> None:
        self.device = device
        self.size: tuple[int, int] = device.size
        self.images_shown = 0
        self.redraws = 0
        self.skipped = 0
        self.failure: str | None = None
        self._last: Image.Image | None = None  # the last image shown, in the device's mode
        self._newest: Image.Image | None = None  # the last image handed to the writer
        self._next: Image.Image | None = None
        self._closing = False
        self._ready = threading.Condition()
        self._writer = None
        if thread:
            self._writer = Supervised("oled", self._run, redo=self._redo)
            self._writer.start()

    def show(self, image: Image.Image) -> None:
        if image.size != self.size:
            raise ValueError(
                f"image is {image.size[0]}x{image.size[1]}, the display {self.size[0]}x{self.size[1]}"
            )
        self.images_shown += 1
        image = image.convert(self.device.mode)
        # compared where they differ, not as bytes: Image.tobytes loads PIL.ImageFile and with
        # it logging (0.6 MB of a lean board's memory)
        if self._last is not None and ImageChops.difference(image, self._last).getbbox() is None:
            return
        self._last = image
        if self._writer is None:
            self._send(image)
            return
        with self._ready:
            self.skipped += self._next is not None
            self._next = self._newest = image
            self._ready.notify()

    def check(self) -> str | None:
        """Start the writer thread again if it died; what is wrong (None: nothing)."""
        if self._writer is not None and not self._closing:
            return self._writer.check() or self.failure
        return self.failure

    def _redo(self, why: str) -> None:
        """The writer died: said, and the newest image is sent again by the next one."""
        self.failure = why
        with self._ready:
            self._next = self._next or self._newest

    def _send(self, image: Image.Image) -> None:
        self.device.display(image)
        self.redraws += 1

    def _run(self) -> None:
        """Send the newest image; after a failure, wait and try it again unless one newer came."""
        while True:
            with self._ready:
                while self._next is None and not self._closing:
                    self._ready.wait()
                image, self._next = self._next, None
            if image is None:
                return
            try:
                self._send(image)
            except Exception as exc:  # noqa: BLE001 - any bus error: said, and tried again
                self.failure = f"{type(exc).__name__}: {exc}"
                self._retry_later(image)
            else:
                self.failure = None

    def _retry_later(self, image: Image.Image) -> None:
        """Wait (a newer image or :meth:`close` ends the wait), then queue ``image`` again
        unless a newer one came."""
        with self._ready:
            if self._next is None and not self._closing:
                self._ready.wait(RETRY_SECONDS)
            if self._next is None and not self._closing:
                self._next = image

    def close(self) -> None:
        """Send what is waiting (a second at most), then let luma clear the panel."""
        if self._writer is not None:
            with self._ready:
                self._closing = True
                self._ready.notify()
            self._writer.join(timeout=RETRY_SECONDS)
            if self.failure is not None:  # the panel does not answer: nothing to clear
                return
        self.device.cleanup()
