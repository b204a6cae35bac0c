"""The docs as tests (marker ``docs``): one sandbox for the whole run (testbed/docs_run.py)."""

from __future__ import annotations

import pytest

from testbed.docs_run import Sandbox


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory):
    box = Sandbox(tmp_path_factory.mktemp("machine"))
    yield box
    box.close()
