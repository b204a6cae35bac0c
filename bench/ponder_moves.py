"""Pondering's answers one move at a time: is a pondered answer better than the plain one?

Games take too long to tell a few points of strength at level 3's whole budget (a game of
Phalanx there takes minutes). This bench judges single answers instead. It plays games of the
level against itself (``--share`` of the level's budget a move, both sides plain) and, after
every move, ponders over the reply to the cap as ``bench/ponder.py --times 16`` does. Where
the reply played is one pondering answered (a hit), it asks three answers to the position:

- plain: the level's own search (its work a move);
- pondered: what pondering kept, searched on with the level's work (``Ponder.reply``);
- control: the level with twice the work, no pondering (``bench/ponder.py --double``);

and judges each against a reference: iterative deepening with ``--deep`` times the work, at
the widest. Each candidate's value is its position's value searched to the depth the reference
finished (the same depth for all, with the full window), and an answer's loss is the best of
the candidates' values less its own (values are the game's evaluation: material and a bonus
for mobility; a won or lost game is clipped to ``CLIP``). ``--depth D`` judges at that fixed
depth instead (no reference move: "same" is then the best value of the three). Per answer: how
often it is the reference's move, its mean loss, how often it loses more than ``BLUNDER``, the
plies it finished, and how often it is the plain answer's move. ``--times K``: ponder only K
times a move's work (a quick reply), not to the cap.

``--resumed``: no pondering and no judge, the pondered answer's search alone, on every position
of the games: a level's work cut where a pondering slice ends and started again with a level's
work more (``Deepening(keep=True)``, as ``Ponder`` runs an answer's) against the same search of
twice the work in one go, and the level's own: how often each has the one go's move, the plies
it finished, and the root moves of the next ply it finished (an iteration cut short counts for
those). A search that goes on where it stopped has the one go's move.

A single answer is chaotic (a node's moves come in a seeded random order): the same search
with another seed differs from itself by as much as the answers differ from each other, so
compare means over many positions.

Usage: nice -n 19 .venv/bin/python -m bench.ponder_moves [--game NAME] [--games N]
       [--share F] [--deep K] [--depth D] [--times K] [--plies P] [--first N] [--jobs J] [--resumed]
The last line is a JSON object of the figures; the plain answer is the baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench.ponder import SIZES, never, work_for
from engines import new_game
from engines.ai import SearchChoice, alphabeta, ponder
from engines.ai.profile import profile_of
from engines.core import GameState
from engines.core.state import side_to_move
from firmware_host.board.opponent import PONDER_SLICE

#: A won or lost game's value, clipped (a win found is worth this much material at most).
CLIP = 50.0
#: A loss above this is a blunder (a piece, in Phalanx's and Anti-Grid's points).
BLUNDER = 1.0
ANSWERS = ("plain", "pondered", "control")


def deepening(state: GameState[Any], work: int, seed: int) -> alphabeta.Deepening[Any]:
    """The level's search at ``state`` with ``work``, run to its budget (as ``choose`` runs it)."""
    deep = alphabeta.Deepening(state, work, random.Random(seed), False, profile_of(state).mobility)
    deep.deepen(work, never)
    return deep


def judged(
    state: GameState[Any], moves: set[Any], work: int, seed: int, depth: int | None
) -> tuple[Any, int, dict[Any, float]]:
    """The reference's move at ``state`` (a search of ``work``; None with a fixed ``depth``),
    the depth its values are searched to (the depth it finished, or ``depth``), and the value
    there of each of ``moves`` and its own (full window, the side to move's view, clipped)."""
    ref = alphabeta.Deepening(state, work, random.Random(seed), False, profile_of(state).mobility)
    if depth is None:
        ref.deepen(work, never)
    run, side, depth = ref.run, side_to_move(state), depth or max(1, ref.depth)
    run.limited = False
    values = {}
    for move in moves | ({ref.move} if ref.move is not None else set()):
        child = state.apply(move)
        outcome = child.outcome()
        if outcome is not None:
            value = alphabeta.final(outcome.winner, side, depth)
        elif depth == 1:
            value = child.evaluate(side)
        elif child.to_move == side:
            value = run.negamax(child, depth - 1, -2 * alphabeta.WIN, 2 * alphabeta.WIN)
        else:
            value = -run.negamax(child, depth - 1, -2 * alphabeta.WIN, 2 * alphabeta.WIN)
        values[move] = max(-CLIP, min(CLIP, value))
    return ref.move, depth, values


