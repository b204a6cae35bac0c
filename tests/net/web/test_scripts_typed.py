"""The pages' scripts pass TypeScript's checker: ``tsc --noEmit`` over the JavaScript with its
JSDoc types, the board-drawing module both web apps serve strictly (tsconfig.json), the pages' own
scripts as written (tsconfig.pages.json). tests/run.sh installs TypeScript with npm into .tsc/
(git-ignored), as it installs axe-core."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from testbed.tools import require

ROOT = Path(__file__).resolve().parents[3]
TSC = ROOT / ".tsc" / "node_modules" / "typescript" / "bin" / "tsc"
SCRIPTS = sorted(
    [*ROOT.glob("firmware_host/net/*/static/*.js"), *ROOT.glob("firmware_host/net/web/shared/*.js")]
)


def tsc(*args: str) -> subprocess.CompletedProcess:
    require(TSC.exists() and shutil.which("node") is not None, f"TypeScript in {TSC.parents[1]}")
    return subprocess.run(
        ["node", str(TSC), "--noEmit", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("config", ["tsconfig.json", "tsconfig.pages.json"])
def test_tsc_finds_no_error(config):
    done = tsc("-p", config)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_script_is_checked():
    listed = tsc("-p", "tsconfig.pages.json", "--listFilesOnly").stdout.split()
    assert SCRIPTS and {str(p) for p in SCRIPTS} <= set(listed)
    assert all(p.read_text().startswith("// @ts-check\n") for p in SCRIPTS)  # in an editor too


def test_a_wrong_call_into_the_board_module_is_caught(tmp_path):
    """The check has teeth: a page drawing lights with a list instead of a site -> LED map."""
    (tmp_path / "bad.js").write_text(
        '// @ts-check\nimport { Board } from "%s";\n'
        'new Board(document.createElementNS("http://www.w3.org/2000/svg", "svg")).showLights(["B2*"]);\n'
        % (ROOT / "firmware_host/net/web/shared/board.js")
    )
    (tmp_path / "tsconfig.json").write_text(
        json.dumps({"extends": str(ROOT / "tsconfig.json"), "include": [str(tmp_path / "bad.js")]})
    )
    done = tsc("-p", str(tmp_path / "tsconfig.json"))
    assert done.returncode != 0, done.stdout
    assert "bad.js(3," in done.stdout and "not assignable" in done.stdout, done.stdout
