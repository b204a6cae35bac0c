"""One daemon per games database, even when the database's folder cannot be written.

:class:`DatabaseLock` holds two locks until :meth:`~DatabaseLock.close` or the process ends
(even by SIGKILL: the kernel drops both):

- an abstract unix socket (Linux) named after the database's real path,
  ``\\0reedboard-db:<the path>`` (its sha256 when too long for a name), listening: it needs no
  file at all, so it works on a read-only card and for a folder that does not exist; a second
  daemon that cannot bind the name connects to it and learns the holder's PID from the kernel
  (``SO_PEERCRED``);
- ``flock`` on ``PATH.lock`` beside the database, the holder's PID written in it: opened
  read-only when it cannot be written (a flock needs no write), on the database file itself
  when neither can be made. This one also holds between machines' containers that share the
  folder but not a network namespace, and it is what ``reedboard doctor`` reads.

StorageError, naming the file and the PID holding it, when another process holds either.
Readers (``reedboard export``) take no lock.
"""

from __future__ import annotations

import errno
import fcntl
import os
import socket
import struct

from firmware_host.store.storage import StorageError

#: The longest path named as it is in the socket's name (a name has at most 107 bytes).
MAX_PATH = 90


class DatabaseLock:
    """The locks on ``path`` (see the module's docstring); StorageError if taken."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._sock = _abstract_lock(path)
        self._fd: int | None = None
        try:
            self._fd = _file_lock(path)
        except BlockingIOError:
            self.close()
            _refuse(path, DatabaseLock.holder(path))

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    @staticmethod
    def holder(path: str) -> int | None:
        """The PID of the ``reedboard run`` using ``path``, if one does (the kernel's answer
        on the abstract socket, else a PID in the lock file that names a live process running
        reedboard); takes no lock."""
        pid = _socket_holder(path)
        if pid is not None:
            return pid
        try:
            with open(path + ".lock", encoding="ascii", errors="replace") as fp:
                pid = int(fp.read(16).strip())
            with open(f"/proc/{pid}/cmdline", "rb") as fp:
                command = fp.read()
            running = b"reedboard" in command or b"firmware_host" in command
        except (OSError, ValueError):
            return None
        return pid if running else None


def _refuse(path: str, pid: int | None) -> None:
    holder = f" (PID {pid})" if pid else ""
    raise StorageError(f"{path} is in use by another reedboard run{holder}; one daemon per database")


def _name(path: str) -> bytes:
    """The abstract socket name for the database at ``path``: its real path, or that path's
    digest when it is too long for a socket's name (hashlib loads OpenSSL, ~3 MB: only then).

    >>> _name("/var/lib/reedboard/games.db")
    b'\\x00reedboard-db:/var/lib/reedboard/games.db'
    """
    real = os.path.realpath(path).encode()
    if len(real) > MAX_PATH:
        import hashlib

        real = hashlib.sha256(real).hexdigest()[:40].encode()
    return b"\0reedboard-db:" + real


def _abstract_lock(path: str) -> socket.socket | None:
    """A listening socket on ``path``'s abstract name (None where there are none: not
    Linux); StorageError naming the holder if another process has it."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(_name(path))
        sock.listen(8)
    except OSError as exc:
        sock.close()
        if exc.errno != errno.EADDRINUSE:
            return None  # no abstract names here: the file lock alone
        _refuse(path, _socket_holder(path))
    return sock


def _socket_holder(path: str) -> int | None:
    """The PID listening on ``path``'s abstract name (None: nobody, or no such names)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(_name(path))
            creds = probe.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        except (OSError, AttributeError):
            return None
    return struct.unpack("3i", creds)[0] or None


def _file_lock(path: str) -> int | None:
    """An exclusive flock on ``PATH.lock`` (our PID written in it when it can be written),
    else on the database file; None when neither exists nor can be made. BlockingIOError if
    another process holds it."""
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        fd: int | None = os.open(path + ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        writable = True
    except OSError:
        fd, writable = _open_existing(path + ".lock", path), False
    if fd is None:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise BlockingIOError from None
    if writable:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def _open_existing(*paths: str) -> int | None:
    """The first of ``paths`` that opens read-only (None: none does)."""
    for path in paths:
        try:
            return os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            continue
    return None