def answers(
    after: GameState[Any], thought: ponder.Ponder, reply: Any, work: int, seed: int
) -> dict[str, Any]:
    """The three answers at ``after`` (the ``reply`` played): each (move, plies finished)."""
    plain, control = deepening(after, work, seed), deepening(after, 2 * work, seed)
    deep = thought.answers[reply]
    thought.reply(after, reply, seed)
    return {name: (d.move, d.depth) for name, d in zip(ANSWERS, (plain, deep, control), strict=True)}


def ponder_for(thought: ponder.Ponder, work: float | None) -> None:
    """Ponder ``work`` positions (as ``bench/ponder.py`` does over the other side's move), or
    to the cap (None)."""
    while (work is None or thought.spent < work) and thought.grow(
        max(PONDER_SLICE, thought.least) if work is None else round(work) - thought.spent, never
    ):
        pass


def game(
    name: str,
    index: int,
    share: float,
    deep: int,
    plies: int,
    depth: int | None = None,
    times: float | None = None,
) -> list[dict[str, Any]]:
    """One game of the level against itself; a record per hit."""
    work = work_for(name, 3, share)
    rng, state, found = random.Random(53_000 + index), new_game(name, SIZES[name]), []
    start = state.ply
    while state.outcome() is None and state.ply - start < plies:
        seed = rng.randrange(1 << 30)
        mine = deepening(state, work, seed)
        choice = SearchChoice(mine.move, 3, alphabeta.COUNTS, 0, 0, reply=mine.reply())
        thought = ponder.start(state, choice, 3, seed, work)
        state = state.apply(mine.move)
        if thought is None or state.outcome() is not None:
            continue
        ponder_for(thought, None if times is None else times * work)
        reply_seed = rng.randrange(1 << 30)
        reply = deepening(state, work, reply_seed).move
        after = state.apply(reply)
        if reply in thought.answers and after.outcome() is None and after.to_move != state.to_move:
            got = answers(after, thought, reply, work, reply_seed)
            best, judged_at, values = judged(
                after, {m for m, _ in got.values()}, deep * work, reply_seed, depth
            )
            top = max(values.values())
            found.append(
                {
                    "ply": after.ply,
                    "depth": judged_at,
                    **{
                        k: {
                            "same": m == best if best is not None else values[m] == top,
                            "loss": top - values[m],
                            "depth": d,
                            "as_plain": m == got["plain"][0],
                        }
                        for k, (m, d) in got.items()
                    },
                }
            )
        state = after
    return found


def kept(state: GameState[Any], work: int, seed: int, cut: int | None) -> alphabeta.Deepening[Any]:
    """A search of ``work`` as pondering runs an answer's (its table kept), cut after ``cut``
    positions (None: in one go) and gone on with the rest."""
    deep = alphabeta.Deepening(state, work, random.Random(seed), False, profile_of(state).mobility, keep=True)
    if cut is not None:
        deep.deepen(cut, never, abandon=True)
    deep.deepen(work - (deep.run.nodes if cut is not None else 0), never)
    return deep


def finished(deep: alphabeta.Deepening[Any]) -> int:
    """The root moves a kept search finished in the iteration after its deepest finished one."""
    replay = (deep.run.orders or {}).get((deep.state, deep.depth + 1))
    return len(replay.values) if replay is not None else 0


def resumed(name: str, index: int, share: float, plies: int) -> list[dict[str, Any]]:
    """``--resumed``: per position of one game of the level against itself, the pondered-like
    search (cut after a level's work, then a level's work more), twice the work in one go and
    the level's own: whether each has the one go's move, and the plies it finished."""
    work = work_for(name, 3, share)
    rng, state, found = random.Random(53_000 + index), new_game(name, SIZES[name]), []
    for _ in range(plies):
        if state.outcome() is not None:
            break
        seed = rng.randrange(1 << 30)
        plain = deepening(state, work, seed)
        if state.legal_count() > 1:
            one, cut = kept(state, 2 * work, seed, None), kept(state, 2 * work, seed, work)
            found.append(
                {
                    "cut_same": cut.move == one.move,
                    "plain_same": plain.move == one.move,
                    "depth": {"one": one.depth, "cut": cut.depth, "plain": plain.depth},
                    "next_ply": {"one": finished(one), "cut": finished(cut)},
                }
            )
        state = state.apply(plain.move)
    return found


