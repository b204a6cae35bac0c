"""The type checker passes: ``mypy`` as pyproject.toml sets it up (engines/ and the daemon's
model of where a game stands strictly, the rest of firmware_host/ and hardware/ in mypy's
normal mode)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_error(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success" in run.stdout


@pytest.mark.parametrize("package", ["engines", "firmware_host", "hardware"])
def test_the_packages_say_they_are_typed(package):
    """PEP 561: a package with ``py.typed`` is type-checked where it is installed and used."""
    assert (ROOT / package / "py.typed").is_file()


def test_mypy_checks_every_layer_and_the_model_strictly():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert set(config["files"]) == {"engines", "firmware_host", "hardware"}
    strict = next(o for o in config["overrides"] if o.get("disallow_untyped_defs"))
    assert {
        "engines.*",
        "firmware_host.board.phase",
        "firmware_host.board.judge",
        "firmware_host.board.turn",
    } <= set(strict["module"])
