"""Closing a program's parts once it is asked to stop, within a deadline, so that a part that
hangs (a broker gone, a client that reads nothing) never holds the process until systemd kills
it: past the deadline the journal says which part was being closed, ``last`` ends what must not
outlive the process (the computer's worker), and the process ends at once with status 1.

>>> with Closing("demo", 5.0) as closing:
...     closing.part("the page")
...     0 < closing.left() <= 5.0
True
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Callable


class Closing:
    """A deadline of ``seconds`` for ``who`` (the program's name in the journal), from
    ``with`` on; :meth:`part` names what is being closed."""

    def __init__(self, who: str, seconds: float, last: Callable[[], None] = lambda: None) -> None:
        self.who, self.seconds, self.last = who, seconds, last
        self.closing = "its parts"
        self._timer = threading.Timer(seconds, self._abandon)
        self._timer.daemon = True
        self._deadline = 0.0

    def __enter__(self) -> Closing:
        self._deadline = time.monotonic() + self.seconds
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()

    def part(self, name: str) -> None:
        """From now on ``name`` is being closed (said if the deadline passes meanwhile)."""
        self.closing = name

    def left(self) -> float:
        """Seconds left before the deadline."""
        return until(self._deadline)

    def _abandon(self) -> None:
        print(
            f"{self.who}: stopping took more than {self.seconds:g} s (closing {self.closing}); ending now",
            file=sys.stderr,
        )
        try:
            self.last()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(1)


def until(deadline: float) -> float:
    """Seconds from now to ``deadline`` (``time.monotonic()``'s), none once it has passed.

    >>> until(time.monotonic() - 1)
    0.0
    """
    return max(0.0, deadline - time.monotonic())
