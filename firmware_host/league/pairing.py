"""Pairing a round: Swiss (FIDE's Dutch system) and round robin (Berger tables) through the
caissify-pairings library, pods for games of three or four seats written here.

Every function takes the event's players in seeding order (their registration) and the rounds
paired so far, and returns the new round's tables: the games first, numbered from 1, then the
bye (one player alone at no board). A bye scores :data:`BYE_POINTS`.

>>> from firmware_host.league.model import Event
>>> event = Event("Thursday", "anti-grid", 6)
>>> [p.names for p in pair(event, ["Anna", "Ben", "Cleo", "Dan", "Eve"], [], 1)]
[('Anna', 'Cleo'), ('Dan', 'Ben'), ('Eve',)]
"""

from __future__ import annotations

import warnings
from collections import Counter, defaultdict
from typing import Iterable, Sequence

from firmware_host.i18n import _, ngettext
from firmware_host.league.model import Event, LeagueError, Pairing

#: A bye's points.
BYE_POINTS = 1.0


def pair(event: Event, players: Sequence[str], done: Sequence[Pairing], round_no: int) -> list[Pairing]:
    """Round ``round_no`` of ``event`` for ``players`` (in seeding order) after the pairings
    ``done``; LeagueError when it cannot be paired."""
    if len(players) < event.seats:
        raise LeagueError(
            ngettext(
                "{event}: {n} player registered, {seats} needed at least",
                "{event}: {n} players registered, {seats} needed at least",
                len(players),
            ).format(event=event.name, n=len(players), seats=event.seats)
        )
    tables: list[tuple[str, ...]]
    if event.format == "pods":
        tables = pods(players, done, event.seats)
    else:
        tables = _library(event, players, done, round_no)
    byes_last = sorted(tables, key=lambda names: len(names) == 1)
    return [Pairing(round_no, n, names) for n, names in enumerate(byes_last, 1)]


def scores(done: Iterable[Pairing]) -> defaultdict[str, float]:
    """Each player's points so far (0 for one not met yet).

    >>> dict(scores([Pairing(1, 1, ("A", "B"), (1.0, 0.0)), Pairing(1, 2, ("C",), (1.0,))]))
    {'A': 1.0, 'B': 0.0, 'C': 1.0}
    """
    total: defaultdict[str, float] = defaultdict(float)
    for p in done:
        for name, points in zip(p.names, p.points or (0.0,) * len(p.names)):
            total[name] += points
    return total


def _library(
    event: Event, players: Sequence[str], done: Sequence[Pairing], round_no: int
) -> list[tuple[str, ...]]:
    """Swiss or round robin, from caissify-pairings: its players' histories (score, colours,
    floats, byes, who met whom) written as its engine asks."""
    from caissify_pairings import generate_pairings

    ids = {name: n for n, name in enumerate(players, 1)}
    rows = [_history(name, ids[name], done) for name in players]
    met = {
        tuple(sorted((ids[a], ids[b])))
        for p in done
        if not p.bye and not p.forfeit and all(n in ids for n in p.names)
        for a, b in [p.names]
    }
    system = "dutch" if event.format == "swiss" else "round_robin"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            rows_out = generate_pairings(
                system=system,
                players=rows,
                previous_pairings=met,
                round_number=round_no,
                total_rounds=event.rounds if system == "dutch" else len(players) - 1 + len(players) % 2,
            )
        except Exception as exc:  # noqa: BLE001 - the library says why in its own words
            raise LeagueError(
                _("{event}: round {n} cannot be paired ({why})").format(event=event.name, n=round_no, why=exc)
            ) from None
    names = {n: name for name, n in ids.items()}
    return [
        (names[r["white_id"]],)
        if r.get("bye") or r.get("black_id") is None
        else (names[r["white_id"]], names[r["black_id"]])
        for r in sorted(rows_out, key=lambda r: r["table"])
    ]


def _history(name: str, number: int, done: Sequence[Pairing]) -> dict:
    """A player's history as the library takes it: score, colours, floats, and the rounds won
    without playing (a bye's full point, a forfeit win), which keep the pairing's bye from
    them. As in bbpPairings, a round not played over the board is a downfloat when it scored,
    and a half-point or zero-point bye asked for leaves the player in line for the bye."""
    colours, floats, byes, forfeit_wins = [], [], 0, 0
    before: defaultdict[str, float] = defaultdict(float)
    for round_no in sorted({p.round for p in done}):
        tables = [p for p in done if p.round == round_no]
        mine = next((p for p in tables if name in p.names), None)
        if mine is None or mine.bye or mine.forfeit:
            scored = mine.points[mine.names.index(name)] if mine is not None and mine.points else 0.0
            colours.append("none")
            floats.append("down" if scored > 0 else "none")
            byes += mine is not None and mine.bye and scored >= BYE_POINTS
            forfeit_wins += mine is not None and mine.forfeit and scored >= BYE_POINTS
        else:
            seat = mine.names.index(name)
            other = mine.names[1 - seat]
            colours.append(("white", "black")[seat])
            floats.append(
                "down" if before[name] > before[other] else "up" if before[name] < before[other] else "none"
            )
        for player, points in scores(tables).items():
            before[player] += points
    return {
        "id": number,
        "name": name,
        "score": before[name],
        "rating": 0,
        "starting_number": number,
        "color_hist": colours,
        "float_history": floats,
        "bye_count": byes,
        "forfeit_win_count": forfeit_wins,
    }


def pods(players: Sequence[str], done: Sequence[Pairing], seats: int) -> list[tuple[str, ...]]:
    """Pods of ``seats`` players, by score (then seeding): each pod takes the best placed player
    left and then, one by one, whoever has met its players least often; the players left over
    (when the count does not divide) get byes, the lowest placed without a bye first. Within a
    pod, whoever sat first least often sits first.

    >>> pods(["A", "B", "C", "D", "E", "F", "G"], [], 3)
    [('A', 'B', 'C'), ('D', 'E', 'F'), ('G',)]
    >>> first = [Pairing(1, 1, ("A", "B", "C")), Pairing(1, 2, ("D", "E", "F"))]
    >>> pods(["A", "B", "C", "D", "E", "F"], first, 3)
    [('B', 'A', 'D'), ('C', 'E', 'F')]
    """
    points = scores(done)
    order = sorted(players, key=lambda n: (-points[n], players.index(n)))
    had_bye = {p.names[0] for p in done if p.bye}
    left_over = len(order) % seats
    byes = [n for n in reversed(order) if n not in had_bye][:left_over]
    byes += [n for n in reversed(order) if n not in byes][: left_over - len(byes)]
    met: Counter[frozenset[str]] = Counter(
        frozenset((a, b)) for p in done if not p.bye for a in p.names for b in p.names if a < b
    )
    first = Counter(p.names[0] for p in done if not p.bye)
    rest = [n for n in order if n not in byes]
    tables: list[tuple[str, ...]] = []
    while rest:
        pod = [rest.pop(0)]
        while len(pod) < seats:
            pick = min(rest, key=lambda n: (sum(met[frozenset((n, m))] for m in pod), rest.index(n)))
            rest.remove(pick)
            pod.append(pick)
        head = min(pod, key=lambda n: (first[n], pod.index(n)))
        pod.remove(head)
        tables.append((head, *pod))
    return tables + [(n,) for n in reversed(byes)]
