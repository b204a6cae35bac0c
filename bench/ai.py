"""The computer opponent: search speed, time per move at each level, and strength.

Per game and size (small, standard and, for speed only, the largest): playouts (MCTS) or nodes
(alpha-beta) per CPU second and positions made per second beside the rate the game declares for
its budgets (its search profile's rate); the most CPU a move took at each level against its
target (0.05, 0.1, 0.25, 0.5, 1 s); then level 3 against the one-ply baseline and against
random play, and each level against the one below, half the games each colour. Goals: level 3
wins >= 90% against the baseline, each level beats the one below in >= 60%, random never beats
level 1.

``--cpu``: only the most CPU a move takes per game (standard size) and level (and all of the
moves' CPU together, a steadier figure on a loaded machine), the code of
``--before`` (a git revision, by default the computer before issue 53's speed-ups) beside this
tree's, each in a fresh interpreter that also times a bare loop of a million steps (the
machine's speed in the same run), with a Pi Zero 2 W estimate (15-25 times slower) beside each
level's wall-clock limit (``engines.ai.LIMITS``).

``--ponder``: per game (standard size), how soon pondering (``engines/ai/ponder.py``) stops
once the worker is wanted for the players' move. Pondering's strength at equal time is
bench/ponder.py.

Usage: .venv/bin/python -m bench.ai [--quick] [--games N] [--game NAME] [--jobs J]
       .venv/bin/python -m bench.ai --cpu [--before REV] [--game NAME]
       .venv/bin/python -m bench.ai --ponder [--levels 1,3,5] [--game NAME]
The last line is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from io import BytesIO
from pathlib import Path

from engines import game_info, new_game
from engines.ai import LEVELS, LIMITS, SECONDS, choose, ponder, profile_of
from engines.ai.arena import duel, level_player
from engines.ai.baseline import one_ply, random_player
from firmware_host.board.opponent import PONDER_SLICE

#: Game -> (small size, standard size); None for games of one size.
SIZES = {
    "antipalos": (8, 12),
    "antipode": (None,),
    "antipod": (4, 6),
    "anti-grid": (6, 8),
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
    return {
        "first": first,
        "second": second,
        "games": result.games,
        "wins": result.wins,
        "losses": result.losses,
        "unfinished": result.unfinished,
        "wins_beginning": result.wins_beginning,
        "beginner_won": result.beginner_won,
    }


#: The computer before issue 53 (its speed-ups and pondering): what ``--cpu`` compares with.
BEFORE = "162ed53dca8058a72fbe13b832b9228d7fd892f1"
ROOT = Path(__file__).resolve().parent.parent
#: A Pi Zero 2 W against this machine: 15 to 25 times slower.
PI_SLOWER = (15, 25)
#: Run by ``--cpu`` in a fresh interpreter on either tree after :func:`positions`'s source (it
#: needs only ``new_game`` and ``choose``, which both have): the bare loop's CPU seconds, then
#: per level the most CPU a move took (the least of two runs) over the same positions.
CPU_SCRIPT = """
import json, random, sys, time
from engines import new_game
from engines.ai import choose
game, size, count, levels = json.loads(sys.argv[1])
loops = []
for _ in range(5):  # the least of five, as for the moves below
    began = time.process_time()
    for _ in range(1_000_000):
        pass
    loops.append(time.process_time() - began)
figures = {"bare_loop_s": min(loops)}
states = positions(game, size, count, 1)
total = 0.0
for level in levels:
    worst = 0.0
    for index, state in enumerate(states):
        took = []
        for _ in range(2):  # the least of two: another process's load only adds
            began = time.process_time()
            choose(state, level, seed=index)
            took.append(time.process_time() - began)
        worst, total = max(worst, min(took)), total + min(took)
    figures[level] = worst
figures["total_s"] = total
print(json.dumps(figures))
"""


def tree_of(revision: str, into: str) -> str:
    """``revision``'s ``engines/`` unpacked under ``into`` (its root, for PYTHONPATH)."""
    packed = subprocess.run(
        ["git", "archive", revision, "engines"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(packed)) as archive:
        archive.extractall(into, filter="data")
    return into


def cpu_per_move(root: str, game: str, size: int | None, count: int) -> dict:
    """:data:`CPU_SCRIPT`'s figures for the tree at ``root``."""
    env = {**os.environ, "PYTHONPATH": root}
    script = inspect.getsource(positions) + CPU_SCRIPT  # the same positions on either tree
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps([game, size, count, list(LEVELS)])],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout)


