"""The player robot that follows the board, at scale (testbed/robot.py).

Episodes of up to ``--episode`` intentions, each on a new board (a new SQLite file) with its own
seed: the robot plays every game and variant (``--game all``, small sizes) with noise and the
mix of intentions (moves, corrections, takebacks from the menu, a command or by hand, new games,
the computer brought in or sent away, restarts, the players named and league rounds sent by the
café, another language chosen from the menu), every other episode on a board wired in a
shuffled order read from a layout file (``--wiring``), or two paired boards over a faulty
in-memory bus (``--paired``; default wiring). Each board is scanned as the daemon's loop scans
hardware that can wake it (``--every-scan``: every period), and says each step's events as the
loop does (``say``). An episode ends at its first violation. Prints
the turns played (one turn: one intention), the violations by invariant and game, the
distinct failure kinds (invariant, game, intention) with the shortest stream of each, written
to ``--failures`` as a ``reedboard replay`` file (robot-only lines: ``command``,
``restart``) with the numbers of the first 20 episodes that failed so (``--from n --turns
40`` plays episode n again, alone), and the throughput beside a bare loop (the simulated board
scanned alone) measured in the same run. ``--shrink`` makes each kind's stream smaller first
(intentions left out while the same kind still fails). Stopped by SIGINT, SIGTERM or SIGHUP
(``timeout 600`` before the command: a slice of ten minutes), it ends the turn under way,
reports the episodes it finished and removes its folder of SQLite files.

    python -m bench.robot --turns 100000 --game all --seed 1
    python -m bench.robot --turns 2000 --game antipode --kinds slide,hover --mix move,correct
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass

from bench.robust.common import Stop, report
from firmware_host.board.controller import Game
from firmware_host.store.config import ClockConfig, Config
from hardware.sim import Noise, SimBoard
from testbed import robot
from testbed.board_under_test import BoardUnderTest, Table
from testbed.bus import Faults
from testbed.pair import PAIR_MIX, PAIR_SEATING, Pair
from testbed.robot import GAMES, KINDS, MIX, SEATING, Robot, Violated, Violation


@dataclass
class Episode:
    """One episode's intentions (as drawn), how many were done, and its violation if any."""

    game: tuple
    seed: int
    intentions: list[str]
    done: int = 0
    scans: int = 0
    violation: Violation | None = None
    #: Games that ended on a flag (at the first board).
    flags: int = 0
    #: Whether the bench's stop ended it before its last intention.
    stopped: bool = False

    @property
    def kind(self) -> tuple[str, str, str]:
        """(invariant, game, intention): how the episode failed."""
        v = self.violation
        return (shape(v), v.game, self.intentions[self.done]) if v else ("", "", "")


def clipped(text: str, most: int = 240) -> str:
    """``text`` with its middle cut out where it is longer than ``most``: a record's end is
    where it differs from what was meant.

    >>> clipped("a" * 10 + "b" * 10, 12)
    'aaaaaa … bbbbbb'
    """
    if len(text) <= most:
        return text
    half = most // 2
    return f"{text[:half]} … {text[-half:]}"


