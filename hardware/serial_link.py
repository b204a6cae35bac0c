"""The host end of the serial link (docs/serial-protocol.md) and the scanner and LED sink on it.

One :class:`SerialLink` per port, polled from the daemon's loop (no thread of its own): each
``poll`` reads what has arrived, keeps the board's state, and reopens the port when a
USB cable comes back. The host's view (closed channels, the LED frame to show) survives a
disconnect: the scanner keeps reporting the last state, and after the handshake the board's
full state replaces it and the LED frame is sent again.

Writing never blocks the daemon: frames wait in the link's own queue and go to the port only
as far as it takes them at once (a writable tty, and at most :data:`QUEUE_LIMIT` bytes in the
OS output queue, pyserial's ``out_waiting``). LED frames coalesce: a frame is encoded only when
the one before has left the queue, so on a slow link the frames shown in between are dropped
(``leds_stale``) and the board gets the newest. The other frames are requests that ask the
same each time (HELLO, REQUEST_STATE): one still waiting to leave is not queued again
(``coalesced``), and a board that keeps sending changes out of sequence gets one REQUEST_STATE
until its state comes or ``resend_after`` passes, so the queue holds at most one LED frame and
one of each request however the board behaves (before, a board that sent bad changes and never
read made the host queue a request per change: 172 MB in 20 s).
"""

from __future__ import annotations

import os
import select
import threading
from collections import Counter, deque
from typing import Callable, Mapping, Protocol

import serial

from hardware import protocol as p
from hardware.base import Led, Scan
from hardware.clock import Clock, wall_clock
from hardware.patterns import check_frame
from hardware.wake import Waker

#: Bytes the link lets wait in the OS output queue: ~90 ms at 115200 baud, so a new LED frame
#: never queues behind much older ones.
QUEUE_LIMIT = 1024
#: Longest wait between two HELLOs while the board has not answered (the wait doubles from
#: ``hello_again``).
HELLO_AGAIN_MAX = 4.0


class Port(Protocol):
    """What the link uses of a pyserial port: a tty's, or a URL handler's (``loop://``)."""

    write_timeout: float | None

    @property
    def in_waiting(self) -> int: ...
    @property
    def out_waiting(self) -> int: ...
    def read(self, size: int = 1) -> bytes: ...
    def write(self, data: bytes | bytearray, /) -> int | None: ...
    def fileno(self) -> int: ...
    def close(self) -> None: ...


Opener = Callable[[str], Port]


def open_port(url: str, baudrate: int = 115200) -> Port:
    """A real tty, a pty or any pyserial URL (``loop://``), non-blocking reads and writes:
    ``write_timeout=0`` makes pyserial's write on a tty return what the OS took. Ports without
    a file descriptor (``loop://``: an unbounded queue) keep their default, blocking writes."""
    port: Port = serial.serial_for_url(url, baudrate=baudrate, timeout=0)
    if _fileno(port) is not None:
        port.write_timeout = 0
    return port


def _fileno(port: Port | None) -> int | None:
    if port is None:
        return None
    try:
        return port.fileno()
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is both
        return None


