"""Where the harness keeps the throw-away games files of the boards it plays in this process
(:class:`~testbed.board_under_test.BoardUnderTest` without a path): ``/dev/shm``, memory, where
the machine has it big enough, else the temporary folder. The same SQLite either way (WAL,
``synchronous=FULL``): only the medium differs, and a commit's fsync there costs nothing, where
on a busy disk it takes 10 ms and more, thousands of times a run. The tests of what reaches
the disk (power cuts, a read-only card, the daemon's files) keep their files where they make
them.
"""

from __future__ import annotations

import os
import shutil

SHM = "/dev/shm"
#: Less room than this (a container's 64 MB default) and the temporary folder is used.
ROOM = 512 << 20


def scratch() -> str | None:
    """The folder for throw-away games files (None: the temporary folder, as ``tempfile``'s).

    >>> scratch() in (SHM, None)
    True
    """
    try:
        roomy = shutil.disk_usage(SHM).free >= ROOM
    except OSError:
        return None
    return SHM if roomy and os.access(SHM, os.W_OK | os.X_OK) else None
