"""A program's closing deadline (firmware_host/runtime/closing.py) in a process of its own: a
part that hangs past it is named in the journal, what must not outlive the process is ended,
and the process ends with status 1; one closed in time ends as it would have."""

from __future__ import annotations

import subprocess
import sys

from testbed.stopping import HANG_SECONDS

PROGRAM = """
import sys, time
from firmware_host.runtime.closing import Closing
with Closing("demo", float(sys.argv[1]), lambda: print("last", flush=True)) as closing:
    closing.part("the page")
    time.sleep(float(sys.argv[2]))
print("closed", flush=True)
"""


def closed(deadline: float, closing: float) -> subprocess.CompletedProcess:
    """The program with a deadline of ``deadline`` s, closing its page for ``closing`` s."""
    return subprocess.run(
        [sys.executable, "-c", PROGRAM, str(deadline), str(closing)],
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )


def test_a_part_that_hangs_past_the_deadline_is_said_and_the_process_ends():
    run = closed(0.5, HANG_SECONDS)
    assert run.returncode == 1
    assert run.stderr == "demo: stopping took more than 0.5 s (closing the page); ending now\n"
    assert run.stdout == "last\n"


def test_parts_closed_in_time_end_as_they_would_have():
    run = closed(HANG_SECONDS, 0)
    assert (run.returncode, run.stdout, run.stderr) == (0, "closed\n", "")
