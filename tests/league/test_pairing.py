"""Pairing: Swiss rounds keep to the Dutch system's rules, round robins to Berger's tables, pods
mix the players."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from firmware_host.league.model import Event, LeagueError, Pairing
from firmware_host.league.pairing import pair

NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ida"]


def _play(event: Event, players: list[str], rounds: int, seed: int) -> list[Pairing]:
    """``rounds`` rounds paired one after another, each game's result drawn at random."""
    chance, done = random.Random(seed), []
    for n in range(1, rounds + 1):
        for p in pair(event, players, done, n):
            points = (1.0,) if p.bye else chance.choice([(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)])
            done.append(Pairing(p.round, p.table, p.names, points))
    return done


@pytest.mark.parametrize("count", [7, 8, 9])
@pytest.mark.parametrize("seed", range(4))
def test_swiss_pairs_everyone_without_rematches_and_balances_colours(count: int, seed: int) -> None:
    event = Event("Thursday", "anti-grid", 6, rounds=5)
    players = NAMES[:count]
    done = _play(event, players, 5, seed)
    for n in range(1, 6):
        seated = [name for p in done if p.round == n for name in p.names]
        assert sorted(seated) == sorted(players)  # every player paired or given the bye, once
    games = Counter(frozenset(p.names) for p in done if not p.bye)
    assert max(games.values()) == 1  # no rematch
    byes = [p.names[0] for p in done if p.bye]
    assert len(byes) == len(set(byes))  # one bye each at most
    for name in players:
        whites = sum(1 for p in done if not p.bye and p.names[0] == name)
        blacks = sum(1 for p in done if not p.bye and p.names[1] == name)
        assert abs(whites - blacks) <= 2


def test_the_bye_goes_to_the_lowest_placed_player_without_one() -> None:
    event = Event("Thursday", "anti-grid", 6)
    players = ["A", "B", "C"]
    first = pair(event, players, [], 1)
    assert first[-1].names == ("C",)  # the lowest seed
    done = [Pairing(1, 1, first[0].names, (1.0, 0.0)), Pairing(1, 2, ("C",), (1.0,))]
    second = pair(event, players, done, 2)
    loser = first[0].names[1]
    assert [p.names for p in second if p.bye] == [(loser,)]


def test_round_robin_follows_bergers_tables() -> None:
    event = Event("Club", "anti-grid", 6, format="round-robin", rounds=3)
    rounds = [{p.names for p in pair(event, ["1", "2", "3", "4"], [], n)} for n in (1, 2, 3)]
    # FIDE's Berger table for four players (the colours as written: white first): 1-4 2-3 / 4-3 1-2 / 2-4 3-1
    assert rounds == [{("1", "4"), ("2", "3")}, {("4", "3"), ("1", "2")}, {("2", "4"), ("3", "1")}]


def test_pods_of_three_meet_new_players_each_round() -> None:
    event = Event("Cut-throat", "antipalos", 5, "cut-throat-3", format="pods")
    players = NAMES[:9]
    done: list[Pairing] = []
    for n in (1, 2):
        tables = pair(event, players, done, n)
        assert all(len(p.names) == 3 for p in tables)
        done += [Pairing(n, p.table, p.names, (1.0, 0.0, 0.0)) for p in tables]
    met = Counter(frozenset((a, b)) for p in done for a in p.names for b in p.names if a < b)
    assert max(met.values()) == 1


def test_teams_of_two_sit_alternately_and_leftovers_get_byes() -> None:
    event = Event("Teams", "antipalos", 5, "team", format="pods")
    assert (event.seats, [event.side_of(s) for s in range(4)]) == (4, ["white", "black", "white", "black"])
    tables = pair(event, NAMES[:9], [], 1)
    assert [len(p.names) for p in tables] == [4, 4, 1]


def test_an_event_refuses_a_format_its_game_cannot_take() -> None:
    with pytest.raises(LeagueError, match="--format: a game of 3 seats is played in pods"):
        Event("X", "antipalos", 5, "cut-throat-3")
    with pytest.raises(LeagueError, match="--game: no game 'chess'"):
        Event("X", "chess")
    with pytest.raises(LeagueError, match="2 players registered, 3 needed"):
        pair(Event("X", "antipalos", 5, "cut-throat-3", format="pods"), ["A", "B"], [], 1)


def test_a_half_or_zero_point_bye_leaves_the_player_in_line_for_the_pairing_bye() -> None:
    """FIDE's Dutch system keeps the pairing-allocated bye from a player who has scored a point
    without playing (that bye, or a forfeit win), not from one away for a round with ½ or 0:
    Eve, away in round 1 and beaten in round 2, is the lowest placed in round 3 and gets it."""
    event = Event("Thursday", "anti-grid", 6, rounds=3)
    players = ["Anna", "Ben", "Cleo", "Dan", "Eve"]
    for points in (0.5, 0.0):
        done = [
            Pairing(1, 1, ("Anna", "Ben"), (1.0, 0.0)),
            Pairing(1, 2, ("Cleo", "Dan"), (1.0, 0.0)),
            Pairing(1, 3, ("Eve",), (points,)),
            Pairing(2, 1, ("Anna", "Cleo"), (0.5, 0.5)),
            Pairing(2, 2, ("Dan", "Eve"), (1.0, 0.0)),
            Pairing(2, 3, ("Ben",), (1.0,)),
        ]
        assert pair(event, players, done, 3)[-1].names == ("Eve",), points
