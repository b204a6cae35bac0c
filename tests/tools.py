"""Helpers the test packages share."""

from __future__ import annotations

import os
import socket
import time

import pytest


def require(present: bool, what: str) -> None:
    """Skip a test whose tool is missing on a developer's machine, but fail it under CI, where
    tests/run.sh installs the tool: a broken install must not hide behind skips."""
    if present:
        return
    message = f"{what} is missing (tests/run.sh installs it)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def wait_until(predicate, timeout: float = 5.0) -> bool:
    """Poll ``predicate`` every 5 ms until it holds (True) or ``timeout`` seconds pass (False):
    for what threads do on the real clock. Use as ``assert wait_until(...)``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.005)
    return False


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class InjectedFault(Exception):
    """Raised in a thread by :func:`inject`."""


def inject(thread, exc_type: type[BaseException] = InjectedFault) -> bool:
    """Raise ``exc_type`` in ``thread`` (a running :class:`threading.Thread`) at its next
    Python instruction, as a bug in it would: CPython's ``PyThreadState_SetAsyncExc``. A thread
    waiting in C (a lock, select) gets it once it wakes. False if the thread was not running."""
    import ctypes

    if thread is None or thread.ident is None or not thread.is_alive():
        return False
    done = ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident),
                                                      ctypes.py_object(exc_type))
    return done == 1
