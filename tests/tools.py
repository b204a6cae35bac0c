"""Helpers the test packages share."""

from __future__ import annotations

import os
import socket

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


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
