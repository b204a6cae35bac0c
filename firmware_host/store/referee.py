"""``reedboard play``: apply a game record to an engine and report the position.

Exit status 0 when every move was legal, 1 at the first illegal or unreadable move, 2 for a bad
option or an unreadable moves file.
"""

from __future__ import annotations

import inspect
import json
import sys
from pathlib import Path
from typing import Any, Protocol, TextIO, cast

from engines import game_info, game_name, new_game
from engines.core import GameState, IllegalMove, OptionError
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


def trace_line(state: GameState, move: str | None = None) -> dict[str, Any]:
    """A position as ``--trace`` prints it, after ``move`` (None: the start)."""
    outcome = state.outcome()
    return {
        "ply": state.ply,
        "move": move,
        "to_move": None if outcome else state.to_move,
        "legal_moves": 0 if outcome else state.legal_count(),
        "winner": outcome.winner if outcome else None,
    }


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


def describe(state: GameState, game: str) -> str:
    """The readable board diagram and status for a terminal."""
    summary = position_summary(state, game)
    diagram = state.diagram().rstrip()
    lines = [diagram, ""] if diagram else []
    if summary["winner"]:
        won = "Draw" if summary["winner"] == "draw" else f"{summary['winner'].capitalize()} wins"
        lines.append(f"{won} by {summary['result']} after {state.ply} moves.")
        if summary["score"] is not None:
            lines.append(f"Match-play score: {summary['score']}")
        if summary["chain"]:
            lines.append("Chain: " + " ".join(summary["chain"]))
    else:
        phase = f", phase {state.phase}" if state.phase else ""
        lines.append(
            f"Move {state.ply + 1}{phase}: {state.to_move} to move, "
            f"{summary['legal_moves']} legal moves."
        )
    lines.extend(state.status_lines())
    return "\n".join(lines)


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    """``--option NAME=VALUE`` arguments as a dict; OptionError for one without '='."""
    out = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"--option takes NAME=VALUE, not {pair!r}")
        out[name.strip()] = value.strip()
    return out


def play(
    game: str,
    size: int | None = None,
    variant: str | None = None,
    moves: str | None = None,
    moves_file: str | None = None,
    as_json: bool = False,
    trace: bool = False,
    legal: bool = False,
    options: dict[str, Any] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Run the referee; returns the exit status."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        game = game_name(game)
        tags, record = read_moves(moves, moves_file)
        state, view = start_position(game, size, variant, dict(options or {}), tags)
    except OptionError as exc:
        print(f"reedboard play: {exc}", file=err)
        return 2

    def emit(obj: dict[str, Any]) -> None:
        print(json.dumps(obj), file=out)

    if trace:
        emit(trace_line(state))
    for index, text in enumerate(record):
        try:
            move = parse_from(state, text, view)
            before, state = state, state.play(move)
        except IllegalMove as exc:
            if as_json or trace:
                emit({"error": exc.reason, "ply": index, "move": text})
            else:
                print(describe(state, game), file=out)
            print(f"reedboard play: move {index + 1} ({text}): {exc.reason}", file=err)
            return 1
        if trace:
            emit(trace_line(state, before.notation(move)))
    if trace:
        return 0
    if as_json:
        emit(position_summary(state, game, legal))
    else:
        print(describe(state, game), file=out)
        if legal:
            summary = position_summary(state, game, legal=True)
            print("Legal: " + " ".join(summary["legal"]), file=out)
    return 0
