"""The board firmware's figures, from the emulator's cycle counts (exact, whatever this machine's
load): a full scan of the largest matrix a board supports, switch change -> CHANGE frame sent
(with nothing else going on, with a heartbeat on the line, while 400 LEDs pulse), LEDS frame
received -> LEDs written for 400 LEDs on one, four and eight chains, and flash and RAM used.

    .venv/bin/python -m bench.firmware [--quick]

Worst cases are found by sweeping: the harness changes a switch at an exact emulated cycle
(``at``), stepped across a heartbeat STATE or a chain write. Each time is printed in ms at the
chip's 16 MHz beside its floor (what the wire itself takes) and the goal. Prints a table, then
one JSON line. Needs the AVR toolchain and simavr (tests/run.sh installs them).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

from hardware import protocol as p
from hardware.base import Led
from testbed.firmware_emulator import F_CPU, EmulatedBoard, Variant, build

MS = F_CPU / 1000
BAUD = 115200
BYTE = F_CPU * 11 / BAUD  # simavr sends 11 bits a byte
TRACE_PIN = 13
#: How far ahead a change is scheduled: the emulator runs ahead while the command travels.
AHEAD = 300 * MS
#: A heartbeat every 100 ms instead of every second, so that sweeps meet one often.
BEAT_MS = 100


def pins_but(*taken: int) -> list[int]:
    """The Mega's pins D2..D69 but ``taken`` (D0, D1 are the UART)."""
    return [n for n in range(2, 70) if n not in taken]


def matrix(pins: list[int], rows: int) -> dict:
    """``rows`` rows and 32 columns from ``pins``."""
    return dict(
        ROW_PINS=",".join(map(str, pins[:rows])), COLUMN_PINS=",".join(map(str, pins[rows : rows + 32]))
    )


#: The largest matrix: 66 of the Mega's 68 free pins (all but the LEDs' D6 and D13, the scan
#: marker), 34 rows x 32 columns (the firmware reads at most 32 columns); 400 LEDs on D6.
LARGEST = dict(matrix(pins_but(6, TRACE_PIN), 34), LED_PINS=6, LED_COUNT=400, TRACE_PIN=TRACE_PIN)
#: 31 x 32 (992 switches) beside 400 LEDs as four chains of 100 on D6..D9.
PARALLEL = dict(
    matrix(pins_but(6, 7, 8, 9, TRACE_PIN), 31), LED_PINS="6,7,8,9", LED_COUNT=400, TRACE_PIN=TRACE_PIN
)
#: 400 LEDs as eight chains of 50 on port A (D22..D29), a 74HC165 chain for the switches.
EIGHT = dict(SCANNER="SCANNER_165", LED_PINS=",".join(map(str, range(22, 30))), LED_COUNT=400)
GOALS = {"scan_ms": 2, "change_ms": 5, "leds_ms": 10, "ram_percent": 75}
RAM = {"mega": 8192, "uno": 2048}


def ms(cycles: float) -> float:
    return round(cycles / MS, 3)


def sizes(elf) -> tuple[int, int]:
    """(flash, RAM) bytes: text + data, and data + bss + noinit."""
    out = subprocess.run(["avr-size", "-A", str(elf)], capture_output=True, text=True, check=True)
    section = {
        line.split()[0]: int(line.split()[1]) for line in out.stdout.splitlines() if line.startswith(".")
    }
    data = section.get(".data", 0)
    return section.get(".text", 0) + data, data + section.get(".bss", 0) + section.get(".noinit", 0)


def marks(board: EmulatedBoard) -> list[int]:
    """Cycles the TRACE_PIN was high: each a full scan (read, debounce, changes found)."""
    return [int(e[2]) - int(e[1]) for e in list(board.events) if e[0] == "mark"]


def sent(board: EmulatedBoard, kind: int, since: int = 0) -> list[tuple[int, int]]:
    """(cycle the frame began on the line, cycle it ended) of the board's frames of ``kind``."""
    return [
        (end - round((len(p.encode(frame)) * BYTE)), end)
        for end, frame in board.frames_sent(since)
        if frame.kind == kind
    ]


def faults(board: EmulatedBoard) -> list[str]:
    """What went wrong on the emulated wires; frames the harness could not hand to the pty
    (nobody reads it here) do not count."""
    return [e for e in board.errors if not e.startswith("dropped")]


