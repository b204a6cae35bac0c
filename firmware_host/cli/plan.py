"""The ``reedboard plan`` command (the drawing modules load only when it runs)."""

from __future__ import annotations

import argparse
import sys

from engines import GAME_NAMES
from hardware.wiring import DEFAULT_SCANNER, MAGNET_REACH, SCANNERS

#: The pitch a parts list sizes the pieces at when none is given (mm).
DEFAULT_PITCH = 30.0


def _outputs(args: argparse.Namespace, game) -> str:
    stem = "-".join(str(v) for v in (game.name, game.size) if v) + "-plan"
    return args.out or f"{stem}.{args.format}"


def _run(args: argparse.Namespace) -> int:
    from engines import game_name
    from engines.core import OptionError
    from firmware_host.board.game import Game
    from firmware_host.plan.make import make_plan, write_plan
    from firmware_host.store.config import ConfigError, load_config
    from hardware.backends import HardwareOptionError

    try:
        config = load_config(args.config)
        game = Game.of(game_name(args.game), args.size, args.variant)
        if args.pitch is None and not args.parts:
            raise OptionError(
                "--pitch MM is needed: the distance between neighbouring sites on your board, in millimetres"
            )
        if args.pitch is not None and not 5 <= args.pitch <= 500:
            raise OptionError(f"--pitch must be from 5 to 500 mm (got {args.pitch:g})")
        if not 1 <= args.reach <= 100:
            raise OptionError(f"--reach must be from 1 to 100 mm (got {args.reach:g})")
        plan = make_plan(
            config, game, args.pitch or DEFAULT_PITCH, args.layout, args.scanner, DEFAULT_SCANNER, args.reach
        )
    except (ConfigError, OptionError) as exc:
        print(f"reedboard plan: {exc}", file=sys.stderr)
        return 2
    except HardwareOptionError as exc:
        print(f"reedboard plan: {config.option_error(exc)}", file=sys.stderr)
        return 2
    if args.parts:
        sys.stdout.write(plan.parts(args.pitch is not None))
        return 0
    if plan.problems():
        print(f"reedboard plan: {plan.problems()[0]}", file=sys.stderr)
        return 2
    if not plan.build.clearance.safe:
        print(f"reedboard plan: {plan.build.clearance.line(args.pitch)}", file=sys.stderr)
    out = _outputs(args, game)
    try:
        written = write_plan(plan, out, args.format, args.paper)
    except OSError as exc:
        print(f"reedboard plan: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    board = plan.board
    print(
        f"{plan.title}: {len(board.sites)} sites, {board.width:.0f} x {board.height:.0f} mm "
        f"at pitch {args.pitch:g} mm",
        file=sys.stderr,
    )
    for path in written:
        print(path)
    return 0


def add_command(sub: argparse._SubParsersAction) -> None:
    plan = sub.add_parser(
        "plan",
        help="draw the board at 1:1 with each switch's place, a wiring sheet, parts",
        epilog="examples:\n  reedboard plan antipode --pitch 32 --format pdf\n"
        "  reedboard plan antipalos --size 12 --pitch 30 --scanner mcp23017 --parts",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    plan.add_argument("game", metavar="GAME", help=" | ".join(GAME_NAMES))
    plan.add_argument("--size", type=int, help="board size (game-specific)")
    plan.add_argument("--variant", help="game variant")
    plan.add_argument(
        "--pitch",
        type=float,
        metavar="MM",
        help="the distance between neighbouring sites (squares, cells, points), mm",
    )
    plan.add_argument(
        "--layout", metavar="F", help="layout file (default: the config's, else the engine's order)"
    )
    plan.add_argument("--config", help="config file: the scanner, LEDs, display and layout")
    plan.add_argument(
        "--scanner",
        choices=sorted(SCANNERS),
        help=f"plan for this scanner (default: the config's, else {DEFAULT_SCANNER})",
    )
    plan.add_argument("--paper", choices=("a4", "letter"), default="a4", help="page size (a4)")
    plan.add_argument("--format", choices=("svg", "pdf"), default="svg", help="svg (default) or pdf")
    plan.add_argument("--out", metavar="PATH", help="the file to write (default GAME[-SIZE]-plan.svg)")
    plan.add_argument(
        "--parts",
        action="store_true",
        help="print the parts list instead: the pieces and their magnets, the parts, the pins",
    )
    plan.add_argument(
        "--reach",
        type=float,
        metavar="MM",
        default=MAGNET_REACH,
        help="how near a magnet closes a reed switch, or keeps one closed "
        f"(default {MAGNET_REACH:g}: measure yours)",
    )
    plan.set_defaults(func=_run)
