"""The code passes ruff's checks (pyflakes and pycodestyle, as configured in pyproject.toml):
no unused imports or variables, no undefined names, no overlong lines."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is missing: install the package with its [test] extra")
    done = subprocess.run(
        [ruff, "check", "--no-cache", "engines", "firmware_host", "hardware", "bench", "tests",
         "testbed", "tools"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
