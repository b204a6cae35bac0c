"""Pondering's strength at equal time, counted in work: the same answer on a busy machine.

Each side's move is a search of the same fixed work (positions made: ``--share`` of the level's
budget), the level pondering (``engines/ai/ponder.py``) against the same level without, in
every game, half the games each colour. A move's thinking time is its work, so the time the
other side thinks is the work its move made: after each of its moves the pondering side
ponders exactly that much (as it would in the worker over that move's time), then answers the
move played from what it kept where it can (with its own work on top), else with a search of
its own. Pondering's gain is then only the work it spent on the move the other side played.

Per game: wins / draws / losses of the pondering side (a game still going after
``--plies`` goes to the side with more material, else counts as drawn), its score with a 95 %
interval, how many of its moves came from pondering (hits) and with how many times the
search (the answer's pondered plus own work against its own), pondering's work against the
other side's (1.0 by construction), how many games the side that began won (the seats'
bias), games a second, and the pondering side's result in the games it began and in the
others (a game decided by the seat, Antipod, is judged in the seat that can lose).

``--double``: the control, the same games with the pondering side replaced by the level with
twice the work a move and no pondering: what pondering would be worth if it always foresaw
the move played, the most it can give. ``--times K``: the other side thinks K times its work
(a player who takes longer than the computer's search); the plain side cannot use that time,
the pondering side ponders all of it (up to pondering's cap, ``ponder.TIMES`` a move's work).

``--hits-control``: the pondering side ponders as usual, but answers each move pondering
answered (a hit) with the control's search (twice the work, fresh) instead of the pondered
answer, and every other move with its own: whether the pondered answer or the course of the
game loses what pondering loses (both have twice the search on the same moves).

``--expected F``: the share of pondering's cap the answer to the reply the search expected gets
before any other (``ponder.FIRST``; 0: every reply answered in turn, as before the thirteenth
round).

``--memory``: no games, the memory pondering keeps: for each game (its standard size) at
levels 3 and 5, in a fresh process that has loaded what the worker's does, the peak resident
memory (MB) once the computer has chosen a move, and once pondering over the players' turn has
reached its cap (``ponder.TIMES``: 16 times the level's budget at level 3, 8 at level 5).

``--wall``: the same games, but the pondering side ponders for the wall-clock seconds the
other side's move took (not its work): the check that a node of pondering costs what a node
of search does, so that the work model stands for equal wall time (its pondering work against
the other side's work is then measured, not set).

Usage: nice -n 10 .venv/bin/python -m bench.ponder [--games N] [--level L] [--share F]
       [--game NAME] [--first N] [--jobs J] [--plies P] [--times K] [--wall] [--double]
       [--hits-control] [--expected F] [--memory]
The last line is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import multiprocessing
import os
import random
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, fields
from typing import Any

from engines import MODULES, new_game
from engines.ai import SearchChoice, budget, choose, ponder
from engines.ai.arena import play
from engines.core import GameState
from firmware_host.board.opponent import PONDER_SLICE, SEARCHES

#: Game -> the size played (small boards: a game of Antipalos 12 takes minutes at level 3).
SIZES = {"antipalos": 8, "antipode": None, "antipod": 4, "anti-grid": 6, "phalanx": None}
#: Games a job plays at a time (seeded by its number, so the jobs change nothing).
CHUNK = 4


@dataclass
class Tally:
    """What the pondering side did over some games (counts and work, added up)."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    moves: int = 0
    hits: int = 0
    #: Over the hits: the answers' work with pondering's (own + pondered) over their own.
    gain: float = 0.0
    pondered: int = 0
    other_work: int = 0
    #: Games the side that began won (a seat's bias: Antipod's second player wins most).
    beginner_won: int = 0
    #: The games the pondering side began, won and drawn (a game decided by the seat is
    #: judged per seat: :meth:`seat`).
    began: int = 0
    began_wins: int = 0
    began_draws: int = 0
    seconds: float = 0.0

    def __add__(self, other: Tally) -> Tally:
        return Tally(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @property
    def score(self) -> float:
        """Wins and half the draws, a share of the games.

        >>> Tally(games=4, wins=2, draws=1, losses=1).score
        0.625
        """
        return (self.wins + self.draws / 2) / self.games

    def interval(self) -> tuple[float, float]:
        """The score's 95 % interval (normal, from the games' own spread of 1, ½ and 0).

        >>> [round(x, 3) for x in Tally(games=100, wins=60, losses=40).interval()]
        [0.503, 0.697]
        """
        mean = self.score
        spread = (self.wins * (1 - mean) ** 2 + self.draws * (0.5 - mean) ** 2 + self.losses * mean**2) / (
            self.games - 1 if self.games > 1 else 1
        )
        half = 1.96 * math.sqrt(spread / self.games)
        return max(0.0, mean - half), min(1.0, mean + half)

    def result(self) -> list[Any]:
        """[won, drawn, lost, score, its interval's low and high end], rounded."""
        low, high = self.interval() if self.games else (0.0, 0.0)
        score = self.score if self.games else 0.0
        return [self.wins, self.draws, self.losses, round(score, 3), round(low, 3), round(high, 3)]

    def seat(self, began: bool) -> Tally:
        """The games the pondering side began (``began``), or those it did not.

        >>> Tally(games=4, wins=3, losses=1, began=2, began_wins=2).seat(False).score
        0.5
        """
        lost = self.began - self.began_wins - self.began_draws
        first = Tally(self.began, self.began_wins, self.began_draws, lost)
        if began:
            return first
        return Tally(
            self.games - first.games, self.wins - first.wins, self.draws - first.draws, self.losses - lost
        )

    def figures(self) -> dict[str, Any]:
        low, high = self.interval()
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": round(self.score, 3),
            "interval": [round(low, 3), round(high, 3)],
            "moves": self.moves,
            "hits": self.hits,
            "search_gain": round(self.gain / max(1, self.hits), 2),
            "ponder_over_other": round(self.pondered / max(1, self.other_work), 3),
            "beginner_won": self.beginner_won,
            **{name: self.seat(began).result() for name, began in (("began", True), ("second", False))},
            "games_per_s": round(self.games / max(self.seconds, 1e-9), 3),
        }


