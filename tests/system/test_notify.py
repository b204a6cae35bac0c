"""sd_notify messages arrive on a real AF_UNIX datagram socket."""

import os
import socket
import subprocess
import sys

import pytest

from firmware_host.runtime.notify import READY_MARK, Notifier


@pytest.fixture
def listener(tmp_path):
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    yield path, sock
    sock.close()


def test_messages_reach_the_socket(listener):
    path, sock = listener
    notifier = Notifier({"NOTIFY_SOCKET": path})
    assert notifier.ready("Antipalos 12: white to move")
    assert sock.recv(4096) == b"READY=1\nSTATUS=Antipalos 12: white to move"
    assert notifier.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert notifier.stopping()
    assert sock.recv(4096) == b"STOPPING=1"
    notifier.close()


def test_abstract_socket_address():
    name = f"reedboard-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).status("idle")
        assert sock.recv(4096) == b"STATUS=idle"
    finally:
        sock.close()


def test_without_systemd_nothing_is_sent():
    notifier = Notifier({})
    assert not notifier.enabled
    assert not notifier.ready("x")


def test_watchdog_interval_only_for_this_process():
    assert Notifier({"WATCHDOG_USEC": "10000000"}).watchdog_seconds == 10
    mine = {"WATCHDOG_USEC": "5000000", "WATCHDOG_PID": str(os.getpid())}
    assert Notifier(mine).watchdog_seconds == 5
    other = {"WATCHDOG_USEC": "5000000", "WATCHDOG_PID": str(os.getpid() + 1)}
    assert Notifier(other).watchdog_seconds is None
    assert Notifier({"WATCHDOG_USEC": "soon"}).watchdog_seconds is None


def test_a_vanished_socket_is_not_an_error(tmp_path):
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone.sock")})
    assert notifier.send("READY=1") is False


def test_ready_marks_an_import_time_log_where_it_was_sent():
    """Under ``python -X importtime`` the log says where READY came, so what loads after it (a
    page's server in its thread) is told apart from what READY waited for."""
    ready = "from firmware_host.runtime.notify import Notifier; Notifier({}).ready('idle'); import wave"
    logged = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", ready], capture_output=True, text=True, check=True
    ).stderr
    before, mark, after = logged.partition(READY_MARK)
    assert mark and "firmware_host.runtime.notify" in before and "wave" in after
    plain = subprocess.run([sys.executable, "-c", ready], capture_output=True, text=True, check=True)
    assert plain.stderr == ""
