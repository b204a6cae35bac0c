"""The board's firmware (firmware/) built with avr-gcc and run in simavr as a board on a pty.

:func:`build` compiles a variant (a board and config.h overrides) with the firmware's own
Makefile into ``firmware/build/<name>/`` (make rebuilds only what changed); :class:`EmulatedBoard`
starts the harness (``firmware/sim/``), which makes ``path`` a symlink to the board's pty, as a
udev ``/dev/serial/by-id`` name would be. The host's own code (``hardware.serial_link``,
``reedboard``) then talks to the firmware as to a board on USB.

The board takes the same calls as :class:`hardware.sim.SimBoard` (``place``, ``lift``, ``flip``),
and reports what the WS2812 chains were sent (:attr:`EmulatedBoard.led_writes`).

    board = EmulatedBoard(build("mega", LED_COUNT=300), "/tmp/board")
    board.place(5); board.lift(5); board.close()
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from hardware import protocol as p
from hardware.base import Led

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
F_CPU = 16_000_000
#: Seconds the emulator has to quit when closed; still running then, it is taken as hung.
QUIT_SECONDS = 5.0
#: The characters of the end of what the emulator said on stderr kept for a failure's message.
SAID_KEPT = 2000

#: What building and emulating needs, and the Debian packages that bring it.
NEEDS = {
    "avr-gcc": "gcc-avr",
    "/usr/lib/avr/include/avr/io.h": "avr-libc",
    "/usr/include/simavr/sim_avr.h": "libsimavr-dev",
    "cc": "gcc",
    "make": "make",
}


class ToolchainMissing(RuntimeError):
    """The AVR toolchain or simavr is not installed; the message says which packages."""


def missing() -> list[str]:
    """The Debian packages still to install for building and emulating the firmware."""
    return sorted(
        {
            package
            for need, package in NEEDS.items()
            if not (os.path.exists(need) if need.startswith("/") else shutil.which(need))
        }
    )


@dataclass(frozen=True)
class Variant:
    """A built firmware: its board, the config.h overrides it was built with, and its files."""

    board: str
    defs: Mapping[str, object]
    directory: Path

    @property
    def elf(self) -> Path:
        return self.directory / "reedboard.elf"

    @property
    def harness(self) -> Path:
        return self.directory / "simboard"

    def get(self, name: str, default: object = None) -> object:
        return self.defs.get(name, default)


_built: dict[tuple, Variant] = {}
_lock = threading.Lock()


def build(board: str = "mega", **defs: object) -> Variant:
    """Build the firmware and its harness for ``board`` (mega, uno) with config.h values
    overridden by ``defs`` (e.g. ``LED_COUNT=300``); ToolchainMissing if tools are absent,
    RuntimeError with make's output if the build fails."""
    need = missing()
    if need:
        raise ToolchainMissing(
            "the firmware tests need the AVR toolchain and simavr: "
            f"apt-get install {' '.join(need)} (tests/run.sh installs them)"
        )
    key = (board, tuple(sorted(defs.items())))
    with _lock:
        if key in _built:
            return _built[key]
        flags = " ".join(f"-D{name}={value}" for name, value in sorted(defs.items()))
        name = f"test-{board}-{hashlib.sha1(flags.encode()).hexdigest()[:10]}"
        directory = FIRMWARE / "build" / name
        done = subprocess.run(
            [
                "make",
                "-s",
                "-C",
                str(FIRMWARE),
                f"BOARD={board}",
                f"BUILD=build/{name}",
                f"DEFS={flags}",
                "sim",
            ],
            capture_output=True,
            text=True,
        )
        if done.returncode:
            raise RuntimeError(f"building the firmware ({board} {flags}) failed:\n{done.stdout}{done.stderr}")
        variant = _built[key] = Variant(board, dict(defs), directory)
        return variant


