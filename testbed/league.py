"""League rounds played on boards, for the café side's tests.

:func:`play_round`: real boards (``reedboard run --sim`` processes, testbed/broker.py's
:class:`Board`) play the tables a round sends them, as the players would: each seat's player
presses OK, they place the pieces of a game the chosen side wins, and clear the board.

:class:`StandIn`: a board stand-in on the broker as board ``board``: it takes the ``table``
commands a league round sends (answering each on its ``reply`` topic, as a board does), and
plays each table's game at once: its retained ``state`` names the players and the league table,
and its retained ``record`` is a real finished Antipalos 3 game (the dashboard replays it) whose
winner ``winner(names)`` chooses, with the players and the league table in it, as the contract
between the café side and the board side writes them (docs/league.md).
"""

from __future__ import annotations

import json
import threading
import time
from typing import Callable, Mapping

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from testbed.broker import Board, Watcher

#: Antipalos 3 games that end in a connection: white's, black's.
WINS = {
    "white": ["A1*", "A3*", "B2*", "C1*", "C3*"],
    "black": ["*C2", "*C3", "*A2", "C1*", "A3*", "*B1", "*B2", "A1*"],
}


def play_round(
    boards: Mapping[str, Board], watcher: Watcher, round_no: int, winner: Callable[[list[str]], str | None]
) -> dict[str, dict]:
    """Round ``round_no`` played on ``boards`` (by their ids; each an Antipalos 3 board): once a
    board shows its table, its players press OK in turn and place the pieces of a game that
    ``winner(names)`` wins ("white", "black"; None: no move, the arbiter enters the result),
    then take them off. Each board's last state of the round, by id."""

    def ours(state: dict) -> bool:
        return (state.get("league") or {}).get("round") == round_no

    seated = {b: watcher.state(b, lambda s: ours(s) and s["ready"] is not None) for b in boards}
    for b, board in boards.items():
        for _ in seated[b]["players"]:
            board.press("ok")
    moves = {b: WINS[side] if (side := winner(s["players"])) else [] for b, s in seated.items()}
    # the last round's pieces read off before their sites are played again
    last = {b: watcher.cleared(b, lambda s: ours(s) and s["ready"] is None) for b in boards}
    for step in range(max(len(m) for m in moves.values())):
        playing = [b for b in boards if step < len(moves[b])]
        for b in playing:
            boards[b].place(moves[b][step])
        for b in playing:
            site = moves[b][step]
            last[b] = watcher.state(b, lambda s, site=site: ours(s) and site in s["moves"])
    for b, board in boards.items():
        for site in moves[b]:
            board.lift(site)
    return last


class StandIn:
    """Board ``board`` on the broker at 127.0.0.1:``port``; ``winner(names)`` the side that
    wins each table's game ("white" or "black"), None: the game is not finished (the arbiter
    enters its result)."""

    def __init__(self, port: int, board: str, winner: Callable[[list[str]], str | None]) -> None:
        self.board, self.winner = board, winner
        self.commands: list[dict] = []
        self._games = 0
        self._lock = threading.Lock()
        self.client = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"stand-in-{board}")
        self.client.on_message = self._on_message
        subscribed = threading.Event()
        self.client.on_subscribe = lambda *_: subscribed.set()
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        self.client.subscribe(f"reedboard/{board}/command", qos=1)
        assert subscribed.wait(10), f"{board}: the broker did not take the subscription"
        self._publish("availability", "online")

    def _publish(self, kind: str, payload: str) -> None:
        self.client.publish(f"reedboard/{self.board}/{kind}", payload, qos=1, retain=kind != "reply")

    def _on_message(self, client, userdata, message) -> None:
        command = json.loads(message.payload)
        with self._lock:
            self.commands.append(command)
        self._publish("reply", json.dumps({"id": command.get("id"), "ok": command.get("command") == "table"}))
        if command.get("command") == "table":
            threading.Thread(target=self._play, args=(command,), daemon=True).start()

    def _play(self, command: dict) -> None:
        names = command["names"]
        league = {k: command[k] for k in ("event", "round", "table")}
        side = self.winner(names)
        moves = WINS[side] if side else []
        self._publish("state", json.dumps(self._state(names, league, moves, side)))
        if side is None:
            return
        with self._lock:
            self._games += 1
            number = self._games
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        record = {
            "id": number,
            "game": "antipalos",
            "size": 3,
            "variant": "two",
            "started": now,
            "finished": now,
            "result": f"{side} wins by connection",
            "winner": side,
            "moves": moves,
            "players": names,
            "league": league,
        }
        self._publish("record", json.dumps(record))

    def _state(self, names: list[str], league: dict, moves: list[str], side: str | None) -> dict:
        status = f"{names[0] if side == 'white' else names[1]} wins" if side else f"{names[0]} to move"
        return {
            "game": "antipalos",
            "title": "Antipalos 3",
            "size": 3,
            "variant": "two",
            "sides": ["white", "black"],
            "ply": len(moves),
            "to_move": None if side else "white",
            "moves": moves,
            "winner": side,
            "result": "connection" if side else None,
            "status": status,
            "screen": [status],
            "sync": "in_sync",
            "missing": [],
            "extra": [],
            "board": self.board,
            "hardware": "ok",
            "players": names,
            "league": league,
        }

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()
