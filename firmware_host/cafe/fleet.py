"""The café's tables as the broker tells them: each board's retained state and availability,
the games it finished today, and the pieces on it (the moves replayed through the game's engine, so a board
sends only its moves, never its geometry).

:class:`Fleet` is fed from the MQTT client's thread (:meth:`Fleet.receive`) and hands every
changed table, as a JSON-ready dict, to its listener.

>>> fleet = Fleet()
>>> seen = []
>>> fleet.listener = seen.append
>>> fleet.receive("reedboard/t1/availability", b"online")
>>> fleet.receive("reedboard/t1/state", b'{"game": "antipalos", "size": 5, "variant": "two", '
...               b'"moves": ["B2*"], "ply": 1, "to_move": "black", "sync": "in_sync"}')
>>> table = seen[-1]
>>> table["id"], table["online"], table["pieces"], table["changed"], table["layout"]
('t1', True, ['B2*'], ['B2*'], 'antipalos/5/two')
>>> table["sides"]
{'B2*': 'white'}
>>> fleet.receive("reedboard/t1/state", b'{"game": "antipalos", "size": 5, "moves": ["Q9*"]}')
>>> seen[-1]["pieces"], seen[-1]["problem"][:23]
([], 'cannot show this game (')
"""

from __future__ import annotations

import json
import threading
from datetime import datetime, timezone
from typing import Any, Callable

from engines import GAME_NAMES, new_game
from engines.core import GameState, IllegalMove, OptionError
from firmware_host.mqtt import topics

#: Finished games kept per table for the day's list.
DAY_GAMES = 50


class Table:
    """One board: what it last said, and its game replayed."""

    def __init__(self, board: str) -> None:
        self.board = board
        self.online = False
        self.state: dict[str, Any] = {}
        self.games: list[dict[str, Any]] = []
        self.layout: str | None = None
        self.pieces: frozenset[str] = frozenset()
        #: Whose piece stands on each site (from the game's figures), for the miniature.
        self.sides: dict[str, str] = {}
        self.changed: frozenset[str] = frozenset()
        self.problem: str | None = None
        self._game: tuple[str, tuple[str, ...], GameState] | None = None

    def replay(self) -> GameState | None:
        """Bring the pieces up to the state's moves: only the new ones are played when the
        moves go on from the last ones seen (a takeback or another game starts again).
        The game's position, or None when it cannot be shown."""
        state = self.state
        key = f"{state.get('game')}/{state.get('size')}/{state.get('variant')}"
        moves = tuple(state.get("moves") or ())
        try:
            before, position = self._play(key, moves)
        except (OptionError, IllegalMove, ValueError, KeyError, TypeError) as exc:
            self.problem = f"cannot show this game ({exc})"
            self.layout, self.pieces, self.changed, self._game = None, frozenset(), frozenset(), None
            self.sides = {}
            return None
        self.problem = None
        if before is not None:  # a move was played: its sites are the last change
            self.changed = before.occupied() ^ position.occupied()
        self.layout, self.pieces = key, position.occupied()
        self.sides = {site: f.side for f in position.figures() for site in f.sites}
        self._game = (key, moves, position)
        return position

    def _play(self, key: str, moves: tuple[str, ...]) -> tuple[GameState | None, GameState]:
        """(the position before the last new move or None, the position after ``moves``)."""
        if self._game and self._game[0] == key and moves[: len(self._game[1])] == self._game[1]:
            done, position = len(self._game[1]), self._game[2]
        else:
            name = self.state.get("game")
            if name not in GAME_NAMES:
                raise ValueError(f"unknown game {str(name)[:40]!r}")
            done, position = 0, new_game(name, self.state.get("size"), self.state.get("variant"))
            self.changed = frozenset()
        before = None
        for text in moves[done:]:
            before, position = position, position.play(text)
        return before, position

    def finished(self) -> None:
        """The state shows a result it did not before: the game joins the day's list."""
        state = self.state
        self.games.append({"game": state.get("title") or state.get("game"),
                           "result": state.get("result"), "winner": state.get("winner"),
                           "moves": len(state.get("moves") or ()),
                           "at": state.get("last_move_at") or topics.utc_now()})
        del self.games[:-DAY_GAMES]

    def view(self) -> dict[str, Any]:
        """The table for the page."""
        state = {k: v for k, v in self.state.items() if k != "moves"}
        return {"id": self.board, "online": self.online, "state": state, "layout": self.layout,
                "pieces": sorted(self.pieces), "changed": sorted(self.changed), "sides": self.sides,
                "problem": self.problem, "games": self.games[-10:]}


class Fleet:
    """Every table seen on the broker."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        self.lock = threading.Lock()
        #: Called with a table's view whenever it changes (from the MQTT client's thread).
        self.listener: Callable[[dict[str, Any]], None] = lambda _: None
        #: Called with (board, reply) for a board's answer to a command.
        self.on_reply: Callable[[str, dict[str, Any]], None] = lambda *_: None
        #: Layout key -> the sites to draw (only games some table plays).
        self.layouts: dict[str, list[dict[str, Any]]] = {}
        self._day = _today()

    def receive(self, topic: str, payload: bytes) -> None:
        """A message on ``reedboard/<id>/<kind>``."""
        board, kind = topics.board_of(topic), topic.rsplit("/", 1)[-1]
        if board is None:
            return
        try:
            text = payload.decode()
            data = json.loads(text) if kind in ("state", "reply") and text else text
        except (UnicodeDecodeError, ValueError):
            return  # not ours to judge; a board sends JSON
        if kind == "reply":
            return self.on_reply(board, data) if isinstance(data, dict) else None
        with self.lock:
            table = self.tables.setdefault(board, Table(board))
            if not self._apply(table, kind, data):
                return
            view = table.view()
        self.listener(view)

    def _apply(self, table: Table, kind: str, data: Any) -> bool:
        if kind == "availability":
            table.online = data == topics.ONLINE
        elif kind == "state" and isinstance(data, dict):
            ended = data.get("result") and not table.state.get("result")
            table.state = data
            if ended:
                self._new_day()
                table.finished()
            position = table.replay()
            if position is not None and table.layout not in self.layouts:
                self.layouts[table.layout] = [
                    {"label": s.label, "x": s.x, "y": s.y, "shape": s.shape} for s in position.sites()]
        else:
            return False
        return True

    def _new_day(self) -> None:
        """At midnight (UTC) the day's lists start empty."""
        if _today() != self._day:
            self._day = _today()
            for table in self.tables.values():
                table.games.clear()

    def views(self) -> list[dict[str, Any]]:
        with self.lock:
            return [table.view() for table in self.tables.values()]

    def layout(self, key: str) -> list[dict[str, Any]] | None:
        """The sites of a layout some table uses ("antipalos/5/two"), for drawing; else None."""
        with self.lock:
            return self.layouts.get(key)


def _today() -> str:
    return datetime.now(timezone.utc).date().isoformat()