@dataclass(frozen=True)
class LedLayout:
    """How the host's LED channels lie on the board's WS2812 chains: channel n is LED
    ``n % per_chain`` of chain ``n // per_chain``.

    >>> LedLayout(leds=10, chains=4, per_chain=3).place(7)
    (2, 1)
    """

    leds: int
    chains: int
    per_chain: int

    def place(self, channel: int) -> tuple[int, int]:
        """(chain, LED along it) of an LED channel."""
        return divmod(channel, self.per_chain)

    def channel_order(self, chains: tuple[bytes, ...]) -> bytes:
        """The chains' bytes (3 an LED) as the host's channels 0 .. leds-1."""
        size = 3 * self.per_chain
        return b"".join(chain[:size].ljust(size, b"\0") for chain in chains)[: 3 * self.leds]


@dataclass(frozen=True)
class LedWrite:
    """One write of the WS2812 chains: emulated cycles of its first and last edge, the longest
    pause between bits (cycles), bits out of the data sheet's timing, the bytes each chain was
    sent (green, red, blue per LED along it), and the same as the host's LED channels."""

    start: int
    end: int
    longest_low: int
    faults: int
    chains: tuple[bytes, ...]
    grb: bytes

    def colours(self) -> list[tuple[int, int, int]]:
        """(r, g, b) per LED."""
        return [(self.grb[i + 1], self.grb[i], self.grb[i + 2]) for i in range(0, len(self.grb) - 2, 3)]


