"""The address a page's start-up line gives when it serves every interface (``--host
0.0.0.0``): this machine's on its network, which a phone or the café's screen can open, never
0.0.0.0 (the board's page and the café's dashboard alike)."""

import subprocess

import pytest

from firmware_host.net.address import host_address
from testbed.stopping import stop
from testbed.tools import REEDBOARD, free_port, sim_config, write_config


def said_at(command: list[str], marker: str) -> str:
    """The start-up line of a ``reedboard`` process holding ``marker``; the process stopped."""
    proc = subprocess.Popen([*REEDBOARD, *command], stdin=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while marker not in (line := proc.stderr.readline()):
            assert line, "it stopped before saying where it is"
        return line
    finally:
        stop(proc)


@pytest.fixture
def lan():
    address = host_address()
    if address == "no network":
        pytest.skip("this machine is on no network")
    return address


def test_the_board_served_to_every_interface_says_its_network_address(tmp_path, lan):
    port = free_port()
    config = sim_config(tmp_path)
    line = said_at(
        ["run", "--sim", "--config", str(config), "--host", "0.0.0.0", "--port", str(port)], " is at "
    )
    assert f" is at http://{lan}:{port}/?token=" in line, line
    assert "0.0.0.0" not in line.split(" is at ")[1]


def test_the_cafe_served_to_every_interface_says_its_network_address(tmp_path, lan, broker):
    port = free_port()
    config = write_config(tmp_path, f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}', web=False)
    command = ["cafe", "--config", str(config), "--host", "0.0.0.0", "--port", str(port)]
    line = said_at([*command, "--state", str(tmp_path / "state")], "dashboard is at")
    assert f"the dashboard is at http://{lan}:{port}/?token=" in line, line
    assert "0.0.0.0" not in line
