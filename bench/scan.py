"""Scan and LED-frame costs for an 800-channel board: the simulated board, the serial link over
a pty with the simulated microcontroller, a 100-register 74HC165 chain through gpiozero's mock
SPI, and LED frame encoding.

    .venv/bin/python -m bench.scan [--quick]

Prints a table, then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time

from gpiozero.pins.mock import MockFactory

from hardware import protocol as p
from hardware.base import PATTERNS, Led
from hardware.gpio_mock import ShiftRegisterChainMock, default_factory
from hardware.leds import LumaLeds
from hardware.mcu_sim import SimMcu
from hardware.serial_link import SerialLink
from hardware.shift_register import ShiftRegisterChain
from hardware.sim import SimBoard

CHANNELS = 800


def per_call_us(fn, n):
    """Median of five runs of ``n`` calls, in microseconds per call."""
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        runs.append((time.perf_counter() - start) / n * 1e6)
    return statistics.median(runs)


def timed_us(setup, fn, n):
    """Median microseconds of ``fn`` alone, ``setup`` run untimed before each call."""
    samples = []
    for _ in range(n):
        setup()
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1e6)
    return statistics.median(samples)


def sim_board():
    board = SimBoard(CHANNELS)
    for ch in range(0, CHANNELS, 8):
        board.place(ch)
    return board


def bench_sim(n):
    board = sim_board()
    idle = per_call_us(board.scan, n)
    flip = iter(range(10**9))
    changed = timed_us(lambda: (board.lift if next(flip) % 2 else board.place)(5), board.scan, n)
    return idle, changed


def bench_serial(n):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "board")
        board = sim_board()
        mcu = SimMcu(board, path, heartbeat=5.0)
        link = SerialLink(path, CHANNELS, CHANNELS, stale_after=60.0)  # heartbeat 5 s: no reopen
        wait(lambda: link.poll() or link.connected)
        idle = per_call_us(link.scan, n)
        host, latency = [], []
        for i in range(max(20, n // 200)):
            (board.lift if i % 2 else board.place)(5)
            start = time.perf_counter()
            while not link._port.in_waiting:
                time.sleep(0.0001)
            latency.append((time.perf_counter() - start) * 1e3)
            time.sleep(0.0005)  # let the whole frame arrive
            t0 = time.perf_counter()
            scan = link.scan()
            host.append((time.perf_counter() - t0) * 1e6)
            assert (5 in scan.closed) == (i % 2 == 0)
        link.close()
        mcu.close()
    return idle, statistics.median(host), statistics.median(latency)


def bench_slow_leds(frames):
    """``frames`` different 800-LED frames shown 2 ms apart to a board reading 20 kB/s: the
    cost of show() (median, worst), frames sent and dropped as stale, seconds until the board
    shows the newest."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "board")
        board = SimBoard(8, leds=CHANNELS)
        mcu = SimMcu(board, path, heartbeat=0.2, read_rate=20_000)
        link = SerialLink(path, 8, CHANNELS)
        wait(lambda: link.poll() or link.connected)
        shown, times = [], []
        began = time.perf_counter()
        for i in range(frames):
            shown.append({ch: Led((i % 256, ch % 256, 7)) for ch in range(CHANNELS)})
            start = time.perf_counter()
            link.show(shown[-1])
            times.append((time.perf_counter() - start) * 1e3)
            time.sleep(0.002)
        wait(lambda: link.poll() or board.leds.frame == shown[-1], timeout=30)
        settled = time.perf_counter() - began
        counters = link.counters()
        link.close()
        mcu.close()
    return statistics.median(times), max(times), counters["leds_sent"], counters["leds_stale"], settled


def wait(predicate, timeout=5.0):
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise SystemExit("bench/scan.py: the simulated microcontroller did not answer")
        time.sleep(0.001)


