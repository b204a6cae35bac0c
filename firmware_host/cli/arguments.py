"""Command-line arguments more than one command takes.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> game_record(parser)
>>> parser.parse_args(["antipod", "--size", "4", "--moves", "b2"]).size
4
"""

from __future__ import annotations

import argparse
from typing import Callable

from engines import GAME_NAMES


def game_record(parser: argparse.ArgumentParser, game: Callable[[str], str] = str) -> None:
    """A game and a record of it (``reedboard play``, ``reedboard ai``); ``game``: how the
    game's name is read."""
    parser.add_argument("game", type=game, metavar="GAME", help=" | ".join(GAME_NAMES))
    parser.add_argument("--size", type=int, help="board size (game-specific)")
    parser.add_argument("--variant", help="game variant")
    parser.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="a house rule or setting (see `reedboard games`); repeatable",
    )
    parser.add_argument("--moves", help="moves separated by ';' or newlines")
    parser.add_argument("--moves-file", help="a file of moves, or a record from `reedboard export`")
