"""The board's firmware on its own, in the emulator: building, the protocol as the spec says it
(announcement, heartbeats, frames from the host dropped and counted, LED frames in chunks),
debounce, the diode-less matrix, LED patterns on the MCU clock, the current limit, the WS2812
timing, and the watchdog. Frames are read off the line (``trace``); most tests run the
emulator as fast as it goes (``speed=0``): cycle counts, not the wall clock, time them."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess

import pytest

from hardware import patterns
from hardware import protocol as p
from hardware.base import Led
from hardware.serial_link import SerialLeds, SerialLink, SerialScanner
from testbed import firmware_emulator
from testbed.firmware_emulator import F_CPU, FIRMWARE, EmulatedBoard, build, decoded, renders
from testbed.tools import wait_until

MS = F_CPU // 1000


def frame(kind: int, body: bytes = b"", seq: int = 1) -> bytes:
    return p.encode(p.Frame(kind, seq, body))


def leds_frame(leds: dict[int, Led], frame_id: int, seq: int = 1) -> bytes:
    """An LED frame as the host sends it: its chunks, one sequence number each."""
    return b"".join(frame(p.LEDS, body, seq + i) for i, body in enumerate(p.encode_leds(leds, frame_id)))


@pytest.fixture
def emulated(tmp_path):
    """A factory: an emulated board of a variant, closed after the test, which checks that
    nothing went wrong on the emulated wires (UART overruns, shorts, frames dropped)."""
    boards = []

    def start(board: str = "uno", speed: float = 0, trace: bool = True, **defs) -> EmulatedBoard:
        emulated = EmulatedBoard(
            build(board, **defs), str(tmp_path / f"board{len(boards)}"), speed=speed, trace=trace
        )
        boards.append(emulated)
        emulated.run_for(0.005)  # booted: bytes sent before its UART is on would be lost
        return emulated

    yield start
    for board in boards:
        board.close()
        assert board.errors == []


def sent(board: EmulatedBoard, kind: int, since: int = 0) -> list[tuple[int, p.Frame]]:
    return [(cycle, f) for cycle, f in board.frames_sent(since) if f.kind == kind]


# -- building ------------------------------------------------------------------------------


@pytest.mark.parametrize("board, ram", [("mega", 8192), ("uno", 2048)])
def test_the_default_build_fits_the_chip(board, ram):
    variant = build(board)
    sizes = subprocess.run(
        ["avr-size", "-A", str(variant.elf)], capture_output=True, text=True, check=True
    ).stdout
    section = {line.split()[0]: int(line.split()[1]) for line in sizes.splitlines() if line.startswith(".")}
    used = section.get(".data", 0) + section.get(".bss", 0) + section.get(".noinit", 0)
    assert used <= 0.75 * ram  # the goal: a quarter of the RAM left for the stack


@pytest.mark.parametrize(
    "defs, message",
    [
        ("-DLED_PINS=2", "config.h: ROW_PINS: pin 2 is also used by LED_PINS"),
        (
            "-DLED_PINS=6,13",
            "config.h: LED_PINS: pin 13 is on port B, pin 6 on port D: the chains must share one port",
        ),
        ("-DBAUD=500000UL", "config.h: BAUD: at most 250000"),
    ],
)
def test_a_wiring_that_cannot_work_stops_the_build_naming_the_setting(tmp_path, defs, message):
    done = subprocess.run(
        ["make", "-C", str(FIRMWARE), "BOARD=uno", f"BUILD={tmp_path}/b", f"DEFS={defs}"],
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0
    assert message in done.stderr


def test_make_flash_writes_the_hex_with_avrdude():
    done = subprocess.run(
        ["make", "-n", "-C", str(FIRMWARE), "BOARD=uno", "PORT=/dev/ttyUSB0", "flash"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert (
        "avrdude -p atmega328p -c arduino -P /dev/ttyUSB0 -b 115200 -D -U flash:w:build/uno/reedboard.hex:i"
    ) in done.stdout


def test_an_emulator_that_does_not_quit_fails_the_test_naming_it(tmp_path, monkeypatch):
    """Closing an emulator that hangs (stopped here, SIGSTOP) kills it and fails: it was killed
    quietly before, hiding the hang."""
    monkeypatch.setattr(firmware_emulator, "QUIT_SECONDS", 0.5)
    board = EmulatedBoard(build("uno"), str(tmp_path / "board"), speed=0)
    os.kill(board._process.pid, signal.SIGSTOP)
    with pytest.raises(
        AssertionError,
        match=r"the emulated board uno \(.*board\) hung: still running 0.5 s after quit; it said: ",
    ):
        board.close()
    assert board._process.returncode == -signal.SIGKILL


def test_an_emulator_that_says_more_than_a_pipe_holds_answers_and_closes_clean(tmp_path):
    """The harness, started by a script that first writes 128 KB on its stderr (twice what a
    pipe holds): read as it comes, the emulator starts, answers and quits; its stderr was read
    only after a kill before, and the write blocked it (it looked hung)."""
    built = build("uno")
    wrapped = tmp_path / "wrapped"
    wrapped.mkdir()
    (wrapped / "reedboard.elf").symlink_to(built.elf)
    script = wrapped / "simboard"
    script.write_text(
        '#!/bin/sh\nhead -c 131072 /dev/zero | tr "\\0" "x" >&2\necho " said it all" >&2\n'
        f'exec {built.harness} "$@"\n'
    )
    script.chmod(0o755)
    board = EmulatedBoard(dataclasses.replace(built, directory=wrapped), str(tmp_path / "board"), speed=0)
    try:
        board.place(9)
        board.run_for(0.01)
    finally:
        board.close()
    assert board._process.returncode == 0
    assert board.said.endswith("x said it all\n") and len(board.said) == firmware_emulator.SAID_KEPT


# -- the protocol ----------------------------------------------------------------------------


def test_the_board_announces_itself_then_sends_its_state_every_second(emulated):
    board = emulated()
    board.place(9)
    board.run_for(3.1)
    frames = board.frames_sent()
    assert [f.kind for _, f in frames[:2]] == [p.INFO, p.STATE]
    assert p.decode_info(frames[0][1].body) == p.BoardInfo(1, 64, 64, False, firmware=p.FIRMWARE)
    beats = [cycle for cycle, _ in sent(board, p.STATE)]
    assert all(abs((b - a) / MS - 1000) <= 5 for a, b in zip(beats[1:], beats[2:]))
    closed, _, led_id = p.decode_state(frames[-1][1].body, 64, False)
    assert closed == {9} and led_id == 0
    assert [f.seq for _, f in frames] == list(range(1, len(frames) + 1))


def test_bad_frames_from_the_host_are_dropped_counted_and_the_next_answered(emulated):
    board = emulated()
    hello = frame(p.HELLO, b"\x01")
    bad_crc = bytearray(hello)
    bad_crc[3] ^= 0x40
    garbage = (
        bytes(range(1, 200))
        + b"\0"  # random bytes: bad COBS or CRC
        + hello[:4]
        + b"\0"  # a truncated frame
        + bytes(bad_crc)  # a bit flipped
        + b"\0"
        + b"\x05" * 3000
        + b"\0"  # oversized
        + frame(0x44, b"xyz")  # a kind nobody sends
        + frame(p.INFO, b"\x01\x00\x40\x00\x40\x00")  # the board's own kind
        + frame(p.HELLO, b"\x01\x02")  # a HELLO with a body too long
        + frame(p.REQUEST_STATE, b"\x00")  # a REQUEST_STATE with a body
        + hello
    )
    board.send_to_firmware(garbage)
    assert wait_until(lambda: len(sent(board, p.INFO)) == 2, timeout=20)  # boot, then HELLO
    counts = board.counts()
    assert counts["frames"] == 1
    assert counts["oversized"] == 1 and counts["unknown_kind"] == 2 and counts["malformed"] == 2
    assert counts["bad_crc"] + counts["bad_cobs"] + counts["short"] >= 3
    board.send_to_firmware(frame(p.REQUEST_STATE, seq=9))
    states = len(sent(board, p.STATE))
    assert wait_until(lambda: len(sent(board, p.STATE)) > states, timeout=20)


def test_an_led_frame_missing_a_chunk_is_not_shown_and_reported_as_none(emulated):
    board = emulated(LED_COUNT=300, board="mega")
    leds = {ch: Led((ch % 200 + 1, 0, 9)) for ch in range(300)}
    chunks = p.encode_leds(leds, 7)
    assert len(chunks) == 2
    board.send_to_firmware(frame(p.LEDS, chunks[0], seq=1) + frame(p.LEDS, chunks[1], seq=3))
    board.run_for(0.3)  # the chunks have arrived (1.5 kB at 115200 baud)
    states = len(sent(board, p.STATE))
    board.send_to_firmware(frame(p.REQUEST_STATE, seq=4))
    assert wait_until(lambda: len(sent(board, p.STATE)) > states, timeout=20)
    assert p.decode_state(sent(board, p.STATE)[-1][1].body, 288, False)[2] == 0
    assert not any(map(any, board.leds))
    board.send_to_firmware(leds_frame(leds, 8, seq=5) + frame(p.REQUEST_STATE, seq=7))
    assert wait_until(lambda: board.shows(leds), timeout=20)
    assert wait_until(
        lambda: p.decode_state(sent(board, p.STATE)[-1][1].body, 288, False)[2] == 8, timeout=20
    )


# -- sensing ---------------------------------------------------------------------------------


def test_a_bouncing_switch_is_reported_once_and_a_glitch_not_at_all(emulated):
    board = emulated()
    board.bounce(5, 7, 200)  # closes, bounces for 1.2 ms, ends closed
    board.bounce(6, 2, 800)  # a 0.8 ms blip: shorter than three 1 ms scans
    board.run_for(0.1)
    changes = [p.decode_changes(f.body) for _, f in sent(board, p.CHANGE)]
    assert changes == [{5: (True, False)}]


def test_a_change_goes_ahead_of_a_heartbeat_on_its_way(emulated):
    """An 800-channel STATE holds the line for 10 ms: a heartbeat on its way is cut short for
    a change, whose CHANGE takes the cut frame's sequence number; the heartbeat follows."""
    board = emulated("mega", SCANNER="SCANNER_165", SR_REGISTERS=100, HEARTBEAT_MS=50)
    board.run_for(0.2)
    ends = [cycle for cycle, _ in sent(board, p.STATE)]
    assert all(abs(b - a - 50 * MS) < MS for a, b in zip(ends[1:], ends[2:]))
    # a heartbeat well ahead (the emulator runs on while the command travels)
    beat = ends[-1] + 50 * MS * (1 + (board.cycle() + MS * 1000 - ends[-1]) // (50 * MS))
    seen = len(board.events)
    board.at(beat - 8 * MS, "place 7")  # 2 ms after the heartbeat began (10 ms on the line)
    assert wait_until(lambda: sent(board, p.CHANGE, seen), timeout=20)
    seen = next(i for i, e in enumerate(board.events) if i >= seen and e[0] == "applied")
    applied = int(board.events[seen][1])
    assert applied - (beat - 8 * MS) < 100  # on time
    assert wait_until(lambda: sent(board, p.STATE, seen), timeout=20)
    frames = [e for e in board.events[seen:] if e[0] == "tx"]
    cut = [i for i, e in enumerate(frames) if decoded(e[2]) is None]
    assert len(cut) == 1 and decoded(frames[cut[0] + 1][2]).kind == p.CHANGE
    changed, change = sent(board, p.CHANGE, seen)[0]
    assert p.decode_changes(change.body) == {7: (True, False)}
    assert changed - applied < 5 * MS  # not behind the 10 ms heartbeat
    state = sent(board, p.STATE, seen)[0][1]  # the heartbeat again, after the change
    assert p.decode_state(state.body, 800, False)[0] == {7}
    seqs = [f.seq for _, f in board.frames_sent()]
    assert seqs == list(range(1, len(seqs) + 1))  # the cut frame's number went to the change


def test_a_diodeless_matrix_holds_ambiguous_switches_until_the_reading_is_sound(emulated):
    board = emulated(speed=1, trace=False, MATRIX_DIODES=0)  # 8 x 8: channel = 8 row + column
    link = SerialLink(board.path, 64, 64, reopen_interval=0.02)
    scanner = SerialScanner(link)
    try:
        assert wait_until(lambda: scanner.scan() is not None and link.connected)
        board.place(0)
        board.place(1)
        assert wait_until(lambda: scanner.scan().closed == {0, 1})
        board.place(8)  # rows 0 and 1 now read columns 0 and 1: a ghost on 9
        assert not wait_until(lambda: scanner.scan().closed != {0, 1}, timeout=0.3)
        board.lift(1)  # sound again
        assert wait_until(lambda: scanner.scan().closed == {0, 8})
    finally:
        link.close()


# -- the LEDs --------------------------------------------------------------------------------


def test_patterns_are_animated_on_the_mcu_clock(emulated):
    board = emulated()
    leds = {
        0: Led((200, 0, 0)),
        1: Led((0, 200, 0), "slow"),
        2: Led((0, 0, 200), "fast"),
        3: Led((100, 100, 100), "pulse"),
    }
    board.send_to_firmware(leds_frame(leds, 1))
    assert wait_until(lambda: board.shows(leds), timeout=20)
    board.run_for(2.2)
    writes = [w for w in board.led_writes if any(map(any, w.colours()))]
    assert all(renders(leds, w.colours()) for w in writes)

    def near_edge(t: float, half_period: float) -> bool:  # within 3 ms of a blink edge
        return min(t % half_period, half_period - t % half_period) < 0.003

    for write in writes:
        t = write.start / F_CPU  # the firmware's clock starts within 2 ms of the first cycle
        assert abs(write.colours()[3][0] / 100 - patterns.level("pulse", t)) < 0.03
        if not near_edge(t, 0.125):
            assert bool(write.colours()[2][2]) == (patterns.level("fast", t) > 0)
    slow = [w.start / F_CPU for a, w in zip(writes, writes[1:]) if a.colours()[1] != w.colours()[1]]
    assert len(slow) >= 4 and all(near_edge(t, 0.5) for t in slow)  # every 0.5 s


def test_the_current_limit_dims_the_whole_frame(emulated):
    board = emulated(LED_MAX_CURRENT_MA=500)
    white = {ch: Led((255, 255, 255)) for ch in range(64)}
    board.send_to_firmware(leds_frame(white, 1))
    assert wait_until(lambda: board.shows(white), timeout=20)
    shown = board.led_writes[-1].grb
    host = 255 * 500 / (64 * 3 * 20)  # hardware/leds.py: scale = limit / estimate, floored
    assert all(abs(v - host) <= 1 for v in shown)
    assert sum(shown) / 255 * 20 <= 500 + 64 * 3 * 20 / 255


@pytest.mark.parametrize(
    "scanning, pause_us, write_ms",
    [
        (1, 25, 5),  # the switches read between LEDs: pauses well under the 50 us latch
        pytest.param(0, 5, 4, marks=pytest.mark.slow),  # not: pauses of a few us, 3 ms of bits
    ],
)
def test_the_ws2812_bits_keep_the_data_sheet_timing_with_the_uart_busy(
    emulated, scanning, pause_us, write_ms
):
    board = emulated("mega", LED_COUNT=400, SCAN_DURING_WRITES=scanning)  # four chains of 100
    frames = [
        {ch: Led((i * 40 % 256, ch % 256, 255 - ch % 256), "pulse") for ch in range(400)} for i in range(3)
    ]
    for i, leds in enumerate(frames):
        board.send_to_firmware(leds_frame(leds, i + 1, seq=3 * i + 1))
    assert wait_until(lambda: board.shows(frames[-1]), timeout=20)
    busy = len(board.led_writes)  # requests arrive and states leave while the chains are written
    board.send_to_firmware(b"".join(frame(p.REQUEST_STATE, seq=10 + k) for k in range(40)))
    assert wait_until(lambda: len(board.led_writes) > busy + 6, timeout=20)  # the pulse animates
    assert wait_until(lambda: len(sent(board, p.STATE)) >= 41, timeout=20)  # every request answered
    writes = board.led_writes[1:]
    assert all(len(w.grb) == 3 * 400 for w in writes)
    assert all(w.faults == 0 for w in writes)  # every bit's high time within +-150 ns
    assert max(w.longest_low for w in writes) <= pause_us * MS // 1000  # no latch
    assert max(w.end - w.start for w in writes[busy:]) < write_ms * MS  # 100 LEDs along: 3 ms of bits


@pytest.mark.parametrize(
    "defs, chains, per_chain",
    [
        ({}, 4, 72),  # the Mega's default: four chains on D6..D9, 288 LEDs
        (
            dict(
                LED_COUNT=61,
                LED_PINS="42,43,44,45,46,47,48,49",  # port L; the last chain is short
                COLUMN_PINS=",".join(map(str, range(54, 70))),
            ),
            8,
            8,
        ),
    ],
)
def test_each_chain_carries_its_share_of_the_led_channels(emulated, defs, chains, per_chain):
    board = emulated("mega", LED_MAX_CURRENT_MA=30000, **defs)  # no dimming: bytes as sent
    count = board.layout.leds
    assert (board.layout.chains, board.layout.per_chain) == (chains, per_chain)
    leds = {ch: Led((ch % 251 + 1, 255 - ch % 256, ch * 7 % 256)) for ch in range(count)}
    board.send_to_firmware(leds_frame(leds, 1))
    assert wait_until(lambda: board.shows(leds), timeout=20)
    write = board.led_writes[-1]
    assert write.faults == 0
    for chain, carried in enumerate(write.chains):  # LED channel n: chain n // per_chain
        expected = b"".join(
            bytes((leds[n].colour[1], leds[n].colour[0], leds[n].colour[2]))
            if (n := chain * per_chain + i) < count
            else bytes(3)  # dark, past the end
            for i in range(per_chain)
        )
        assert carried == expected, chain


# -- the watchdog ----------------------------------------------------------------------------


def test_the_watchdog_restarts_a_hung_firmware_and_the_host_carries_on(emulated):
    board = emulated(speed=1, trace=False)
    link = SerialLink(board.path, 64, 64, reopen_interval=0.02)
    scanner, sink = SerialScanner(link), SerialLeds(link)
    shown = {3: Led((0, 0, 255))}
    try:
        assert wait_until(lambda: scanner.scan() is not None and link.connected)
        sink.show(shown)
        assert wait_until(lambda: link.poll() or board.shows(shown))
        board.hang()
        assert wait_until(lambda: any(e[0] == "reset" for e in board.events), timeout=3)
        board.place(12)
        assert wait_until(lambda: scanner.scan().closed == {12}, timeout=3)
        assert wait_until(lambda: link.poll() or board.shows(shown), timeout=3)  # sent again
        assert link.counters()["leds_resent"] >= 1
    finally:
        link.close()
