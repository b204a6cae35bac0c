"""A forged peer flooding a paired board with long legal histories (Anti-Grid 8, ``--plies``
moves), ``--messages`` times, each a new message of the same game: its next move, its history
changed, or this board's moves too. For each, what one message costs this board: reading it
on the link's thread (``read_peer``: JSON and bounds) and the loop's polls (the Remote
opponent, the three steps after each message), beside the baseline, the whole list played through the engine
as every message was before. "history changed" is the game up to the other side's last move but
one, that move changed (as ``["b2", "d5"]`` after six moves).

Usage: .venv/bin/python -m bench.peer_flood [--plies N] [--messages N]
The last line is a JSON object of the figures (ms a message).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from firmware_host.board.game import Game
from firmware_host.board.opponent import Seen
from firmware_host.net.mqtt.peer import peer_moves
from firmware_host.net.mqtt.remote import Remote
from testbed.bus import Bus

GRID = Game.of("anti-grid", 8)
TOKEN = "00000001764050000000:t1"


def long_game(plies: int, seed: int = 1) -> tuple[list[str], list]:
    """A legal random Anti-Grid 8 game of up to ``plies`` moves and its positions."""
    states, rng, moves = [GRID.new()], random.Random(seed), []
    while len(moves) < plies and states[-1].outcome() is None:
        moves.append(states[-1].notation(rng.choice(list(states[-1].legal_moves()))))
        states.append(states[-1].play(moves[-1]))
    return moves, states


def ms(seconds: float, n: int) -> float:
    return round(seconds / n * 1000, 3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=5000)
    parser.add_argument("--messages", type=int, default=20)
    args = parser.parse_args()
    moves, states = long_game(args.plies)
    bus = Bus()
    t1 = Remote(bus.link("t1"), "t1", "t2", "second", clock=lambda: bus.now / 1000)
    theirs = t1.side_in(states[0])
    k = max(n for n in range(len(moves)) if states[n].to_move == theirs)
    here = Seen(GRID, 1, tuple(moves[:k]), tuple(states[: k + 1]), awaiting=True, final=True, token=TOKEN)
    last = max(n for n in range(k - 1) if states[n].to_move == theirs)  # its move before
    other = next(m for m in map(states[last].notation, states[last].legal_moves()) if m != moves[last])
    lists = {
        "its next move": moves[: k + 1],
        "history changed": [*moves[:last], other],
        "this board's moves too": moves,
    }
    figures: dict[str, object] = {"bench": "peer_flood", "plies": k}
    print(f"A forged peer, {k}-move Anti-Grid 8 game, {args.messages} messages each (ms a message)")
    for name, texts in lists.items():
        payload = Remote.payload("anti-grid", 8, None, TOKEN, texts, [], None, None).encode()
        link = polls = 0.0
        for _ in range(args.messages):
            began = time.perf_counter()
            bus.link("forger").publish("reedboard/t2/moves", payload, retain=True)
            bus.deliver(bus.now + 1)  # the link's thread: read_peer, the newest kept
            link += time.perf_counter() - began
            began = time.perf_counter()
            for _ in range(3):
                t1.poll(here)
            polls += time.perf_counter() - began
        began = time.perf_counter()
        for _ in range(min(args.messages, 3)):
            peer_moves(states[0], texts)  # the baseline: the whole list played, as before
        baseline = time.perf_counter() - began
        row = {
            "link": ms(link, args.messages),
            "loop": ms(polls, args.messages),
            "baseline_loop": ms(baseline, min(args.messages, 3)),
        }
        print(
            f"  {name:<24} link thread {row['link']:>8} ms   loop {row['loop']:>8} ms"
            f"   baseline loop {row['baseline_loop']:>8} ms"
        )
        figures[name.replace(" ", "_").replace("'", "")] = row
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
