"""Fixtures: a fresh Mosquitto per test, a watcher on it, boards stopped at the end, the café
dashboard on it."""

from __future__ import annotations

import io
import threading

import pytest

from firmware_host.net.cafe.archive import Archive
from firmware_host.net.cafe.run import start
from firmware_host.store.config import Mqtt
from testbed.broker import Board, Broker, Watcher
from testbed.stopping import HANG_SECONDS


@pytest.fixture
def broker(tmp_path):
    broker = Broker(tmp_path).start()
    yield broker
    broker.stop()


@pytest.fixture
def watcher(broker):
    watcher = Watcher(broker.port, "reedboard/#", "homeassistant/#")
    yield watcher
    watcher.close()


@pytest.fixture
def boards():
    """Start boards with ``boards(config)``; all are stopped at the end."""
    started: list[Board] = []

    def start(config) -> Board:
        started.append(Board(config))
        return started[-1]

    yield start
    for board in started:
        board.stop()


@pytest.fixture(scope="session")
def postgres():
    """One throw-away PostgreSQL for the session (tests use tables of their own names)."""
    from testbed.postgres import Postgres

    server = Postgres().start()
    yield server
    server.remove()


@pytest.fixture
def cafe(broker):
    """``cafe(token=None, archive=None)``: the dashboard in this process, on the broker; its url."""
    served = []

    def run(token: str | None = None, archive: Archive | None = None) -> str:
        # Started from a thread of its own: Playwright's sync API runs an event loop here.
        starter = threading.Thread(
            target=lambda: served.append(
                start(
                    Mqtt(),
                    "127.0.0.1",
                    broker.port,
                    "127.0.0.1",
                    0,
                    token,
                    out=io.StringIO(),
                    archive=archive,
                )
            )
        )
        starter.start()
        starter.join(HANG_SECONDS)  # a guard: a loaded machine may take seconds
        assert served, f"the dashboard did not start in {HANG_SECONDS:g} s"
        return served[-1][1].url

    yield run
    for link, server in served:
        link.stop()
        server.stop()
