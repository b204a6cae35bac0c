"""A throw-away PostgreSQL (Debian's ``postgresql``) on a loopback port, as the test run starts
Mosquitto: a new cluster in a temporary folder, stopped and removed at the end. As root (CI) the
server runs as the ``postgres`` user (initdb refuses root)."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import subprocess
import tempfile

from testbed.tools import free_port, require


def _bin() -> str | None:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0,
    )
    return os.path.dirname(found[-1]) if found else None


class Postgres:
    """``postgres`` on 127.0.0.1:``port`` with a user ``reedboard`` who may do anything (trust
    on loopback: nothing else can reach it)."""

    def __init__(self, fsync: bool = False) -> None:
        self.fsync = fsync  # tests need no durability; a benchmark measures with it
        self.bin = _bin()
        require(self.bin is not None, "Debian's postgresql (initdb)")
        self.port = free_port()
        self.folder = tempfile.mkdtemp(prefix="reedboard-pg-")
        self.data = os.path.join(self.folder, "data")
        self.user = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        if self.user:
            shutil.chown(self.folder, "postgres", "postgres")
        self.url = f"postgresql://reedboard@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self.user, *args], capture_output=True, text=True, cwd=self.folder)
        assert done.returncode == 0, f"{args[0]} failed: {done.stdout}{done.stderr}"

    def start(self) -> "Postgres":
        self._run(f"{self.bin}/initdb", "-D", self.data, "-U", "reedboard", "-A", "trust", "--no-sync")
        return self.start_again()

    def start_again(self) -> "Postgres":
        """Start the cluster made by :meth:`start` (after :meth:`stop`)."""
        self._run(
            f"{self.bin}/pg_ctl",
            "-D",
            self.data,
            "-w",
            "-l",
            f"{self.folder}/log",
            "-o",
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
            + ("" if self.fsync else " -c fsync=off"),
            "start",
        )
        return self

    def database(self) -> str:
        """The address of a new, empty database."""
        import psycopg

        self.made = getattr(self, "made", 0) + 1
        name = f"test_{self.made}"
        with psycopg.connect(self.url, autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url.rsplit("/", 1)[0] + f"/{name}"

    def stop(self) -> None:
        if os.path.exists(os.path.join(self.data, "postmaster.pid")):
            self.resume()  # a paused server would not stop
            self._run(f"{self.bin}/pg_ctl", "-D", self.data, "-m", "immediate", "stop")

    def pause(self) -> None:
        """Stop the server's processes (SIGSTOP), as a network that drops packets or a machine
        that hangs: connections stay open and nothing answers. :meth:`resume` goes on."""
        self._signal(signal.SIGSTOP)

    def resume(self) -> None:
        self._signal(signal.SIGCONT)

    def _signal(self, sig: int) -> None:
        with open(os.path.join(self.data, "postmaster.pid")) as pid_file:
            postmaster = int(pid_file.readline())
        os.kill(postmaster, sig)  # first: a stopped postmaster starts no backend meanwhile
        children = subprocess.run(
            ["pgrep", "-P", str(postmaster)], capture_output=True, text=True
        ).stdout.split()
        for pid in map(int, children):
            with contextlib.suppress(ProcessLookupError):  # a backend that ended meanwhile
                os.kill(pid, sig)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
