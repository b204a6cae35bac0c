"""Serial abuse: random, truncated, oversized, bit-flipped and malformed frames and repeated
disconnects through the pty link, while the board keeps changing. The far end is the simulated
microcontroller (``--end python``) or the board's firmware in the emulator (``--end firmware``).

Figures: crashes of the host reader (must be 0), corrupt frames accepted (must be 0: every state
the host reports is a state the board really had), time from a board change after garbage until
the host has it (resync), time to reconnect after the cable is put back.

    .venv/bin/python -m bench.robust.serial_abuse [--quick] [--frames N] [--seed S] [--end E]
"""

from __future__ import annotations

import argparse
import binascii
import os
import random
import sys
import tempfile
import time
from collections import Counter

from cobs import cobs

from bench.robust.common import report
from hardware import protocol as p
from hardware.base import Led
from hardware.serial_link import SerialLink
from testbed.serial_ends import ENDS, make_end

CHANNELS = 64
BURST = 20  # garbage frames between two board changes
TIMEOUT = 5.0


class Garbage:
    """Seeded bad frames of every sort."""

    SORTS = ("random", "truncated", "oversized", "bitflip", "malformed", "bad_kind")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def frame(self) -> tuple[str, bytes]:
        sort = self.rng.choice(self.SORTS)
        return sort, getattr(self, sort)()

    def _valid(self) -> bytes:
        rng = self.rng
        if rng.random() < 0.5:
            body = p.encode_changes({rng.randrange(CHANNELS): (rng.random() < 0.5, False)})
            return p.encode(p.Frame(p.CHANGE, rng.randrange(256), body))
        closed = {c for c in range(CHANNELS) if rng.random() < 0.2}
        return p.encode(p.Frame(p.STATE, rng.randrange(256), p.encode_state(closed, None, CHANNELS, 0)))

    def random(self) -> bytes:
        n = self.rng.randint(1, 300)
        return bytes(self.rng.randrange(256) for _ in range(n))

    def truncated(self) -> bytes:
        wire = self._valid()  # cut inside the frame: at least one byte before its end is lost
        return wire[: self.rng.randint(1, len(wire) - 2)]

    def oversized(self) -> bytes:
        n = self.rng.randint(p.MAX_PAYLOAD + 8, 3 * p.MAX_PAYLOAD)
        return b"\0" + bytes(self.rng.randint(1, 255) for _ in range(n)) + b"\0"

    def bitflip(self) -> bytes:
        wire = bytearray(self._valid())
        bits = range(8, 8 * (len(wire) - 1))  # not the delimiters; distinct bits, so none cancel
        for bit in self.rng.sample(bits, self.rng.randint(1, 3)):
            wire[bit // 8] ^= 1 << bit % 8
        return bytes(wire)

    def malformed(self) -> bytes:
        """A frame with a good CRC and a body no board sends: wrong lengths, channels out of
        range."""
        rng = self.rng
        kind = rng.choice([p.STATE, p.CHANGE, p.INFO])
        if kind == p.CHANGE:
            body = (rng.randrange(CHANNELS, 1 << 14) | 0x8000).to_bytes(2, "big")
            body += bytes(rng.randrange(2))  # odd length half the time
        else:
            size = 1 + (CHANNELS + 7) // 8
            body = bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, size - 1, size + 1])))
        return p.encode(p.Frame(kind, rng.randrange(256), body))

    def bad_kind(self) -> bytes:
        kind = self.rng.choice([k for k in range(256) if k not in p.KINDS])
        payload = bytes((kind, 0, 1, 2))
        crc = binascii.crc_hqx(payload, 0xFFFF).to_bytes(2, "big")
        return b"\0" + cobs.encode(payload + crc) + b"\0"


