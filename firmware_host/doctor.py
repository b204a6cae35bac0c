"""``reedboard doctor``: check the files and hardware a config names, one line per check.

Each check says OK, or FAIL with the fix. Nothing is changed, except that the storage check
creates the state directory when it can (as the daemon would).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from firmware_host.config import BACKEND_TABLES, Config
from hardware.diagnose import Check, hardware_checks


def run_checks(config: Config, handshake_seconds: float = 3.0) -> list[Check]:
    """Every check for ``config``, in order."""
    tables = {name: config.hardware(name) for name in BACKEND_TABLES}
    return [
        Check("config", True, config.source or "built-in defaults (simulated board)"),
        _storage(config.storage),
        *hardware_checks(tables, handshake_seconds),
    ]


def doctor(config: Config, out=None) -> int:
    """Print the checks; exit status 0 when all pass, else 1."""
    checks = run_checks(config)
    for check in checks:
        print(check.line(), file=out)
    return 0 if all(c.ok for c in checks) else 1


def _storage(path: str) -> Check:
    folder = Path(path).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".reedboard-doctor"
        probe.write_text("ok")
        probe.unlink()
        db = sqlite3.connect(path)
        db.execute("PRAGMA journal_mode=WAL").fetchone()
        db.close()
    except (OSError, sqlite3.Error) as exc:
        return Check(
            "storage", False, f"cannot write {path}: {exc}",
            f"give the daemon's user write access to {folder} (the service's StateDirectory)",
        )
    return Check("storage", True, f"{path} is writable (SQLite WAL)")
