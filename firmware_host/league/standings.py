"""Standings: each player's points, then the event's tie-breaks as FIDE's tie-break rules
define them, each breaking only the ties the ones before it left.

- Buchholz: the sum of the final scores of the player's opponents.
- Sonneborn-Berger: the sum, over the player's games, of the points scored times that
  opponent's final score.
- Direct encounter: among players still tied, the points scored in the games between them,
  when each of them has met each other one; otherwise it breaks nothing.

A round the player did not play over the board (a bye, a forfeit, a round before they
registered or after they withdrew) counts as played against a dummy opponent with the player's
own final score (FIDE's 2023 rule for unplayed rounds). In a pod, a game's opponent score is the
mean of the pod's other players' scores.

>>> from firmware_host.league.model import Pairing
>>> done = [Pairing(1, 1, ("A", "B"), (1.0, 0.0)), Pairing(1, 2, ("C", "D"), (0.5, 0.5)),
...         Pairing(2, 1, ("A", "C"), (0.5, 0.5)), Pairing(2, 2, ("D", "B"), (1.0, 0.0))]
>>> rows = standings(["A", "B", "C", "D"], done, ("buchholz",))
>>> [(r["rank"], r["name"], r["points"], r["buchholz"]) for r in rows]
[(1, 'A', 1.5, 1.0), (1, 'D', 1.5, 1.0), (3, 'C', 1.0, 3.0), (4, 'B', 0.0, 3.0)]
"""

from __future__ import annotations

import csv
import io
from statistics import mean
from typing import Any, Callable, Mapping, Sequence

from firmware_host.league.model import Pairing
from firmware_host.league.pairing import scores


def standings(
    players: Sequence[str], done: Sequence[Pairing], tiebreaks: Sequence[str], withdrawn: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """One row per player, best first: ``rank`` (shared by players tied on everything),
    ``name``, ``points``, ``played``, ``withdrawn`` and each tie-break's value (the direct
    encounter's only where it applies, else None). Only pairings with a result count."""
    results = [p for p in done if p.points is not None]
    points = scores(results)
    rounds = sorted({p.round for p in results})
    keys: dict[str, Callable[[str, list[str]], float | None]] = {
        "buchholz": lambda name, _: _weighted(name, results, rounds, points, lambda _p: 1.0),
        "sonneborn-berger": lambda name, _: _weighted(name, results, rounds, points, lambda p: p),
        "direct-encounter": lambda name, group: _direct(name, group, results),
    }
    groups = [
        [n for n in players if points[n] == value]
        for value in sorted({points[n] for n in players}, reverse=True)
    ]
    values: dict[str, dict[str, float | None]] = {n: {} for n in players}
    for tiebreak in tiebreaks:
        split = []
        for group in groups:
            for name in group:
                values[name][tiebreak] = keys[tiebreak](name, group)
            order = sorted({values[n][tiebreak] or 0.0 for n in group}, reverse=True)
            split += [[n for n in group if (values[n][tiebreak] or 0.0) == v] for v in order]
        groups = split
    rows, rank = [], 1
    for group in groups:
        for name in group:
            played = sum(1 for p in results if name in p.names and not p.bye and not p.forfeit)
            rows.append(
                {
                    "rank": rank,
                    "name": name,
                    "points": points[name],
                    "played": played,
                    "withdrawn": name in withdrawn,
                    **values[name],
                }
            )
        rank += len(group)
    return rows


def _weighted(
    name: str,
    results: Sequence[Pairing],
    rounds: Sequence[int],
    points: Mapping[str, float],
    weight: Callable[[float], float],
) -> float:
    """The sum over the rounds of weight(points scored) times the opponents' mean score (a
    dummy with the player's own score in an unplayed round)."""
    total = 0.0
    for round_no in rounds:
        game = next((p for p in results if p.round == round_no and name in p.names), None)
        others = game.opponents(name) if game is not None else ()
        scored = game.points[game.names.index(name)] if game is not None and game.points else 0.0
        total += weight(scored) * (mean(points[o] for o in others) if others else points[name])
    return total


def _direct(name: str, group: list[str], results: Sequence[Pairing]) -> float | None:
    """Points ``name`` scored against the rest of ``group``, if everyone in it met everyone
    else over the board; None otherwise (it breaks nothing)."""
    if len(group) < 2:
        return None
    between = [p for p in results if not p.forfeit and len(set(p.names) & set(group)) > 1]
    met = {frozenset((a, b)) for p in between for a in p.names for b in p.names if a != b}
    if any(frozenset((a, b)) not in met for a in group for b in group if a < b):
        return None
    return sum(p.points[p.names.index(name)] for p in between if name in p.names and p.points)


def as_csv(rows: Sequence[dict[str, Any]], tiebreaks: Sequence[str]) -> str:
    """Standings (with ratings, as the store gives them) as CSV, a header first.

    >>> print(as_csv([{"rank": 1, "name": "Anna", "points": 1.0, "played": 1, "buchholz": 0.0,
    ...                "rating": {"mu": 27.635, "sigma": 8.066}}], ["buchholz"]), end="")
    rank,name,points,played,buchholz,rating,uncertainty
    1,Anna,1.0,1,0.0,27.64,8.07
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "name", "points", "played", *tiebreaks, "rating", "uncertainty"])
    for r in rows:
        rating = r.get("rating") or {}
        shown = [f"{rating[k]:.2f}" if k in rating else "" for k in ("mu", "sigma")]
        writer.writerow([r["rank"], r["name"], r["points"], r["played"], *(r[t] for t in tiebreaks), *shown])
    return out.getvalue()
