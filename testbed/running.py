"""``reedboard run --sim`` in a process of its own, as a player at a terminal would start it:
pieces moved and buttons pressed through stdin, its events read from stdout."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

from testbed import stopping
from testbed.tools import REEDBOARD


class Running:
    """``reedboard run --sim`` fed through stdin; its events read from stdout."""

    def __init__(self, config: Path) -> None:
        self.proc = subprocess.Popen(
            [*REEDBOARD, "run", "--sim", "--config", str(config)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def send(self, **line) -> None:
        self.proc.stdin.write(json.dumps(line) + "\n")
        self.proc.stdin.flush()

    def wait_for(self, kind: str, timeout: float = 20) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            event = json.loads(line)
            if event["event"] == kind:
                return event
        raise AssertionError(f"no {kind} event; stderr: {self.proc.stderr.read()}")

    def said(self, text: str, timeout: float = 20) -> bool:
        """Read stderr until a line holds ``text`` (the page is served after READY)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                return False
            if text in line:
                return True
        return False

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """``sig`` to the daemon; its exit status once it has ended (testbed/stopping.py: a
        hang fails the test)."""
        return stopping.stop(self.proc, sig)
