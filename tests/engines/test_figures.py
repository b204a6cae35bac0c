"""The drawing hook for pieces: every game's figures stand exactly on the occupied sites, each
in a side of the game, through random games."""

from __future__ import annotations

import random

import pytest

import engines


@pytest.mark.parametrize("game", engines.GAME_NAMES)
def test_figures_cover_the_occupied_sites_in_the_sides_colours(game):
    info = engines.game_info(game)
    state = engines.new_game(game, info.default_size, info.default_variant)
    rng = random.Random(game)
    labels = {site.label for site in state.sites()}
    for _ in range(40):
        figures = state.figures()
        standing = [
            f
            for f in figures
            if f.kind != "pawn" or not any(g.kind != "pawn" and set(g.sites) & set(f.sites) for g in figures)
        ]
        covered = [site for f in standing for site in f.sites]
        assert sorted(covered) == sorted(state.occupied())  # each site once
        assert all(f.side in state.sides and set(f.sites) <= labels for f in figures)
        if state.outcome() or not state.legal_moves():
            break
        state = state.apply(rng.choice(state.legal_moves()))


def test_antipode_shows_both_pawns_on_tokens_of_their_colour():
    state = engines.new_game("antipode", None, None)
    pawns = {f.side: f.sites for f in state.figures() if f.kind == "pawn"}
    faces = state.faces()
    assert set(pawns) == {"blue", "red"}
    assert all(faces[sites[0]] == side for side, sites in pawns.items())


def test_a_phalanx_piece_is_one_figure_over_all_its_triangles():
    state = engines.new_game("phalanx", None, None)
    sizes = {len(f.sites) for f in state.figures()}
    assert max(sizes) > 1 and sum(len(f.sites) for f in state.figures()) == len(state.occupied())