def cpu(chosen: list[str], before: str, quick: bool) -> dict:
    """Per game at its standard size: the most CPU a move took, old and new, and the bare
    loop of each run; printed as it goes."""
    figures: dict = {}
    with tempfile.TemporaryDirectory() as old_root:
        tree_of(before, old_root)
        for game in chosen:
            size = SIZES[game][-1]
            name = f"{game}_{size}" if size else game
            old = cpu_per_move(old_root, game, size, 3 if quick else 5)
            new = cpu_per_move(str(ROOT), game, size, 3 if quick else 5)
            figures[name] = {
                "bare_loop_s": [round(old.pop("bare_loop_s"), 3), round(new.pop("bare_loop_s"), 3)]
            }
            total = [round(old.pop("total_s"), 3), round(new.pop("total_s"), 3)]
            figures[name]["total_s"] = total
            print(
                f"{name}: bare loop {figures[name]['bare_loop_s'][0]:.3f} s before, "
                f"{figures[name]['bare_loop_s'][1]:.3f} s now; every move of every level "
                f"{total[0]:.3f} s before, {total[1]:.3f} s now "
                f"({total[0] / max(total[1], 1e-6):.2f}x)",
                flush=True,
            )
            loops = figures[name]["bare_loop_s"]
            for level in LEVELS:
                was, now = old[str(level)], new[str(level)]
                # in bare loops of its own run: what another process's load changed cancels
                faster = (was / max(loops[0], 1e-6)) / max(now / max(loops[1], 1e-6), 1e-6)
                low, high = (round(now * k, 1) for k in PI_SLOWER)
                figures[name][f"level{level}"] = {
                    "before_s": round(was, 3),
                    "now_s": round(now, 3),
                    "faster": round(faster, 2),
                    "pi_s": [low, high],
                    "limit_s": LIMITS[level - 1],
                }
                print(
                    f"  level {level}: most CPU a move {was:.3f} s before, {now:.3f} s now "
                    f"({faster:.1f}x faster in bare loops); Pi Zero 2 W ~{low}-{high} s, "
                    f"waits at most {LIMITS[level - 1]} s",
                    flush=True,
                )
    return figures


def stops_within(game: str, size: int | None, levels: list[int]) -> float:
    """The longest a pondering took to stop once asked (wall seconds), asked 0.05 and 0.15 s
    into pondering after the computer's move at two positions, at each of ``levels``: how
    long the players' move waits for the worker."""
    worst = 0.0
    for level in levels:
        for index, state in enumerate(positions(game, size, 4, seed=2)[1:3]):
            thought = ponder.start(state, choose(state, level, seed=index), level, index)
            for delay in (0.05, 0.15) if thought else ():
                asked = time.monotonic() + delay

                def stop() -> bool:
                    return time.monotonic() > asked

                while not stop() and thought.grow(max(PONDER_SLICE, thought.least), stop):
                    pass
                if stop():
                    worst = max(worst, time.monotonic() - asked)
    return worst


def pairings(quick: bool) -> list[tuple[str, str]]:
    if quick:
        return [("3", "baseline"), ("1", "random")]
    return [
        ("3", "baseline"),
        ("3", "random"),
        ("1", "random"),
        ("2", "1"),
        ("3", "2"),
        ("4", "3"),
        ("5", "4"),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--games", type=int, help="games per pairing (default 10; --quick 2)")
    parser.add_argument("--game", choices=list(SIZES), help="only this game")
    parser.add_argument("--no-speed", action="store_true", help="only the games")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the games")
    parser.add_argument("--cpu", action="store_true", help="only CPU a move, before and now")
    parser.add_argument("--before", default=BEFORE, help="the revision --cpu compares with")
    parser.add_argument("--ponder", action="store_true", help="only how soon pondering stops")
    parser.add_argument("--levels", default="3", help="--ponder's levels besides 3 and 5")
    args = parser.parse_args()
    games = args.games or (2 if args.quick else 10)
    chosen = [args.game] if args.game else list(SIZES)
    if args.cpu or args.ponder:
        figures = {"bench": "ai", "load": os.getloadavg()[0]}
        if args.cpu:
            figures["cpu"] = cpu(chosen, args.before, args.quick)
        if args.ponder:
            levels = [int(level) for level in args.levels.split(",")]
            for game in chosen:
                size = SIZES[game][-1]
                late = stops_within(game, size, sorted({3, 5, *levels}))
                print(
                    f"{game} {size or ''}: pondering stops within {late * 1000:.0f} ms of "
                    "being asked (levels 3, 5)",
                    flush=True,
                )
                figures[f"{game}_stops_ms"] = round(late * 1000)
        print(json.dumps(figures))
        return 0
    boards = [(g, s) for g in chosen for s in (SIZES[g][-1:] if args.quick else SIZES[g])]
    timed = boards if args.quick else boards + [(g, top) for g in chosen if (top := largest(g))]
    figures: dict = {"bench": "ai", "games_per_pairing": games, "load": os.getloadavg()[0]}
    with ProcessPoolExecutor(args.jobs) as pool:
        duels = {
            (g, s, a, b): pool.submit(pairing, g, s, a, b, games)
            for a, b in pairings(args.quick)
            for g, s in boards
        }
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
            print(
                f"{name:<14} {first:>8} vs {second:<8} won {got['wins']:>3}/{got['games']}  "
                f"({got['wins_beginning']} of them beginning)  lost {got['losses']:>3}  "
                f"unfinished {got['unfinished']}  the beginner won {got['beginner_won']}",
                flush=True,
            )
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
