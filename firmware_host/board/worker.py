"""A supervised one-process worker: slow jobs (the computer's search) run in a process of
their own, and the caller never waits for it.

:meth:`Worker.submit` hands over a job and returns at once; :meth:`Job.done` tells when its
answer came. A thread of the worker's own (its *driver*) does all the waiting: it starts the
process, sends the job, waits for the answer or for the process to end. A process that ends
(SIGKILL, the OOM killer) or a job that raises is noted in ``failure`` (the caller says it),
the process is started again after a backoff (:data:`BACKOFF`), and the job is run again on
the same input. A job submitted while another runs replaces it: the process running the old
one is ended and a fresh one runs the new one (only the newest answer is wanted), unless the
old one *yields* (``submit(..., yields=True)``: pondering): it is asked to stop
(:func:`interrupted` turns true in the process), its answer is dropped, and the same process,
with whatever the job kept in its memory, runs the new one (ended as before if it has not
stopped within :data:`GRACE`).

Processes are started by the ``forkserver`` method (:data:`METHOD`): a server process,
started once, imports the job's modules (``preload``) and forks a worker from itself on
request. Never ``fork`` of the caller: a fork made while another thread holds a lock (the
daemon's stdin reader holds stdin's) leaves the child stuck on that lock. A fresh worker from
the server has the search's modules already imported and answers in about 15 ms here, against
110 ms for ``spawn``, which starts a new interpreter and imports everything each time
(``bench/worker_start.py``; on a Pi Zero 2 W, 15-25 times slower: some 0.3 s against 2 s
for every restart); the server's own start (110 ms here) is paid once, in the driver thread.
A worker ignores SIGINT (a terminal's Ctrl-C reaches the whole process group: its owner ends
it) and ends itself, even mid-job, once its owner is gone (a pipe only the owner holds closes),
and the server goes with its last worker, so nothing outlives the daemon, even one killed by
SIGKILL.

>>> worker = Worker("adder")
>>> job = worker.submit(sum, [1, 2, 3])
>>> job.wait(30), job.result()
(True, 6)
>>> worker.close()
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Sequence

from hardware.supervise import describe

#: How worker processes are started (see the module's docstring).
METHOD = "forkserver"
#: Seconds before a failed worker is started again: the first wait, doubling up to the last.
BACKOFF = (0.5, 30.0)
#: Seconds a yielding job has to stop once replaced, before its process is ended.
GRACE = 1.0


class Job:
    """A job handed to a :class:`Worker`: ``fn(*args)``, run in the worker's process."""

    def __init__(
        self, worker: Worker, fn: Callable[..., Any], args: tuple[Any, ...], yields: bool = False
    ) -> None:
        self.worker, self.fn, self.args, self.yields = worker, fn, args, yields
        self._answered = threading.Event()
        self._value: Any = None

    def done(self) -> bool:
        """True once the answer came (never blocks; also keeps the worker supervised)."""
        self.worker.check()
        return self._answered.is_set()

    def result(self) -> Any:
        """The answer (only once :meth:`done`)."""
        if not self._answered.is_set():
            raise RuntimeError("the job has not been answered yet")
        return self._value

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` s for the answer (for scripts and tests; the daemon polls)."""
        return self._answered.wait(timeout)

    def _answer(self, value: Any) -> None:
        self._value = value
        self._answered.set()


class Worker:
    """Runs jobs one at a time in a process of its own (started when the first job comes).

    ``name`` names it in ``failure`` and in the process title; ``preload``: modules the fork
    server imports once (the jobs' own); ``on_news`` is called (in the driver thread) when an
    answer comes or ``failure`` changes, e.g. to wake a waiting loop."""

    def __init__(
        self,
        name: str,
        preload: Sequence[str] = (),
        method: str = METHOD,
        on_news: Callable[[], None] = lambda: None,
    ) -> None:
        self.name = name
        self.on_news = on_news
        #: Why the worker is not working now (its process ended, a job raised), until it works
        #: again; None: all is well.
        self.failure: str | None = None
        #: How many times the process ended or a job failed.
        self.failures = 0
        # typeshed's BaseContext lacks Process and Pipe, which every start method's context has
        self._ctx: Any = multiprocessing.get_context(method)
        if method == "forkserver":
            self._ctx.set_forkserver_preload(list(preload))
        self._lock = threading.Lock()
        self._job: Job | None = None  # the newest job not answered yet
        self._closed = False
        self._process: Any = None
        self._lifeline: Connection | None = None
        self._backoff = BACKOFF[0]
        #: The driver's wake-up pipe (a new job, a close): read end, write end.
        self._wake_fds: tuple[int, ...] = os.pipe()
        self._wake_r = self._wake_fds[0]
        os.set_blocking(self._wake_fds[1], False)
        self._driver: threading.Thread | None = None
        self._ended_by = "no reason given"

    @property
    def pid(self) -> int | None:
        """The worker process's PID while it runs (None before it starts, between restarts)."""
        process = self._process
        return process.pid if process is not None else None

    def submit(self, fn: Callable[..., Any], *args: Any, yields: bool = False) -> Job:
        """Run ``fn(*args)`` (picklable, importable) in the worker; never blocks. A job not
        answered yet is given up for this one. ``yields``: this job stops by itself when
        :func:`interrupted` says so, and keeps its process (see the module's docstring)."""
        job = Job(self, fn, args, yields)
        with self._lock:
            if self._closed:
                raise RuntimeError(f"the {self.name} worker is closed")
            self._job = job
        self._poke()
        self.check()
        return job

    def check(self) -> str | None:
        """Start the driver thread if it is not running (first use, or it died); ``failure``."""
        with self._lock:
            if not self._closed and (self._driver is None or not self._driver.is_alive()):
                if self._driver is not None:  # a driver that died: its process goes with it
                    self._fail(f"its supervising thread ended ({self._ended_by})")
                    self._kill(wait=0)
                self._driver = threading.Thread(target=self._drive, daemon=True, name=f"{self.name}-worker")
                self._driver.start()
        return self.failure

    def close(self, timeout: float = 0.2) -> None:
        """End the process (a job under way is abandoned) and the driver thread, waiting for
        the driver ``timeout`` s at most (one still starting a process ends it itself)."""
        with self._lock:
            self._closed = True
            self._kill()
        self._poke()
        driver = self._driver
        if driver is not None and driver is not threading.current_thread():
            driver.join(timeout)
        with self._lock:
            self._kill()  # one the driver started meanwhile
        if driver is None or not driver.is_alive():  # else the driver closes it as it ends
            self._close_pipe()

    # ------------------------------------------------------------------ the driver thread
    def _drive(self) -> None:
        """Keep a process running the newest job; after a failure, wait and start again.
        Whatever ends this thread is kept for :meth:`check` to say."""
        try:
            while not self._closed:
                if self._serve():
                    continue  # a job was replaced: a fresh process at once
                if not self._closed:
                    self._pause(self._backoff)
                    self._backoff = min(self._backoff * 2, BACKOFF[1])
        except BaseException as exc:  # noqa: BLE001 - said by check(), which starts another
            self._ended_by = describe(exc)
        finally:
            if self._closed:
                self._close_pipe()

    def _serve(self) -> bool:
        """Run one process until it fails (False) or a running job is replaced (True)."""
        try:
            process, conn = self._start()
        except Exception as exc:  # noqa: BLE001 - fork refused, no memory: tried again later
            self._fail(f"its process cannot be started ({describe(exc)})")
            return False
        try:
            if self._receive(conn, process) is None:
                return False  # it ended before it was ready
            if self.failure is not None and self._job is None:
                self._recovered()  # nothing to redo: working again (else once redone)
            while not self._closed:
                job = self._next_job(conn, process)
                if job is None:
                    return False
                try:
                    conn.send((job.fn, job.args))
                except (OSError, ValueError):
                    self._fail(self._why_ended(process))
                    return False
                except Exception as exc:  # noqa: BLE001 - it cannot be pickled: a bug, said
                    self._fail(f"its job cannot be sent ({describe(exc)}); it is tried again")
                    return False
                answer = self._receive(conn, process, job)
                if answer == "replaced":
                    if job.yields and self._interrupt(conn, process):
                        continue  # the same process runs the new job
                    return True
                if answer is None:
                    return False
                kind, value = answer
                if kind == "error":
                    self._fail(f"it failed ({value}); it is tried again")
                    return False
                self._backoff = BACKOFF[0]
                self._finish(job, value)
            return False
        finally:
            with self._lock:
                self._kill()
            conn.close()

    def _start(self) -> tuple[Any, Connection]:
        """A new process and our end of its pipe; it also gets the reading end of a lifeline
        only this process holds the other end of (it ends itself once that closes)."""
        ours, theirs = self._ctx.Pipe()
        lifeline, held = self._ctx.Pipe(duplex=False)
        process = self._ctx.Process(
            target=_serve, args=(theirs, lifeline), daemon=True, name=f"reedboard-{self.name}"
        )
        try:
            process.start()
        finally:
            theirs.close()
            lifeline.close()
        with self._lock:
            self._process, self._lifeline = process, held
            if self._closed:
                self._kill()
        return process, ours

    def _next_job(self, conn: Connection, process: Any) -> Job | None:
        """The job to run, waiting for one (None: the process ended, or closed)."""
        while not self._closed:
            job = self._job
            if job is not None:
                return job
            ready = wait([conn, process.sentinel, self._wake_r])
            if self._wake_r in ready:
                self._drain()
            elif ready:  # an idle worker answers nothing: it ended
                self._fail(self._why_ended(process))
                return None
        return None

    def _receive(self, conn: Connection, process: Any, job: Job | None = None) -> Any:
        """The process's next message; "replaced" if ``job`` is replaced meanwhile; None
        (said) if the process ends or the worker is closed."""
        while not self._closed:
            ready = wait([conn, process.sentinel, self._wake_r])
            if self._wake_r in ready:
                self._drain()
                if job is not None and self._job is not job:
                    return "replaced"
                continue
            try:
                return conn.recv()
            except (EOFError, OSError):
                self._fail(self._why_ended(process))
                return None
        return None

    def _interrupt(self, conn: Connection, process: Any) -> bool:
        """Ask the process to stop its yielding job and drop its answer; False when it has not
        answered within :data:`GRACE` (or ended)."""
        try:
            conn.send(None)  # what interrupted() sees
            if wait([conn, process.sentinel], GRACE) != [conn] and not conn.poll():
                return False
            conn.recv()
        except (EOFError, OSError, ValueError):
            return False
        return True

    def _pause(self, seconds: float) -> None:
        """Wait ``seconds`` (a close ends the wait)."""
        end = time.monotonic() + seconds
        while not self._closed and (left := end - time.monotonic()) > 0:
            if wait([self._wake_r], left):
                self._drain()

    def _finish(self, job: Job, value: Any) -> None:
        with self._lock:
            if self._job is job:
                self._job = None
        self.failure = None
        job._answer(value)
        self.on_news()

    def _fail(self, why: str) -> None:
        self.failures += 1
        self.failure = why
        self.on_news()

    def _recovered(self) -> None:
        self.failure = None
        self.on_news()

    def _why_ended(self, process: Any) -> str:
        process.join(1.0)
        code = process.exitcode
        if code is None:
            how = "stopped answering"
        elif code < 0:
            how = f"was killed by {signal.Signals(-code).name}"
        else:
            how = f"ended with status {code}"
        return f"its process {how}; it is started again and redoes its job"

    # ------------------------------------------------------------------ any thread
    def _kill(self, wait: float = 1.0) -> None:
        """End the process now, waiting up to ``wait`` s for it (called with the lock held)."""
        process, self._process = self._process, None
        if self._lifeline is not None:
            self._lifeline.close()
            self._lifeline = None
        if process is None:
            return
        try:
            process.kill()
            if wait:
                process.join(wait)
        except (OSError, ValueError, AssertionError):  # already reaped, or never started
            pass
        _forget(process)

    def _close_pipe(self) -> None:
        with self._lock:
            fds, self._wake_fds = self._wake_fds, ()
        for fd in fds:
            os.close(fd)

    def _poke(self) -> None:
        with self._lock:
            if not self._wake_fds:
                return
            try:
                os.write(self._wake_fds[1], b"!")
            except OSError:  # full: already poked
                pass

    def _drain(self) -> None:
        try:
            os.read(self._wake_r, 4096)
        except OSError:
            pass


def _forget(process: Any) -> None:
    """Keep the interpreter's exit from waiting for ``process``, killed already: multiprocessing
    joins every child it knows at exit, and a fork server that does not answer (stopped) never
    reports the end of its workers, so that join would never return."""
    multiprocessing.process._children.discard(process)  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- the worker process
#: The worker process's end of its pipe (None in any other process).
_CONN: Connection | None = None


def interrupted() -> bool:
    """In a job run by a worker: whether the worker wants the process for another job (a
    yielding job then ends soon, its answer unread). Never true outside a worker."""
    return _CONN is not None and _CONN.poll()


def _serve(conn: Connection, lifeline: Connection) -> None:
    """The worker process: say ready, then answer ``(fn, args)`` messages until the pipe
    closes (a None is a yielding job's interruption, read after it). An answer is ("done",
    value) or ("error", "Type: text")."""
    global _CONN
    _CONN = conn
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with, args=(lifeline,), daemon=True).start()
    conn.send(("ready", None))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            continue
        fn, args = message
        try:
            answer = ("done", fn(*args))
        except Exception as exc:  # noqa: BLE001 - the job's own failure: the parent says it
            answer = ("error", describe(exc))
        conn.send(answer)


def _end_with(lifeline: Connection) -> None:
    """End this process once ``lifeline`` closes: its owner is gone (killed, maybe: nobody
    will end us), even while a job runs. (Not the parent's end: the fork server lives as long
    as any worker does.)"""
    try:
        lifeline.recv()
    except (EOFError, OSError):
        pass
    os._exit(0)
