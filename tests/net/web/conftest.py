"""Fixtures for the simulator page: the real daemon loop on the simulated board, serving the
page on a free port, and (from tests/conftest.py) Debian's chromium driven by Playwright."""

from __future__ import annotations

import os
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.net import web
from firmware_host.runtime.loop import Daemon, open_hardware
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config, Timing
from firmware_host.store.storage import Storage

#: A shorter settle time than the default keeps the browser tests quick.
TIMING = Timing(settle_ms=150)


class Served:
    """``reedboard run --sim`` in a thread: the daemon loop and the page at ``url``."""

    def __init__(self, tmp: Path, game: str, size: int | None, host: str, token: str | None):
        tmp.mkdir()
        self.config = replace(
            Config(), game=game, size=size, timing=TIMING, storage=str(tmp / "games.db")
        ).simulated()
        self.host, self.token = host, token
        self.ready = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(10), "the daemon did not start"
        if self.error:
            raise self.error

    def _run(self) -> None:
        try:  # sqlite wants the thread that uses it to open it
            controller = open_controller(
                self.config, Storage(self.config.storage), configured_game(self.config)
            )
            hardware = open_hardware(self.config, controller.layout.sensor_channels)
            for site in controller.boards[-1]:
                hardware.sim.place(controller.layout.sensor[site])
            self.daemon = Daemon(controller, hardware, self.config.timing.scan_hz, log=open(os.devnull, "w"))
            self.page = web.start(
                hardware.sim, self.config.timing, self.host, 0, self.token, out=open(os.devnull, "w")
            )
            self.daemon.attach(self.page)
            self.url = self.page.server.url
            self.token = self.page.server.pages.token
        except BaseException as exc:  # reported to the test
            self.error = exc
            self.ready.set()
            return
        self.ready.set()
        try:
            self.daemon.run()
        finally:
            self.page.stop()
            self.daemon.close()

    def stop(self) -> None:
        self.daemon.stop.set()
        self.thread.join(10)


@pytest.fixture
def serve(tmp_path):
    """``serve(game, size=None, host="127.0.0.1", token=None)`` -> a running :class:`Served`."""
    running = []

    def start(game="antipalos", size=None, host="127.0.0.1", token=None) -> Served:
        served = Served(tmp_path / str(len(running)), game, size, host, token)
        running.append(served)
        return served

    yield start
    for served in running:
        served.stop()
