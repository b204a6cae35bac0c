"""Standings and tie-breaks, from a published crosstable and by hand."""

from __future__ import annotations

from firmware_host.league.model import Pairing
from firmware_host.league.standings import standings


def _double_round_robin() -> list[Pairing]:
    """The double round robin of four players A-D that Sensei's Library publishes on its
    "Sonneborn-Berger" page (as read in its snapshot of 2003-08-25,
    https://senseis.xmp.net/files/snapshots/2001-2005/senseis-library-2003-08-25-diff.tgz):
    1 for a win, 0 for a loss, no draws. Its crosstable, by row (the cycle, then A B C D):

        A | - 1 1 1 | - 0 1 0 |  4 wins, Sonneborn-Berger 4+3+3+1 = 11
        B | 0 - 1 1 | 1 - 0 1 |  4 wins, 4+3+1+1 = 9
        C | 0 0 - 1 | 0 1 - 1 |  3 wins, 4+1+1 = 6
        D | 0 0 0 - | 1 0 0 - |  1 win,  4 = 4

    played here in six rounds of two tables."""
    first = {("A", "B"): 1, ("A", "C"): 1, ("A", "D"): 1, ("B", "C"): 1, ("B", "D"): 1, ("C", "D"): 1}
    second = {("A", "B"): 0, ("A", "C"): 1, ("A", "D"): 0, ("B", "C"): 0, ("B", "D"): 1, ("C", "D"): 1}
    rounds = [[("A", "B"), ("C", "D")], [("A", "C"), ("B", "D")], [("A", "D"), ("B", "C")]]
    done = []
    for cycle, results in enumerate((first, second)):
        for n, tables in enumerate(rounds, 1 + 3 * cycle):
            for t, pair in enumerate(tables, 1):
                won = float(results[pair])
                done.append(Pairing(n, t, pair, (won, 1.0 - won)))
    return done


def test_sonneborn_berger_reproduces_the_published_crosstable() -> None:
    rows = standings(["A", "B", "C", "D"], _double_round_robin(), ("direct-encounter", "sonneborn-berger"))
    assert [(r["name"], r["points"], r["sonneborn-berger"]) for r in rows] == [
        ("A", 4.0, 11.0),
        ("B", 4.0, 9.0),
        ("C", 3.0, 6.0),
        ("D", 1.0, 4.0),
    ]
    # A and B split their two games: the direct encounter leaves them tied, Sonneborn-Berger decides
    assert rows[0]["direct-encounter"] == rows[1]["direct-encounter"] == 1.0
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]


def test_buchholz_sums_the_opponents_scores() -> None:
    rows = {r["name"]: r for r in standings(["A", "B", "C", "D"], _double_round_robin(), ("buchholz",))}
    # by hand: each player met each other one twice (A 4, B 4, C 3, D 1 points)
    assert {n: r["buchholz"] for n, r in rows.items()} == {
        "A": 2 * (4 + 3 + 1),
        "B": 2 * (4 + 3 + 1),
        "C": 2 * (4 + 4 + 1),
        "D": 2 * (4 + 4 + 3),
    }


def test_direct_encounter_decides_only_among_players_who_all_met() -> None:
    done = [
        Pairing(1, 1, ("A", "B"), (0.0, 1.0)),
        Pairing(1, 2, ("C", "D"), (1.0, 0.0)),
        Pairing(2, 1, ("A", "C"), (1.0, 0.0)),
        Pairing(2, 2, ("B", "D"), (0.0, 1.0)),
    ]
    rows = standings(["A", "B", "C", "D"], done, ("direct-encounter",))
    by_name = {r["name"]: r for r in rows}
    # A and B met: B won. C and D met: C won. All four on 1 point, but not all met: no direct encounter
    assert {r["points"] for r in rows} == {1.0}
    assert {r["direct-encounter"] for r in rows} == {None}
    assert {r["rank"] for r in rows} == {1}
    two = standings(["A", "B"], done[:1], ("direct-encounter",))
    assert by_name and [r["name"] for r in two] == ["B", "A"]


def test_a_bye_counts_as_a_game_against_a_dummy_with_the_players_own_score() -> None:
    done = [
        Pairing(1, 1, ("A", "B"), (1.0, 0.0)),
        Pairing(1, 2, ("C",), (1.0,)),
        Pairing(2, 1, ("C", "A"), (0.0, 1.0)),
        Pairing(2, 2, ("B",), (1.0,)),
    ]
    rows = {r["name"]: r for r in standings(["A", "B", "C"], done, ("buchholz", "sonneborn-berger"))}
    assert rows["A"]["points"] == 2.0 and rows["A"]["played"] == 2
    # A met B (1) and C (1); C met A (2) and had a bye (its own 1); B met A (2), bye (its own 1)
    assert (rows["A"]["buchholz"], rows["B"]["buchholz"], rows["C"]["buchholz"]) == (2.0, 3.0, 3.0)
    # Sonneborn-Berger: A beat B (1) and C (1); C's bye: 1 x its own 1
    assert (rows["A"]["sonneborn-berger"], rows["C"]["sonneborn-berger"]) == (2.0, 1.0)


def test_a_forfeit_scores_but_is_no_encounter() -> None:
    done = [Pairing(1, 1, ("A", "B"), (1.0, 0.0), forfeit=True)]
    rows = {r["name"]: r for r in standings(["A", "B"], done, ("buchholz", "direct-encounter"))}
    assert rows["A"]["points"] == 1.0 and rows["A"]["played"] == 0
    assert rows["A"]["buchholz"] == 1.0  # the dummy opponent: A's own score
