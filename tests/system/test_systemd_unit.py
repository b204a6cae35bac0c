"""The service units (the board's, the café dashboard's) pass systemd's own checks: verify, and
a security exposure of 2.5 or better; each program ends itself before its unit's stop timeout."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.cli import run
from firmware_host.net.cafe import run as cafe
from testbed.tools import require

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "reedboard.service"
UNITS = [UNIT, UNIT.with_name("reedboard-cafe.service")]


@pytest.fixture(autouse=True)
def systemd_analyze():
    require(shutil.which("systemd-analyze") is not None, "systemd-analyze (Debian's systemd)")


@pytest.mark.parametrize("source", UNITS, ids=lambda u: u.name)
def test_unit_verifies(tmp_path, source):
    # verify checks that ExecStart exists: point it at this checkout's installed command.
    reedboard = Path(sys.executable).with_name("reedboard")
    text = source.read_text().replace("/opt/reedboard/venv/bin/reedboard", str(reedboard))
    unit = tmp_path / source.name
    unit.write_text(text)
    result = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_security_exposure_is_low(unit):
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    match = re.search(rf"Overall exposure level for {unit.name}: (\d+\.\d+)", result.stdout)
    assert match, result.stdout + result.stderr
    assert float(match.group(1)) <= 2.5


def test_unit_is_a_watched_notify_service():
    text = UNIT.read_text()
    for line in ("Type=notify", "Restart=on-failure", "StateDirectory=reedboard", "User=reedboard"):
        assert line in text
    assert re.search(r"^WatchdogSec=\d+", text, re.M)


@pytest.mark.parametrize(
    ("unit", "closing"), [(UNIT, run.CLOSE_SECONDS), (UNITS[1], cafe.CLOSE_SECONDS)], ids=["board", "cafe"]
)
def test_each_program_ends_itself_before_systemd_would_kill_it(unit, closing):
    """The program's own closing deadline falls within its unit's TimeoutStopSec."""
    (seconds,) = re.findall(r"^TimeoutStopSec=(\d+)$", unit.read_text(), re.M)
    assert closing < int(seconds)
