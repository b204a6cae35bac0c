"""The stored games for the page: the list, one game's positions move by move (to replay it on
the page), and the records ``reedboard export`` writes. The games file is opened read-only for
each request, in the web server's threads, never the loop's: SQLite's WAL lets it read while the
daemon writes.

>>> from firmware_host.store.storage import Storage
>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "games.db")
>>> db = Storage(path); game = db.start("anti-grid", 6, "plain"); db.add_move(game, 1, "c1-c2")
>>> [(g["id"], g["title"], g["moves"]) for g in listed(path)]
[(1, 'Anti-Grid 6 · plain', 1)]
>>> [p["move"] for p in replayed(path, 1)["positions"]]
[None, 'c1-c2']
>>> records(path, 1).splitlines()[0]
'[Game "anti-grid"]'
"""

from __future__ import annotations

from typing import Any

from engines import game_info, new_game
from engines.core import IllegalMove, OptionError
from firmware_host.net.web import story
from firmware_host.net.web.drawn import drawn
from firmware_host.store.export import export, options_of, record_text
from firmware_host.store.storage import Storage, StorageError, StoredGame

#: Games the list shows at most (the newest).
LISTED = 200


class NotFound(LookupError):
    """No such game (or no games file)."""


def _open(path: str | None) -> Storage:
    if not path or path == ":memory:":
        raise NotFound("this board keeps no games file")
    try:
        return Storage(path, read_only=True)
    except StorageError as exc:
        raise NotFound(str(exc)) from None


def listed(path: str | None) -> list[dict[str, Any]]:
    """The newest stored games, newest first: id, game, title, when, result, moves."""
    storage = _open(path)
    try:
        games = storage.games()[-LISTED:]
    finally:
        storage.close()
    return [
        {
            "id": g.id,
            "game": g.game,
            "title": _title(g),
            "started": g.started,
            "finished": g.finished,
            "result": g.result or ("running" if g.finished is None else ""),
            "opponent": g.opponent,
            "moves": len(g.moves),
        }
        for g in reversed(games)
    ]


def _title(record: StoredGame) -> str:
    """ "Anti-Grid 6 · plain": the game's title, size, and variant where it has several."""
    try:
        info = game_info(record.game)
    except OptionError:
        return record.game
    variant = f" · {record.variant}" if record.variant and len(info.variants) > 1 else ""
    return f"{info.title.split(' (')[0]}{f' {record.size}' if record.size else ''}{variant}"


def _one(path: str | None, game_id: int) -> StoredGame:
    storage = _open(path)
    try:
        found = storage.games(game_id=game_id)
    finally:
        storage.close()
    if not found:
        raise NotFound(f"no game {game_id}")
    return found[0]


def replayed(path: str | None, game_id: int) -> dict[str, Any]:
    """Game ``game_id`` to replay on the page: its board (sites, drawing) and every position
    from the start, each with the move that led to it and the pieces."""
    record = _one(path, game_id)
    try:
        state = new_game(record.game, record.size, record.variant, options_of(record))
    except (OptionError, TypeError, ValueError) as exc:
        raise NotFound(f"game {game_id} cannot be shown: {exc}") from None
    positions = [{"move": None, "side": None, "from": [], "to": [], "figures": story.figures_of(state)}]
    for text in record.moves:
        try:
            move = state.parse_move(text)
            item = story.history([state], [text])[0]
            state = state.apply(move)
        except IllegalMove:
            break  # the rest no longer replays: shown up to here
        positions.append({**item, "figures": story.figures_of(state)})
    outcome = state.outcome()
    return {
        "id": record.id,
        "title": _title(record),
        "game": record.game,
        "sides": list(state.sides),
        "started": record.started,
        "result": record.result,
        **drawn(state),
        "positions": positions,
        "won": [site for name in (outcome.sites if outcome else ()) for site in state.sites_of(name)],
    }


def records(path: str | None, game_id: int | None = None) -> str:
    """The records ``reedboard export`` writes: game ``game_id``, or every stored game."""
    if game_id is not None:
        return record_text(_one(path, game_id))
    storage = _open(path)
    try:
        return export(storage.games())
    finally:
        storage.close()
