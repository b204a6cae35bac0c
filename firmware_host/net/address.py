"""This machine's address on its network, for the addresses the pages print and show (the
board's page, its OLED, the café's dashboard); light, so ``reedboard run`` loads it at once."""

from __future__ import annotations

import socket


def host_address() -> str:
    """This machine's address on the network it would use to go out (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            return probe.getsockname()[0]
        except OSError:
            return "no network"
