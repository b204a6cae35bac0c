"""The board firmware's figures, from the emulator's cycle counts (exact, whatever this machine's
load): a full scan of the largest matrix a board supports, switch change -> CHANGE frame sent,
LEDS frame received -> LEDs written for 400 LEDs, and flash and RAM used (avr-size).

    .venv/bin/python bench/firmware.py [--quick]

Each time is printed in cycles and in ms at the chip's 16 MHz, beside its floor (what the wire
itself takes: the CHANGE frame's bytes at the baud rate, 24 bits x 1.25 us per LED) and the goal.
Prints a table, then one JSON line. Needs the AVR toolchain and simavr (tests/run.sh installs them).
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
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.firmware_emulator import F_CPU, EmulatedBoard, build  # noqa: E402
from hardware import protocol as p  # noqa: E402
from hardware.base import Led  # noqa: E402

MS = F_CPU / 1000
BAUD = 115200
TRACE_PIN = 13
#: The Mega's largest matrix: 66 of its 68 free pins (D2..D69 but the LEDs' D6 and D13, the
#: scan marker), as 34 rows x 32 columns (the firmware reads at most 32 columns).
MEGA_PINS = [n for n in range(2, 70) if n not in (6, TRACE_PIN)]
LARGEST = {
    "mega": dict(ROW_PINS=",".join(map(str, MEGA_PINS[:34])),
                 COLUMN_PINS=",".join(map(str, MEGA_PINS[34:])), LED_COUNT=400),
    "uno": dict(LED_COUNT=64),  # the default 8 x 8: all 16 free pins
}
GOALS = {"scan_ms": 2, "change_ms": 5, "leds_ms": 10, "ram_percent": 75}
RAM = {"mega": 8192, "uno": 2048}
FLASH = {"mega": 253952, "uno": 32256}  # less the Arduino bootloader


def ms(cycles: float) -> float:
    return round(cycles / MS, 3)


def sizes(elf) -> tuple[int, int]:
    """(flash, RAM) bytes: text + data, and data + bss + noinit."""
    out = subprocess.run(["avr-size", "-A", str(elf)], capture_output=True, text=True, check=True)
    section = {line.split()[0]: int(line.split()[1]) for line in out.stdout.splitlines()
               if line.startswith(".")}
    data = section.get(".data", 0)
    return section.get(".text", 0) + data, data + section.get(".bss", 0) + section.get(".noinit", 0)


def marks(board: EmulatedBoard) -> list[int]:
    """Cycles the TRACE_PIN was high: each a full scan (read, debounce, changes found)."""
    return [int(e[2]) - int(e[1]) for e in list(board.events) if e[0] == "mark"]


def change_latency(board: EmulatedBoard, trials: int, rng: random.Random) -> list[int]:
    """Cycles from a switch changing to the end of the CHANGE frame that reports it."""
    out = []
    for _ in range(trials):
        channel = rng.randrange(64)
        seen = len(board.events)
        (board.lift if channel in board.closed else board.place)(channel)
        board.wait_for(lambda: any(e[0] == "tx" and p.decode(bytes.fromhex(e[2])).kind == p.CHANGE
                                   for e in board.events[seen:]), timeout=10)
        events = board.events[seen:]
        applied = next(int(e[1]) for e in events if e[0] == "applied")
        sent = next(int(e[1]) for e in events
                    if e[0] == "tx" and p.decode(bytes.fromhex(e[2])).kind == p.CHANGE)
        out.append(sent - applied)
        time.sleep(rng.uniform(0.0005, 0.003))  # a random phase against the 1 ms scans
    return out


def led_latency(board: EmulatedBoard, frames: int, leds: int) -> list[tuple[int, int]]:
    """(cycles to the first bit, cycles to the last bit) from the last byte of an LED frame
    of ``leds`` lit LEDs arriving to the chain being written."""
    out = []
    for i in range(frames):
        frame = {ch: Led(((ch + i) % 256, 50, 200)) for ch in range(leds)}
        wire = b"".join(p.encode(p.Frame(p.LEDS, 2 * i + 1 + k, body))
                        for k, body in enumerate(p.encode_leds(frame, i + 1)))
        written = len(board.led_writes)
        seen = len(board.events)
        board.send_to_firmware(wire)
        board.wait_for(lambda: len(board.led_writes) > written and board.shows(frame), timeout=20)
        write = next(w for w in board.led_writes[written:] if board.shows(frame))
        arrived = max(int(e[1]) for e in board.events[seen:] if e[0] == "rx" and int(e[1]) < write.start)
        out.append((write.start - arrived, write.end - arrived))
    return out


def largest_board(quick: bool) -> dict:
    """The largest matrix, a change's latency with the LEDs still and while they pulse, and
    the latency of LED frames."""
    rng = random.Random(1)
    variant = build("mega", TRACE_PIN=TRACE_PIN, **LARGEST["mega"])
    with tempfile.TemporaryDirectory() as directory:
        board = EmulatedBoard(variant, os.path.join(directory, "board"), speed=0, trace=True)
        try:
            board.run_for(0.5)
            scans = marks(board)
            seen = len(board.events)
            for row in range(34):  # a switch in every row at once: every row worked out again
                board.place(row * 32 + row % 32)
            board.run_for(0.05)
            every_row = max(int(e[2]) - int(e[1]) for e in board.events[seen:] if e[0] == "mark")
            for row in range(34):
                board.lift(row * 32 + row % 32)
            board.run_for(0.05)
            still = change_latency(board, 15 if quick else 60, rng)
            leds = led_latency(board, 3 if quick else 10, 400)
            pulse = {ch: Led((255, 255, 255), "pulse") for ch in range(400)}
            board.send_to_firmware(b"".join(p.encode(p.Frame(p.LEDS, 200 + k, body))
                                            for k, body in enumerate(p.encode_leds(pulse, 99))))
            board.wait_for(lambda: board.shows(pulse), timeout=20)
            pulsing = change_latency(board, 15 if quick else 60, rng)
            gap = max(w.longest_low for w in board.led_writes)
            errors = board.errors
        finally:
            board.close()
    return {"scans": scans, "every_row": every_row, "still": still, "pulsing": pulsing,
            "leds": leds, "gap": gap, "errors": errors, "elf": variant.elf}


def chain_scan() -> list[int]:
    """Scans of a 100-register 74HC165 chain (800 switches: Antipalos 20 x 20) at 8 MHz SPI."""
    variant = build("mega", SCANNER="SCANNER_165", SR_REGISTERS=100, SR_SPI_DIVIDER=2,
                    TRACE_PIN=TRACE_PIN, LED_COUNT=800)
    with tempfile.TemporaryDirectory() as directory:
        board = EmulatedBoard(variant, os.path.join(directory, "board"), speed=0, trace=True)
        try:
            board.run_for(0.2)
            return marks(board)
        finally:
            board.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer trials")
    args = parser.parse_args(argv)
    big = largest_board(args.quick)
    chain = chain_scan()
    change_floor = 9 * 10 / BAUD * F_CPU  # a one-channel CHANGE frame: 9 bytes on the wire
    led_floor = 400 * 24 * 1.25e-6 * F_CPU
    figures = {
        "bench": "firmware",
        "scan_1088_matrix_cycles": max(big["scans"]),
        "scan_1088_matrix_ms": ms(max(big["scans"])),
        "scan_1088_matrix_median_ms": ms(statistics.median(big["scans"])),
        "scan_1088_matrix_every_row_changed_ms": ms(big["every_row"]),
        "scan_800_chain_ms": ms(max(chain)),
        "change_to_frame_ms_median": ms(statistics.median(big["still"])),
        "change_to_frame_ms_max": ms(max(big["still"])),
        "change_to_frame_ms_max_while_400_leds_pulse": ms(max(big["pulsing"])),
        "change_to_frame_floor_ms": ms(change_floor),
        "leds_400_to_first_bit_ms_max": ms(max(first for first, _ in big["leds"])),
        "leds_400_to_last_bit_ms_max": ms(max(last for _, last in big["leds"])),
        "leds_400_wire_floor_ms": ms(led_floor),
        "ws2812_longest_pause_us": round(big["gap"] / MS * 1000, 2),
        "emulator_errors": big["errors"],
    }
    for name, elf in (("mega_default", build("mega").elf), ("uno_default", build("uno").elf),
                      ("mega_1088_switches_400_leds", big["elf"])):
        flash, ram = sizes(elf)
        chip = name.split("_")[0]
        figures[f"{name}_flash_bytes"] = flash
        figures[f"{name}_ram_bytes"] = ram
        figures[f"{name}_ram_percent"] = round(100 * ram / RAM[chip], 1)
    rows = [
        ("full scan, 34 x 32 matrix (1088 switches), max",
         f"{max(big['scans'])} cycles = {figures['scan_1088_matrix_ms']} ms (goal <= 2 ms; "
         f"median {figures['scan_1088_matrix_median_ms']} ms)"),
        ("  the same when every row changed", f"{big['every_row']} cycles = "
         f"{figures['scan_1088_matrix_every_row_changed_ms']} ms"),
        ("full scan, 100 x 74HC165 (800 switches)",
         f"{max(chain)} cycles = {figures['scan_800_chain_ms']} ms"),
        ("switch change -> CHANGE sent, median / max",
         f"{figures['change_to_frame_ms_median']} / {figures['change_to_frame_ms_max']} ms "
         f"(floor {figures['change_to_frame_floor_ms']} ms on the wire; goal <= 5 ms)"),
        ("  the same while 400 LEDs pulse, max",
         f"{figures['change_to_frame_ms_max_while_400_leds_pulse']} ms"),
        ("LEDS frame in -> first bit / last bit, 400 LEDs",
         f"{figures['leds_400_to_first_bit_ms_max']} / {figures['leds_400_to_last_bit_ms_max']} ms "
         f"(floor {figures['leds_400_wire_floor_ms']} ms of WS2812 bits; goal <= 10 ms)"),
        ("longest pause between WS2812 bits", f"{figures['ws2812_longest_pause_us']} us"),
    ] + [(f"{name}: flash / RAM", f"{figures[name + '_flash_bytes']} B / {figures[name + '_ram_bytes']} B "
          f"({figures[name + '_ram_percent']}% of RAM; goal <= 75%)")
         for name in ("mega_default", "uno_default", "mega_1088_switches_400_leds")]
    width = max(len(name) for name, _ in rows)
    print("Board firmware in simavr (ATmega2560 / ATmega328P at 16 MHz, 115200 baud)")
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    print(json.dumps(figures), flush=True)
    return 1 if big["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
