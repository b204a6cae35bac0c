"""Helpers the test packages share."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: ``reedboard`` as a process of this Python (the package as the tests import it).
REEDBOARD = [sys.executable, "-m", "firmware_host.cli.main"]


def require(present: bool, what: str) -> None:
    """Skip a test whose tool is missing on a developer's machine, but fail it under CI, where
    tests/run.sh installs the tool: a broken install must not hide behind skips."""
    if present:
        return
    message = f"{what} is missing (tests/run.sh installs it)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def wait_until(predicate, timeout: float = 5.0) -> bool:
    """Poll ``predicate`` every 5 ms until it holds (True) or ``timeout`` seconds pass (False):
    for what threads do on the real clock. Use as ``assert wait_until(...)``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.005)
    return False


#: free_port's own draw (a test that seeds ``random`` does not make it draw the same again),
#: and the ports it handed out in this process: never handed out twice (a broker's two
#: listeners, say, are given theirs before either binds).
_PICK = random.Random()
_HANDED: set[int] = set()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing uses now, picked at random below the range the
    system hands out by itself (``ip_local_port_range``): a port the system chose would be
    handed out again, to a connection's own end or another ``port = 0``, before the process
    the test starts binds it ("Address already in use", seen under load).

    >>> 1024 <= free_port() < _system_ports_start()
    True
    """
    low = _system_ports_start()
    while True:
        port = _PICK.randrange(max(1024, low - 12000), low)
        if port in _HANDED:  # not yet bound by whoever it went to
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:  # in use: another
                continue
        _HANDED.add(port)
        return port


def _system_ports_start() -> int:
    """The lowest port the system picks for a bind to port 0 or a connection (Linux's default
    where it cannot be read)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def write_config(folder: Path, body: str = "", *, storage: str = "games.db", web: bool = True) -> Path:
    """A config file, folder/config.toml: the games file ``storage`` in ``folder``, ``body``, then
    (with ``web``) the page on a free port; its path.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> print(write_config(folder, 'game = "phalanx"', web=False).read_text()
    ...       .replace(str(folder), "F"))
    storage = "F/games.db"
    game = "phalanx"
    <BLANKLINE>
    """
    path = Path(folder) / "config.toml"
    page = f"[web]\nport = {free_port()}\n" if web else ""
    path.write_text(f'storage = "{Path(folder) / storage}"\n{body}\n{page}')
    return path


def sim_config(folder: Path, extra: str = "") -> Path:
    """Antipalos 5 and ``extra`` (top-level keys or tables) in :func:`write_config`'s file."""
    return write_config(folder, f'game = "antipalos"\nsize = 5\n{extra}')


def immutable(path, on: bool = True) -> None:
    """Make ``path`` unwritable (``on``) or writable again, for root too (chattr), else by
    its mode."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i" if on else "-i", str(path)], check=True)
    else:
        os.chmod(path, 0o444 if on else 0o644)


class InjectedFault(Exception):
    """A bug, raised on purpose (in an observer's step, say)."""


class ThreadDeath(BaseException):
    """Raised in a thread by :func:`inject`: not an Exception, so that the thread's own
    ``except Exception`` does not catch it (paho's network loop catches every Exception and
    reconnects): the thread dies of it, as of a bug nothing handles."""


def inject(thread, exc_type: type[BaseException] = ThreadDeath) -> bool:
    """Raise ``exc_type`` in ``thread`` (a running :class:`threading.Thread`) at its next
    Python instruction, as a bug in it would: CPython's ``PyThreadState_SetAsyncExc``. A thread
    waiting in C (a lock, select) gets it once it wakes. False if the thread was not running."""
    import ctypes

    if thread is None or thread.ident is None or not thread.is_alive():
        return False
    done = ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread.ident), ctypes.py_object(exc_type)
    )
    return done == 1


class NoCard(Exception):
    """This machine cannot make a :class:`Card` (why)."""


