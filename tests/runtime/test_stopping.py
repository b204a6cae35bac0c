"""SIGTERM and SIGINT stop the daemon, the café and the wizard even when the signal comes
while the main thread holds the lock that stopping takes (inside ``Event.wait``): a handler
that set the stop event there waited for itself forever, and ``reedboard cafe`` once hung
after SIGTERM that way."""

import signal
import subprocess
import sys

import pytest

# The main thread holds what the stop needs when the signal comes, as Event.wait holds the
# lock Event.set takes; the stop must come once it lets go, never deadlock.
SCRIPT = """
import os, signal, threading, time
from firmware_host.runtime.stopping import stop_on_signals

held, stopped = threading.Lock(), threading.Event()

def stop():
    with held:
        stopped.set()

stop_on_signals(stop)
with held:
    os.kill(os.getpid(), signal.{name})
    time.sleep(0.3)
print("stopped" if stopped.wait(10) else "not stopped", flush=True)
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_a_signal_that_comes_while_the_main_thread_holds_the_lock_still_stops(sig):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(name=sig.name)], capture_output=True, text=True, timeout=30
    )
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "stopped", "")
