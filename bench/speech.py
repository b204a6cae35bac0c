"""The time from a move to its first sound: a placement read by the board (its ``move`` event)
to the first audible sample eSpeak NG makes of the sentence the board says, through the
daemon's speaker (``firmware_host/runtime/sound.py``: the sentence, the voice's thread, the
espeak-ng process), beside a bare ``espeak-ng --stdout`` run of the same sentence. With a Pi
Zero 2 W estimate: 15-25 times this machine's figures (its Cortex-A53 at 1 GHz against a
desktop core, as the engines' benches take it), which a player hears as the delay after
setting a piece down.

Usage: .venv/bin/python -m bench.speech [--runs N]   (20 by default)
The last line is a JSON object of the figures (ms).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time

from bench.robust.common import report
from firmware_host.board.game import Game
from firmware_host.runtime.sound import Speaker
from hardware.sound import ESPEAK, Voice
from testbed.drive import Drive

#: A sample louder than this (of 32767) is the first sound.
AUDIBLE = 200
#: The Pi Zero 2 W against this machine: slower by this much, least and most.
PI_ZERO = (15, 25)


class FirstSound:
    """A sink for a voice's WAV stream that notes when its first audible sample comes."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.at: float | None = None
        self.heard = threading.Event()

    def __call__(self, chunk: bytes) -> None:
        start = max(44, len(self.data) - len(self.data) % 2)
        self.data += chunk
        if self.at is None and audible(self.data, start):
            self.at = time.perf_counter()
            self.heard.set()


def audible(data: bytes | bytearray, start: int = 44) -> bool:
    """Whether a 16-bit WAV stream holds an audible sample after byte ``start`` (past its header).

    >>> audible(b"\\0" * 44 + (1000).to_bytes(2, "little", signed=True))
    True
    """
    end = len(data) - (len(data) - start) % 2
    return any(
        abs(int.from_bytes(data[i : i + 2], "little", signed=True)) > AUDIBLE for i in range(start, end, 2)
    )


def bare(text: str) -> float:
    """ms from starting ``espeak-ng --stdout`` to its first audible sample."""
    sink = FirstSound()
    begun = time.perf_counter()
    speak = subprocess.Popen([ESPEAK, "--stdout", text], stdout=subprocess.PIPE)
    assert speak.stdout is not None
    while sink.at is None and (chunk := os.read(speak.stdout.fileno(), 4096)):
        sink(chunk)
    speak.stdout.close()
    speak.wait()
    return ((sink.at or time.perf_counter()) - begun) * 1000


def through_the_board() -> tuple[float, str]:
    """ms from a placement's ``move`` event to the first audible sample of what the board says."""
    sink = FirstSound()
    speaker = Speaker(Voice(sink=sink))
    drive = Drive(Game.of("antipalos", 12)).run(50)
    drive.place("F11*")
    while True:
        before = len(drive.events)
        drive.run(10)
        step = drive.events[before:]
        if any(e["event"] == "move" for e in step):
            begun = time.perf_counter()
            (said,) = speaker.step(drive.t, drive.ctl, step)
            break
    sink.heard.wait(10)
    speaker.close()
    return ((sink.at or time.perf_counter()) - begun) * 1000, said["text"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prefix_chars="-", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args(argv).runs
    if shutil.which(ESPEAK) is None:
        print(f"{ESPEAK} is not installed (apt-get install {ESPEAK})", file=sys.stderr)
        return 1
    board, plain = [], []
    for _ in range(runs):  # taken in turns: a busy moment of the machine weighs on both
        board.append(through_the_board())
        plain.append(bare(board[-1][1]))
    text = board[0][1]
    figures = {
        "sentence": text,
        "board_median_ms": round(statistics.median(t for t, _ in board), 1),
        "board_max_ms": round(max(t for t, _ in board), 1),
        "bare_median_ms": round(statistics.median(plain), 1),
        "bare_max_ms": round(max(plain), 1),
    }
    low, high = PI_ZERO
    figures["pi_zero_board_ms"] = [
        round(figures["board_median_ms"] * low),
        round(figures["board_median_ms"] * high),
    ]
    figures["pi_zero_bare_ms"] = [
        round(figures["bare_median_ms"] * low),
        round(figures["bare_median_ms"] * high),
    ]
    rows = [
        ("sentence", text),
        (
            "move event -> first sound (median, max)",
            f"{figures['board_median_ms']} ms, {figures['board_max_ms']} ms",
        ),
        ("bare espeak-ng (median, max)", f"{figures['bare_median_ms']} ms, {figures['bare_max_ms']} ms"),
        (
            "Pi Zero 2 W estimate, board",
            f"{figures['pi_zero_board_ms'][0]}-{figures['pi_zero_board_ms'][1]} ms",
        ),
        ("Pi Zero 2 W estimate, bare", f"{figures['pi_zero_bare_ms'][0]}-{figures['pi_zero_bare_ms'][1]} ms"),
    ]
    report(f"Time to the first sound ({runs} runs, eSpeak NG)", rows, figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