class EmulatedBoard:
    """The firmware of ``variant`` in simavr, its UART on a pty named ``path``.

    ``speed``: emulated seconds per wall second (0: as fast as the machine runs); ``trace``:
    also collect timing events (:attr:`events`). Its stderr is read from the start by a thread
    of its own, the end of it kept (:attr:`said`): an emulator saying more than a pipe holds
    (64 KB) would otherwise block on the write, and look hung."""

    def __init__(self, variant: Variant, path: str, *, speed: float = 1.0, trace: bool = False) -> None:
        self.variant, self.path = variant, path
        self.led_writes: list[LedWrite] = []
        self.events: list[list[str]] = []
        self.errors: list[str] = []
        self.powered = True
        self._powered_at = 0  # the first LED write since the last power-up
        self._closed: dict[int, bool] = {}  # channel -> north up
        self._changed = threading.Condition()
        self._said: deque[str] = deque()
        argv = [str(variant.harness), str(variant.elf), "--link", path, "--speed", str(speed)]
        self._process = subprocess.Popen(
            argv + (["--trace"] if trace else []),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self._listener = threading.Thread(target=self._listen, name="simboard-stderr", daemon=True)
        self._listener.start()
        ready = self._process.stdout.readline().split()
        if ready[:1] != ["ready"]:
            self._process.kill()
            self._process.wait()
            self._listener.join(timeout=2)
            raise RuntimeError(f"the emulator did not start: {ready} {self.said}")
        self.layout = LedLayout(*map(int, ready[2:5]))
        self._reader = threading.Thread(target=self._read, name="simboard", daemon=True)
        self._reader.start()

    # -- the switches, as on SimBoard --------------------------------------------------------

    @property
    def closed(self) -> frozenset[int]:
        """The closed switches (channels)."""
        return frozenset(self._closed)

    def place(self, channel: int, north: bool = True) -> None:
        self._closed[channel] = north
        self._command(f"place {channel} {'north' if north else 'south'}")

    def lift(self, channel: int) -> None:
        self._closed.pop(channel, None)
        self._command(f"lift {channel}")

    def flip(self, channel: int) -> None:
        if channel in self._closed:
            self._closed[channel] = not self._closed[channel]
        self._command(f"flip {channel}")

    def bounce(self, channel: int, times: int, every_us: int) -> None:
        """Toggle switch ``channel`` ``times`` times, ``every_us`` microseconds apart (emulated
        time), as a bouncing contact does."""
        if times % 2:
            if channel in self._closed:
                del self._closed[channel]
            else:
                self._closed[channel] = True
        self._command(f"bounce {channel} {times} {every_us}")

    # -- the line and the cable ------------------------------------------------------------

    def send_raw(self, data: bytes) -> None:
        """Bytes to the host, as noise on the line would bring them."""
        self._command(f"garbage {data.hex()}")

    def send_to_firmware(self, data: bytes) -> None:
        """Bytes to the firmware, as if the host wrote them."""
        self._command(f"send {data.hex()}")

    def lose(self, frames: int) -> None:
        """The board's next ``frames`` frames are lost on the line."""
        self._command(f"lose {frames}")

    def lose_from_host(self, frames: int) -> None:
        """The host's next ``frames`` frames are lost on the line."""
        self._command(f"lose_host {frames}")

    def unplug(self) -> None:
        """Pull the USB cable: the board (and its LEDs) lose power, the pty vanishes."""
        self._command("unplug")
        self.powered = False
        self._wait(lambda: not os.path.lexists(self.path), "the pty to vanish")

    def plug(self) -> None:
        """Put the cable back: the board starts from reset under the same name."""
        self._command("plug")
        self.powered = True
        self._powered_at = len(self.led_writes)
        self._wait(lambda: os.path.exists(self.path), "the pty to appear")

    def hang(self) -> None:
        """Make the firmware stop in a loop with interrupts off (the watchdog must reset it)."""
        self._command("hang")

    def counts(self) -> dict[str, int]:
        """The firmware's counts of frames from the host it took and dropped, by reason."""
        line = self._ask("counts")
        return {k: int(v) for k, v in (word.split("=") for word in line[1:])}

    def at(self, cycle: int, command: str) -> None:
        """Run a harness command (``place 5``, ``lift 5``: firmware/sim/simboard.c) when the
        emulated time reaches ``cycle``: a change at an exact moment."""
        self._command(f"at {cycle} {command}")

    def cycle(self) -> int:
        """The emulated time now, in cycles since the emulator started."""
        return int(self._ask("time")[1])

    def run_for(self, seconds: float, timeout: float = 60) -> None:
        """Wait until ``seconds`` of emulated time have passed from now."""
        until = self.cycle() + seconds * F_CPU
        self._wait(lambda: self.cycle() >= until, f"{seconds} s of emulated time", timeout)

    def _ask(self, command: str, timeout: float = 5.0) -> list[str]:
        """Send a command and wait for the event that answers it (named like the command)."""
        seen = len(self.events)
        self._command(command)
        return self._wait(
            lambda: next((e for e in self.events[seen:] if e[0] == command), None),
            f"answer to {command}",
            timeout,
        )

    def frames_sent(self, since: int = 0) -> list[tuple[int, p.Frame]]:
        """The frames the board sent (cycle their last byte left, frame), with ``trace``, from
        event ``since`` on; a frame cut short (a heartbeat that gave way to a change) is left
        out."""
        return [(int(e[1]), frame) for e in self.events[since:] if e[0] == "tx" and (frame := decoded(e[2]))]

    # -- the LEDs ----------------------------------------------------------------------------

    @property
    def leds(self) -> list[tuple[int, int, int]]:
        """What the chain shows: (r, g, b) per LED of the last frame written; all off when the
        board has no power."""
        if not self.powered or not self.led_writes:
            return []
        return self.led_writes[-1].colours()

    def shows(self, frame: Mapping[int, Led]) -> bool:
        """Whether the chain shows ``frame`` as rendered at some moment (see :func:`renders`),
        and, if it has lit LEDs, showed them lit since power-up (a blink is dark half the time,
        like a chain that shows nothing)."""
        if not self.powered or not self.led_writes or not renders(frame, self.leds):
            return False
        since = self.led_writes[self._powered_at :]
        return not any(led.colour != (0, 0, 0) for led in frame.values()) or any(
            any(map(any, write.colours())) and renders(frame, write.colours()) for write in since
        )

    def dark(self) -> bool:
        return not any(map(any, self.leds))

    # -- running -----------------------------------------------------------------------------

    def wait_for(self, predicate: Callable[[], object], timeout: float = 5.0) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if predicate():
                return True
            time.sleep(0.002)
        return bool(predicate())

    def close(self) -> None:
        """Tell the emulator to quit. One still running :data:`QUIT_SECONDS` later is killed
        and the test fails (AssertionError), naming it with the end of what it said on stderr:
        a hang is a defect to see, not to hide."""
        try:
            if self._process.poll() is None:
                self._quit()
        finally:
            self._reader.join(timeout=2)
            self._listener.join(timeout=2)
            for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
                stream.close()

    def _quit(self) -> None:
        try:
            self._process.stdin.write("quit\n")
            self._process.stdin.flush()
        except OSError:  # it is ending already (its stdin closed)
            pass
        try:
            self._process.wait(timeout=QUIT_SECONDS)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
            self._listener.join(timeout=2)
            raise AssertionError(
                f"the emulated board {self.variant.board} ({self.path}) hung: still running "
                f"{QUIT_SECONDS:g} s after quit; it said: {self.said!r}"
            ) from None

    @property
    def said(self) -> str:
        """The end of what the emulator said on stderr so far (:data:`SAID_KEPT` characters)."""
        return "".join(self._said)[-SAID_KEPT:]

    def _listen(self) -> None:
        """Read the emulator's stderr to its end, keeping the lines that make up its last
        :data:`SAID_KEPT` characters."""
        kept = 0
        for line in self._process.stderr:
            self._said.append(line)
            kept += len(line)
            while kept - len(self._said[0]) >= SAID_KEPT:
                kept -= len(self._said.popleft())

    def _command(self, line: str) -> None:
        if self._process.poll() is not None:
            raise RuntimeError(f"the emulator has stopped: {self.errors}")
        self._process.stdin.write(line + "\n")
        self._process.stdin.flush()

    def _wait(self, predicate: Callable[[], object], what: str, timeout: float = 5.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            result = predicate()
            if result:
                return result
            time.sleep(0.002)
        raise TimeoutError(f"the emulated board: no {what} after {timeout} s ({self.errors})")

    def _read(self) -> None:
        for line in self._process.stdout:
            words = line.split()
            if not words:
                continue
            if words[0] == "leds":
                start, end, low, faults = map(int, words[1:5])
                chains = tuple(bytes.fromhex(hex) if hex != "-" else b"" for hex in words[5:])
                self.led_writes.append(
                    LedWrite(start, end, low, faults, chains, self.layout.channel_order(chains))
                )
            elif words[0] in ("error", "overrun", "short", "dropped"):
                self.errors.append(line.strip())
            self.events.append(words)


def decoded(hex: str) -> p.Frame | None:
    """The frame in a ``tx`` event's bytes; None for one cut short on the line."""
    try:
        return p.decode(bytes.fromhex(hex))
    except p.FrameError:
        return None


def renders(frame: Mapping[int, Led], shown: list[tuple[int, int, int]], slack: int = 2) -> bool:
    """Whether ``shown`` ((r, g, b) per LED) is ``frame`` as the firmware renders it at some
    moment: the LEDs of each pattern scaled by one common factor from 0 to 1 (the pattern's
    level at that moment times the current limit; 0 only for a blink), LEDs not in the
    frame off. Values may differ by ``slack`` from rounding.

    >>> renders({0: Led((200, 0, 0)), 2: Led((0, 0, 100), "pulse")}, [(200, 0, 0), (0, 0, 0), (0, 0, 50)])
    True
    >>> renders({0: Led((200, 0, 0))}, [(0, 0, 0), (0, 0, 0)])
    False
    """
    if len(shown) <= max(frame, default=-1):
        return False
    lit = {ch: led for ch, led in frame.items() if any(led.colour)}
    if any(any(shown[ch]) for ch in range(len(shown)) if ch not in lit):
        return False
    for pattern in {led.pattern for led in lit.values()}:
        leds = [(led.colour, shown[ch]) for ch, led in lit.items() if led.pattern == pattern]
        colour, seen = max(leds, key=lambda pair: max(pair[0]))
        brightest = max(range(3), key=lambda i: colour[i])
        k = seen[brightest] / colour[brightest]
        if k > 1 or (pattern in ("steady", "pulse") and k == 0):
            return False
        if any(abs(round(c * k) - s) > slack for colour, seen in leds for c, s in zip(colour, seen)):
            return False
    return True
