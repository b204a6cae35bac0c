"""The type checker passes: ``mypy`` as pyproject.toml sets it up (engines/, strictly)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_error(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success" in run.stdout


def test_the_engines_say_they_are_typed():
    """PEP 561: a package with ``py.typed`` is type-checked where it is installed and used."""
    assert (ROOT / "engines" / "py.typed").is_file()
