"""``reedboard export``: stored games as text records in each game's own notation.

A record is a few ``[Tag "value"]`` lines, a blank line, then the moves, one round of turns
(one move per side) per numbered line. Engines whose ``notation`` takes a ``view`` (a side or
seat whose point of view the names use) can be exported from any player's view.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Iterable

from engines import new_game
from engines.core import GameState, IllegalMove, OptionError
from firmware_host.storage import GameRecord


def has_views(state: GameState) -> bool:
    """True when the engine names moves from a player's point of view."""
    return "view" in inspect.signature(state.notation).parameters


def record_text(record: GameRecord, view: str | None = None) -> str:
    """One game as text; OptionError for a view the game does not have (or a stored game
    that cannot be read: its ``problem``, an unknown game or size)."""
    if record.problem:
        raise OptionError(record.problem)
    try:
        state = new_game(record.game, record.size, record.variant)
    except (TypeError, ValueError, ImportError) as exc:
        raise OptionError(" ".join(str(exc).split())[:120]) from None
    if view is not None and not has_views(state):
        raise OptionError(f"{record.game} names moves one way only (no --view)")
    names = [_name(state, text, view) for text in record.moves]
    tags: list[tuple[str, Any]] = [
        ("Game", record.game),
        ("Id", record.id),
        ("Size", record.size),
        ("Variant", record.variant),
        ("Started", record.started),
        ("Finished", record.finished),
        ("Result", record.result or ("running" if record.finished is None else None)),
        ("First", record.first),
        ("Match", record.match_of),
        ("MatchTarget", record.match_target),
        ("View", view),
    ]
    lines = [f'[{name} "{value}"]' for name, value in tags if value is not None] + [""]
    per_round = max(1, len(state.sides))
    for i in range(0, len(names), per_round):
        lines.append(f"{i // per_round + 1}. " + "; ".join(names[i : i + per_round]))
    return "\n".join(lines) + "\n"


def _name(state: GameState, text: str, view: str | None) -> str:
    """A stored move's notation (from ``view``); moves the engine no longer reads stay as
    stored."""
    if view is None:
        return text
    try:
        return state.notation(state.parse_move(text), view=view)
    except IllegalMove:
        return text


def export(records: Iterable[GameRecord], view: str | None = None,
           warn: Callable[[str], None] = lambda text: None) -> str:
    """The records as text; a game that cannot be read is left out and ``warn`` says why."""
    texts = []
    for record in records:
        try:
            texts.append(record_text(record, view))
        except OptionError as exc:
            if view is not None and not record.problem and "--view" in str(exc):
                raise
            warn(f"game {record.id} left out: {exc}")
    return "\n".join(texts)