def resumed_summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    """``--resumed``'s figures: agreement with the one go, mean plies and next ply's root moves."""
    n = max(1, len(records))

    def mean(key: str, who: str) -> float:
        return round(sum(r[key][who] for r in records) / n, 2)

    return {
        "positions": len(records),
        "cut_same": round(sum(r["cut_same"] for r in records) / n, 3),
        "plain_same": round(sum(r["plain_same"] for r in records) / n, 3),
        "depth": {who: mean("depth", who) for who in ("one", "cut", "plain")},
        "next_ply": {who: mean("next_ply", who) for who in ("one", "cut")},
    }


def summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Per answer: agreement with the reference, mean loss, blunders, mean plies finished."""
    n = max(1, len(records))
    out: dict[str, Any] = {
        "positions": len(records),
        "reference_depth": round(sum(r["depth"] for r in records) / n, 2),
    }
    for k in ANSWERS:
        got = [r[k] for r in records]
        out[k] = {
            "same": round(sum(g["same"] for g in got) / n, 3),
            "loss": round(sum(g["loss"] for g in got) / n, 3),
            "blunders": sum(g["loss"] > BLUNDER for g in got),
            "depth": round(sum(g["depth"] for g in got) / n, 2),
            "as_plain": round(sum(g["as_plain"] for g in got) / n, 3),
        }
    out["worse_than_plain"] = sum(r["pondered"]["loss"] > r["plain"]["loss"] for r in records)
    out["better_than_plain"] = sum(r["pondered"]["loss"] < r["plain"]["loss"] for r in records)
    out["shallower_than_plain"] = sum(r["pondered"]["depth"] < r["plain"]["depth"] for r in records)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="phalanx", choices=["phalanx", "anti-grid", "antipalos"])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--share", type=float, default=1.0, help="of level 3's budget a move")
    parser.add_argument("--deep", type=int, default=16, help="the reference's work, times a move's")
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--depth", type=int, help="judge at this fixed depth, no reference move")
    parser.add_argument("--times", type=float, help="ponder this many moves' work (default: the cap)")
    parser.add_argument("--resumed", action="store_true", help="the answer's search cut and gone on")
    args = parser.parse_args()
    began = time.perf_counter()
    indices = range(args.first, args.first + args.games)
    if args.resumed:
        with ProcessPoolExecutor(args.jobs) as pool:
            runs = [pool.submit(resumed, args.game, i, args.share, args.plies) for i in indices]
            got = resumed_summary([r for run in runs for r in run.result()])
        print(
            f"{got['positions']} positions: cut and gone on, the one go's move {got['cut_same']:.3f}; "
            f"the level's own {got['plain_same']:.3f}; plies finished {got['depth']}; the next "
            f"ply's root moves finished {got['next_ply']}; load {os.getloadavg()[0]:.1f}"
        )
        print(json.dumps({"bench": "ponder_moves", **vars(args), **got}))
        return 0
    with ProcessPoolExecutor(args.jobs) as pool:
        runs = [
            pool.submit(game, args.game, i, args.share, args.deep, args.plies, args.depth) for i in indices
        ]
        records = [r for run in runs for r in run.result()]
    got = summary(records)
    for k in ANSWERS:
        g = got[k]
        print(
            f"{k:<9} same as the reference {g['same']:.3f}, loss {g['loss']:.3f}, "
            f"blunders {g['blunders']}, plies finished {g['depth']}, the plain move {g['as_plain']:.3f}"
        )
    print(
        f"{got['positions']} positions (the reference finished {got['reference_depth']} plies); "
        f"pondered worse than plain in {got['worse_than_plain']}, better in {got['better_than_plain']}, "
        f"fewer plies finished in {got['shallower_than_plain']}; {time.perf_counter() - began:.0f} s, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    print(json.dumps({"bench": "ponder_moves", **vars(args), **got}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
