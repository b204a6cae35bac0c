"""A daemon's process stopped by a test: what the tests check is the behaviour (it stops, with
status 0, having said and saved what it should), never how fast. The one bound is a guard
against a hang, generous enough for a loaded machine: systemd's stop timeout is kept by the
daemon itself (``CLOSE_SECONDS`` in firmware_host/cli/run.py ends it once closing takes long).
"""

from __future__ import annotations

import signal
import subprocess

#: Past this, a process asked to stop is taken as hung (a guard, not a time the test checks).
HANG_SECONDS = 60.0


def stop(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> int:
    """Send ``sig`` to ``proc``; its exit status once it has ended. A process still running
    after :data:`HANG_SECONDS` is killed and the test fails, saying so.

    >>> stop(subprocess.Popen(["sleep", "30"]))
    -15
    """
    if proc.poll() is None:
        proc.send_signal(sig)
    try:
        return proc.wait(HANG_SECONDS)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError(
            f"{proc.args!r} hung: still running {HANG_SECONDS:g} s after {signal.Signals(sig).name}"
        ) from None
