"""The computer opponent: search speed, time per move at each level, and strength.

Per game and size (small, standard and, for speed only, the largest): playouts (MCTS) or nodes
(alpha-beta) per CPU second and positions made per second beside the rate the game declares for
its budgets (its search profile's rate); the most CPU a move took at each level against its
target (0.05, 0.1, 0.25, 0.5, 1 s); then level 3 against the one-ply baseline and against
random play, and each level against the one below, half the games each colour. Goals: level 3
wins >= 90% against the baseline, each level beats the one below in >= 60%, random never beats
level 1.

Usage: .venv/bin/python -m bench.ai [--quick] [--games N] [--game NAME] [--jobs J]
The last line is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from engines import game_info, new_game
from engines.ai import LEVELS, SECONDS, choose, profile_of
from engines.ai.arena import duel, level_player
from engines.ai.baseline import one_ply, random_player

#: Game -> (small size, standard size); None for games of one size.
SIZES = {
    "antipalos": (8, 12), "antipode": (None,), "antipod": (4, 6), "anti-grid": (6, 8),
    "phalanx": (None,),
}
PLAYERS = {"baseline": one_ply, "random": random_player}


def largest(game: str) -> int | None:
    """The game's largest size when it is not one of :data:`SIZES` (a search's work per
    position grows with the board)."""
    info = game_info(game)
    top = info.size_range[1] if info.size_range else max(info.sizes, default=None)
    return top if top not in SIZES[game] else None


def positions(game: str, size: int | None, count: int, seed: int) -> list:
    """The start, positions after a few random moves (where searches cost the most) and the
    last unfinished one of a random game of 400 moves (a long history; Antipalos's Phase Two).
    """
    rng, found = random.Random(seed), [new_game(game, size)]
    while len(found) < count - 1:
        state = new_game(game, size)
        for _ in range(rng.randrange(2, 20)):
            if state.outcome() is None:
                state = state.apply(state.random_move(rng))
        if state.outcome() is None:
            found.append(state)
    state = new_game(game, size)
    for _ in range(400):
        after = state.apply(state.random_move(rng))
        if after.outcome() is not None:
            break
        state = after
    return found + [state]


def speed(game: str, size: int | None, quick: bool) -> dict:
    """Search speed and the most CPU seconds a move took at each level."""
    states = positions(game, size, 2 if quick else 4, seed=1)
    figures: dict = {}
    count = work = spent = 0.0
    for level in LEVELS if not quick else (1, 3):
        worst = 0.0
        for index, state in enumerate(states):
            began = time.process_time()
            choice = choose(state, level, seed=index)
            took = time.process_time() - began
            worst = max(worst, took)
            count, work, spent = count + choice.count, work + choice.work, spent + took
        figures[f"level{level}_max_s"] = round(worst, 3)
        figures[f"level{level}_target_s"] = SECONDS[level - 1]
    figures[f"{choice.kind}_per_s"] = round(count / spent)
    figures["work_per_s"] = round(work / spent)
    figures["declared_rate"] = profile_of(states[0]).rate_for(states[0])
    return figures


def pairing(game: str, size: int | None, first: str, second: str, games: int) -> dict:
    def player(name: str):
        return PLAYERS.get(name) or level_player(int(name))

    result = duel(lambda: new_game(game, size), player(first), player(second), games, seed=7)
    return {"first": first, "second": second, "games": result.games, "wins": result.wins,
            "losses": result.losses, "unfinished": result.unfinished,
            "wins_beginning": result.wins_beginning, "beginner_won": result.beginner_won}


def pairings(quick: bool) -> list[tuple[str, str]]:
    if quick:
        return [("3", "baseline"), ("1", "random")]
    return [("3", "baseline"), ("3", "random"), ("1", "random"), ("2", "1"), ("3", "2"),
            ("4", "3"), ("5", "4")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--games", type=int, help="games per pairing (default 10; --quick 2)")
    parser.add_argument("--game", choices=list(SIZES), help="only this game")
    parser.add_argument("--no-speed", action="store_true", help="only the games")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the games")
    args = parser.parse_args()
    games = args.games or (2 if args.quick else 10)
    chosen = [args.game] if args.game else list(SIZES)
    boards = [(g, s) for g in chosen for s in (SIZES[g][-1:] if args.quick else SIZES[g])]
    timed = boards if args.quick else boards + [(g, top) for g in chosen if (top := largest(g))]
    figures: dict = {"bench": "ai", "games_per_pairing": games, "load": os.getloadavg()[0]}
    with ProcessPoolExecutor(args.jobs) as pool:
        duels = {(g, s, a, b): pool.submit(pairing, g, s, a, b, games)
                 for a, b in pairings(args.quick) for g, s in boards}
        for game, size in timed:
            name = f"{game}_{size}" if size else game
            figures[name] = {} if args.no_speed else speed(game, size, args.quick)
            print(f"{name}: {figures[name]}", flush=True)
        keys = {future: key for key, future in duels.items()}
        for future in as_completed(keys):
            game, size, first, second = keys[future]
            name = f"{game}_{size}" if size else game
            got = future.result()
            figures[name][f"{first}_vs_{second}"] = f"{got['wins']}/{got['games']}"
            print(f"{name:<14} {first:>8} vs {second:<8} won {got['wins']:>3}/{got['games']}  "
                  f"({got['wins_beginning']} of them beginning)  lost {got['losses']:>3}  "
                  f"unfinished {got['unfinished']}  the beginner won {got['beginner_won']}",
                  flush=True)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