def leds_frame(leds: dict[int, Led], frame_id: int, seq: int) -> bytes:
    return b"".join(
        p.encode(p.Frame(p.LEDS, seq + k, body)) for k, body in enumerate(p.encode_leds(leds, frame_id))
    )


class Switcher:
    """Changes a switch at chosen cycles and times its report."""

    def __init__(self, board: EmulatedBoard) -> None:
        self.board, self.closed = board, False

    def change_at(self, cycle: int) -> int | None:
        """Toggle switch 5 at ``cycle``; cycles until the CHANGE reporting it has left the line
        (None if the command came too late for that cycle)."""
        board, seen = self.board, len(self.board.events)
        self.closed = not self.closed
        board.at(cycle, f"{'place' if self.closed else 'lift'} 5")
        board.wait_for(lambda: sent(board, p.CHANGE, seen), timeout=20)
        applied = next(int(e[1]) for e in board.events[seen:] if e[0] == "applied")
        late = applied - cycle > 100  # simavr runs a timer after the instruction under way
        return None if late else sent(board, p.CHANGE, seen)[0][1] - applied


def next_after(times: list[int], period: float, cycle: float) -> float:
    """The first of ``times[-1] + k * period`` at or after ``cycle``."""
    k = max(1, int((cycle - times[-1]) // period) + 1)
    return times[-1] + k * period


def sweep(switcher: Switcher, anchors, offsets_ms: list[float]) -> list[tuple[float, int]]:
    """(offset in ms, latency in cycles) of a change at each offset from the next anchor (a
    heartbeat's or a chain write's start, as ``anchors(now)`` predicts it)."""
    out = []
    for offset in offsets_ms:
        for _ in range(5):
            cycle = round(anchors(switcher.board.cycle() + AHEAD) + offset * MS)
            latency = switcher.change_at(cycle)
            if latency is not None:
                out.append((offset, latency))
                break
        else:
            raise RuntimeError("the emulator keeps running past the changes' cycles")
    return out


def change_latencies(variant: Variant, quick: bool) -> dict[str, list[tuple[float, int]]]:
    """Change -> CHANGE: at random moments with nothing else going on; swept across a heartbeat
    STATE; swept across a chain write while 400 LEDs pulse (heartbeats going on too)."""
    rng = random.Random(1)
    step = 2 if quick else 1
    with tempfile.TemporaryDirectory() as directory:
        board = EmulatedBoard(variant, os.path.join(directory, "board"), speed=0, trace=True)
        try:
            board.run_for(0.3)

            def beats(after: float) -> float:
                recent = max(0, len(board.events) - 500)
                return next_after([start for start, _ in sent(board, p.STATE, recent)], BEAT_MS * MS, after)

            switcher = Switcher(board)
            quiet = sweep(
                switcher,
                lambda after: beats(after) + 30 * MS,
                [rng.uniform(0, 40) for _ in range(15 * 2 // step)],
            )
            beat = sweep(switcher, beats, [x / 2 for x in range(-8, 30, step)])
            pulse = {ch: Led((255, 255, 255), "pulse") for ch in range(400)}
            board.send_to_firmware(leds_frame(pulse, 1, seq=1))
            board.wait_for(lambda: board.shows(pulse), timeout=20)

            def writes(after: float) -> float:
                return next_after([w.start for w in board.led_writes[-3:]], 40 * MS, after)

            width = ms(max(w.end - w.start for w in board.led_writes[-3:]))
            writing = sweep(switcher, writes, [x / 4 for x in range(-8, round(4 * width) + 9, step)])
            beat_writing = sweep(switcher, beats, [x / 2 for x in range(-8, 30, 2 * step)])
            assert not faults(board), faults(board)
        finally:
            board.close()
    return {"quiet": quiet, "beat": beat, "writing": writing + beat_writing}


def led_latency(variant: Variant, frames: int) -> dict:
    """(cycles to the first bit, cycles to the last bit) from the last byte of a frame of 400
    lit LEDs arriving to the chains being written; the longest pause between bits while the
    LEDs pulse with the UART busy both ways (requests in, states out)."""
    out = []
    with tempfile.TemporaryDirectory() as directory:
        board = EmulatedBoard(variant, os.path.join(directory, "board"), speed=0, trace=True)
        try:
            board.run_for(0.05)
            for i in range(frames):
                frame = {
                    ch: Led(((ch + i) % 256, 50, 200), "pulse" if i == frames - 1 else "steady")
                    for ch in range(400)
                }
                written, seen = len(board.led_writes), len(board.events)
                board.send_to_firmware(leds_frame(frame, i + 1, seq=2 * i + 1))
                board.wait_for(lambda: len(board.led_writes) > written and board.shows(frame), timeout=20)
                write = next(w for w in board.led_writes[written:] if board.shows(frame))
                arrived = max(
                    int(e[1]) for e in board.events[seen:] if e[0] == "rx" and int(e[1]) < write.start
                )
                out.append((write.start - arrived, write.end - arrived))
            busy = len(board.led_writes)
            board.send_to_firmware(b"".join(p.encode(p.Frame(p.REQUEST_STATE, k % 256)) for k in range(600)))
            board.run_for(0.3)
            pulsing = board.led_writes[busy:]
            assert not faults(board) and all(w.faults == 0 for w in pulsing), faults(board)
            return {
                "latency": out,
                "gap": max(w.longest_low for w in pulsing),
                "write": max(w.end - w.start for w in pulsing),
                "chains": board.layout.chains,
            }
        finally:
            board.close()


def scans(variant: Variant) -> dict:
    """Scans of the largest matrix: as they come, and when every row changed at once."""
    with tempfile.TemporaryDirectory() as directory:
        board = EmulatedBoard(variant, os.path.join(directory, "board"), speed=0, trace=True)
        try:
            board.run_for(0.3)
            quiet = marks(board)
            seen = len(board.events)
            for row in range(34):  # a switch in every row at once: every row worked out again
                board.place(row * 32 + row % 32)
            board.run_for(0.05)
            every_row = max(int(e[2]) - int(e[1]) for e in board.events[seen:] if e[0] == "mark")
            return {"quiet": quiet, "every_row": every_row}
        finally:
            board.close()


def chain_scan() -> list[int]:
    """Scans of a 100-register 74HC165 chain (800 switches: Antipalos 20 x 20) at 8 MHz SPI."""
    variant = build(
        "mega", SCANNER="SCANNER_165", SR_REGISTERS=100, SR_SPI_DIVIDER=2, TRACE_PIN=TRACE_PIN, LED_COUNT=800
    )
    with tempfile.TemporaryDirectory() as directory:
        board = EmulatedBoard(variant, os.path.join(directory, "board"), speed=0, trace=True)
        try:
            board.run_for(0.2)
            return marks(board)
        finally:
            board.close()


def worst(points: list[tuple[float, int]]) -> tuple[float, float]:
    """(latency ms, offset ms) of the slowest change."""
    offset, latency = max(points, key=lambda point: point[1])
    return ms(latency), offset


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="coarser sweeps, fewer frames")
    args = parser.parse_args(argv)
    frames = 2 if args.quick else 5
    largest = build("mega", **LARGEST)
    scan = scans(largest)
    chain = chain_scan()
    one = change_latencies(build("mega", **LARGEST, HEARTBEAT_MS=BEAT_MS), args.quick)
    four = change_latencies(build("mega", **PARALLEL, HEARTBEAT_MS=BEAT_MS), args.quick)
    leds = {
        name: led_latency(build("mega", **defs), frames)
        for name, defs in (("1", LARGEST), ("4", PARALLEL), ("8", EIGHT))
    }
    figures = {
        "bench": "firmware",
        "scan_1088_matrix_cycles": max(scan["quiet"]),
        "scan_1088_matrix_ms": ms(max(scan["quiet"])),
        "scan_1088_matrix_median_ms": ms(statistics.median(scan["quiet"])),
        "scan_1088_matrix_every_row_changed_ms": ms(scan["every_row"]),
        "scan_800_chain_ms": ms(max(chain)),
        "change_to_frame_floor_ms": ms(9 * 10 / BAUD * F_CPU),  # 9 bytes of 10 bits
    }
    for name, runs in (("1088_one_chain", one), ("992_four_chains", four)):
        figures[f"change_{name}_median_ms"] = ms(statistics.median(lat for _, lat in runs["quiet"]))
        for case in ("quiet", "beat", "writing"):
            latency, offset = worst(runs[case])
            figures[f"change_{name}_{case}_max_ms"] = latency
            figures[f"change_{name}_{case}_max_at_ms"] = offset
    for chains, run in leds.items():
        first, last = (max(times) for times in zip(*run["latency"]))
        figures[f"leds_400_{chains}_chains_to_first_bit_ms"] = ms(first)
        figures[f"leds_400_{chains}_chains_to_last_bit_ms"] = ms(last)
        figures[f"leds_400_{chains}_chains_write_ms"] = ms(run["write"])
        figures[f"leds_400_{chains}_chains_wire_floor_ms"] = round(400 / run["chains"] * 24 * 1.25e-3, 3)
        figures[f"ws2812_{chains}_chains_longest_pause_us"] = round(run["gap"] / MS * 1000, 2)
    for name, elf in (
        ("mega_default", build("mega").elf),
        ("uno_default", build("uno").elf),
        ("mega_1088_switches_400_leds", largest.elf),
        ("mega_992_switches_4x100_leds", build("mega", **PARALLEL).elf),
    ):
        flash, ram = sizes(elf)
        chip = name.split("_")[0]
        figures[f"{name}_flash_bytes"] = flash
        figures[f"{name}_ram_bytes"] = ram
        figures[f"{name}_ram_percent"] = round(100 * ram / RAM[chip], 1)
    print_table(figures)
    print(json.dumps(figures), flush=True)
    return 0


def print_table(f: dict) -> None:
    rows = [
        (
            "full scan, 34 x 32 matrix (1088 switches), median / max",
            f"{f['scan_1088_matrix_median_ms']} / {f['scan_1088_matrix_ms']} ms (goal <= 2 ms)",
        ),
        ("  the same when every row changed", f"{f['scan_1088_matrix_every_row_changed_ms']} ms"),
        ("full scan, 100 x 74HC165 (800 switches)", f"{f['scan_800_chain_ms']} ms"),
    ]
    for name, board in (
        ("1088_one_chain", "1088 switches, 400 LEDs on one chain"),
        ("992_four_chains", "992 switches, 400 LEDs on 4 chains"),
    ):
        rows += [
            (f"switch change -> CHANGE sent ({board})", ""),
            (
                "  nothing else going on: median / max",
                f"{f[f'change_{name}_median_ms']} / {f[f'change_{name}_quiet_max_ms']} ms "
                f"(floor {f['change_to_frame_floor_ms']} ms on the wire; goal <= 5 ms)",
            ),
            (
                "  a heartbeat STATE on the line, max",
                f"{f[f'change_{name}_beat_max_ms']} ms (change {f[f'change_{name}_beat_max_at_ms']} ms "
                "from the STATE's start)",
            ),
            (
                "  400 LEDs pulsing, heartbeats too, max",
                f"{f[f'change_{name}_writing_max_ms']} ms (change {f[f'change_{name}_writing_max_at_ms']} ms "
                "from a write's / STATE's start)",
            ),
        ]
    for chains in ("1", "4", "8"):
        led = f"leds_400_{chains}_chains"
        rows += [
            (
                f"LEDS frame in -> first / last bit, 400 LEDs on {chains} chain(s)",
                f"{f[led + '_to_first_bit_ms']} / {f[led + '_to_last_bit_ms']} ms (write "
                f"{f[led + '_write_ms']} ms, floor {f[led + '_wire_floor_ms']} ms of bits; goal <= 10 ms)",
            ),
            (
                "  longest pause between bits (UART busy both ways)",
                f"{f[f'ws2812_{chains}_chains_longest_pause_us']} us (latch: 50 us)",
            ),
        ]
    rows += [
        (
            f"{name}: flash / RAM",
            f"{f[name + '_flash_bytes']} B / {f[name + '_ram_bytes']} B "
            f"({f[name + '_ram_percent']}% of RAM; goal <= 75%)",
        )
        for name in (
            "mega_default",
            "uno_default",
            "mega_1088_switches_400_leds",
            "mega_992_switches_4x100_leds",
        )
    ]
    width = max(len(name) for name, _ in rows)
    print("Board firmware in simavr (ATmega2560 / ATmega328P at 16 MHz, 115200 baud)")
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")


if __name__ == "__main__":
    sys.exit(main())
