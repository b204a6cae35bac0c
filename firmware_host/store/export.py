"""``reedboard export``: stored games as text records in each game's own notation.

A record is a few ``[Tag "value"]`` lines, a blank line, then the moves, one round of turns
(one move per side) per numbered line; ``reedboard play --moves-file`` reads it back. Engines
whose ``notation`` takes a ``view`` (a side or seat whose point of view the names use) are
written from the first player's view unless another is asked for.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from engines import game_info, new_game
from engines.core import GameState, IllegalMove, OptionError
from engines.core.options import read_options
from firmware_host.store.players import League, read_players
from firmware_host.store.records import has_views, notation_from
from firmware_host.store.storage import StoredGame
from firmware_host.store.timecontrol import pgn_clocks


def record_text(record: StoredGame, view: str | None = None) -> str:
    """One game as text, its moves named from ``view`` where the game has points of view
    (default: the first player's, as records are written); a game named one way only is
    written as is, with a note. OptionError for a stored game that cannot be read (its
    ``problem``, an unknown game or size)."""
    if record.problem:
        raise OptionError(record.problem)
    try:
        state = new_game(record.game, record.size, record.variant, options_of(record))
    except (TypeError, ValueError, ImportError) as exc:
        raise OptionError(" ".join(str(exc).split())[:120]) from None
    note = None
    if has_views(state):
        view = view or record.first or state.to_move
    elif view is not None:
        note, view = f"{record.game} names moves one way only: --view does not apply", None
    control, clocks = pgn_clocks(record.clocks)
    names = [
        " ".join(filter(None, (_name(state, text, view), clock)))
        for text, clock in zip(record.moves, clocks + [""] * len(record.moves))
    ]
    several = len(game_info(record.game).variants) > 1
    tags: list[tuple[str, Any]] = [
        ("Game", record.game),
        ("Id", record.id),
        ("Size", record.size),
        ("Variant", record.variant if several else None),
        ("Started", record.started),
        ("Finished", record.finished),
        ("Result", record.result or ("running" if record.finished is None else None)),
        ("First", record.first),
        ("Options", record.options),
        ("Opponent", record.opponent),
        *seat_tags(record),
        ("TimeControl", control),
        ("Match", record.match_of),
        ("MatchTarget", record.match_target),
        ("View", view),
        ("Note", note),
    ]
    lines = [f'[{name} "{value}"]' for name, value in tags if value is not None] + [""]
    per_round = max(1, len(state.sides))
    for i in range(0, len(names), per_round):
        lines.append(f"{i // per_round + 1}. " + "; ".join(names[i : i + per_round]))
    return "\n".join(lines) + "\n"


def seat_tags(record: StoredGame) -> list[tuple[str, Any]]:
    """The players at the seats (``Player1``, ``Player2`` ...) and the league round's
    ``Event``, ``Round`` and ``Table``, as the record keeps them.

    >>> seat_tags(StoredGame(1, "antipod", 4, None, "", None, None, players='["Anna", "Ben"]'))
    [('Player1', 'Anna'), ('Player2', 'Ben')]
    """
    names = read_players(record.players)
    tags: list[tuple[str, Any]] = [(f"Player{n}", name.replace('"', "'")) for n, name in enumerate(names, 1)]
    league = League.read(record.league)
    if league is not None:
        tags += [("Event", league.event.replace('"', "'")), ("Round", league.round), ("Table", league.table)]
    return tags


def options_of(record: StoredGame) -> dict[str, str]:
    """The house rules the game was played with, and who began, for games that have that."""
    options = read_options(record.options or "")
    if record.first and any(o.name == "first" for o in game_info(record.game).options):
        options.setdefault("first", record.first)
    return options


def _name(state: GameState, text: str, view: str | None) -> str:
    """A stored move's notation as records write it (from ``view``); moves the engine no
    longer reads stay as stored."""
    try:
        move = state.parse_move(text)
        return notation_from(state, move, view) if view else state.record_notation(move)
    except IllegalMove:
        return text


def export(
    records: Iterable[StoredGame], view: str | None = None, warn: Callable[[str], None] = lambda text: None
) -> str:
    """The records as text; a game that cannot be read is left out and ``warn`` says why."""
    texts = []
    for record in records:
        try:
            texts.append(record_text(record, view))
        except OptionError as exc:
            warn(f"game {record.id} left out: {exc}")
    return "\n".join(texts)
