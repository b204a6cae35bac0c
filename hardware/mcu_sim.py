"""A simulated board microcontroller on the far end of a pty pair, speaking the serial protocol
with the same frame code as the host. It scans a :class:`~hardware.sim.SimBoard`, reports
changes at once and the full state every ``heartbeat`` seconds, and shows LED frames on the
board's simulated LEDs.

:meth:`lose_from_host` makes the next frames the host sends vanish on the line (a HELLO lost,
say). ``read_rate`` (bytes a second) makes it read slowly, like a busy microcontroller behind a
slow UART, so the host's output backs up.

Its port appears at ``path``, a symlink to the pty (like a udev ``/dev/serial/by-id`` name), so
:meth:`unplug` and :meth:`plug` model a USB cable pulled and put back: the pty vanishes and
a new one appears under the same name. Tests also use :meth:`send_raw` to inject noise.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from typing import Mapping

from hardware import protocol as p
from hardware.base import Led
from hardware.sim import SimBoard


class SimMcu:
    def __init__(
        self,
        board: SimBoard,
        path: str,
        *,
        heartbeat: float = 1.0,
        interval: float = 0.001,
        version: int = p.VERSION,
        firmware: int = p.FIRMWARE,
        read_rate: float | None = None,
    ) -> None:
        self.board, self.path = board, path
        self.heartbeat, self.interval, self.version = heartbeat, interval, version
        self.firmware = firmware  # the release INFO reports (1: a board from before it did)
        self.read_rate = read_rate
        self._budget, self._budget_at = 0.0, time.monotonic()
        self.reader = p.FrameReader()
        self.led_frame_id = 0
        self.dropped_writes = 0
        self._lock = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._pending: dict[int, Led] = {}
        self._host_frames_to_lose, self._losing = 0, False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        #: The closed channels and their faces last reported (None: report the whole state).
        self._sent: tuple[frozenset[int], Mapping[int, bool]] | None = None
        self.plug()

    # -- the cable ------------------------------------------------------------------------

    def plug(self) -> None:
        """Connect (again): a fresh pty under ``path``, the microcontroller just powered up."""
        with self._lock:
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self._seq, self._sent = 0, None
            self.led_frame_id = 0
            self._next_heartbeat = time.monotonic() + self.heartbeat
            self.reader.reset()
            tmp = f"{self.path}.tmp"
            os.symlink(os.ttyname(slave), tmp)
            os.replace(tmp, self.path)
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="sim-mcu", daemon=True)
            self._thread.start()

    def unplug(self) -> None:
        """Pull the cable: the pty and its name vanish; the host's reads fail."""
        with self._lock:
            if self._master is None or self._slave is None:
                return
            os.unlink(self.path)
            os.close(self._master)
            os.close(self._slave)
            self._master = self._slave = None
            self.board.leds.show({})

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self.unplug()

    # -- what the microcontroller does ----------------------------------------------------

    def send_raw(self, data: bytes) -> None:
        with self._lock:
            self._write(data)

    def lose_from_host(self, frames: int) -> None:
        """The next ``frames`` frames the host sends are lost on the line."""
        with self._lock:
            self._host_frames_to_lose += frames

    def _on_the_line(self, data: bytes) -> bytes:
        """``data`` less the bytes of host frames being lost (their delimiters stay)."""
        if not (self._host_frames_to_lose or self._losing):
            return data
        kept = bytearray()
        for byte in data:
            if byte and (self._losing or self._host_frames_to_lose):
                self._losing = True
                continue
            if not byte and self._losing:
                self._losing = False
                self._host_frames_to_lose -= 1
            kept.append(byte)
        return bytes(kept)

    def send(self, kind: int, body: bytes) -> None:
        with self._lock:
            self._send(kind, body)

    def _run(self) -> None:
        while not self._stop.is_set():
            master = self._master
            if master is None:
                time.sleep(self.interval)
                continue
            try:
                if self.read_rate:  # take what the rate allows, whether or not more is there
                    time.sleep(self.interval)
                    ready = True
                else:
                    ready = bool(select.select([master], [], [], self.interval)[0])
            except (OSError, ValueError):
                continue
            with self._lock:
                if self._master is None:
                    continue
                if ready:
                    self._receive()
                self._report()

    def _receive(self) -> None:
        size = self._allowance()
        if not size or self._master is None:
            return
        try:
            data = os.read(self._master, size)
        except (BlockingIOError, OSError):
            return  # nobody has the port open (EIO) or nothing yet
        self._budget -= len(data)
        for frame in self.reader.feed(self._on_the_line(data)):
            if frame.kind == p.HELLO:
                info = p.BoardInfo(
                    self.version,
                    self.board.channels,
                    self.board.leds.channels,
                    self.board.senses_polarity,
                    self.firmware,
                )
                self._send(p.INFO, p.encode_info(info))
                self._send_state()
            elif frame.kind == p.REQUEST_STATE:
                self._send_state()
            elif frame.kind == p.LEDS:
                self._on_leds(frame.body)

    def _allowance(self) -> int:
        """How many bytes to read now: 4096, or what ``read_rate`` allows since last time."""
        if not self.read_rate:
            return 4096
        now = time.monotonic()
        self._budget = min(4096.0, self._budget + (now - self._budget_at) * self.read_rate)
        self._budget_at = now
        return int(self._budget)

    def _on_leds(self, body: bytes) -> None:
        try:
            frame_id, flags, leds = p.decode_leds(body)
        except p.FrameError:
            self.reader.stats["malformed"] += 1
            return
        if flags & p.FIRST:
            self._pending = {}
        self._pending.update(leds)
        if flags & p.LAST:
            self.board.leds.show(self._pending)
            self.led_frame_id = frame_id

    def _report(self) -> None:
        scan = self.board.scan()
        now = time.monotonic()
        if self._sent is None or now >= self._next_heartbeat:
            self._send_state(scan)
            return
        old_closed, old_north = self._sent
        north = scan.polarity or {}
        changed = {
            ch: (ch in scan.closed, north.get(ch, False))
            for ch in scan.closed ^ old_closed | {c for c in scan.closed if north.get(c) != old_north.get(c)}
        }
        for i in range(0, len(changed), p.CHANGES_PER_FRAME):
            part = dict(list(changed.items())[i : i + p.CHANGES_PER_FRAME])
            self._send(p.CHANGE, p.encode_changes(part))
        self._sent = (scan.closed, north)

    def _send_state(self, scan=None) -> None:
        scan = scan or self.board.scan()
        body = p.encode_state(scan.closed, scan.polarity, self.board.channels, self.led_frame_id)
        self._send(p.STATE, body)
        self._sent = (scan.closed, scan.polarity or {})
        self._next_heartbeat = time.monotonic() + self.heartbeat

    def _send(self, kind: int, body: bytes) -> None:
        self._seq = (self._seq + 1) & 0xFF
        self._write(p.encode(p.Frame(kind, self._seq, body)))

    def _write(self, data: bytes) -> None:
        if self._master is None:
            return
        try:
            os.write(self._master, data)
        except (BlockingIOError, OSError):
            self.dropped_writes += 1  # the host is not reading: the frame is lost
