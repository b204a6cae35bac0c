"""Shared test settings: hypothesis profiles (``HYPOTHESIS_PROFILE=long`` for longer runs);
the ``notify_socket`` fixture (systemd's NOTIFY_SOCKET)."""

import os
import socket
import tempfile

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, max_examples=60)
settings.register_profile(
    "long", deadline=None, max_examples=2000, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def notify_socket():
    """A bound AF_UNIX datagram socket, as systemd's NOTIFY_SOCKET (short path: 108 bytes max)."""
    folder = tempfile.mkdtemp(prefix="rb-")
    path = os.path.join(folder, "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    yield path, sock
    sock.close()
    os.unlink(path)
    os.rmdir(folder)
