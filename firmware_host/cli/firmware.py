"""``reedboard firmware flash``: put the board's firmware on its Arduino (hardware/flash.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from hardware.flash import BOARDS, FlashError, flash


def add_command(sub: argparse._SubParsersAction) -> None:
    firmware = sub.add_parser("firmware", help="the board's firmware (an Arduino on USB)")
    actions = firmware.add_subparsers(dest="action", required=True)
    write = actions.add_parser("flash", help="build the firmware and write it with avrdude")
    write.add_argument("--board", choices=sorted(BOARDS), default="mega", help="default: mega")
    write.add_argument("--port", help="the board's serial port (default: the config's [sensors] port)")
    write.add_argument("--config", help="config file whose [sensors] port to use")
    write.add_argument("--hex", type=Path, help="a reedboard.hex to write instead of building one")
    write.add_argument("--baud", type=int, help="the bootloader's speed (an old Nano: 57600)")
    write.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    port = args.port or _config_port(args.config)
    if not port:
        print(
            "reedboard firmware flash: give --port (ls /dev/serial/by-id/), or a --config "
            "whose [sensors] backend is serial",
            file=err,
        )
        return 2
    try:
        print(flash(args.board, port, args.hex, args.baud), file=out)
    except FlashError as exc:
        print(f"reedboard firmware flash: {exc}", file=err)
        return 1
    print(f"check it: reedboard doctor{' --config ' + args.config if args.config else ''}", file=out)
    return 0


def _config_port(path: str | None) -> str | None:
    from firmware_host.store.config import load_config_or_exit

    if path is None:
        return None
    sensors = load_config_or_exit(path, "reedboard firmware flash").hardware("sensors")
    return str(sensors["port"]) if sensors.get("backend") == "serial" and sensors.get("port") else None
