"""``reedboard run``: the wall-clock loop (``firmware_host/runtime/loop.py``) put together with
its hardware, the board's page and the café network. SIGTERM/SIGINT end it cleanly; closing the
parts then has CLOSE_SECONDS. It stands with the commands, above the rooms it joins: the page
(``net/web/``) imports ``runtime/``, so ``runtime/`` cannot import the page back.

On the simulated board (``--sim``, or when the configured hardware is missing) JSON lines on
stdin move pieces and press buttons, in the replay format (``t`` is ignored: a line acts when it
arrives): ``{"site": "B4*", "on": true}``, ``{"button": "ok"}``.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
import threading
from typing import TYPE_CHECKING, TextIO

from firmware_host.board import Controls
from firmware_host.board.playable import Playable
from firmware_host.cli import starting
from firmware_host.net.address import host_address
from firmware_host.runtime.closing import Closing
from firmware_host.runtime.loop import Daemon, Hardware, open_hardware, open_storage
from firmware_host.runtime.service import PowerOffProcess
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.runtime.sound import Speaker
from firmware_host.runtime.stopping import stop_on_signals
from firmware_host.store.config import Config
from firmware_host.store.dblock import DatabaseLock
from firmware_host.store.storage import StorageError
from firmware_host.ui.screens import message_screen
from hardware import backends

if TYPE_CHECKING:  # loaded with a simulated board only
    from hardware.sim import SimBoard

#: After the loop, closing the parts (the network's goodbye, the page, the LEDs put out) may
#: take this long; then the daemon ends its helpers' processes and itself at once, well within
#: systemd's TimeoutStopSec (5 s), so that a stop never needs a SIGKILL.
CLOSE_SECONDS = 3.0
#: Of what is left of it once the network has said goodbye, the page leaves this much for the
#: board's own close (the LEDs put out, the games file closed).
BOARD_SECONDS = 0.5


def feed_stdin(board: SimBoard, controller: Controls, stream: TextIO) -> None:
    """Apply replay-format lines from ``stream`` to the simulated board until it ends."""
    from firmware_host.runtime.replay import feed

    feed(board, lambda: controller.layout.sensor, stream, "run")


def run(
    config: Config,
    sim: bool = False,
    host: str | None = None,
    port: int | None = None,
    token: str | None = None,
) -> int:
    """Run until SIGTERM/SIGINT; the exit status. On the simulated board the page is served
    at ``host``:``port`` (default: the config's [web] table; docs/simulator.md)."""
    if sim:
        config = config.simulated()
    try:
        lock = DatabaseLock(config.storage) if config.storage != ":memory:" else None
        storage, aside = open_storage(config.storage)
        where: list[str] = []  # the page's address, once bound
        playable = Playable.of(config)  # one for the menu, the page and the network
        controller = open_controller(
            config, storage, configured_game(config), lambda: _shown_address(where), playable=playable
        )
    except StorageError as exc:
        print(f"reedboard run: {exc}", file=sys.stderr)
        return 2
    if aside:
        controller.notice(message_screen("Games set aside", [aside, "It is kept aside"]))
    try:
        hardware = open_hardware(config, controller.layout.sensor_channels)
    except backends.HardwareOptionError as exc:
        print(f"reedboard run: {config.option_error(exc)}", file=sys.stderr)
        return 2
    except backends.HardwareUnavailable as exc:
        print(f"reedboard run: {exc}; using the simulated board", file=sys.stderr)
        config = config.simulated()
        hardware = open_hardware(config, controller.layout.sensor_channels)
        missing: str | None = "simulated board: the configured hardware is missing, see reedboard doctor"
    else:
        missing = None
    simulated = hardware.sim
    daemon = Daemon(controller, hardware, config.timing.scan_hz, idle_scan_hz=config.timing.idle_scan_hz)
    stop_on_signals(daemon.stop.set)  # before the page and the network say it is there
    daemon.note = missing
    daemon.when_ready.append(starting.release)
    daemon.speaker = Speaker.configured(config.sound)
    if simulated is None:  # only a real board powers off the machine it runs on
        daemon.power_off = PowerOffProcess(config.poweroff_command)
    page = None
    if simulated is not None or config.web.enabled:
        board = simulated if simulated is not None else _tap(hardware)
        page = _bind_page(board, config, host or config.web.host, port or config.web.port, token, playable)
    if page is None and simulated is not None:
        daemon.close()
        return 2
    if page is not None:  # a real board plays on without its page
        where.append(page.address)
        daemon.attach(page)
        daemon.when_ready.append(
            lambda: page.serve_soon(then=lambda: _say_running(controller) if simulated is not None else None)
        )
    if simulated is not None:
        _start_sim(simulated, controller)
    net = _network(daemon, config, playable)  # it lists the games off the scan loop
    try:
        return daemon.run()
    finally:
        with Closing("reedboard run", CLOSE_SECONDS, lambda: _end_workers(daemon)) as closing:
            if net is not None:
                closing.part("the network")
                net.stop()
            if page is not None:
                closing.part("the page")
                page.stop(closing.left() - BOARD_SECONDS)
            closing.part("the board")
            daemon.close()
            if lock is not None:
                lock.close()


def _end_workers(daemon: Daemon) -> None:
    """Closing took CLOSE_SECONDS: end the helpers' processes before this one ends."""
    for thinker in (daemon.controller.opponent, daemon.controller.settings.hints):
        worker = getattr(thinker, "worker", None)
        if worker is not None and worker.pid is not None:
            os.kill(worker.pid, signal.SIGKILL)


def _tap(hardware: Hardware):
    """Real hardware's parts, tapped for the board's page (firmware_host/net/web/tap.py)."""
    from firmware_host.net.web.tap import tap

    return tap(hardware)


def _shown_address(where: list[str]) -> str:
    """What the OLED's Info screen shows: the page's address when phones on the network can
    open it (host:port), else this machine's network address."""
    if where and not where[0].startswith(("http://127.", "http://[::1]", "http://localhost")):
        return where[0].removeprefix("http://").rstrip("/")
    return host_address()


def _bind_page(board, config: Config, host: str, port: int, token: str | None, playable: Playable):
    """The page for ``board`` (simulated, or real hardware's tapped parts), its address bound
    (None, said why, if it cannot be)."""
    from firmware_host.net import web

    try:
        return web.bind(board, config.timing, host, port, token, lan=host_address, playable=playable)
    except OSError as exc:
        taken = exc.errno == errno.EADDRINUSE
        hint = f" (another program uses it: try --port {port + 1})" if taken else ""
        print(
            f"reedboard run: cannot serve the page on {host}:{port}: {exc.strerror or exc}{hint}",
            file=sys.stderr,
        )
        return None


def _network(daemon: Daemon, config: Config, playable: Playable):
    """The board on the café network's broker, when the config names one (docs/cafe.md)."""
    if config.mqtt.host is None:
        return None
    from firmware_host.net.mqtt.observer import attach

    return attach(daemon, config, playable)


def _say_running(controller: Controls) -> None:
    """Said once the page is served (after READY: the web server's libraries load meanwhile)."""
    print(
        f"reedboard: the simulated board is running ({controller.record.game.title}); "
        "stop it with Ctrl-C or SIGTERM",
        file=sys.stderr,
    )


def _start_sim(board: SimBoard, controller: Controls) -> None:
    """The simulated board holds the game's position; stdin (if not a terminal) moves pieces."""
    sensors = board.sensors(controller.layout.sensor)
    for site in controller.record.boards[-1]:
        if (channel := sensors[site]) is not None:
            board.place(channel)
    if not sys.stdin.isatty():
        reader = threading.Thread(
            target=feed_stdin, args=(board, controller, sys.stdin), daemon=True, name="stdin"
        )
        reader.start()
