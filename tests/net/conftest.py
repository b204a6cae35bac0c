"""Fixtures: a fresh Mosquitto per test, a watcher on it, boards stopped at the end, the café
dashboard on it."""

from __future__ import annotations

import io
import shutil
import threading

import pytest

from firmware_host.net.cafe.archive import Archive
from firmware_host.net.cafe.run import start
from firmware_host.store.config import Mqtt
from testbed.broker import Board, Broker, Watcher
from testbed.tools import require
from tests.net.web.conftest import CHROMIUM


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


@pytest.fixture
def page():
    """A page in Debian's Chromium through Playwright, closed after the test: its event loop
    holds this thread only meanwhile (tests after it start event loops here)."""
    try:
        from playwright import sync_api
    except ImportError:
        sync_api = None
    require(sync_api is not None, "playwright (the [test] extra)")
    require(shutil.which(CHROMIUM) is not None, f"Debian's chromium ({CHROMIUM})")
    errors: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                             args=["--no-sandbox", "--disable-dev-shm-usage"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_default_timeout(10000)
        yield page
        browser.close()
    assert not errors, f"errors in the page: {errors}"


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
        starter = threading.Thread(target=lambda: served.append(start(
            Mqtt(), "127.0.0.1", broker.port, "127.0.0.1", 0, token, out=io.StringIO(),
            archive=archive)))
        starter.start()
        starter.join(10)
        return served[-1][1].url

    yield run
    for link, server in served:
        link.stop()
        server.stop()
