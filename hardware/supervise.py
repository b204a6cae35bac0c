"""Helper threads that are started again when they die.

A part that does its work in a thread of its own (an OLED's writer, an LED animator, a web
server, a network link) must not go quiet forever because that thread ended: a bug in it, or an
exception raised in it from outside. :class:`Supervised` runs the thread and keeps what ended
it; its owner's ``check()`` (the daemon calls it every step) starts it again, no sooner than a
backoff after its last start, and says why once.

>>> import threading
>>> runs = []
>>> helper = Supervised("demo", lambda: runs.append(0) or 1 / (len(runs) - 1), backoff=(0, 0))
>>> helper.start(); helper.join(5)
>>> helper.check()  # 1 / 0 ended it: started again
'its thread ended (ZeroDivisionError: division by zero); it is started again'
>>> helper.join(5); helper.check() is None, len(runs)  # this time it returned: done
(True, 2)
"""

from __future__ import annotations

import threading
import time
from typing import Callable

#: Seconds between a helper thread's death and its next start: the first, doubling to the last.
BACKOFF = (0.5, 30.0)


def describe(exc: BaseException) -> str:
    """An exception in a few words: "OSError: [Errno 5] Input/output error", "Stop".

    >>> describe(ValueError("bad")), describe(KeyboardInterrupt())
    ('ValueError: bad', 'KeyboardInterrupt')
    """
    text = " ".join(str(exc).split())[:200]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Backoff:
    """When a helper that died may be started again: ``bounds[0]`` s after its last start,
    the wait doubling with each death up to ``bounds[1]``, and back to the first once it has
    run that long.

    >>> backoff = Backoff((1.0, 4.0)); backoff.started(now=0.0)
    >>> backoff.due(now=0.5), backoff.due(now=1.0)
    (False, True)
    >>> backoff.started(now=1.0); backoff.due(now=2.5), backoff.due(now=3.0)
    (False, True)
    """

    def __init__(self, bounds: tuple[float, float] = BACKOFF) -> None:
        self.bounds = bounds
        self._wait = bounds[0]
        self._last = -float("inf")
        self._restarts = 0

    def due(self, now: float | None = None) -> bool:
        return (time.monotonic() if now is None else now) >= self._last + self._wait

    def started(self, now: float | None = None) -> None:
        """The helper (re)starts now: the next wait is longer unless it ran long enough."""
        now = time.monotonic() if now is None else now
        if now - self._last >= self.bounds[1]:
            self._wait, self._restarts = self.bounds[0], 0
        elif self._restarts:
            self._wait = min(self._wait * 2, self.bounds[1])
        self._restarts += 1
        self._last = now


class Supervised:
    """A daemon thread named ``name`` running ``target``; ended by an exception, it is
    started again by :meth:`check` (``target`` again from its start) once its
    :class:`Backoff` allows. ``redo(why)`` is called just before (the owner notes the failure
    and queues again the work the thread had)."""

    def __init__(
        self,
        name: str,
        target: Callable[[], None],
        backoff: tuple[float, float] = BACKOFF,
        redo: Callable[[str], None] = lambda why: None,
    ) -> None:
        self.name, self.target, self.redo = name, target, redo
        self.backoff = Backoff(backoff)
        #: How many times it died.
        self.deaths = 0
        self._thread: threading.Thread | None = None
        self._why: str | None = None  # what ended the last thread (None: it returned)

    @property
    def thread(self) -> threading.Thread | None:
        return self._thread

    def start(self) -> None:
        self._why = None
        self.backoff.started()
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self.target()
        except BaseException as exc:  # noqa: BLE001 - kept for check() to say; no traceback
            self._why = describe(exc)

    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def check(self) -> str | None:
        """If the thread died of an exception: start it again once its backoff has passed,
        and say why it died (None: it runs, or it returned, or it waits for its backoff)."""
        thread, why = self._thread, self._why
        if thread is None or thread.is_alive() or why is None or not self.backoff.due():
            return None
        self.deaths += 1
        said = restarted(f"its thread ended ({why})")
        self.redo(said)
        self.start()
        return said

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)


def restarted(what: str) -> str:
    """How a helper's death is said: "its thread ended (...); it is started again"."""
    return f"{what}; it is started again"
