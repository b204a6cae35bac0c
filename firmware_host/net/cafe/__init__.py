"""``reedboard cafe``: the café dashboard (docs/cafe.md). It subscribes to every board on the
broker and serves a page with a live tile per table; ``/watch/<id>`` shows one table.

    reedboard cafe --mqtt broker.cafe.lan          # http://127.0.0.1:8090/
    reedboard cafe --mqtt 127.0.0.1:1883 --host 0.0.0.0   # the commands need the printed token
"""

from __future__ import annotations

import argparse
import os
import sys

from firmware_host import i18n
from firmware_host.store.config import ConfigError, default_storage, load_config, read_token

#: The dashboard's port when none is given.
PORT = 8090


def add_command(sub: argparse._SubParsersAction) -> None:
    cafe = sub.add_parser("cafe", help="serve the café dashboard: every board on the broker")
    cafe.add_argument("--mqtt", metavar="HOST[:PORT]", help="the broker (default: [mqtt] host)")
    cafe.add_argument("--config", help="config file for the broker's login ([mqtt] table)")
    cafe.add_argument(
        "--host",
        default="127.0.0.1",
        help="serve the page on this address (default 127.0.0.1; elsewhere the commands need a token)",
    )
    cafe.add_argument("--port", type=int, default=PORT, help=f"the page's port (default {PORT})")
    secret = cafe.add_mutually_exclusive_group()
    secret.add_argument(
        "--token",
        help="token the commands need (generated off loopback; shows in ps: prefer "
        "--token-file or $REEDBOARD_TOKEN)",
    )
    secret.add_argument(
        "--token-file",
        metavar="F",
        help="read the token from this file; one that does not exist yet is made with a new token",
    )
    cafe.add_argument(
        "--state",
        metavar="DIR",
        help="where the archive (cafe.db) is kept unless [archive] url says "
        "(default: beside the board's games, $STATE_DIRECTORY or "
        "~/.local/state/reedboard)",
    )
    cafe.set_defaults(func=main)


def broker_address(text: str, default_port: int) -> tuple[str, int]:
    """HOST[:PORT] (an IPv6 address in brackets) as (host, port); ValueError if bad.

    >>> broker_address("broker.lan", 1883), broker_address("[::1]:1884", 1883)
    (('broker.lan', 1883), ('::1', 1884))
    """
    host, port = text, str(default_port)
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else port
    elif text.count(":") == 1:
        host, port = text.split(":")
    if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"--mqtt must be HOST or HOST:PORT (got {text!r})")
    return host, int(port)


def main(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
        settings = config.mqtt
        host, port = broker_address(args.mqtt, settings.port) if args.mqtt else (settings.host, settings.port)
        token = args.token or read_token(args.token_file and kept_token(args.token_file))
    except (ConfigError, ValueError) as exc:
        return _fail(str(exc))
    if host is None:
        return _fail("no broker: give --mqtt HOST[:PORT] or [mqtt] host in the config")
    if not 1 <= args.port <= 65535:
        return _fail(f"--port must be 1..65535 (got {args.port})")
    from firmware_host.league.model import LeagueError
    from firmware_host.league.store import LeagueStore

    i18n.use(config.language)  # the dashboard's words
    from firmware_host.net.cafe.archive import Archive, ArchiveError
    from firmware_host.net.cafe.clock import Clock, zone
    from firmware_host.net.cafe.run import serve

    state = args.state or os.path.dirname(default_storage())
    try:
        archive = Archive.open(config.archive.url, state)
        league = LeagueStore.open(config.archive.url, state)
    except (ArchiveError, LeagueError, OSError) as exc:
        return _fail(str(exc))
    clock = Clock(zone(config.cafe.timezone))
    return serve(
        settings, host, port, args.host, args.port, token, archive, clock, (league, config.league.tables)
    )


def kept_token(path: str) -> str:
    """``path``, made first with a new token (readable by its owner only) when there is no such
    file: the dashboard's address then stays the same after every restart. ConfigError if it
    cannot be made."""
    from firmware_host.net.web.address import new_token

    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path
    except OSError as exc:
        raise ConfigError(f"{path}: cannot make the token file ({exc.strerror})") from None
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(new_token() + "\n")
    return path


def _fail(message: str) -> int:
    print(f"reedboard cafe: {message}", file=sys.stderr)
    return 2
