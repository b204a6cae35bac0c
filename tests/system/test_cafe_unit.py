"""The café dashboard as its service unit (systemd/reedboard-cafe.service) starts it, with the
dashboard's config docs/cafe.md shows: served to the café's network, with a token kept in the
state directory, so the staff's and the wall screen's addresses still work after a restart or
a power cut."""

from __future__ import annotations

import re
import stat
from pathlib import Path

from testbed.docs import all_blocks
from testbed.docs_run import Sandbox, stop

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "reedboard-cafe.service"


def exec_start() -> str:
    """The unit's command, as the installed program's name."""
    (line,) = re.findall(r"^ExecStart=(.+)$", UNIT.read_text(), re.M)
    return line.replace("/opt/reedboard/venv/bin/reedboard", "reedboard")


def started(sandbox: Sandbox) -> str:
    """The address the dashboard says it serves (with its token), then stopped."""
    shell, _ = sandbox.command(exec_start())
    proc = sandbox.start(shell)
    try:
        for line in proc.stderr:
            if "the dashboard is at" in line:
                return re.search(r"http://\S+", line)[0]
        raise AssertionError("the dashboard said no address")
    finally:
        stop(proc)


def test_the_dashboard_s_service_keeps_its_token_across_restarts(tmp_path):
    sandbox = Sandbox(tmp_path)
    (config,) = [b for b in all_blocks() if b.file == "/etc/reedboard/cafe.toml" and "[mqtt]" in b.text]
    sandbox.config(config.text, "/etc/reedboard/cafe.toml")
    first = started(sandbox)
    assert "?token=" in first
    assert started(sandbox).split("?")[1] == first.split("?")[1]  # the same after a restart
    (kept,) = re.findall(r"--token-file (\S+)", exec_start())
    assert stat.S_IMODE(sandbox.mapped(kept).stat().st_mode) == 0o600  # the service's alone