@dataclass(frozen=True)
class Rules:
    """How a match is played: both sides' ``level`` and ``work`` a move; the other side's
    thinking time is ``times`` its work (1: a computer's; more: a player who thinks longer
    than the search it stands for); ``wall``: pondering goes by the seconds the other side's
    move took (times ``times``), not its work; ``hits_control``: a hit is answered by a fresh
    search of twice the work, not the pondered answer; ``double``: the control, no pondering
    but twice the work a move (what pondering would give if it always foresaw the move);
    ``expected``: ``ponder.FIRST`` for the match."""

    level: int
    work: int
    times: float = 1.0
    wall: bool = False
    double: bool = False
    hits_control: bool = False
    expected: float = ponder.FIRST


class Pair:
    """The two players of one match (``rules``): :meth:`pondering` and :meth:`plain` (arena
    players), the first pondering over the second's moves, counting into :attr:`tally`."""

    def __init__(self, rules: Rules) -> None:
        self.rules, self.level, self.work = rules, rules.level, rules.work
        self.tally = Tally()
        self.last: tuple[GameState[Any], Any, int, float] | None = None  # the plain side's move
        self.thought: ponder.Ponder | None = None

    def plain(self, state: GameState[Any], rng: random.Random) -> Any:
        began = time.perf_counter()
        choice = choose(state, self.level, rng.randrange(1 << 30), work=self.work)
        self.last = (state, choice.move, choice.work, time.perf_counter() - began)
        return choice.move

    def pondering(self, state: GameState[Any], rng: random.Random) -> Any:
        seed, thought, self.thought = rng.randrange(1 << 30), self.thought, None
        if self.rules.double:
            self.tally.moves += 1
            return choose(state, self.level, seed, work=2 * self.work).move
        if thought is not None and self.last is not None and self.last[0] == thought.state:
            _, move, work, seconds = self.last
            self.tally.other_work += work
            self.tally.pondered += self._ponder(thought, work * self.rules.times, seconds * self.rules.times)
            if self.rules.hits_control and thought.kept(state, move):  # twice the level's search
                choice = choose(state, self.level, seed, work=2 * self.work)
                self.tally.hits, self.tally.gain = self.tally.hits + 1, self.tally.gain + 2.0
            else:
                choice = thought.reply(state, move, seed)
                self._count(choice)
        else:
            choice = choose(state, self.level, seed, work=self.work)
        self.tally.moves += 1
        self.thought = ponder.start(state, choice, self.level, seed, self.work)
        return choice.move

    def _ponder(self, thought: ponder.Ponder, work: float, seconds: float) -> int:
        """Ponder as over the other side's move (its ``work``, or its ``seconds`` on the
        wall clock); the work pondered."""
        began = thought.spent
        if self.rules.wall:
            deadline = time.perf_counter() + seconds

            def stop() -> bool:
                return time.perf_counter() > deadline

            while not stop() and thought.grow(max(PONDER_SLICE, thought.least), stop):
                pass
        else:
            while thought.spent - began < work and thought.grow(round(work) - (thought.spent - began), never):
                pass
        return thought.spent - began

    def _count(self, choice: SearchChoice) -> None:
        if choice.pondered:
            self.tally.hits += 1
            self.tally.gain += (choice.pondered + choice.count) / max(1, choice.count)


