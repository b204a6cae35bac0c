"""lost_commits() finds every damaged WAL that costs saved commits, and counts them (give or
take the damaged frame itself, whose own commit flag may be what was damaged)."""

from __future__ import annotations

import shutil
import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.store.wal import lost_commits

COMMITS = 11  # the table and ten rows


def logged(tmp_path, recycle: bool = False):
    """A database whose WAL still holds its commits (copied while its connection is open)."""
    src = tmp_path / "src.db"
    db = sqlite3.connect(src)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE m (x)")
    if recycle:  # fill the log, checkpoint, then write again from its start (new salts)
        for i in range(30):
            with db:
                db.execute("INSERT INTO m VALUES (?)", (i,))
        db.execute("PRAGMA wal_checkpoint(RESTART)")
    for i in range(10):
        with db:
            db.execute("INSERT INTO m VALUES (?)", (i,))
    dst = tmp_path / "games.db"
    shutil.copy(src, dst)
    shutil.copy(f"{src}-wal", f"{dst}-wal")
    db.close()
    return dst


def readable(path) -> int:
    """Commits SQLite reads: the table and its rows (0 when the table itself is gone)."""
    try:
        with sqlite3.connect(path) as db:
            return 1 + db.execute("SELECT count(*) FROM m").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def test_a_whole_log_loses_nothing(tmp_path):
    assert lost_commits(str(logged(tmp_path))) == 0
    assert lost_commits(str(tmp_path / "absent.db")) == 0


def test_frames_of_an_older_generation_after_the_live_ones_are_not_damage(tmp_path):
    db = logged(tmp_path, recycle=True)
    assert lost_commits(str(db)) == 0 and readable(db) == 41


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=32), st.integers(min_value=1, max_value=255))
def test_one_damaged_byte_loses_what_sqlite_cannot_read(tmp_path_factory, where, flip):
    db = logged(tmp_path_factory.mktemp("wal"))
    log = bytearray(db.with_name("games.db-wal").read_bytes())
    log[where % len(log)] ^= flip
    db.with_name("games.db-wal").write_bytes(log)
    lost, gone = lost_commits(str(db)), COMMITS - readable(db)
    assert (lost == 0) == (gone == 0) and abs(lost - gone) <= 1
