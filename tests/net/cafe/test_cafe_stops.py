"""``reedboard cafe`` stops cleanly on SIGTERM whatever its parts are doing: a client stuck
half-way through a request is cut off, said in the dashboard's own name (it once held the
page's close until it failed with a traceback, the archive's last writes never made), and a
broker gone mid-connect is left trying (it once held the stop for seconds). Past its closing
deadline a part that hangs is said and the dashboard ends (tests/runtime/test_closing.py)."""

from __future__ import annotations

import socket
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from testbed.broker import gone
from testbed.docs_run import dashboard, serves, stop
from testbed.league_desk import arbiter
from testbed.tools import free_port

pytestmark = pytest.mark.broker


@contextmanager
def dashboard_on(folder: Path, broker_port: int) -> Iterator[tuple[int, object]]:
    """``reedboard cafe`` on the broker at ``broker_port``, with a league (its desk takes a
    POST), serving: its port and process (stopped by the test)."""
    config = folder / "cafe.toml"
    config.write_text(f'[mqtt]\nhost = "127.0.0.1"\nport = {broker_port}\n')
    arbiter(config, ["new", "Thursday", "--game", "antipalos", "--size", "3"], state=folder)
    port = free_port()
    proc = dashboard(config, port, folder)
    try:
        assert serves(proc, port, "/league") == 200
        yield port, proc
    finally:
        if proc.poll() is None:
            stop(proc)


def test_a_request_left_half_sent_never_holds_up_the_stop(tmp_path, broker):
    with dashboard_on(tmp_path, broker.port) as (port, proc):
        with socket.create_connection(("127.0.0.1", port)) as stuck:  # its body never comes whole
            stuck.sendall(
                f"POST /api/league/pair HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{".encode()
            )
            assert serves(proc, port, "/league") == 200  # the request is under way
            _, said = stop(proc)
    assert proc.returncode == 0, said
    assert "Traceback" not in said
    # said by the dashboard's page, in its own name (once in the board's: "reedboard run: web:")
    assert [line for line in said.splitlines() if ": web: " in line] == [
        "reedboard cafe: web: stopping took more than 2 s: 1 connection(s) cut off"
    ], said


def test_a_broker_gone_mid_connect_never_holds_up_the_stop(tmp_path):
    """The broker's machine gone (its connections neither taken nor refused): stopped while
    it tries to connect, the dashboard ends cleanly, not at its closing deadline."""
    with gone() as port, dashboard_on(tmp_path, port) as (_, proc):
        _, said = stop(proc)
    assert proc.returncode == 0, said
    assert "Traceback" not in said and "stopping took more than" not in said