def never() -> bool:
    return False


def work_for(game: str, level: int, share: float) -> int:
    """The work a move of either side: ``share`` of the level's budget on the game's board.

    >>> work_for("antipode", 3, 1.0) == budget(new_game("antipode"), 3)
    True
    """
    return max(20, round(budget(new_game(game, SIZES[game]), level) * share))


def games(game: str, rules: Rules, first: int, count: int, plies: int) -> Tally:
    """Games ``first`` to ``first + count - 1`` of the match, the pondering side beginning the
    even ones; the pondering side's tally."""
    pair = Pair(rules)
    ponder.FIRST = rules.expected  # this process plays only this match
    began = time.perf_counter()
    for index in range(first, first + count):
        start = new_game(game, SIZES[game])
        players = (pair.pondering, pair.plain) if index % 2 == 0 else (pair.plain, pair.pondering)
        pair.last = pair.thought = None
        winner = play(start, players, random.Random(53_000 + index), plies)
        mine = start.sides[index % 2]
        pair.tally.games += 1
        pair.tally.wins += winner == mine
        pair.tally.losses += winner in start.sides and winner != mine
        pair.tally.draws += winner not in start.sides
        pair.tally.beginner_won += winner == start.sides[0]
        if index % 2 == 0:  # the pondering side began
            pair.tally.began += 1
            pair.tally.began_wins += winner == mine
            pair.tally.began_draws += winner not in start.sides
    pair.tally.seconds = time.perf_counter() - began
    return pair.tally


def match(game: str, rules: Rules, count: int, plies: int, jobs: int, first: int = 0) -> Tally:
    """``count`` games (rounded up to whole chunks) from game number ``first`` over ``jobs``
    processes, the tally so far printed as each chunk ends (a run cut short still tells); its
    seconds are the wall clock's."""
    began, total = time.perf_counter(), Tally()
    with ProcessPoolExecutor(jobs) as pool:
        starts = range(first, first + count, CHUNK)
        runs = [pool.submit(games, game, rules, start, CHUNK, plies) for start in starts]
        for run in as_completed(runs):
            total += run.result()
            total.seconds = time.perf_counter() - began
            print(f"  {game}: {line(total.figures())}", file=sys.stderr, flush=True)
    return total


