"""The ``reedboard`` command line."""

from __future__ import annotations

import argparse
import sys

from engines import GAME_NAMES, game_info
from engines.core import OptionError
from firmware_host import cafe, daemon_cli, referee
from firmware_host.layout import default_layout_toml


def _games(_: argparse.Namespace) -> int:
    for name in GAME_NAMES:
        info = game_info(name)
        print(f"{name}: {info.title}")
        if info.sizes:
            extra = f" (any {info.size_range[0]}..{info.size_range[1]})" if info.size_range else ""
            sizes = ", ".join(map(str, info.sizes))
            print(f"  --size: {info.size_help} {sizes}{extra}; default {info.default_size}")
        if len(info.variants) > 1:
            print(f"  --variant: {', '.join(info.variants)}; default {info.default_variant}")
        if info.match_targets:
            targets = ", ".join(map(str, info.match_targets))
            print(f"  match play: to {targets} points (config key match)")
        if info.notes:
            print(f"  {info.notes}")
    return 0


def _play(args: argparse.Namespace) -> int:
    return referee.play(
        args.game,
        size=args.size,
        variant=args.variant,
        moves=args.moves,
        moves_file=args.moves_file,
        as_json=args.json,
        trace=args.trace,
        legal=args.legal,
    )


def _layout(args: argparse.Namespace) -> int:
    try:
        text = default_layout_toml(args.game, args.size, args.variant)
    except OptionError as exc:
        print(f"reedboard layout: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def _doctor(args: argparse.Namespace) -> int:
    from firmware_host.config import load_config_or_exit
    from firmware_host.doctor import doctor

    return doctor(load_config_or_exit(args.config))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reedboard", description="Controller for sensor-equipped tabletop game boards."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    games = sub.add_parser("games", help="list the games, their options and defaults")
    games.set_defaults(func=_games)

    play = sub.add_parser("play", help="referee a game record")
    play.add_argument("game", choices=GAME_NAMES, metavar="GAME", help=" | ".join(GAME_NAMES))
    play.add_argument("--size", type=int, help="board size (game-specific)")
    play.add_argument("--variant", help="game variant")
    play.add_argument("--moves", help="moves separated by ';' or newlines")
    play.add_argument("--moves-file", help="a file of moves")
    play.add_argument("--json", action="store_true", help="print one JSON object")
    play.add_argument("--trace", action="store_true", help="one JSON line per position")
    play.add_argument("--legal", action="store_true", help="also list the legal moves")
    play.set_defaults(func=_play)

    layout = sub.add_parser("layout", help="print a game's default layout file (TOML)")
    layout.add_argument("game", choices=GAME_NAMES, metavar="GAME", help=" | ".join(GAME_NAMES))
    layout.add_argument("--size", type=int, help="board size (game-specific)")
    layout.add_argument("--variant", help="game variant")
    layout.set_defaults(func=_layout)

    doctor = sub.add_parser("doctor", help="check the hardware and files the config names")
    doctor.add_argument("--config", help="config file (default /etc/reedboard/config.toml)")
    doctor.set_defaults(func=_doctor)

    daemon_cli.add_commands(sub)
    cafe.add_command(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # e.g. `reedboard games | head`: the reader has gone, not an error
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
