"""Stopping on SIGTERM and SIGINT without running anything inside the signal handler.

Python runs a signal handler in the main thread between two of its bytecodes, which may be
inside ``Event.wait`` while that thread holds the lock ``Event.set`` needs: a handler that sets
the stop event can then wait for itself forever (a ``systemctl stop`` that hangs until systemd
kills the process). So the handler here does nothing; the interpreter's C level writes each
signal's number to a pipe (:func:`signal.set_wakeup_fd`), and a thread of its own reads it and
calls ``stop``, as any other thread would.

>>> import os, signal, threading
>>> stopped = threading.Event()
>>> undo = stop_on_signals(stopped.set)
>>> os.kill(os.getpid(), signal.SIGTERM)
>>> stopped.wait(5)
True
>>> undo()
"""

from __future__ import annotations

import os
import signal
import threading
from typing import Callable

SIGNALS = (signal.SIGTERM, signal.SIGINT)


def stop_on_signals(stop: Callable[[], None]) -> Callable[[], None]:
    """Call ``stop`` (from a thread of its own) at each SIGTERM or SIGINT; what puts back the
    handlers it replaced. Main thread only."""
    read, write = os.pipe()
    os.set_blocking(write, False)
    wakeup = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    handlers = {sig: signal.signal(sig, _nothing) for sig in SIGNALS}
    threading.Thread(target=_watch, args=(read, stop), name="signals", daemon=True).start()

    def undo() -> None:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        signal.set_wakeup_fd(wakeup)
        os.close(write)  # its thread reads the end and closes the other side

    return undo


def _nothing(signum: int, frame: object) -> None:
    """The handler: the pipe carries the signal (a handler must be set for it to)."""


def _watch(read: int, stop: Callable[[], None]) -> None:
    wanted = {int(sig) for sig in SIGNALS}
    while data := os.read(read, 64):
        if wanted.intersection(data):
            stop()
    os.close(read)