class Abuse:
    def __init__(self, seed: int, directory: str, end: str) -> None:
        self.rng = random.Random(seed)
        self.garbage = Garbage(self.rng)
        self.path = os.path.join(directory, "board")
        self.board = make_end(end, self.path, CHANNELS, CHANNELS)
        self.link = SerialLink(self.path, CHANNELS, CHANNELS, reopen_interval=0.02, stale_after=1.0)
        self.had = {frozenset()}
        self.crashes: Counter[str] = Counter()
        self.corrupt = 0
        self.sent: Counter[str] = Counter()
        self.resync: list[float] = []
        self.reconnect: list[float] = []
        self.lost = 0
        self.led_ok = 0

    def close(self) -> None:
        self.link.close()
        self.board.close()

    def observe(self) -> frozenset[int]:
        try:
            closed = self.link.scan().closed
        except Exception as exc:  # the figure counts them; nothing may escape the reader
            self.crashes[type(exc).__name__] += 1
            return frozenset()
        if closed not in self.had:
            self.corrupt += 1
            self.had.add(closed)  # count each bogus state once
        return closed

    def wait_for(self, want, timeout: float = TIMEOUT) -> float | None:
        begin = time.perf_counter()
        while time.perf_counter() - begin < timeout:
            if want():
                return time.perf_counter() - begin
            time.sleep(0.0002)
        return None

    def change_board(self) -> frozenset[int]:
        channel = self.rng.randrange(CHANNELS)
        (self.board.lift if channel in self.board.closed else self.board.place)(channel)
        state = frozenset(self.board.closed)
        self.had.add(state)
        return state

    def burst(self) -> None:
        data = bytearray()
        for _ in range(BURST):
            sort, wire = self.garbage.frame()
            self.sent[sort] += 1
            data += wire
        for i in range(0, len(data), 512):  # as a noisy line delivers it, a piece at a time
            self.board.send_raw(bytes(data[i : i + 512]))
            self.observe()
        state = self.change_board()
        took = self.wait_for(lambda: self.observe() == state)
        if took is None:
            self.lost += 1
        else:
            self.resync.append(took)

    def cable(self) -> None:
        self.board.unplug()
        time.sleep(self.rng.uniform(0.0, 0.05))
        state = self.change_board()  # moved while unplugged
        self.board.plug()
        begin = time.perf_counter()
        took = self.wait_for(lambda: self.observe() == state and self.link.connected)
        if took is None:
            self.lost += 1
            return
        self.reconnect.append(time.perf_counter() - begin)
        frame = {self.rng.randrange(CHANNELS): Led((0, 255, 0), "slow")}
        self.link.show(frame)
        if self.wait_for(lambda: self.observe() is not None and self.board.shows(frame)):
            self.led_ok += 1


def ms(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 2)


def run(frames: int, seed: int, disconnects: int, end: str = "python") -> dict:
    with tempfile.TemporaryDirectory() as directory:
        abuse = Abuse(seed, directory, end)
        try:
            if abuse.wait_for(lambda: abuse.observe() is not None and abuse.link.connected) is None:
                raise SystemExit("serial_abuse: the link never connected")
            bursts = max(1, frames // BURST)
            every = max(1, bursts // max(1, disconnects))
            began = time.perf_counter()
            for i in range(bursts):
                abuse.burst()
                if disconnects and i % every == every - 1:
                    abuse.cable()
            seconds = time.perf_counter() - began
            counters = abuse.link.counters()
        finally:
            abuse.close()
    return {
        "bench": "robust_serial",
        "end": end,
        "frames_sent": sum(abuse.sent.values()),
        "by_sort": dict(sorted(abuse.sent.items())),
        "disconnects": len(abuse.reconnect) + (abuse.lost if disconnects else 0),
        "crashes": sum(abuse.crashes.values()),
        "corrupt_accepted": abuse.corrupt,
        "changes_never_seen": abuse.lost,
        "resync_p50_ms": ms(abuse.resync, 0.5),
        "resync_p99_ms": ms(abuse.resync, 0.99),
        "resync_max_ms": ms(abuse.resync, 1.0),
        "reconnect_p50_ms": ms(abuse.reconnect, 0.5),
        "reconnect_max_ms": ms(abuse.reconnect, 1.0),
        "led_frames_after_reconnect": f"{abuse.led_ok}/{len(abuse.reconnect)}",
        "host_counters": {k: v for k, v in sorted(counters.items())},
        "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,000 frames, 5 disconnects")
    parser.add_argument("--frames", type=int, help="bad frames to send (default 100000)")
    parser.add_argument("--disconnects", type=int, help="cable pulls (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--end",
        choices=ENDS,
        default="python",
        help="the far end: the simulated microcontroller or the firmware in simavr",
    )
    args = parser.parse_args(argv)
    frames = args.frames or (2_000 if args.quick else 100_000)
    disconnects = args.disconnects if args.disconnects is not None else (5 if args.quick else 200)
    figures = run(frames, args.seed, disconnects, args.end)
    rows = [(k.replace("_", " "), v) for k, v in figures.items() if k != "bench"]
    report(f"Serial abuse: {frames} bad frames, seed {args.seed}, {args.end} end", rows, figures)
    bad = figures["crashes"] or figures["corrupt_accepted"] or figures["changes_never_seen"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
