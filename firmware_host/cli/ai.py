"""``reedboard ai``: the move the computer opponent plays after a game record.

Exit status 0 with the move printed, 1 for an illegal record or a finished game (with ``--json``
the error object ``reedboard play`` prints), 2 for a bad option or moves file.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TextIO

from engines import game_name
from engines.ai import LEVELS, SECONDS, choose
from engines.core import IllegalMove, OptionError
from firmware_host.cli import arguments

#: The wall-clock safety net: this many times the level's CPU seconds, plus a margin for slow
#: machines (a Pi Zero 2 W is ~20x slower than the machine the levels were calibrated on).
CAP_FACTOR, CAP_MARGIN = 30.0, 5.0


def add_command(sub: argparse._SubParsersAction) -> None:
    ai = sub.add_parser("ai", help="print the computer's move after a game record")
    arguments.game_record(ai)
    ai.add_argument("--level", type=int, choices=LEVELS, default=3, help="1 (gentle) to 5")
    ai.add_argument("--seed", type=int, default=0, help="search seed (same seed, same move)")
    ai.add_argument("--json", action="store_true", help="print one JSON object")
    ai.set_defaults(func=lambda args: run(args))


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    from firmware_host.cli.play import parse_options
    from firmware_host.store.records import notation_from, parse_from, read_moves, start_position

    out, err = out or sys.stdout, err or sys.stderr
    try:
        game = game_name(args.game)
        tags, record = read_moves(args.moves, args.moves_file)
        state, view = start_position(game, args.size, args.variant, parse_options(args.option), tags)
    except OptionError as exc:
        print(f"reedboard ai: {exc}", file=err)
        return 2

    def fail(reason: str, ply: int, move: str | None) -> int:
        if args.json:
            print(json.dumps({"error": reason, "ply": ply, "move": move}), file=out)
        where = f"move {ply + 1} ({move}): " if move is not None else ""
        print(f"reedboard ai: {where}{reason}", file=err)
        return 1

    for index, text in enumerate(record):
        try:
            state = state.play(parse_from(state, text, view))
        except IllegalMove as exc:
            return fail(exc.reason, index, text)
    if state.outcome() is not None:
        return fail("The game is over", len(record), None)
    deadline = time.monotonic() + CAP_FACTOR * SECONDS[args.level - 1] + CAP_MARGIN
    started = time.process_time()
    choice = choose(state, args.level, args.seed, stop=lambda: time.monotonic() > deadline)
    spent = time.process_time() - started
    move = notation_from(state, choice.move, view)
    if args.json:
        report = {
            "move": move,
            "level": choice.level,
            choice.kind: choice.count,
            "loose": choice.loose,
            "time": round(spent, 3),
        }
        print(json.dumps(report), file=out)
    else:
        print(move, file=out)
    return 0
