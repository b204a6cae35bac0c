"""Short run of bench/robust/noisy.py: noise around random legal games of every game never
makes a false move, a spurious takeback, or loses a true move once the board settles."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.robust.noisy import run_all, run_stream, summarise


@pytest.mark.slow  # 150 streams; the quick run keeps the seeded ones below
def test_noisy_streams_of_every_game_accept_exactly_the_moves_played():
    results = run_all(streams=150, seed=11, workers=1)
    figures = summarise(results, 0.0)
    assert set(figures["streams_by_game"]) == {"antipalos", "antipode", "antipod", "anti-grid", "phalanx"}
    assert figures["moves"] > 800
    assert figures["false_moves_accepted"] == 0
    assert figures["spurious_takebacks"] == 0
    assert figures["true_moves_missed"] == 0
    assert figures["never_settled"] == 0
    assert figures["wrong_final_records"] == 0
    assert figures["corrections"] > 0  # pieces rested on a wrong site, then moved on
    assert figures["ok_presses_by_game"]["antipode"] == 0  # flips tracked by their lifts


def test_streams_are_repeatable():
    a, b = run_stream(4242), run_stream(4242)
    assert (a.intended, a.accepted, a.scans, a.kinds) == (b.intended, b.accepted, b.scans, b.kinds)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**40))
def test_any_seeded_stream_ends_with_the_moves_played(seed):
    """Every game (picked by the seed) with its compound turns (flips tracked by lifting, taps
    on landings, removals), noise kinds drawn by the seed, pieces resting on a wrong site."""
    result = run_stream(seed, plies=(2, 8))
    assert not result.failed, result.failure
    assert result.accepted == result.intended


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**40))
def test_a_board_read_the_moment_it_changes_ends_with_the_moves_played(seed):
    """Scanned as the daemon scans a board that wakes it (a piece set down is read at once,
    between two scans, as the simulated board and the serial link are): the same noise, still
    only the moves played."""
    result = run_stream(seed, plies=(2, 8), woken=True)
    assert not result.failed, result.failure
    assert result.accepted == result.intended
