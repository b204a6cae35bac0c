"""The daemon's subcommands of ``reedboard``: run, replay, export."""

from __future__ import annotations

import os
import sys
from types import SimpleNamespace
from typing import TYPE_CHECKING

from engines import GAME_NAMES
from engines.core import OptionError
from firmware_host.store.config import ConfigError, load_config, read_token
from firmware_host.store.storage import Storage, StorageError
from firmware_host.store.wal import lost_commits

if TYPE_CHECKING:  # the parser loads only for commands other than a plain `reedboard run`
    import argparse

#: ``reedboard run``'s options that take a value, and how it reads; ``--sim`` takes none.
RUN_VALUES = {"--config": str, "--host": str, "--port": int, "--token": str, "--token-file": str}


def add_commands(sub: argparse._SubParsersAction) -> None:
    run = sub.add_parser("run", help="run the daemon (the simulated board if no hardware)")
    run.add_argument("--config", help="config file (default /etc/reedboard/config.toml)")
    run.add_argument("--sim", action="store_true", help="use the simulated board")
    run.add_argument(
        "--host",
        help="serve the simulator page on this address "
        "(default 127.0.0.1; elsewhere the controls need a token)",
    )
    run.add_argument("--port", type=int, help="the simulator page's port (default 8080)")
    secret = run.add_mutually_exclusive_group()
    secret.add_argument(
        "--token",
        help="token the page's controls need (generated off "
        "loopback; shows in ps: prefer --token-file or $REEDBOARD_TOKEN)",
    )
    secret.add_argument("--token-file", metavar="F", help="read the token from this file")
    run.set_defaults(func=_run)

    replay = sub.add_parser("replay", help="replay a JSON-lines sensor stream on the simulator")
    replay.add_argument("events", metavar="EVENTS", help="JSON-lines file ('-' for stdin)")
    replay.add_argument("--game", choices=GAME_NAMES, metavar="G", help=" | ".join(GAME_NAMES))
    replay.add_argument("--size", type=int, help="board size (game-specific)")
    replay.add_argument("--variant", help="game variant")
    replay.add_argument("--config", help="config file (timings, takebacks, layout)")
    replay.set_defaults(func=_replay)

    setup = sub.add_parser(
        "setup",
        help="learn the board's wiring: sensor check, then each site's sensor and LED",
        description="The set-up wizard on the board's OLED and buttons (and stdin on the "
        "simulated board): it writes the layout file and resumes where it stopped.",
    )
    setup.add_argument("--config", help="config file (default /etc/reedboard/config.toml)")
    setup.add_argument(
        "--game",
        choices=GAME_NAMES,
        metavar="G",
        help="the game whose sites to learn (default: the config's)",
    )
    setup.add_argument("--size", type=int, help="board size (game-specific)")
    setup.add_argument("--variant", help="game variant")
    setup.add_argument(
        "--layout",
        metavar="F",
        help="the layout file to write (default: the config's layout, else layout.toml beside the config)",
    )
    setup.add_argument(
        "--again", action="store_true", help="learn this game's sites anew even if the layout has them"
    )
    setup.set_defaults(func=_setup)

    export = sub.add_parser("export", help="print stored games as text records")
    export.add_argument("--config", help="config file (where the games are stored)")
    export.add_argument("--game-id", type=int, help="only this game")
    export.add_argument("--view", metavar="SIDE", help="name moves from this player's view")
    export.set_defaults(func=_export)


def quick_run(argv: list[str]) -> SimpleNamespace | None:
    """``reedboard run``'s arguments read as argparse reads them, when ``argv`` names nothing
    else: each of its options at most once, in full, ``--token`` or ``--token-file``; else None
    (the full parser then answers, its help and its errors too).

    >>> quick_run(["run", "--config", "c.toml", "--port=8081"]).port
    8081
    >>> quick_run(["run", "--port", "80x"]) is None, quick_run(["run", "--conf", "c.toml"]) is None
    (True, True)
    """
    if argv[:1] != ["run"]:
        return None
    given: dict[str, object] = {}
    words = iter(argv[1:])
    for word in words:
        name, equals, value = word.partition("=")
        if name in given or (name not in RUN_VALUES and word != "--sim"):
            return None
        if word == "--sim":
            given[name] = True
            continue
        if not equals:  # the next word, unless argparse would read it as an option
            value = next(words, "-")
            if value.startswith("-"):
                return None
        try:
            given[name] = RUN_VALUES[name](value)
        except ValueError:
            return None
    if "--token" in given and "--token-file" in given:
        return None
    args = {name[2:].replace("-", "_"): given.get(name) for name in RUN_VALUES}
    return SimpleNamespace(command="run", func=_run, sim="--sim" in given, **args)


def _fail(command: str, message: str) -> int:
    print(f"reedboard {command}: {message}", file=sys.stderr)
    return 2


def _replay(args: argparse.Namespace) -> int:
    from firmware_host.runtime.replay import first_setup, replay
    from firmware_host.runtime.session import configured_game

    try:
        config = load_config(args.config)
        if args.events == "-":
            lines = sys.stdin.read().splitlines()
        else:
            with open(args.events, encoding="utf-8") as fp:
                lines = fp.read().splitlines()
        named = first_setup(lines)  # a file that names its game needs no options
        if args.game is None and named.game is not None:
            game = configured_game(config, named.game, named.size, named.variant)
        else:
            game = configured_game(config, args.game, args.size, args.variant)
    except (ConfigError, OptionError) as exc:
        return _fail("replay", str(exc))
    except (OSError, UnicodeDecodeError) as exc:
        return _fail("replay", f"cannot read {args.events}: {getattr(exc, 'strerror', exc)}")
    return replay(lines, config, game)


def _setup(args: argparse.Namespace) -> int:
    from firmware_host.board.game import Game
    from firmware_host.cli.setup import run_setup

    try:
        config = load_config(args.config, learning=True)  # the layout is what it writes
        if args.game is None:
            game = Game.of(config.game, args.size or config.size, args.variant or config.variant)
        else:
            game = Game.of(args.game, args.size, args.variant)
    except (ConfigError, OptionError) as exc:
        return _fail("setup", str(exc))
    return run_setup(config, game, args.layout, args.again)


def _export(args: argparse.Namespace) -> int:
    from firmware_host.store.export import export

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        return _fail("export", str(exc))
    if not os.path.exists(config.storage):
        print(f"reedboard export: no games stored yet ({config.storage})", file=sys.stderr)
        return 0 if args.game_id is None else 2
    if lost := lost_commits(config.storage):
        print(
            f"reedboard export: {config.storage}-wal is damaged: {lost} saved change(s) cannot be read",
            file=sys.stderr,
        )
    try:
        storage = Storage(config.storage, read_only=True)
    except StorageError as exc:
        return _fail("export", str(exc))
    try:
        records = storage.games(args.game_id)
        if args.game_id is not None and not records:
            return _fail("export", f"no game {args.game_id} in {config.storage}")
        text = export(records, args.view, lambda why: print(f"reedboard export: {why}", file=sys.stderr))
    except (StorageError, OptionError) as exc:
        return _fail("export", str(exc))
    finally:
        storage.close()
    sys.stdout.write(text)
    return 0


def _run(args: argparse.Namespace) -> int:
    from firmware_host.cli.run import run

    try:
        config = load_config(args.config)
        token = args.token or read_token(args.token_file)
    except ConfigError as exc:
        return _fail("run", str(exc))
    if args.port is not None and not 1 <= args.port <= 65535:
        return _fail("run", f"--port must be 1..65535 (got {args.port})")
    return run(config, sim=args.sim, host=args.host, port=args.port, token=token)
