"""The code passes ruff's checks (pyflakes, pycodestyle and import order, as configured in
pyproject.toml) and is laid out as ruff's formatter lays it out."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The folders of Python code.
CODE = ["engines", "firmware_host", "hardware", "bench", "tests", "testbed", "tools", "docs", "conftest.py"]


def ruff(*args: str) -> subprocess.CompletedProcess:
    found = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if found is None:
        pytest.fail("ruff is missing: install the package with its [test] extra")
    return subprocess.run(
        [found, *args, "--no-cache", *CODE], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_ruff_finds_nothing():
    done = ruff("check")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_code_is_formatted():
    done = ruff("format", "--check")
    assert done.returncode == 0, done.stdout + done.stderr