class SerialLink:
    """The host side of the protocol. ``channels``/``leds``: what the configuration expects
    (None: whatever the board reports); a board that reports otherwise (or another protocol
    version) is refused, with ``error`` saying why. ``counters()``: frames, drops, resyncs,
    reconnects, LED frames sent, dropped as stale and resent. ``resend_after``: seconds after
    an LED frame left the host before a STATE naming another frame makes the host send it
    again (the board may simply not have read it yet). ``hello_again``: seconds without INFO
    after a HELLO before it is sent again (a HELLO lost on the line, or swallowed by a board
    still starting), doubling each time up to :data:`HELLO_AGAIN_MAX`."""

    def __init__(
        self,
        url: str,
        channels: int | None,
        leds: int = 0,
        *,
        baudrate: int = 115200,
        clock: Clock = wall_clock,
        reopen_interval: float = 0.5,
        stale_after: float = 3.0,
        resend_after: float = 1.0,
        hello_again: float = 0.5,
        opener: Opener | None = None,
    ) -> None:
        self.url = url
        self.channels, self.leds = channels, leds
        self.clock = clock
        self.reopen_interval, self.stale_after = reopen_interval, stale_after
        self.resend_after, self.hello_again = resend_after, hello_again
        self._open = opener or (lambda u: open_port(u, baudrate))
        self.stats: Counter[str] = Counter()
        #: True once closed by :meth:`close` (a lost port is reopened; a closed link is not).
        self.shut = False
        self.error: str | None = None
        self.info: p.BoardInfo | None = None
        self.senses_polarity = False
        self._port: Port | None = None
        self._reader = p.FrameReader()
        self._lock = threading.RLock()
        self._seq = 0
        self._expect: int | None = None  # next board seq; None until a full state arrived
        self._closed: frozenset[int] = frozenset()
        self._north: dict[int, bool] = {}
        self._scan = Scan(frozenset())
        self._leds: dict[int, Led] = {}
        self._led_id = 0
        #: Why the frame in _leds still has to be queued: "new" (shown), "resend", or None.
        self._led_pending: str | None = None
        self._out: deque[tuple[int, bytearray]] = deque()  # (kind, wire bytes); head may be part-sent
        self._led_chunks = 0  # LEDS frames in _out
        self._led_left = -float("inf")  # when the last LED frame had all left _out
        self._state_asked = -float("inf")  # when REQUEST_STATE was last sent, until STATE comes
        self._last_heard = self._last_attempt = -float("inf")
        self._hello_at, self._hello_wait = -float("inf"), hello_again  # the last HELLO; until the next
        self._open_error = ""
        self.poll()

    @property
    def led_frame(self) -> dict[int, Led]:
        """The LED frame the board should be showing."""
        return self._leds

    @property
    def connected(self) -> bool:
        """Whether the port is open and the board answered the handshake."""
        return self._port is not None and self.info is not None and self.error is None

    @property
    def problem(self) -> str | None:
        """Why the board is not connected, in a few words (None when it is)."""
        if self.connected and self._expect is not None:  # and the board's state is known
            return None
        if self.error:
            return self.error
        if self._port is None and self._open_error:
            return f"cannot open {self.url} ({self._open_error})"
        return f"no answer on {self.url}: {p.SILENT}"

    # -- the daemon side ------------------------------------------------------------------

    def scan(self) -> Scan:
        self.poll()
        return self._scan

    def show(self, frame: Mapping[int, Led]) -> None:
        """Send an LED frame (resent by itself after a reconnect) as soon as the link has room;
        a newer one replaces it until then. Never blocks."""
        with self._lock:
            self._leds = dict(frame)
            self._led_id = self._led_id % 255 + 1
            if self._led_pending == "new":
                self.stats["leds_stale"] += 1
            self._led_pending = "new"
            self._flush()

    def poll(self) -> None:
        with self._lock:
            if self.shut:
                return
            now = self.clock()
            if self._port is None:
                if now - self._last_attempt >= self.reopen_interval:
                    self._connect(now)
                return
            try:
                waiting = self._port.in_waiting
                data = self._port.read(waiting) if waiting else b""
            except (OSError, serial.SerialException):
                self._disconnect("read")
                return
            if data:
                self._last_heard = now
                for frame in self._reader.feed(data):
                    self._handle(frame)
            elif now - self._last_heard > self.stale_after:
                self._disconnect("stale")
                return
            if self.info is None and now - self._hello_at >= self._hello_wait:
                self.stats["hello_resent"] += 1
                self._hello(now, min(2 * self._hello_wait, HELLO_AGAIN_MAX))
            self._flush()

    def wakes(self, waker: Waker) -> None:
        """Let ``waker`` watch the port: bytes from the board wake the daemon's loop."""
        waker.watch(lambda: _fileno(self._port))

    @property
    def quiet(self) -> bool:
        """True when only the board's bytes can bring news: the board answered, nothing waits
        to be written, and the port has a descriptor to watch. Until then polls must go on."""
        with self._lock:
            return (
                self.connected and not self._out and not self._led_pending and _fileno(self._port) is not None
            )

    def close(self) -> None:
        with self._lock:
            self.shut = True
            if self._port is not None:
                self._port.close()
                self._port = None

    def counters(self) -> Counter[str]:
        """Link events plus the frame reader's counts (frames, bad_crc, oversized, ...)."""
        return self.stats + self._reader.stats

    # -- connection -----------------------------------------------------------------------

    def _connect(self, now: float) -> None:
        self._last_attempt = now
        try:
            self._port = self._open(self.url)
        except (OSError, ValueError, serial.SerialException) as exc:
            code = getattr(exc, "errno", None)
            self._open_error = os.strerror(code) if isinstance(code, int) else str(exc)[:80]
            return
        self._open_error = ""
        self.stats["opened"] += 1
        self.info, self.error, self._expect = None, None, None
        self._reader.reset()
        self._out.clear()
        self._led_chunks, self._led_left = 0, -float("inf")
        self._state_asked = -float("inf")
        self._last_heard = now
        self._hello(now, self.hello_again)

    def _hello(self, now: float, wait: float) -> None:
        """Send HELLO; again after ``wait`` seconds unless INFO comes."""
        self._hello_at, self._hello_wait = now, wait
        self._send(p.HELLO, bytes((p.VERSION,)))

    def _disconnect(self, why: str) -> None:
        self.stats[f"lost_{why}"] += 1
        port, self._port, self.info = self._port, None, None
        self._last_attempt = self.clock()
        if port is None:
            return
        try:
            port.close()
        except (OSError, serial.SerialException):
            pass

    # -- sending ----------------------------------------------------------------------------

    @property
    def waiting(self) -> int:
        """Bytes waiting in the link's own queue for the port."""
        return sum(len(data) for _, data in self._out)

    def _send(self, kind: int, body: bytes = b"") -> None:
        """Queue a request and write what the port takes; one of its kind still waiting to
        leave already asks it."""
        if self._port is None:
            return
        if any(waiting == kind for waiting, _ in self._out):
            self.stats["coalesced"] += 1
        else:
            self._queue(kind, body)
        self._flush()

    def _ask_state(self) -> None:
        """REQUEST_STATE, unless one was sent less than ``resend_after`` ago and its STATE has
        not come yet."""
        now = self.clock()
        if now - self._state_asked < self.resend_after:
            self.stats["coalesced"] += 1
            return
        self._state_asked = now
        self._send(p.REQUEST_STATE)

    def _queue(self, kind: int, body: bytes) -> None:
        self._seq = (self._seq + 1) & 0xFF
        self._out.append((kind, bytearray(p.encode(p.Frame(kind, self._seq, body)))))
        self._led_chunks += kind == p.LEDS

    def _flush(self) -> None:
        """Write what the port takes without blocking; queue the LED frame once the last one
        has left."""
        if self._port is None:
            return
        try:
            self._write_some()
            if self._led_pending and not self._led_chunks and self.connected:
                self.stats["leds_sent" if self._led_pending == "new" else "leds_resent"] += 1
                self._led_pending = None
                for body in p.encode_leds(self._leds, self._led_id):
                    self._queue(p.LEDS, body)
                self._write_some()
        except (OSError, serial.SerialException):
            self._disconnect("write")

    def _write_some(self) -> None:
        port = self._port
        if port is None:
            return
        room = QUEUE_LIMIT - port.out_waiting if self._out else 0
        while self._out and room > 0 and self._writable():
            kind, data = self._out[0]
            written = port.write(data[:room]) or 0
            room -= written
            if written < len(data):
                del data[:written]
                continue
            self._out.popleft()
            if kind == p.LEDS:
                self._led_chunks -= 1
                if not self._led_chunks:
                    self._led_left = self.clock()

    def _writable(self) -> bool:
        """Whether the port takes at least a byte now. Ask before every write: on a full tty,
        pyserial's non-blocking write retries EAGAIN until there is room (a busy wait)."""
        fd = _fileno(self._port)
        return fd is None or bool(select.select([], [fd], [], 0)[1])

    # -- frames from the board ------------------------------------------------------------

    def _handle(self, frame: p.Frame) -> None:
        try:
            if frame.kind == p.INFO:
                self._on_info(p.decode_info(frame.body))
            elif self.info is None or self.error:
                self.stats["before_handshake"] += 1
            elif frame.kind == p.STATE:
                self._on_state(frame)
            elif frame.kind == p.CHANGE:
                self._on_change(frame)
            else:
                self.stats["unexpected_kind"] += 1
        except p.FrameError as error:
            self.stats[error.reason] += 1

    def _on_info(self, info: p.BoardInfo) -> None:
        self.info, self.senses_polarity = info, info.senses_polarity
        if info.version != p.VERSION:
            self.error = (
                f"board speaks serial protocol v{info.version}, this host v{p.VERSION}: run {p.FLASH}"
            )
        elif self.channels is not None and info.channels != self.channels:
            self.error = f"board reports {info.channels} sensor channels, config says {self.channels}"
        elif info.leds < self.leds:
            self.error = f"board reports {info.leds} LEDs, config says {self.leds}"
        else:
            self.error = None
            self.channels = info.channels

    def _on_state(self, frame: p.Frame) -> None:
        assert self.channels is not None  # the handshake, which frames wait for, set it
        closed, north, led_id = p.decode_state(frame.body, self.channels, self.senses_polarity)
        self._expect = (frame.seq + 1) & 0xFF
        self._state_asked = -float("inf")
        self._set(closed, north or {})
        settled = not self._led_chunks and self.clock() - self._led_left > self.resend_after
        if led_id != self._led_id and settled and not self._led_pending:
            self._led_pending = "resend"

    def _on_change(self, frame: p.Frame) -> None:
        assert self.channels is not None  # the handshake, which frames wait for, set it
        changes = p.decode_changes(frame.body)
        if frame.seq != self._expect or max(changes, default=0) >= self.channels:
            self.stats["resyncs"] += 1
            self._expect = None
            self._ask_state()
            return
        self._expect = (frame.seq + 1) & 0xFF
        closed, north = set(self._closed), dict(self._north)
        for channel, (is_closed, up) in changes.items():
            if is_closed:
                closed.add(channel)
                north[channel] = up
            else:
                closed.discard(channel)
                north.pop(channel, None)
        self._set(frozenset(closed), north)

    def _set(self, closed: frozenset[int], north: dict[int, bool]) -> None:
        if closed != self._closed or (self.senses_polarity and north != self._north):
            self._closed, self._north = closed, north
            polarity = dict(north) if self.senses_polarity else None
            self._scan = Scan(closed, polarity=polarity)


class SerialScanner:
    """The Scanner interface over a :class:`SerialLink`: the last state the board reported."""

    def __init__(self, link: SerialLink) -> None:
        if link.channels is None:
            raise ValueError("a serial scanner needs the number of sensor channels")
        self.link = link
        self.channels = link.channels

    @property
    def senses_polarity(self) -> bool:
        return self.link.senses_polarity

    @property
    def problem(self) -> str | None:
        """Why the board does not answer (None: it does); the daemon says so."""
        return self.link.problem

    def scan(self) -> Scan:
        return self.link.scan()

    def wakes(self, waker: Waker) -> None:
        self.link.wakes(waker)

    @property
    def quiet(self) -> bool:
        return self.link.quiet

    def close(self) -> None:
        self.link.close()


class SerialLeds:
    """The LedSink interface over a :class:`SerialLink`: the microcontroller animates the
    patterns, so a frame crosses the link only when it changes."""

    def __init__(self, link: SerialLink) -> None:
        self.link = link
        self.channels = link.leds

    def show(self, frame: Mapping[int, Led]) -> None:
        check_frame(frame, self.channels)
        if dict(frame) != self.link.led_frame:
            self.link.show(frame)
        self.link.poll()

    def close(self) -> None:
        self.link.close()
