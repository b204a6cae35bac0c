"""Wake a waiting loop: from another thread (:meth:`Waker.set`) or when a watched file
descriptor becomes readable (a serial port's bytes arrive).

The daemon's loop waits here instead of polling while nothing is happening; drivers that can
tell when their reading may have changed take a waker (``wakes(waker)``) and set it then.

>>> waker = Waker()
>>> waker.wait(0.0)
False
>>> waker.set(); waker.set()
>>> waker.wait(1.0), waker.wait(0.0)
(True, False)
>>> waker.close()
"""

from __future__ import annotations

import os
import select
from typing import Callable

#: Gives the descriptor to watch now (None: nothing to watch, e.g. a port that is closed).
Source = Callable[[], "int | None"]


class Waker:
    """A self-pipe: any thread sets it; :meth:`wait` returns early once it is set or a watched
    descriptor is readable."""

    def __init__(self) -> None:
        self._read, self._write = os.pipe()
        os.set_blocking(self._read, False)
        os.set_blocking(self._write, False)
        self._sources: list[Source] = []

    def set(self) -> None:
        """Wake the waiting loop (or make its next wait return at once). Never blocks."""
        try:
            os.write(self._write, b"!")
        except (BlockingIOError, OSError):  # the pipe is full (already set) or closed
            pass

    def watch(self, source: Source) -> None:
        """Also wake when the descriptor ``source()`` gives is readable."""
        self._sources.append(source)

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds; True if woken (the wake-up is used up)."""
        fds = [self._read] + [fd for fd in (source() for source in self._sources) if fd is not None]
        try:
            ready = select.select(fds, [], [], max(0.0, timeout))[0]
        except (OSError, ValueError):  # a watched port closed under us: it is news too
            return True
        if self._read in ready:
            try:
                while os.read(self._read, 4096):
                    pass
            except BlockingIOError:
                pass
        return bool(ready)

    def close(self) -> None:
        for fd in (self._read, self._write):
            try:
                os.close(fd)
            except OSError:
                pass