class Card:
    """A folder on a small ext4 file system of its own, as a Pi's SD card: it can be mounted
    read-only (:meth:`read_only`, before the daemon starts), fail while files are open on it
    (:meth:`fail`: ext4, mounted ``errors=remount-ro``, is told of an error and refuses every
    write from then on, as a card that reports I/O errors does), and be mounted writable again
    (:meth:`mend`). Root itself cannot write to it meanwhile (chmod would not stop root).

    It needs root, loop devices and mkfs.ext4 (a privileged machine, as CI's; tests/run.sh
    installs e2fsprogs): elsewhere :class:`NoCard` says why (without mkfs.ext4 as root: skipped,
    and failed under CI, as :func:`require` does)."""

    def __init__(self, base) -> None:
        import shutil
        import subprocess

        self._run = lambda *cmd: subprocess.run(cmd, capture_output=True, text=True)
        self.image, self.folder = base / "card.img", base / "card"
        if os.geteuid() != 0:
            raise NoCard("a read-only card needs root (a loop-mounted ext4)")
        require(shutil.which("mkfs.ext4") is not None and shutil.which("losetup") is not None, "mkfs.ext4")
        self.folder.mkdir(exist_ok=True)
        with open(self.image, "wb") as fp:
            fp.truncate(16 << 20)
        made = self._run("mkfs.ext4", "-q", "-F", str(self.image))
        if made.returncode or self._mount().returncode:
            raise NoCard(f"cannot mount a loop file system here: {made.stderr or self._why}")

    def _mount(self):
        done = self._run("mount", "-o", "loop,errors=remount-ro", str(self.image), str(self.folder))
        self._why = done.stderr.strip()
        return done

    def read_only(self) -> None:
        """Mounted read-only (no file may be open for writing on it)."""
        assert self._run("mount", "-o", "remount,ro", str(self.folder)).returncode == 0

    def fail(self) -> None:
        """An error, as a failing card reports: ext4 refuses every write from now on."""
        device = self._run("findmnt", "-no", "SOURCE", str(self.folder)).stdout.strip()
        with open(f"/sys/fs/ext4/{os.path.basename(device)}/trigger_fs_error", "w") as fp:
            fp.write("the card failed\n")

    def mend(self) -> None:
        """Writable again: remounted rw; a card that failed is checked (e2fsck) and mounted
        anew from a new loop device (the failed mount lives on, read-only, for the files
        still open on it, as on a Pi until it reboots)."""
        if self._run("mount", "-o", "remount,rw", str(self.folder)).returncode == 0:
            return
        self._run("umount", "-l", str(self.folder))
        self._run("e2fsck", "-fy", str(self.image))
        device = self._run("losetup", "--find", "--show", str(self.image)).stdout.strip()
        done = self._run("mount", "-o", "errors=remount-ro", device, str(self.folder))
        assert done.returncode == 0, done.stderr

    def close(self) -> None:
        """Unmounted (lazily: what is still open keeps it until closed); loop devices go
        with their last user."""
        self._run("umount", "-l", str(self.folder))
        found = self._run("losetup", "--noheadings", "-O", "NAME", "-j", str(self.image))
        for device in found.stdout.split():
            self._run("losetup", "-d", device)


def receive(sock: socket.socket, timeout: float) -> list[str]:
    """The datagrams that arrive within ``timeout`` s."""
    got, deadline = [], time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            got.append(sock.recv(4096).decode())
        except TimeoutError:
            break
    return got


def wait_for(sock: socket.socket, wanted: str, timeout: float = 15) -> list[str]:
    """Datagrams until one starting with ``wanted`` (included); fails after ``timeout`` s."""
    got, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            got.append(sock.recv(4096).decode())
        except TimeoutError:
            break
        if got[-1].startswith(wanted):
            return got
    raise AssertionError(f"no {wanted!r} among {got}")


def run_async(coroutine, timeout: float = 30):
    """Run ``coroutine`` in a thread of its own, its result (or what it raised): a test's
    browser (Playwright's sync API) may hold this thread's event loop. One still running after
    ``timeout`` s fails the test, its daemon thread left behind (never holding up the end).

    >>> import asyncio
    >>> run_async(asyncio.sleep(0, "done"))
    'done'
    """
    import asyncio
    import threading

    ended: list[tuple[bool, object]] = []

    def run() -> None:
        try:
            ended.append((True, asyncio.run(coroutine)))
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            ended.append((False, exc))

    thread = threading.Thread(target=run, name="run_async", daemon=True)
    thread.start()
    thread.join(timeout)
    if not ended:
        raise AssertionError(f"{coroutine!r} still running after {timeout:g} s")
    returned, value = ended[0]
    if not returned:
        raise value  # type: ignore[misc]
    return value
