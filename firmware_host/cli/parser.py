"""The ``reedboard`` command line's parser: every command, its options and its help (loaded
unless ``reedboard run`` names only its own options, :func:`firmware_host.cli.daemon_cli.quick_run`)."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from engines import GAME_NAMES, game_info, game_name
from engines.core import OptionError
from firmware_host.cli import arguments, daemon_cli

#: Commands added from their own modules, imported only when named or when every command is
#: listed: ``reedboard run`` starts without them (about 30 ms and 1 MB on this machine).
OTHER_COMMANDS = {
    "plan": "firmware_host.cli.plan",
    "firmware": "firmware_host.cli.firmware",
    "ai": "firmware_host.cli.ai",
    "cafe": "firmware_host.net.cafe",
    "league": "firmware_host.cli.league",
}


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
        for option in info.options:
            words = f" ({' | '.join(option.choices)})" if option.choices else ""
            print(f"  --option {option.name}=…{words}: {option.help}; default {option.shown(option.default)}")
        if info.match_targets:
            targets = ", ".join(map(str, info.match_targets))
            print(f"  match play: to {targets} points (config key match)")
        if info.notes:
            print(f"  {info.notes}")
        print(f"  moves: {info.notation}")
    return 0


def _play(args: argparse.Namespace) -> int:
    from firmware_host.cli import play as referee

    try:
        options = referee.parse_options(args.option)
    except OptionError as exc:
        print(f"reedboard play: {exc}", file=sys.stderr)
        return 2
    return referee.play(
        args.game,
        options=options,
        size=args.size,
        variant=args.variant,
        moves=args.moves,
        moves_file=args.moves_file,
        as_json=args.json,
        trace=args.trace,
        legal=args.legal,
    )


def _layout(args: argparse.Namespace) -> int:
    from firmware_host.store.layout import default_layout_toml

    try:
        text = default_layout_toml(game_name(args.game), args.size, args.variant)
    except OptionError as exc:
        print(f"reedboard layout: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def _doctor(args: argparse.Namespace) -> int:
    from firmware_host.cli.doctor import doctor
    from firmware_host.store.config import load_config_or_exit

    return doctor(load_config_or_exit(args.config, "reedboard doctor"))


PLAY_EXAMPLES = """\
examples:
  reedboard play antipalos --size 12 --moves "F2*; *G7; B4*"
  reedboard play anti-grid --variant chain --moves "a3-b3; l10-k10" --json --legal
  reedboard play phalanx --moves-file game.txt --trace
  reedboard export --game-id 2 > g.txt && reedboard play antipalos --moves-file g.txt
"""


class _PlayHelp(argparse.RawDescriptionHelpFormatter):
    """``play --help``: its examples, then how each game writes a move (``GameInfo.notation``).
    The games are imported only when the help is shown (all five cost start-up time)."""

    def add_text(self, text: str | None) -> None:
        super().add_text(text)
        if text == PLAY_EXAMPLES:
            super().add_text(
                "\n".join(
                    [
                        "notation (moves separated by ';' or newlines; a file from `reedboard export` "
                        "reads as is):"
                    ]
                    + [f"  {name:<10} {game_info(name).notation}" for name in GAME_NAMES]
                )
            )


def _game(text: str) -> str:
    """argparse type: a game name in any case, with a suggestion for a near miss."""
    try:
        return game_name(text)
    except OptionError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _version() -> str:
    from importlib import metadata  # ~0.1 s of start-up: only for --version

    try:
        return metadata.version("reedboard")
    except metadata.PackageNotFoundError:
        return "unknown"


class _Version(argparse.Action):
    """``--version``: the installed package's version, looked up only when asked."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit", **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"reedboard {_version()}")
        parser.exit()


def _columns() -> int:
    """The terminal's width, as ``shutil.get_terminal_size`` says it ($COLUMNS, else stdout's
    terminal, else 80) without importing shutil (which loads lzma and bz2: 0.8 MB)."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    stdout = sys.__stdout__
    try:
        return os.get_terminal_size(stdout.fileno()).columns if stdout else 80
    except (ValueError, OSError):
        return 80


class _Parser(argparse.ArgumentParser):
    """A parser (its subcommands' too) whose help is as wide as the terminal, as argparse's
    own, without argparse importing shutil for each argument added."""

    def _get_formatter(self) -> argparse.HelpFormatter:
        return self.formatter_class(prog=self.prog, width=_columns() - 2)  # type: ignore[call-arg]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; given the ``command`` named, only the modules it needs.

    >>> "cafe" in build_parser("run")._subparsers._group_actions[0].choices
    False
    >>> "cafe" in build_parser()._subparsers._group_actions[0].choices
    True
    """
    parser = _Parser(
        prog="reedboard",
        description="Controller for sensor-equipped tabletop game boards.",
        epilog="Run `reedboard COMMAND --help` for a command's options and examples.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    games = sub.add_parser("games", help="list the games, their options and defaults")
    games.set_defaults(func=_games)

    play = sub.add_parser(
        "play",
        help="referee a game record",
        epilog=PLAY_EXAMPLES,
        formatter_class=_PlayHelp,
        description="Apply a game record and report the position (exit 1 at an illegal move).",
    )
    arguments.game_record(play, _game)
    play.add_argument("--json", action="store_true", help="print one JSON object")
    play.add_argument("--trace", action="store_true", help="one JSON line per position")
    play.add_argument("--legal", action="store_true", help="also list the legal moves")
    play.set_defaults(func=_play)

    layout = sub.add_parser(
        "layout",
        help="print a game's default layout file (TOML)",
        epilog="example: reedboard layout antipalos --size 12 > layout.toml",
    )
    layout.add_argument("game", type=_game, metavar="GAME", help=" | ".join(GAME_NAMES))
    layout.add_argument("--size", type=int, help="board size (game-specific)")
    layout.add_argument("--variant", help="game variant")
    layout.set_defaults(func=_layout)

    doctor = sub.add_parser("doctor", help="check the hardware and files the config names")
    doctor.add_argument("--config", help="config file (default /etc/reedboard/config.toml)")
    doctor.set_defaults(func=_doctor)

    daemon_cli.add_commands(sub)
    known = command in sub.choices
    for name, module in OTHER_COMMANDS.items():
        if not known or command == name:
            importlib.import_module(module).add_command(sub)
    return parser


def parse(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """Parse, reporting an unknown option with the usage of the subcommand it was given to."""
    args, extra = parser.parse_known_args(argv)
    if extra:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        command = sub.choices.get(args.command, parser) if args.command else parser
        command.error(f"unrecognized arguments: {' '.join(extra)}")
    return args