def shape(v: Violation) -> str:
    """The invariant, and for a record that is not the one meant, how it differs: a move
    recorded that was not made, a move made and lost, or another move recorded.

    >>> shape(Violation("intended", "recorded ['a', 'b'], meant ['a']", "g", ""))
    'intended: extra move'
    >>> shape(Violation("intended", "the board had x carried out, illegal here", "g", ""))
    'intended'
    """
    parts = v.detail.split(", meant ")
    if v.invariant != "intended" or len(parts) != 2:
        return v.invariant
    recorded, meant = (part.count("'") // 2 for part in parts)
    return "intended: " + (
        "extra move" if recorded > meant else "move lost" if recorded < meant else "other move"
    )


@dataclass
class Options:
    kinds: frozenset[str]
    mix: dict[str, int]
    paired: bool
    folder: str
    bounce: bool = True
    #: How a single board is wired: "default", "shuffled" (a layout file drawn per episode) or
    #: "mixed" (every other episode shuffled).
    wiring: str = "mixed"
    #: The boards' ``[clock]`` (none: no clock).
    clock: ClockConfig | None = None
    #: Each board scanned as the daemon's loop scans wakeable hardware (a settled board waits
    #: for a hand), else every scan period (the episodes found before ``--every-scan``).
    waits: bool = False
    #: The loop's ``say`` events too, each move checked to be said.
    speech: bool = False


#: The paired boards' bus: 5 % of messages dropped, 5 % sent twice, each delayed 0-300 ms.
FAULTS = Faults(0.05, 0.05, (0.0, 300.0))


#: The bench's stop, once :func:`stoppable` has made it the signals' handler.
STOP = Stop()


def one_board(game: Game, seed: int, opts: Options) -> BoardUnderTest:
    """Episode ``seed``'s single board: a new SQLite file in ``opts.folder``, contact bounce
    (``opts.bounce``), the default wiring or a layout file shuffled by the seed (``opts.wiring``)."""
    path = os.path.join(opts.folder, f"robot-{os.getpid()}-{seed}.db")
    noise = Noise(seed=seed) if opts.bounce else None
    shuffled = opts.wiring == "shuffled" or opts.wiring == "mixed" and seed % 2
    config = Config(clock=opts.clock) if opts.clock else Config()
    table = Table(1000 / config.timing.scan_hz, waits=opts.waits)
    wiring = random.Random(~seed) if shuffled else None
    return BoardUnderTest(
        game, path, table=table, noise=noise, wiring=wiring, config=config, speech=opts.speech
    )


def run_episode(
    game: tuple, seed: int, length: int, opts: Options, intentions: list[str] | None = None
) -> Episode:
    """Play one episode: ``intentions`` (else ``length`` drawn from the mix); the robot's
    choices for intention i come from a generator seeded by (``seed``, i), so leaving out an
    intention leaves the others' choices alone (what :func:`shrink` relies on)."""
    planned = intentions or robot.planned(seed, opts.mix, length)
    episode = Episode(game, seed, planned)
    rng = random.Random(seed)
    g = Game.of(*game)
    if opts.paired:
        table = Pair(
            g, rng, opts.kinds, FAULTS, opts.clock, waits=opts.waits, folder=opts.folder, speech=opts.speech
        )
        act, boards, over = table.act, table.boards, table.over
    else:
        board = one_board(g, seed, opts)
        table = Robot(board, rng, opts.kinds)
        act, boards = table.act, [board]
        over = table.over
    try:
        for i, intention in enumerate(planned):
            episode.done = i
            if STOP.by:
                episode.stopped = True
                break
            intention = planned[i] = robot.intend(rng, seed, i, intention, over())
            act(intention)
        else:
            episode.done = len(planned)
    except Violated as exc:
        episode.violation = exc.violation
    except Exception as exc:  # noqa: BLE001 - the "no exception" invariant
        episode.violation = Violation(
            "exception", f"{type(exc).__name__}: {exc}", " ".join(str(x) for x in game if x), boards[0].dump()
        )
    episode.scans = boards[0].table.scans
    episode.flags = sum((g.result or "").endswith("by time") for g in boards[0].storage.games())
    for board in boards:
        board.close()
    return episode


def shrink(ep: Episode, opts: Options, budget: int = 60) -> Episode:
    """Leave out intentions one at a time while the episode still fails the same way."""
    best = ep
    i = 0
    while i < best.done and budget > 0 and not STOP.by:
        budget -= 1
        trial = best.intentions[:i] + best.intentions[i + 1 : best.done + 1]
        again = run_episode(best.game, best.seed, 0, opts, trial)
        if again.violation and again.kind[:2] == best.kind[:2]:
            best = again
        else:
            i += 1
    return best


def stoppable() -> None:
    """Make :data:`STOP` the handler of SIGINT, SIGTERM and SIGHUP (Ctrl-C, ``kill`` or
    ``timeout``, a closed terminal): the robot looks between its turns, so that the episodes
    played so far are reported and the folder of SQLite files is removed."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, STOP)


def play(games: list[tuple], args: argparse.Namespace, opts: Options, episodes: list[Episode]) -> str:
    """Play episodes (appended to ``episodes``) until ``args.turns`` intentions are done; what
    stopped it early ("": nothing; "SIGINT", "SIGTERM"...: a signal, an episode it cut short
    left out)."""
    turns, n = 0, args.first
    while turns < args.turns and not STOP.by:
        game = games[n % len(games)]
        ep = run_episode(game, args.seed * 1_000_003 + n, min(args.episode, args.turns - turns), opts)
        if ep.stopped:
            break
        episodes.append(ep)
        turns += ep.done + (ep.violation is not None)
        n += 1
    return STOP.by


def baseline(scans: int, channels: int = 128) -> float:
    """Seconds for ``scans`` scans of a simulated board alone (the bare loop)."""
    board = SimBoard(channels)
    began = time.perf_counter()
    for _ in range(scans):
        board.scan()
    return time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10_000, help="intentions in all (default 10000)")
    parser.add_argument("--game", default="all", help="a game's name, or all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--episode", type=int, default=40, help="intentions per episode")
    parser.add_argument("--from", type=int, default=0, dest="first", help="the first episode's number")
    parser.add_argument("--kinds", default=",".join(KINDS), help="noise kinds (comma-separated)")
    parser.add_argument("--mix", default="", help="intentions to keep (prefixes, comma-separated)")
    parser.add_argument("--paired", action="store_true", help="two boards over a faulty bus")
    parser.add_argument(
        "--wiring",
        default="mixed",
        choices=("default", "shuffled", "mixed"),
        help="one board's wiring: the default layout, a shuffled layout file per "
        "episode, or every other episode shuffled (default)",
    )
    parser.add_argument("--clock", default="", help='a time control for every board ("10+1"; default: none)')
    parser.add_argument("--casual", action="store_true", help="with --clock: a game goes on after a flag")
    parser.add_argument(
        "--every-scan",
        action="store_true",
        help="scan every board every period, as the daemon does on hardware that cannot wake "
        "it (default: a settled board waits for a hand, as on wakeable hardware)",
    )
    parser.add_argument("--shrink", action="store_true", help="shrink each failure kind's stream")
    parser.add_argument("--failures", default="robot-failures", help="where streams go")
    args = parser.parse_args(argv)
    if (wrong := unknown(args)) is not None:
        print(f"robot: {wrong}", file=sys.stderr)
        return 2
    stoppable()
    try:
        return run(args)
    except KeyboardInterrupt:  # stopped again, at once
        print("robot: stopped before the figures were written", file=sys.stderr)
        return 130


def intentions(paired: bool) -> dict[str, int]:
    """The mix of intentions (name -> weight) on one board or on ``paired`` boards."""
    return {**PAIR_MIX, **PAIR_SEATING} if paired else {**MIX, **SEATING}


def unknown(args: argparse.Namespace) -> str | None:
    """What ``args`` name that the bench does not know, in words, with the names it does
    (None: every name is known).

    >>> unknown(argparse.Namespace(game="antigrid", kinds="", mix="", paired=False))
    "no game 'antigrid' (--game): all, anti-grid, antipalos, antipod, antipode, phalanx"
    >>> unknown(argparse.Namespace(game="antipod", kinds="hold", mix="move,take", paired=True))
    """
    mixes = intentions(args.paired)
    wrong = [
        ("game", "--game", [args.game], ["all", *sorted({g[0] for g in GAMES})], str.__eq__),
        ("noise kind", "--kinds", args.kinds.split(","), list(KINDS), str.__eq__),
        ("intention", "--mix", args.mix.split(","), sorted(mixes), str.startswith),
    ]
    for what, option, given, known, fits in wrong:
        for name in given:
            if name and not any(fits(k, name) for k in known):
                return f"no {what} {name!r} ({option}): {', '.join(known)}"
    if args.paired and not chosen(args):
        pairs = sorted({g[0] for g in GAMES if two_sided(g)})
        return f"no game of two sides to pair in {args.game!r} (--paired): {', '.join(pairs) or 'none'}"
    return None


def two_sided(game: tuple) -> bool:
    """Whether ``game`` (name, size, variant) is played by two sides (paired boards play it).

    >>> two_sided(("antipalos", 3, "two")), two_sided(("antipalos", 3, "cut-throat-3"))
    (True, False)
    """
    return len(Game.of(*game).new().sides) == 2


def chosen(args: argparse.Namespace) -> list[tuple]:
    """The games ``args`` ask for (``--game``'s variants; of two sides with ``--paired``)."""
    games = [g for g in GAMES if args.game in ("all", g[0])]
    return [g for g in games if two_sided(g)] if args.paired else games


def run(args: argparse.Namespace) -> int:
    """The bench as ``args`` ask; the exit status (1: a violation found)."""
    games = chosen(args)
    mix = intentions(args.paired)
    if args.mix:
        mix = {k: v for k, v in mix.items() if any(k.startswith(p) for p in args.mix.split(","))}
    kinds = frozenset(k for k in args.kinds.split(",") if k)
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else None  # the SQLite files in memory, if it can
    with tempfile.TemporaryDirectory(prefix="robot-", dir=shm) as folder:
        clock = ClockConfig(args.clock, casual=args.casual) if args.clock else None
        opts = Options(
            kinds,
            mix,
            args.paired,
            folder,
            wiring=args.wiring,
            clock=clock,
            waits=not args.every_scan,
            speech=True,
        )
        began, cpu = time.perf_counter(), time.process_time()
        episodes: list[Episode] = []
        stopped = play(games, args, opts, episodes)
        seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
        turns = sum(ep.done + (ep.violation is not None) for ep in episodes)
        scans = sum(ep.scans for ep in episodes)
        bare = baseline(scans)
        shortest: dict[tuple, Episode] = {}
        for ep in episodes:
            if ep.violation and (ep.kind not in shortest or ep.done < shortest[ep.kind].done):
                shortest[ep.kind] = ep
        if args.shrink and not stopped:
            shortest = {k: shrink(ep, opts) for k, ep in shortest.items()}
    failed = [ep for ep in episodes if ep.violation]
    by_game = Counter(f"{ep.violation.invariant} / {ep.violation.game}" for ep in failed)
    by_kind = Counter(f"{ep.kind[0]} after {ep.kind[2]}" for ep in failed)
    turns_by_game = Counter()
    for ep in episodes:
        turns_by_game[" ".join(str(x) for x in ep.game if x)] += ep.done
    if shortest:
        os.makedirs(args.failures, exist_ok=True)
    kinds_seen = {}
    for (invariant, game, intention), ep in sorted(shortest.items()):
        name = f"{invariant}-{game}-{intention}".replace(" ", "_")
        path = os.path.join(args.failures, f"{name}.jsonl")
        with open(path, "w", encoding="utf-8") as fp:
            fp.write(ep.violation.stream)
        kinds_seen[name] = {
            "episodes": sum(e.kind == ep.kind for e in episodes),
            "intentions": ep.done + 1,
            "stream": path,
            "numbers": [e.seed - args.seed * 1_000_003 for e in episodes if e.kind == ep.kind][:20],
            "detail": clipped(ep.violation.detail),
        }
    figures = {
        "bench": "robot",
        "turns": turns,
        "stopped_by": stopped or None,
        "episodes": len(episodes),
        "violations": sum(ep.violation is not None for ep in episodes),
        "games_lost_on_time": sum(ep.flags for ep in episodes),
        "violations_by_invariant_and_game": dict(sorted(by_game.items())),
        "violations_by_kind_and_intention": dict(by_kind.most_common()),
        "turns_by_game": dict(sorted(turns_by_game.items())),
        "failure_kinds": kinds_seen,
        "seconds": round(seconds, 1),
        "turns_per_second": round(turns / seconds, 1),
        "cpu_seconds": round(cpu, 1),
        "turns_per_cpu_second": round(turns / cpu, 1) if cpu else None,
        "scans": scans,
        "scans_per_second": round(scans / seconds),
        "bare_loop_scans_per_second": round(scans / bare) if bare else None,
    }
    rows = [(k.replace("_", " "), v) for k, v in figures.items() if k not in ("bench", "failure_kinds")]
    rows += [
        (
            f"kind {name}",
            f"{v['episodes']} episodes (numbers {v['numbers']}); shortest "
            f"{v['intentions']} intentions: {v['stream']}",
        )
        for name, v in kinds_seen.items()
    ]
    mode = "paired boards" if args.paired else "one board"
    report(f"Player robot ({mode}): {turns} turns, game {args.game}, seed {args.seed}", rows, figures)
    return 1 if shortest else 0


if __name__ == "__main__":
    raise SystemExit(main())
