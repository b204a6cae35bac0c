"""The MQTT fuzz test (tests/net/mqtt/test_fuzz.py) for longer: random and mutated messages on every
topic of a real Mosquitto with two boards and the dashboard listening.

Usage: .venv/bin/python -m bench.fuzz_mqtt [--examples N]   (default 2000 batches of up to 25)
Prints pytest's verdict; a failure names the messages that broke something.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2000)
    args = parser.parse_args()
    env = {**os.environ, "REEDBOARD_FUZZ_EXAMPLES": str(args.examples)}
    return subprocess.call(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--timeout",
            "3600",
            str(ROOT / "tests/net/mqtt/test_fuzz.py"),
        ],
        cwd=ROOT,
        env=env,
    )


if __name__ == "__main__":
    sys.exit(main())
