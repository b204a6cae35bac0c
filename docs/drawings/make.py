"""Generate the drawings docs/build.md shows, with `reedboard plan` itself:

    .venv/bin/python docs/drawings/make.py

Antipode's board at 1:1 (pitch 32 mm) with each switch's place, label and channels, its
wiring sheet and its pins for a 74HC165 chain, as SVG beside this script (small files, kept
in the repo).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from firmware_host.cli.main import main

HERE = Path(__file__).resolve().parent


def make() -> list[Path]:
    made = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "antipode.svg")
        assert main(["plan", "antipode", "--pitch", "32", "--scanner", "74hc165", "--out", out]) == 0
        for name, target in (
            ("antipode.svg", "antipode-plan.svg"),
            ("antipode-wiring.svg", "antipode-wiring.svg"),
            ("antipode-pins.svg", "antipode-pins.svg"),
        ):
            path = HERE / target
            path.write_text(Path(tmp, name).read_text())
            made.append(path)
    return made


if __name__ == "__main__":
    for path in make():
        print(f"{path.relative_to(HERE.parents[1])}: {path.stat().st_size // 1024} KB")
