"""Topic names and the JSON the board publishes.

>>> state_topic("table-7"), command_topic("+")
('reedboard/table-7/state', 'reedboard/+/command')
>>> board_of("reedboard/table-7/state")
'table-7'
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any, Mapping

from firmware_host.actions.commands import name_problem
from firmware_host.board import Controls
from firmware_host.board.game import result_text
from firmware_host.store.players import League, read_players
from firmware_host.store.storage import StoredGame
from firmware_host.ui.stats import Day

ROOT = "reedboard"
ONLINE, OFFLINE = "online", "offline"


def topic(board: str, kind: str) -> str:
    return f"{ROOT}/{board}/{kind}"


def availability_topic(board: str) -> str:
    return topic(board, "availability")


def state_topic(board: str) -> str:
    return topic(board, "state")


def events_topic(board: str) -> str:
    return topic(board, "events")


def command_topic(board: str) -> str:
    return topic(board, "command")


def reply_topic(board: str) -> str:
    return topic(board, "reply")


def record_topic(board: str) -> str:
    return topic(board, "record")


def games_topic(board: str) -> str:
    return topic(board, "games")


def clock_topic(board: str, n: int) -> str:
    """Where the ``n``-th player's time left is sent (1 first; Home Assistant's Time left n)."""
    return topic(board, f"clock/{n}")


#: The café's players (their names, retained by the dashboard): what a board's menu offers.
ROSTER_TOPIC = f"{ROOT}/cafe/players"
#: The most names of the café's a board's menu offers.
ROSTER_MAX = 200


def roster(payload: bytes) -> tuple[str, ...]:
    """The names in the café's list of players: a JSON list of names (or of objects with a
    ``name``), or an object with such a list under ``players``; names that are no names are
    left out, and what does not read is no list.

    >>> roster(b'["Anna", "Ben"]'), roster(b'{"players": [{"name": "Cleo", "tag": "C"}, 7]}')
    (('Anna', 'Ben'), ('Cleo',))
    >>> roster(b"nonsense")
    ()
    """
    try:
        value = json.loads(payload)
    except ValueError:
        return ()
    if isinstance(value, dict):
        value = value.get("players")
    if not isinstance(value, list):
        return ()
    names = (item.get("name") if isinstance(item, dict) else item for item in value[:ROSTER_MAX])
    return tuple(dict.fromkeys(str(n) for n in names if name_problem(n) is None))


def board_of(name: str) -> str | None:
    """The board id in a ``reedboard/<id>/...`` topic, else None."""
    parts = name.split("/")
    return parts[1] if len(parts) == 3 and parts[0] == ROOT and parts[1] else None


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def event_json(event: Mapping[str, Any]) -> str:
    """An event as ``reedboard run`` logs it (``t`` in whole ms)."""
    return json.dumps({**event, "t": round(event["t"])})


def board_state(controller: Controls, **extra: Any) -> dict[str, Any]:
    """The retained state: the game, its moves, the OLED's main line (``status``) and all its
    lines (``screen``), whether the board matches the game (``sync``, with the ``missing``
    and ``extra`` sites), the game clocks (``clock``: each side's time left in ms as the state
    is sent, whose runs, the flag, a pause; None: no clock), the sites the sensors see while
    they differ from the game's (``pieces``: the last game's pieces still standing at a new
    one; None: as the game has them), plus ``extra`` (hardware, opponent, last_move_at, today,
    ...)."""
    state, game = controller.record.state, controller.record.game
    outcome = controller.record.outcome  # a flag's too
    screen = controller.screen()
    main = screen.lines[1:] if screen.clocks else screen.lines  # the main line after the clocks
    snap = controller.snapshot()
    sync, seen = snap.sync, snap.board
    return {
        "game": game.name,
        "title": game.title,
        "size": game.size,
        "variant": game.variant,
        "sides": list(state.sides),
        "ply": len(controller.record.moves),
        "to_move": None if outcome else controller.snapshot().to_act,
        "moves": list(controller.record.moves),
        "winner": outcome.winner if outcome else None,
        "result": result_text(outcome) if outcome else None,
        "status": main[0] if main else screen.title,
        "screen": list(screen.text_lines()),
        "sync": "out_of_sync" if sync else "in_sync",
        "missing": sorted(sync.missing) if sync else [],
        "extra": sorted(sync.extra) if sync else [],
        "pieces": sorted(seen) if seen != snap.record.board else None,
        "brightness": controller.settings.brightness,
        "clock": controller.clock.state(controller.now),
        **controller.seating.state(),
        **extra,
    }


def record_json(record: StoredGame) -> str:
    """A finished game as stored (the fields ``reedboard export`` writes from, its clocks after
    each move and its players among them), for the archive."""
    fields = {k: v for k, v in record._asdict().items() if k != "problem"}
    league = League.read(record.league)
    fields.update(players=list(read_players(record.players)), league=league and league.json())
    return json.dumps(fields)


def day_json(day: Day) -> dict[str, Any]:
    """Today's games at the board: played, wins per side, still running, the last result."""
    return {"played": day.played, "results": day.results, "running": day.running, "last": day.last}
