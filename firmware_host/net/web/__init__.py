"""The board's page (docs/simulator.md): the daemon's loop runs on the simulated board, or on
real hardware whose parts are tapped for the page (:mod:`firmware_host.net.web.tap`), and this
package serves it as a page. On real hardware the pieces are real: the simulator's piece
controls are refused.

The loop needs: :func:`bind` before it runs (the address is taken at once, so a busy port is
refused before the daemon says it is ready), :meth:`Simulator.serve` once it is ready (the web
server's libraries load only then), ``simulator.sync(now_ms, controller, events)`` after every
controller step (``Daemon.attach`` does that), and ``simulator.stop()`` at the end.
:func:`start` binds and serves at once.
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Any, Callable, Iterable, TextIO

from firmware_host.board import Controls
from firmware_host.board.events import Event
from firmware_host.board.playable import Playable
from firmware_host.net.web.address import is_loopback, listen, new_token, page_address
from firmware_host.net.web.bridge import Hub, WebBoard
from firmware_host.net.web.spacing import gap
from firmware_host.net.web.tap import HardwareBoard
from firmware_host.store.config import Timing
from hardware.wake import Waker

if TYPE_CHECKING:  # real hardware's page never loads the simulated board
    from hardware.sim import SimBoard


class Simulator:
    """The page's server and the loop's bridge to it."""

    #: How the daemon names it when its server's thread fails ("Page restarting").
    label = "Page"

    def __init__(
        self,
        board: WebBoard,
        host: str,
        port: int,
        token: str | None,
        out: TextIO,
        lan: Callable[[], str] = lambda: "127.0.0.1",
        playable: Playable = Playable(),
    ) -> None:
        self.board, self.host, self.token, self.out = board, host, token, out
        self.playable = playable
        self.sock = listen(host, port)
        #: The page's address for phones (with the token: whoever scans it may play).
        self.address = page_address(host, self.sock.getsockname()[1], lan())
        self.server: Any = None
        self._lock = threading.Lock()
        self._stopped = False
        #: The thread :meth:`serve_soon` serves in (None until then).
        self._starting: threading.Thread | None = None

    def serve(self) -> bool:
        """Start the web server on the bound address and say where; False if stopped first."""
        from firmware_host.net.web.base import WebServer  # the slow part: aiohttp
        from firmware_host.net.web.server import Pages

        with self._lock:
            if self._stopped:
                return False
            pages = Pages(
                self.board.hub,
                self.token,
                self.host,
                self.playable,
                simulated=self.board.simulated,
                address=self.address,
            )
            self.server = WebServer(pages, self.host, self.sock.getsockname()[1], sock=self.sock)
            self.server.start()
        query = f"?token={self.token}" if self.token else ""
        url = self.address  # a phone's way in, when bound to every interface
        what = "the simulated board" if self.board.simulated else "the board's page"
        print(f"reedboard: {what} is at {url}{query} (spectators: {url}watch)", file=self.out, flush=True)
        return True

    def serve_soon(self, then: Callable[[], None] = lambda: None) -> None:
        """:meth:`serve`, then ``then()``, in a thread of its own: the loop scans meanwhile.
        A stop before it is served ends it unserved, once its libraries have loaded (:meth:`stop`
        waits for that)."""

        def serve() -> None:
            if self.serve():
                then()

        self._starting = threading.Thread(target=serve, daemon=True, name="web-start")
        self._starting.start()

    def check(self) -> str | None:
        """The server's thread kept going (one that died is started again): what is wrong."""
        server = self.server
        return server.check() if server is not None else None

    def wakes(self, waker: Waker) -> None:
        """Set ``waker`` whenever the page sends a command."""
        self.board.hub.on_submit = waker.set

    @property
    def quiet(self) -> bool:
        """True when no command from the page waits to be applied."""
        return self.board.quiet

    def sync(self, now: float, controller: Controls, events: Iterable[Event]) -> None:
        self.board.sync(now, controller, events)

    def stop(self, within: float | None = None) -> None:
        """Stop serving, within ``within`` s (None: the server's own bound); a start under way
        ends first. Its libraries may still be loading (aiohttp loads OpenSSL's certificates),
        and a process that exits meanwhile has OpenSSL torn down under that thread: a crash
        (SIGSEGV) instead of the stop's own status."""
        with self._lock:
            self._stopped = True
            if self.server is not None:  # its own bound unless given one (base.py loads aiohttp)
                self.server.stop() if within is None else self.server.stop(within)
        if self._starting is not None:
            self._starting.join()
        self.sock.close()


def bind(
    board: SimBoard | HardwareBoard,
    timing: Timing,
    host: str = "127.0.0.1",
    port: int = 8080,
    token: str | None = None,
    out: TextIO = sys.stderr,
    lan: Callable[[], str] = lambda: "127.0.0.1",
    playable: Playable = Playable(),
) -> Simulator:
    """The page for ``board`` (simulated, or real hardware's :class:`HardwareBoard`), its
    address bound but not yet served; ``playable``: what the board can play (the picker offers
    that, a new game is checked). Off loopback the controls need a token (``token``, else a new
    one, printed). ``lan()``: this machine's network address, for the phones' link. OSError if
    the address cannot be bound."""
    bridge = WebBoard(board, Hub(), *gap(timing.debounce_scans, timing.scan_hz))  # each change seen
    return bind_bridge(bridge, host, port, token, out, lan, playable)


def bind_bridge(
    bridge,
    host: str,
    port: int,
    token: str | None,
    out: TextIO = sys.stderr,
    lan: Callable[[], str] = lambda: "127.0.0.1",
    playable: Playable = Playable(),
) -> Simulator:
    """:func:`bind` for a bridge of the loop's own (``hub``, ``quiet``, ``simulated``,
    ``sync``), e.g. the set-up wizard's page."""
    if not is_loopback(host):
        token = token or new_token()
    simulator = Simulator(bridge, host, port, token, out, lan, playable)
    if not is_loopback(host):
        print(
            f"reedboard: WARNING: serving the board beyond this machine ({host}); "
            "the controls need the token in the address below",
            file=out,
        )
    return simulator


def start(
    board: SimBoard,
    timing: Timing,
    host: str = "127.0.0.1",
    port: int = 8080,
    token: str | None = None,
    out: TextIO = sys.stderr,
) -> Simulator:
    """:func:`bind`, then serve ``board`` at ``host``:``port`` and say where."""
    simulator = bind(board, timing, host, port, token, out)
    try:
        simulator.serve()
    except BaseException:
        simulator.sock.close()
        raise
    return simulator
