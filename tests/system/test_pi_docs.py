"""docs/raspberry-pi.md states the unit's security exposure with and without the WS2812 drop-in;
systemd-analyze must agree, and the drop-in must stay within the 2.5 limit."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from testbed.tools import require

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "reedboard.service"
DOC = (ROOT / "docs" / "raspberry-pi.md").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def systemd_analyze():
    require(shutil.which("systemd-analyze") is not None, "systemd-analyze (Debian's systemd)")


def exposure(unit: Path) -> float:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert match, result.stdout + result.stderr
    return float(match.group(1))


def test_the_documented_scores_are_systemd_s(tmp_path):
    dropin = re.search(r"```ini\n(\[Service\]\n.*?)```", DOC, re.DOTALL).group(1)
    assert "User=root" in dropin
    unit = tmp_path / "reedboard.service"
    unit.write_text(UNIT.read_text() + "\n" + dropin)  # a drop-in's lines come after the unit's
    hardened, as_root = exposure(UNIT), exposure(unit)
    assert as_root <= 2.5
    assert re.search(rf"scores\s+\*\*{hardened}\*\*", DOC)
    assert re.search(rf"then\s+scores\s+\*\*{as_root}\*\*\s+\(from\s+{hardened}\)", DOC)
