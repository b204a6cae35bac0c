"""``reedboard doctor``: check the files and hardware a config names, one line per check.

Each check says OK, or FAIL with the fix. Nothing is changed, except that the storage check
creates the state directory when it can (as the daemon would).
"""

from __future__ import annotations

from pathlib import Path

from firmware_host.store.config import BACKEND_TABLES, Config
from firmware_host.store.dblock import DatabaseLock
from firmware_host.store.storage import NewerSchema, Storage, StorageError
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
        storage = Storage(path)  # opens it as the daemon does: WAL, the tables
        storage.close()
        if storage.in_memory:
            raise PermissionError(storage.failure)
    except OSError as exc:
        return Check(
            "storage",
            False,
            f"cannot write {path}: {exc}",
            f"give the daemon's user write access to {folder} (the service's StateDirectory)",
        )
    except NewerSchema as exc:
        return Check("storage", False, str(exc), "update reedboard (on a Pi: sudo systemd/install.sh)")
    except StorageError as exc:
        return Check("storage", False, str(exc), f"move {path} aside; the daemon starts a new one")
    pid = DatabaseLock.holder(path)
    running = f"; reedboard run (PID {pid}) uses it" if pid else ""
    return Check("storage", True, f"{path} is writable (SQLite WAL){running}")
