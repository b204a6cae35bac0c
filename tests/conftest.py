"""Shared test settings: hypothesis profiles (``HYPOTHESIS_PROFILE=long`` for longer runs);
the ``notify_socket`` fixture (systemd's NOTIFY_SOCKET); ``scratch_path``, a folder for throw-away
games files in memory where the machine has room (testbed/scratch.py); Debian's Chromium, one for the session,
and a page of it per test (``browser``, ``page``)."""

import os
import shutil
import socket
import tempfile

import pytest
from hypothesis import HealthCheck, settings

from testbed.scratch import scratch
from testbed.tools import require

#: Debian's Chromium (never a browser Playwright downloads).
CHROMIUM = "/usr/bin/chromium"

settings.register_profile("default", deadline=None, max_examples=60)
settings.register_profile(
    "long", deadline=None, max_examples=2000, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config):
    """``test-output/`` (screenshots and OLED renders to look at) exists before any test writes."""
    os.makedirs(
        os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "test-output"),
        exist_ok=True,
    )


@pytest.fixture
def scratch_path(tmp_path):
    """A folder of its own for a test's throw-away games files: in ``/dev/shm`` when it is big
    enough (a robot's thousands of commits cost no fsync there), else ``tmp_path``."""
    where = scratch()
    if where is None:
        yield tmp_path
        return
    folder = tempfile.mkdtemp(prefix="reedboard-test-", dir=where)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def notify_socket():
    """A bound AF_UNIX datagram socket, as systemd's NOTIFY_SOCKET (short path: 108 bytes max)."""
    folder = tempfile.mkdtemp(prefix="rb-")
    path = os.path.join(folder, "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    yield path, sock
    sock.close()
    os.unlink(path)
    os.rmdir(folder)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium through Playwright, one for the session (each test its own context).
    Playwright's sync API holds this thread's event loop meanwhile: the pages' servers bind and
    the tests' clients run their loops in threads of their own (``testbed.tools.run_async``)."""
    try:
        from playwright import sync_api
    except ImportError:
        sync_api = None
    require(sync_api is not None, "playwright (the [test] extra)")
    require(shutil.which(CHROMIUM) is not None, f"Debian's chromium ({CHROMIUM})")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--disable-dev-shm-usage",
            ],
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A page of its own in the session's Chromium, closed after the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(10000)
    yield page
    context.close()
    assert not errors, f"errors in the page: {errors}"
