"""``reedboard play``, the referee: apply a game record to an engine and report the position.

Exit status 0 when every move was legal, 1 at the first illegal or unreadable move, 2 for a bad
option or an unreadable moves file.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from engines import game_name
from engines.core import GameState, IllegalMove, OptionError
from firmware_host.store.records import parse_from, position_summary, read_moves, start_position


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
            f"Move {state.ply + 1}{phase}: {state.to_move} to move, {summary['legal_moves']} legal moves."
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