def memory(game: str, level: int) -> dict[str, Any]:
    """In a process of its own that has loaded the worker's modules: its peak RSS (MB) once
    the computer has chosen its move at ``level`` a few seeded random moves into ``game``, and
    once it has pondered over the players' turn to the cap."""
    for name in (*SEARCHES, *MODULES.values()):
        importlib.import_module(name)
    rng, state = random.Random(53), new_game(game)
    for _ in range(6):
        state = state.apply(state.random_move(rng))
    choice = choose(state, level, seed=1)
    chosen = peak_mb()
    thought = ponder.start(state, choice, level, seed=1)
    assert thought is not None
    while thought.grow(max(PONDER_SLICE, thought.least), never):
        pass
    return {
        "chosen_mb": chosen,
        "pondered_mb": peak_mb(),
        "pondered": thought.spent,
        "budget": thought.budget,
    }


def peak_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux counts it in kB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def memories(games: list[str]) -> dict[str, Any]:
    """:func:`memory` for each game at levels 3 and 5, each in a fresh process; printed as it goes."""
    got: dict[str, Any] = {}
    spawn = multiprocessing.get_context("spawn")
    for game in games:
        for level in (3, 5):
            with ProcessPoolExecutor(1, mp_context=spawn) as pool:
                got[f"{game} {level}"] = figures = pool.submit(memory, game, level).result()
            chosen, pondered, spent = figures["chosen_mb"], figures["pondered_mb"], figures["pondered"]
            print(
                f"{game:<10} level {level}: {chosen} MB once chosen, {pondered} MB pondered to the cap "
                f"({spent} positions, {spent / figures['budget']:.0f}x {figures['budget']})",
                flush=True,
            )
    return got


def line(got: dict[str, Any]) -> str:
    """A tally's figures in words."""
    low, high = got["interval"]
    return (
        f"won {got['wins']}, drew {got['draws']}, lost {got['losses']} of {got['games']} (the "
        f"beginner won {got['beginner_won']}); score {got['score']:.3f} (95 %: {low:.3f}-"
        f"{high:.3f}); {got['hits']} of {got['moves']} moves from pondering with "
        f"{got['search_gain']}x the search; pondered {got['ponder_over_other']}x the other "
        f"side's work; {got['games_per_s']} games/s; beginning {seat(got['began'])}, second "
        f"{seat(got['second'])}"
    )


def seat(result: list[Any]) -> str:
    """A seat's result (:meth:`Tally.result`) in words."""
    won, drawn, lost, score, low, high = result
    return f"{won}/{drawn}/{lost}, {score:.3f} ({low:.3f}-{high:.3f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games a game (default 100)")
    parser.add_argument("--level", type=int, default=3, help="both sides' level (default 3)")
    parser.add_argument("--share", type=float, default=0.25, help="of the level's budget a move")
    parser.add_argument("--game", choices=list(SIZES), help="only this game")
    parser.add_argument("--first", type=int, default=0, help="the first game's number (a run going on)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--plies", type=int, default=120, help="a game's length at most")
    parser.add_argument("--times", type=float, default=1.0, help="the other side thinks its work times this")
    parser.add_argument("--wall", action="store_true", help="ponder for the other side's seconds")
    parser.add_argument("--double", action="store_true", help="the control: twice the work, no pondering")
    parser.add_argument("--hits-control", action="store_true", help="hits answered by twice the work, fresh")
    parser.add_argument("--expected", type=float, default=ponder.FIRST, help="the expected reply's share")
    parser.add_argument(
        "--memory", action="store_true", help="the memory pondering to the cap keeps, no games"
    )
    args = parser.parse_args()
    figures: dict[str, Any] = {"bench": "ponder", **vars(args), "load": os.getloadavg()[0]}
    if args.memory:
        figures.update(memories([args.game] if args.game else list(SIZES)))
        print(json.dumps(figures))
        return 0
    for game in [args.game] if args.game else list(SIZES):
        work = work_for(game, args.level, args.share)
        rules = Rules(args.level, work, args.times, args.wall, args.double, args.hits_control, args.expected)
        got = match(game, rules, args.games, args.plies, args.jobs, args.first).figures()
        figures[game] = {"work": rules.work, **got}
        print(f"{game:<10} work {rules.work:>5}: {line(got)}", flush=True)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
