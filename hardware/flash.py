"""Putting the board's firmware (firmware/) on an Arduino through its bootloader, with avrdude
(Debian's package), for ``reedboard firmware flash``.

The bootloader is never written: a flash cut short (a pulled cable) leaves a board that still
takes the next flash, though its own program may be missing (the host then reports the board
as silent: :data:`hardware.protocol.SILENT`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"


@dataclass(frozen=True)
class Board:
    """An Arduino as avrdude names it: its chip, its bootloader's protocol and speed."""

    chip: str
    programmer: str
    baud: int = 115200


#: The boards firmware/Makefile builds for (an old Nano's bootloader wants ``baud=57600``).
BOARDS = {
    "mega": Board("atmega2560", "wiring"),
    "uno": Board("atmega328p", "arduino"),
    "nano": Board("atmega328p", "arduino"),
}


class FlashError(RuntimeError):
    """Why the firmware could not be put on the board, in one line with the fix."""


def avrdude_command(board: str, port: str, hex_file: Path, baud: int | None = None) -> list[str]:
    """The avrdude command line (as ``make flash``'s): write and verify the flash, no erase.

    >>> avrdude_command("uno", "/dev/ttyACM0", Path("reedboard.hex"))[1:7]
    ['-p', 'atmega328p', '-c', 'arduino', '-P', '/dev/ttyACM0']
    """
    spec = BOARDS[board]
    return [
        "avrdude",
        "-p",
        spec.chip,
        "-c",
        spec.programmer,
        "-P",
        port,
        "-b",
        str(baud or spec.baud),
        "-D",
        "-U",
        f"flash:w:{hex_file}:i",
    ]


def build_hex(board: str, source: Path = FIRMWARE) -> Path:
    """Build the firmware for ``board`` with its Makefile; the .hex file."""
    missing = [tool for tool in ("make", "avr-gcc", "cc") if not shutil.which(tool)]
    if missing or not (source / "Makefile").exists():
        raise FlashError(
            "cannot build the firmware here: sudo apt-get install gcc-avr avr-libc make "
            "gcc (or give --hex FILE, a reedboard.hex built elsewhere)"
        )
    make_board = "uno" if board == "nano" else board
    done = subprocess.run(
        ["make", "-s", "-C", str(source), f"BOARD={make_board}"], capture_output=True, text=True
    )
    if done.returncode:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["make failed"]
        raise FlashError(f"the firmware did not build: {last[0]}")
    return source / "build" / make_board / "reedboard.hex"


def flash(board: str, port: str, hex_file: Path | None = None, baud: int | None = None) -> str:
    """Write the firmware to the board on ``port``; what avrdude said it did, in one line."""
    if board not in BOARDS:
        raise FlashError(f"--board must be one of {', '.join(BOARDS)}, not {board!r}")
    if not shutil.which("avrdude"):
        raise FlashError("avrdude is not installed: sudo apt-get install avrdude")
    if not os.path.exists(port):
        raise FlashError(f"no board on {port}: plug in its USB cable (its name: ls /dev/serial/by-id/)")
    if not os.access(port, os.R_OK | os.W_OK):
        raise FlashError(f"no access to {port}: sudo adduser $USER dialout, then log in again")
    if hex_file is not None and not hex_file.is_file():
        raise FlashError(f"--hex: {hex_file} does not exist")
    image = hex_file or build_hex(board)
    done = subprocess.run(avrdude_command(board, port, image, baud), capture_output=True, text=True)
    said = [line.strip() for line in done.stderr.splitlines() if line.strip()]
    if done.returncode:
        why = next((line for line in said if "error" in line.lower()), said[-1] if said else "")
        raise FlashError(
            f"avrdude could not flash the board on {port} ({why}); check --board, "
            "press its reset button as avrdude starts, then run this again: "
            "the bootloader stays, so a board whose flash was cut short takes it"
        )
    return next((line for line in reversed(said) if "verified" in line), f"{image} written to {port}")
