"""The docs as tests (marker ``docs``): one sandbox for the whole run (testbed/docs_run.py)."""

from __future__ import annotations

import pytest

from testbed.docs_run import Sandbox
from tests.net.conftest import page  # Chromium, as the café tests drive it


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory):
    box = Sandbox(tmp_path_factory.mktemp("machine"))
    yield box
    box.close()


__all__ = ["page", "sandbox"]