def bench_chain(n):
    """One read of a 100-register 74HC165 chain (800 bits) through gpiozero's mock SPI: every
    bit toggles mock pins in Python. A Pi's hardware SPI at 1 MHz moves the 800 bits in 0.8 ms."""
    with default_factory(MockFactory()) as factory:
        model = ShiftRegisterChainMock(factory, CHANNELS // 8, latch=25)
        model.closed = set(range(0, CHANNELS, 8))
        scanner = ShiftRegisterChain(CHANNELS // 8, 25, pin_factory=factory)
        read_ms = per_call_us(scanner.read, max(3, n // 2000)) / 1000
        raw = scanner.read()
        scanner.close()
        model.close()
    decode_us = per_call_us(lambda: p.closed_channels(raw.translate(bytes(range(255, -1, -1)))), n)
    return read_ms, decode_us


class NullDevice:
    """A 800-pixel RGB luma-like device that drops what it is shown (to time our rendering)."""

    mode, width, height, size = "RGB", CHANNELS, 1, (CHANNELS, 1)

    def contrast(self, value):
        pass

    def display(self, image):
        pass


def bench_leds(n):
    frame = {ch: Led((ch % 256, 80, 200), PATTERNS[ch % 4]) for ch in range(CHANNELS)}
    encode = per_call_us(
        lambda: [p.encode(p.Frame(p.LEDS, 1, b)) for b in p.encode_leds(frame, 1)], max(10, n // 100)
    )
    sink = LumaLeds(NullDevice(), thread=False)
    sink.show(frame)
    clock = iter(range(10**9))
    render = per_call_us(lambda: sink.tick(next(clock) * 0.02), max(10, n // 100))
    return encode, render


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    n = 2000 if parser.parse_args().quick else 20000
    sim_idle, sim_changed = bench_sim(n)
    ser_idle, ser_host, ser_latency = bench_serial(n)
    led_encode, led_render = bench_leds(n)
    chain_ms, chain_decode = bench_chain(n)
    show_p50, show_max, sent, stale, settled = bench_slow_leds(120)
    rows = [
        ("sim: idle scan, 800 channels", sim_idle, "µs"),
        ("sim: scan after a change", sim_changed, "µs"),
        ("serial/pty: idle scan", ser_idle, "µs"),
        ("serial/pty: scan reading one change frame", ser_host, "µs"),
        ("serial/pty: change -> bytes at host (sim MCU polls 1 ms)", ser_latency, "ms"),
        ("slow link (board reads 20 kB/s), 120 LED frames: show()", show_p50, "ms"),
        ("  ... slowest show()", show_max, "ms"),
        (f"  ... {sent} sent, {stale} stale; newest shown after", settled, "s"),
        ("74HC165 x100: one read through gpiozero's mock SPI", chain_ms, "ms"),
        ("74HC165 x100: 800 bits on a Pi's hardware SPI at 1 MHz", 800 / 1e6 * 1e3, "ms"),
        ("74HC165 x100: 100 bytes read -> closed channels", chain_decode, "µs"),
        ("LED frame encode, 800 LEDs (serial frames)", led_encode, "µs"),
        ("LED frame render, 800 LEDs (ws2812 image)", led_render, "µs"),
    ]
    for name, value, unit in rows:
        print(f"{name:<58} {value:>10.2f} {unit}")
    print(
        json.dumps(
            {
                "bench": "scan",
                "channels": CHANNELS,
                "sim_idle_scan_us": round(sim_idle, 3),
                "sim_changed_scan_us": round(sim_changed, 3),
                "serial_idle_scan_us": round(ser_idle, 3),
                "serial_changed_scan_us": round(ser_host, 3),
                "serial_change_latency_ms": round(ser_latency, 3),
                "slow_link_show_p50_ms": round(show_p50, 3),
                "slow_link_show_max_ms": round(show_max, 3),
                "slow_link_leds_sent": sent,
                "slow_link_leds_stale": stale,
                "slow_link_settled_s": round(settled, 2),
                "chain_mock_spi_read_ms": round(chain_ms, 2),
                "chain_1mhz_wire_ms": 0.8,
                "chain_decode_us": round(chain_decode, 2),
                "led_encode_800_us": round(led_encode, 1),
                "led_render_800_us": round(led_render, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
