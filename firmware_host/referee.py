"""``reedboard play``: apply a game record to an engine and report the position.

Exit status 0 when every move was legal, 1 at the first illegal or unreadable move, 2 for a bad
option or an unreadable moves file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from engines import new_game
from engines.core import GameState, IllegalMove, OptionError
from engines.core.notation import split_moves


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


def trace_line(state: GameState) -> dict[str, Any]:
    outcome = state.outcome()
    return {
        "ply": state.ply,
        "to_move": None if outcome else state.to_move,
        "legal_moves": 0 if outcome else state.legal_count(),
        "winner": outcome.winner if outcome else None,
    }


def read_moves(moves: str | None, moves_file: str | None) -> list[str]:
    """The record's moves from --moves and/or --moves-file (file first)."""
    text = ""
    if moves_file:
        try:
            text = Path(moves_file).read_text(encoding="utf-8") + "\n"
        except (OSError, UnicodeDecodeError) as exc:
            raise OptionError(f"cannot read moves file {moves_file}: {exc}") from None
    return split_moves(text + (moves or ""))


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


def play(
    game: str,
    size: int | None = None,
    variant: str | None = None,
    moves: str | None = None,
    moves_file: str | None = None,
    as_json: bool = False,
    trace: bool = False,
    legal: bool = False,
    out: TextIO = sys.stdout,
    err: TextIO = sys.stderr,
) -> int:
    """Run the referee; returns the exit status."""
    try:
        state = new_game(game, size, variant)
        record = read_moves(moves, moves_file)
    except OptionError as exc:
        print(f"reedboard play: {exc}", file=err)
        return 2

    def emit(obj: dict[str, Any]) -> None:
        print(json.dumps(obj), file=out)

    if trace:
        emit(trace_line(state))
    for index, text in enumerate(record):
        try:
            state = state.play(text)
        except IllegalMove as exc:
            if as_json or trace:
                emit({"error": exc.reason, "ply": index, "move": text})
            else:
                print(describe(state, game), file=out)
            print(f"reedboard play: move {index + 1} ({text}): {exc.reason}", file=err)
            return 1
        if trace:
            emit(trace_line(state))
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
