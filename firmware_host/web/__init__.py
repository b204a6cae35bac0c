"""The simulated board in the browser (docs/simulator.md): the daemon's loop runs on the
simulated board and this package serves it as a page.

The loop needs two calls: :func:`start` before it runs, then ``simulator.sync(now_ms,
controller, events)`` after every controller step, and ``simulator.stop()`` at the end.
"""

from __future__ import annotations

import sys
from typing import Any, Iterable, TextIO

from firmware_host.config import Timing
from firmware_host.controller import Controller
from firmware_host.web.bridge import Hub, WebBoard
from firmware_host.web.server import Pages, WebServer, is_loopback, new_token
from hardware.sim import SimBoard


class Simulator:
    """The page's server and the loop's bridge to it."""

    def __init__(self, board: WebBoard, server: WebServer) -> None:
        self.board, self.server = board, server

    def sync(self, now: float, controller: Controller, events: Iterable[dict[str, Any]]) -> None:
        self.board.sync(now, controller, events)

    def stop(self) -> None:
        self.server.stop()


def start(
    board: SimBoard,
    timing: Timing,
    host: str = "127.0.0.1",
    port: int = 8080,
    token: str | None = None,
    out: TextIO = sys.stderr,
) -> Simulator:
    """Serve ``board`` at ``host``:``port`` and say where. Off loopback the controls need a
    token (``token``, else a new one, printed). OSError if the address cannot be bound."""
    if not is_loopback(host):
        token = token or new_token()
        print(f"reedboard: WARNING: serving the board beyond this machine ({host}); "
              "the controls need the token in the address below", file=out)
    hub = Hub()
    server = WebServer(Pages(hub, token, host), host, port)
    server.start()
    query = f"?token={token}" if token else ""
    print(f"reedboard: the simulated board is at {server.url}{query} "
          f"(spectators: {server.url}watch)", file=out, flush=True)
    # Changes of one site spaced by two debounce times: each is seen, a click-click is a tap.
    gap_ms = 2 * timing.debounce_scans * 1000 / timing.scan_hz
    return Simulator(WebBoard(board, hub, gap_ms), server)
