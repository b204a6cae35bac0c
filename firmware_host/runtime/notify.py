"""systemd's service notification protocol (sd_notify), spoken over its AF_UNIX datagram socket.

Without ``NOTIFY_SOCKET`` (not run by systemd) every call does nothing, so the daemon calls it
unconditionally.

Under ``python -X importtime``, which logs each import to stderr as it happens, READY first
writes :data:`READY_MARK` there: what the log holds above it was loaded before READY, whatever a
thread started at READY loads next (bench/startup.py, tests/system/test_start_imports.py).
"""

from __future__ import annotations

import os
import socket
import sys

#: The line READY writes to stderr under ``python -X importtime``.
READY_MARK = "--- READY ---"


class Notifier:
    """Sends READY=1, STATUS=, WATCHDOG=1 and STOPPING=1 to systemd."""

    def __init__(self, environ: dict[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):
            address = "\0" + address[1:]
        self.address = address or None
        self.watchdog_seconds = _watchdog_seconds(env)
        self._socket: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, *fields: str) -> bool:
        """Send ``KEY=value`` lines in one datagram; False when not under systemd or it failed."""
        if not self.address:
            return False
        if self._socket is None:
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        try:
            self._socket.sendto("\n".join(fields).encode(), self.address)
        except OSError:
            return False
        return True

    def ready(self, status: str) -> bool:
        if "importtime" in sys._xoptions:
            print(READY_MARK, file=sys.stderr, flush=True)
        return self.send("READY=1", f"STATUS={status}")

    def status(self, status: str) -> bool:
        return self.send(f"STATUS={status}")

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def _watchdog_seconds(env) -> float | None:
    """The watchdog interval systemd asks for, when it is meant for this process."""
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 1_000_000
    except ValueError:
        return None
