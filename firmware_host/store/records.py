"""Game records read as text in each game's notation (``reedboard play --moves-file`` and
``reedboard ai`` read them; ``export`` writes them), and a position summed up as
``reedboard play --json`` prints it (``reedboard replay`` ends with it too)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, Protocol, cast

from engines import game_info, game_name, new_game
from engines.core import GameState, OptionError
from engines.core.notation import read_record
from engines.core.options import read_options


def position_summary(state: GameState, game: str, legal: bool = False) -> dict[str, Any]:
    """The position as ``reedboard play --json`` prints it."""
    outcome = state.outcome()
    summary: dict[str, Any] = {
        "game": game,
        "ply": state.ply,
        "to_move": None if outcome else state.to_move,
        "phase": state.phase,
        "legal_moves": 0 if outcome else state.legal_count(),
        "winner": outcome.winner if outcome else None,
        "result": outcome.result if outcome else None,
        "score": outcome.score if outcome else None,
        "chain": list(outcome.sites) if outcome else [],
    }
    if legal:
        moves = () if outcome else state.legal_moves()
        summary["legal"] = sorted(state.notation(m) for m in moves)
    return summary


def read_moves(moves: str | None, moves_file: str | None) -> tuple[dict[str, str], list[str]]:
    """The record's tags and moves from --moves-file and/or --moves (file first). The file may
    be a record as ``reedboard export`` writes it: tags and move numbers are read."""
    text = ""
    if moves_file:
        try:
            text = Path(moves_file).read_text(encoding="utf-8") + "\n"
        except (OSError, UnicodeDecodeError) as exc:
            raise OptionError(f"cannot read moves file {moves_file}: {exc}") from None
    return read_record(text + (moves or ""))


def start_position(
    game: str, size: int | None, variant: str | None, options: dict[str, Any], tags: dict[str, str]
) -> tuple[GameState, str | None]:
    """The start a record's moves are played from, and the view its moves are named from.

    Options given on the command line win over the record's tags (Size, Variant, First);
    a record of another game, or a size for a game played on one board, is an OptionError."""
    info = game_info(game)
    if "Game" in tags and game_name(tags["Game"]) != game:
        raise OptionError(f"the record is a game of {tags['Game']}, not {game}")
    if size is not None and not info.sizes:
        raise OptionError(f"{game} is played on one board: it takes no --size")
    if size is None and tags.get("Size", "").isdigit() and info.sizes:
        size = int(tags["Size"])
    variant = variant or (tags.get("Variant") if len(info.variants) > 1 else None)
    takes = {option.name for option in info.options}
    options = {**read_options(tags.get("Options", "")), **options}
    if "first" in takes and "First" in tags:
        options = {"first": tags["First"], **options}
    state = new_game(game, size, variant, options)
    return state, (tags.get("View") or tags.get("First")) if has_views(state) else None


class Viewed(Protocol):
    """A game that names moves from a player's point of view (``view``: a side or seat)."""

    def parse_move(self, text: str, view: str | None = None) -> Any: ...
    def notation(self, move: Any, view: str | None = None) -> str: ...


def has_views(state: GameState[Any]) -> bool:
    """True when the engine names moves from a player's point of view."""
    return "view" in inspect.signature(state.notation).parameters


def parse_from(state: GameState[Any], text: str, view: str | None) -> Any:
    """``text`` read as a move named from ``view`` (None: the board's own names)."""
    if view and has_views(state):
        return cast(Viewed, state).parse_move(text, view=view)
    return state.parse_move(text)


def notation_from(state: GameState[Any], move: Any, view: str | None) -> str:
    """``move`` named from ``view`` (None: the board's own names)."""
    if view and has_views(state):
        return cast(Viewed, state).notation(move, view=view)
    return state.notation(move)
