"""Ratings: OpenSkill's Plackett-Luce model, checked against its formulas worked by hand."""

from __future__ import annotations

import math

import pytest

from firmware_host.league.model import Pairing
from firmware_host.league.ratings import rate

MU, SIGMA = 25.0, 25.0 / 3
#: The model's defaults (openskill 6): the spread of one game's performance, and the uncertainty
#: added before each game (tau, so that a rating can still move after many games).
BETA, TAU = SIGMA / 2, 25.0 / 300


def plackett_luce_two(mu: list[float], sigma: list[float], winner: int) -> list[tuple[float, float]]:
    """One game of two sides (no draw) by the Plackett-Luce update of Weng and Lin (2011),
    Algorithm 4, as written out here: each sigma first grown by tau, c = sqrt(sum(sigma^2 +
    beta^2)), each side's chance p = exp(mu/c) / sum(exp(mu/c)) over the sides still in at its
    rank, gamma = sigma / c."""
    sigma = [math.sqrt(s * s + TAU * TAU) for s in sigma]
    c = math.sqrt(sum(s * s + BETA * BETA for s in sigma))
    e = [math.exp(m / c) for m in mu]
    out = []
    for i in (0, 1):
        p_first = e[i] / (e[0] + e[1])  # at rank 1 both are in
        omega = sigma[i] ** 2 / c * ((1 - p_first) if i == winner else -p_first)
        # the loser alone at rank 2 adds nothing more (its chance there is 1)
        delta = (sigma[i] / c) * sigma[i] ** 2 / c**2 * p_first * (1 - p_first)
        out.append((mu[i] + omega, sigma[i] * math.sqrt(max(1 - delta, 1e-4))))
    return out


def test_a_win_moves_both_ratings_as_plackett_luce_says() -> None:
    table = rate([("anti-grid", 6, "E", Pairing(1, 1, ("Anna", "Ben"), (1.0, 0.0)))])[("anti-grid", 6)]
    (anna_mu, anna_sigma), (ben_mu, ben_sigma) = plackett_luce_two([MU, MU], [SIGMA, SIGMA], 0)
    assert table["Anna"]["mu"] == pytest.approx(anna_mu)
    assert table["Ben"]["mu"] == pytest.approx(ben_mu)
    assert table["Anna"]["sigma"] == pytest.approx(anna_sigma) and table["Ben"]["sigma"] == pytest.approx(
        ben_sigma
    )
    assert table["Anna"]["ordinal"] == pytest.approx(anna_mu - 3 * anna_sigma)


def test_ratings_are_kept_per_game_and_size_and_skip_byes_and_forfeits() -> None:
    games = [
        ("anti-grid", 6, "E", Pairing(1, 1, ("Anna", "Ben"), (1.0, 0.0))),
        ("anti-grid", 8, "F", Pairing(1, 1, ("Anna", "Ben"), (0.0, 1.0))),
        ("anti-grid", 6, "E", Pairing(2, 1, ("Cleo",), (1.0,))),
        ("anti-grid", 6, "E", Pairing(2, 2, ("Anna", "Ben"), (1.0, 0.0), forfeit=True)),
    ]
    table = rate(games)
    assert set(table) == {("anti-grid", 6), ("anti-grid", 8)}
    assert table[("anti-grid", 6)]["Anna"]["games"] == 1 and "Cleo" not in table[("anti-grid", 6)]
    assert table[("anti-grid", 8)]["Ben"]["mu"] > MU > table[("anti-grid", 8)]["Anna"]["mu"]


def test_a_draw_leaves_equal_ratings_equal_and_less_uncertain() -> None:
    table = rate([("phalanx", None, "E", Pairing(1, 1, ("A", "B"), (0.5, 0.5)))])[("phalanx", None)]
    assert table["A"]["mu"] == pytest.approx(MU) == pytest.approx(table["B"]["mu"])
    assert table["A"]["sigma"] < SIGMA


def test_teams_and_pods_rate_every_seat() -> None:
    team = Pairing(1, 1, ("A", "B", "C", "D"), (1.0, 0.0, 1.0, 0.0))
    table = rate([("antipalos", 5, "T", team)], seat_sides={"T": ("white", "black", "white", "black")})[
        ("antipalos", 5)
    ]
    assert table["A"]["mu"] == pytest.approx(table["C"]["mu"])
    assert table["A"]["mu"] > MU > table["B"]["mu"]
    pod = Pairing(1, 1, ("A", "B", "C"), (0.0, 1.0, 0.0))
    table = rate([("antipalos", 5, "P", pod)])[("antipalos", 5)]
    assert table["B"]["mu"] > MU > table["A"]["mu"]
