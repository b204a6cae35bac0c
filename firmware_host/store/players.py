"""Who sits at a board's seats, as values kept with its games: the players' names (one per
seat, in seat order) and, for a league round, the event, round and table it belongs to.

A name is checked as the board's commands check it (``firmware_host.actions.commands``).

>>> League("Thursday league", 2, 3).json()
{'event': 'Thursday league', 'round': 2, 'table': 3}
>>> League.read({"event": "Thursday league", "round": 2, "table": 3})
League(event='Thursday league', round=2, table=3)
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple, Sequence

from firmware_host.actions.commands import names_problem


class League(NamedTuple):
    """The league round a game is played for: ``event``'s ``round``, at table ``table``."""

    event: str
    round: int
    table: int

    def json(self) -> dict[str, Any]:
        return self._asdict()

    @classmethod
    def read(cls, value: Any) -> League | None:
        """The league a stored or published value names (None: none, or one that does not read)."""
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                return None
        if not isinstance(value, dict) or set(value) != {"event", "round", "table"}:
            return None
        event, round_, table = value["event"], value["round"], value["table"]
        if not isinstance(event, str) or type(round_) is not int or type(table) is not int:
            return None
        return cls(event, round_, table)


def players_text(names: Sequence[str]) -> str | None:
    """Names as a games file keeps them (JSON), None for none.

    >>> players_text(["Anna", "Ben"]), players_text([])
    ('["Anna", "Ben"]', None)
    """
    return json.dumps(list(names)) if names else None


def read_players(text: Any) -> tuple[str, ...]:
    """The names a games file keeps (``()`` for none, or for a value that does not read).

    >>> read_players('["Anna", "Ben"]'), read_players(None), read_players("[1]")
    (('Anna', 'Ben'), (), ())
    """
    try:
        names = json.loads(text) if isinstance(text, str) else text
    except ValueError:
        return ()
    if not isinstance(names, list) or names_problem(names) is not None:
        return ()
    return tuple(names)
