"""What each game's set is made of (``piece_sets()``), as the rules count it: the pieces the
set-up lays out, or a side's supply off the board."""

import pytest

import engines


def test_a_set_up_that_lays_out_every_piece_is_the_set():
    for game, size in (("anti-grid", 6), ("anti-grid", 8), ("phalanx", None)):
        state = engines.new_game(game, size, None)
        sets = state.piece_sets()
        assert sum(s.count * len(s.sides) for s in sets) == len(state.figures())
        for s in sets:  # one placement of each kind is a real piece of the set-up
            assert any(f.kind == s.kind and f.sites == s.sites for f in state.figures())


@pytest.mark.parametrize("size,supply", [(12, None), (14, 5)])
def test_antipalos_makes_each_sides_supply_of_trirods(size, supply):
    state = engines.new_game("antipalos", size, None, {"supply": supply} if supply else None)
    (rods,) = state.piece_sets()
    assert rods.count == (supply or 3 * size // 2) and rods.sides == ("white", "black")
    assert len(rods.sites) == 1 and rods.sensed


def test_antipodes_tokens_fill_the_board_and_its_pawns_are_not_sensed():
    state = engines.new_game("antipode", None, None)
    tokens, pawns = state.piece_sets()
    assert tokens.count * len(tokens.sides) == len(state.sites()) and "two-faced" in tokens.note
    assert pawns.count == 1 and len(pawns.sides) == 2 and not pawns.sensed


def test_antipod_has_stones_enough_for_the_longest_game():
    state = engines.new_game("antipod", 4, None)
    (stones,) = state.piece_sets()
    # Every site filled by one colour is more than a game can ask, a side's half far less.
    assert len(state.sites()) // 2 < stones.count < len(state.sites())
