"""``reedboard run --sim`` (or ``reedboard setup``) in a process of its own, as a player at a
terminal would start it: pieces moved and buttons pressed through stdin, its events read from
stdout.

Both of its output pipes are drained by a thread of their own from the start, whether a test
reads them or not: a daemon left talking into a full pipe (64 KB unread) would stall its scan.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import IO

from testbed import stopping
from testbed.tools import REEDBOARD

#: How long the readers get to take the last lines once the process has ended (a guard).
DRAINED_SECONDS = 10.0


def send(proc: subprocess.Popen, **line: object) -> None:
    """``line`` as a JSON line on ``proc``'s stdin: a hand on the board, a button."""
    proc.stdin.write(json.dumps(line) + "\n")
    proc.stdin.flush()


class Lines:
    """The lines of one pipe, read to its end by a thread: taken in order by :meth:`next`, and
    all of them kept for :meth:`text`.

    >>> import io
    >>> lines = Lines(io.StringIO("one\\ntwo\\n"))
    >>> lines.next(1), lines.next(1), lines.next(1)
    ('one\\n', 'two\\n', '')
    >>> lines.text(drained=True)
    'one\\ntwo\\n'
    """

    def __init__(self, pipe: IO[str]) -> None:
        self._pending: queue.Queue[str] = queue.Queue()
        self._all: list[str] = []
        self._reader = threading.Thread(target=self._read, args=(pipe,), daemon=True)
        self._reader.start()

    def _read(self, pipe: IO[str]) -> None:
        for line in pipe:
            self._all.append(line)
            self._pending.put(line)
        self._pending.put("")  # the end, as readline() says it

    def next(self, timeout: float) -> str | None:
        """The next line not yet taken; ``""`` at the pipe's end, ``None`` if none came in
        ``timeout`` seconds."""
        try:
            line = self._pending.get(timeout=max(timeout, 0))
        except queue.Empty:
            return None
        if not line:
            self._pending.put("")  # the end stays the end for whoever asks next
        return line

    def text(self, drained: bool = False) -> str:
        """Every line read so far, taken or not; with ``drained``, first the rest of them up to
        the pipe's end (the process has ended)."""
        if drained:
            self._reader.join(DRAINED_SECONDS)
        return "".join(self._all)


class Running:
    """``reedboard run --sim`` fed through stdin; its events read from stdout. ``command``:
    another of reedboard's commands on the simulated board (``"setup"``); ``env``: more
    environment (``NOTIFY_SOCKET``, as systemd gives it)."""

    def __init__(self, config: Path, *command: str, **env: str) -> None:
        self.proc = subprocess.Popen(
            [*REEDBOARD, *(command or ("run", "--sim")), "--config", str(config)],
            env={**os.environ, **env},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.events = Lines(self.proc.stdout)
        self.journal = Lines(self.proc.stderr)

    def write(self, line: str) -> None:
        """One line, as it is, on the daemon's stdin."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def send(self, **line: object) -> None:
        send(self.proc, **line)

    def wait_for(self, kind: str, timeout: float = 20) -> dict:
        """The next event of ``kind`` on stdout (the events before it are passed over)."""
        deadline = time.monotonic() + timeout
        while line := self.events.next(deadline - time.monotonic()):
            event = json.loads(line)
            if event["event"] == kind:
                return event
        raise AssertionError(f"no {kind} event; stderr: {self.journal.text()}")

    def said(self, text: str, timeout: float = 20) -> bool:
        """Read stderr on until a line holds ``text`` (the page is served after READY)."""
        deadline = time.monotonic() + timeout
        while line := self.journal.next(deadline - time.monotonic()):
            if text in line:
                return True
        return False

    def stderr(self) -> str:
        """All the daemon said on stderr: the whole of it once the process has ended."""
        return self.journal.text(drained=self.proc.poll() is not None)

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """``sig`` to the daemon; its exit status once it has ended (testbed/stopping.py: a
        hang fails the test)."""
        return stopping.stop(self.proc, sig)
