"""The player robot in the field (testbed/field.py), at length, beside the in-process robot.

Episodes of ``--episode`` intentions drawn from the field's mix (moves, corrections, takebacks,
new games of the same game and of another from the page, the menu, an MQTT command, Home
Assistant's select and the dashboard, the daemon stopped or killed and started again, the broker
restarted; paired, takebacks asked again after a refusal and a restart), each on a fresh café
(Mosquitto with the docs' ACL, boards configured as docs/cafe.md writes them), one board and
the pair in turn. At most two daemons run at once. Prints the turns (one turn: one intention),
episodes, violations (each with its seed and episode number, to play again with ``--from n
--episodes 1``) and turns per second, beside the same figures of the in-process robot
(bench/robot.py's episodes) run in the same process for ``--baseline`` turns.

    python -m bench.field --minutes 3 --seed 1
    python -m bench.field --from 4 --episodes 1 --seed 1     # episode 4 again
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench import robot as inprocess
from bench.robust.common import report
from testbed import robot
from testbed.field import FIELD_KINDS, FIELD_MIX, PAIR_FIELD_MIX, run_field

#: The games episodes start with, in turn (one board and the pair in turn: each starts with
#: each, every one of them of two sides).
STARTS = (
    ("antipalos", 3, "two"),
    ("antipod", 4, None),
    ("phalanx", None, None),
    ("antipalos", 3, "team"),
    ("anti-grid", 6, "plain"),
    ("antipode", None, "standard"),
)


def field_episodes(seed: int, first: int, episodes: int, minutes: float, length: int) -> dict:
    """Field episodes from number ``first`` until ``episodes`` are done or ``minutes`` pass."""
    turns, violations, found, played, journal = 0, 0, [], set(), []
    began, n = time.monotonic(), first
    while n < first + episodes and time.monotonic() - began < 60 * minutes:
        paired = n % 2 == 1
        game = STARTS[n % len(STARTS)]
        number = seed * 1_000_003 + n
        intentions = robot.planned(number, PAIR_FIELD_MIX if paired else FIELD_MIX, length)
        with tempfile.TemporaryDirectory(prefix="field-") as folder:
            run = run_field(Path(folder), game, number, intentions, paired)
        turns += run.done + (run.violation is not None)
        played.update(title.split()[0] for title in run.games)
        journal += [f"episode {n}: {line}" for line in run.journal]
        if run.violation is not None:
            violations += 1
            found.append(
                {"episode": n, "paired": paired, "after": run.done, "violation": str(run.violation)[:300]}
            )
        n += 1
    seconds = time.monotonic() - began
    return {
        "turns": turns,
        "episodes": n - first,
        "violations": violations,
        "turns_per_second": round(turns / seconds, 2),
        "seconds": round(seconds, 1),
        "games_played": sorted(played),
        "found": found,
        "dashboard_said": journal,
    }


def baseline(seed: int, turns: int) -> dict:
    """The in-process robot's figures for ``turns`` turns (one board, the field's noise)."""
    with tempfile.TemporaryDirectory(prefix="robot-") as folder:
        opts = inprocess.Options(frozenset(FIELD_KINDS), dict(robot.MIX), False, folder)
        began, done, episodes, violations, n = time.monotonic(), 0, 0, 0, 0
        while done < turns:
            game = robot.GAMES[n % len(robot.GAMES)]
            ep = inprocess.run_episode(game, seed * 1_000_003 + n, min(40, turns - done), opts)
            done += ep.done + (ep.violation is not None)
            episodes += 1
            violations += ep.violation is not None
            n += 1
    seconds = time.monotonic() - began
    return {
        "turns": done,
        "episodes": episodes,
        "violations": violations,
        "turns_per_second": round(done / seconds, 1),
        "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="the field's run, at most")
    parser.add_argument("--episodes", type=int, default=1000, help="field episodes, at most")
    parser.add_argument("--episode", type=int, default=30, help="intentions per episode")
    parser.add_argument("--from", type=int, default=0, dest="first", help="the first episode's number")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", type=int, default=400, help="the in-process robot's turns")
    args = parser.parse_args(argv)
    field = field_episodes(args.seed, args.first, args.episodes, args.minutes, args.episode)
    lab = baseline(args.seed, args.baseline)
    rows = [
        (name.replace("_", " "), f"{field[name]} (in process: {lab[name]})")
        for name in ("turns", "episodes", "violations", "turns_per_second", "seconds")
    ]
    rows += [("games played", ", ".join(field["games_played"]))]
    rows += [("the dashboard said", line) for line in field["dashboard_said"]]
    rows += [
        (
            f"episode {f['episode']}{' (paired)' if f['paired'] else ''}",
            f"after {f['after']} intentions: {f['violation']}",
        )
        for f in field["found"]
    ]
    report(
        f"Player robot in the field: seed {args.seed}",
        rows,
        {"bench": "field", "field": field, "in_process": lab},
    )
    return 1 if field["violations"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
