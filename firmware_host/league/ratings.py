"""Ratings: OpenSkill's Plackett-Luce model (the ``openskill`` library), one rating per player
for each game and size, updated by every game played over the board in order (byes and
forfeits are not rated).

Plackett-Luce rates any number of sides and teams from their finishing order, so one model
serves a game of two, a pod of three or four and two teams of two. Each rating is a mean ``mu``
and an uncertainty ``sigma`` (25 and 25/3 for a newcomer); the standings show mu ± sigma and
order by ``mu - 3 sigma`` (the ``ordinal``: a rating the player is very likely above).

>>> from firmware_host.league.model import Pairing
>>> table = rate([("anti-grid", 6, "anti-grid", Pairing(1, 1, ("Anna", "Ben"), (1.0, 0.0)))])
>>> a, b = table[("anti-grid", 6)]["Anna"], table[("anti-grid", 6)]["Ben"]
>>> round(a["mu"], 3), round(b["mu"], 3), round(a["sigma"], 3), a["games"]
(27.635, 22.365, 8.066, 1)
"""

from __future__ import annotations

from typing import Any, Iterable

from firmware_host.league.model import Pairing

#: A rated game: (game, size, event name, the pairing with its result).
Rated = tuple[str, "int | None", str, Pairing]


def rate(
    games: Iterable[Rated], seat_sides: dict[str, tuple[str, ...]] | None = None
) -> dict[tuple[str, Any], dict[str, dict[str, Any]]]:
    """Every player's rating after ``games`` (in the order played), by (game, size): ``mu``,
    ``sigma``, ``ordinal``, ``games`` and ``history`` (event, round, mu, sigma after each
    game). ``seat_sides``: the side each seat plays, by event name (seats of one side are a
    team; default: each seat its own side)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    table: dict[tuple[str, Any], dict[str, dict[str, Any]]] = {}
    for game, size, event, pairing in games:
        if pairing.bye or pairing.forfeit or pairing.points is None:
            continue
        ratings = table.setdefault((game, size), {})
        seats = (seat_sides or {}).get(event) or tuple(str(i) for i in range(len(pairing.names)))
        teams = [[n for n, s in zip(pairing.names, seats) if s == side] for side in dict.fromkeys(seats)]
        team_points = [pairing.points[pairing.names.index(team[0])] for team in teams]
        ranks = [1.0 + sum(p > mine for p in team_points) for mine in team_points]
        before = [[_rating(model, ratings, n) for n in team] for team in teams]
        after = model.rate(before, ranks=ranks)
        for team, rated in zip(teams, after):
            for name, r in zip(team, rated):
                row = ratings.setdefault(name, {"games": 0, "history": []})
                row.update(mu=r.mu, sigma=r.sigma, ordinal=r.ordinal(), games=row["games"] + 1)
                row["history"].append({"event": event, "round": pairing.round, "mu": r.mu, "sigma": r.sigma})
    return table


def _rating(model: Any, ratings: dict[str, dict[str, Any]], name: str) -> Any:
    row = ratings.get(name)
    return (
        model.rating(name=name) if row is None else model.rating(mu=row["mu"], sigma=row["sigma"], name=name)
    )
