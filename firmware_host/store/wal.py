"""Damage in an SQLite write-ahead log that SQLite itself passes over in silence.

SQLite reads a WAL up to the first frame whose checksum fails and ignores the rest, so moves
committed in frames after a damaged one vanish without an error. :func:`lost_commits` reads the
log before SQLite opens it and counts the commits it would drop: commit frames of the log's
current generation (their salts match the header) after the first frame that fails.

A power cut in the middle of a commit mostly leaves frames of an older generation or zeros
(their salts differ: the log ends there, nothing is counted); only a page torn after its header
was written counts as one lost commit that was never acknowledged. Damage is rare enough and
the cost of a needless notice small, so every such commit is counted.

>>> lost_commits("/nonexistent/games.db")
0
"""

from __future__ import annotations

import struct

HEADER = 32
FRAME_HEADER = 24
MAGIC = (0x377F0682, 0x377F0683)  # little- / big-endian checksums


def _checksum(data: bytes, big_endian: bool, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's running checksum over ``data`` (a multiple of 8 bytes) from ``s0, s1``."""
    words = struct.unpack((">" if big_endian else "<") + f"{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def lost_commits(db_path: str) -> int:
    """How many committed transactions in ``db_path``'s WAL SQLite would ignore (0: none, or
    no log)."""
    try:
        with open(db_path + "-wal", "rb") as fp:
            data = fp.read()
        with open(db_path, "rb") as fp:
            db_page = struct.unpack(">H", fp.read(18)[16:18] or b"\0\0")[0]
    except (OSError, struct.error):
        return 0
    if len(data) < HEADER:
        return 0
    magic, _, page_size, _, salt1, salt2, c0, c1 = struct.unpack(">8I", data[:HEADER])
    big = magic == MAGIC[1]
    sums = _checksum(data[:24], big, 0, 0)
    failed = magic not in MAGIC or sums != (c0, c1)  # SQLite ignores the whole log
    if failed or not 512 <= page_size <= 65536:
        page_size = 65536 if db_page == 1 else db_page  # the database's own header says
        if not 512 <= page_size <= 65536 or len(data) < HEADER + FRAME_HEADER:
            return 0
        salt1, salt2 = struct.unpack(">2I", data[HEADER + 8 : HEADER + 16])  # the first frame's
    size, lost = FRAME_HEADER + page_size, 0
    for start in range(HEADER, len(data) - size + 1, size):
        page_no, commit, s1, s2, f0, f1 = struct.unpack(">6I", data[start : start + FRAME_HEADER])
        current = (s1, s2) == (salt1, salt2)  # neither: an older generation's frame
        damaged = (s1 == salt1) != (s2 == salt2)
        if not failed:
            after = _checksum(data[start : start + 8], big, *sums)
            after = _checksum(data[start + FRAME_HEADER : start + size], big, *after)
            if current and page_no and after == (f0, f1):
                sums = after
                continue
            failed = True  # SQLite reads no further
        lost += (current or damaged) and commit != 0
    return lost
