"""``reedboard cafe`` on a real Mosquitto stops on SIGTERM whatever its parts are doing: a
client stuck half-way through a request is cut off (it once held the page's close until it
failed with a traceback, the archive's last writes never made), and a broker gone mid-connect
holds it no longer than its closing deadline, said in the journal."""

from __future__ import annotations

import socket
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

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


def test_a_broker_gone_mid_connect_holds_the_stop_no_longer_than_its_deadline(tmp_path):
    """The broker's address takes no connection and refuses none (its queue full: a machine
    gone): the dashboard ends cleanly, or at its deadline with the part it was closing said."""
    with socket.socket() as gone:
        gone.bind(("127.0.0.1", 0))
        gone.listen(0)
        queued = [socket.socket() for _ in range(4)]
        for one in queued:
            one.setblocking(False)
            one.connect_ex(gone.getsockname())
        try:
            with dashboard_on(tmp_path, gone.getsockname()[1]) as (_, proc):
                _, said = stop(proc)
        finally:
            for one in queued:
                one.close()
    assert "Traceback" not in said
    assert proc.returncode == 0 or (
        proc.returncode == 1 and "stopping took more than 5 s (closing the broker link); ending now" in said
    ), said
