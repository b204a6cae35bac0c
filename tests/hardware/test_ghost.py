"""The ghost detector: a reading is ambiguous exactly when two rows share two closed columns."""

from hypothesis import given
from hypothesis import strategies as st

from hardware.ghost import ambiguous_cells, ghosted, matrix_scan

cells = st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=14)


def has_rectangle(reading):
    rows = {}
    for r, c in reading:
        rows.setdefault(r, set()).add(c)
    return any(len(rows[a] & rows[b]) >= 2 for a in rows for b in rows if a < b)


@given(cells)
def test_ambiguous_exactly_when_two_rows_share_two_columns(reading):
    assert bool(ambiguous_cells(reading)) == has_rectangle(reading)


@given(cells)
def test_ambiguous_cells_are_corners_of_rectangles(reading):
    for r, c in ambiguous_cells(reading):
        assert (r, c) in reading
        assert any(
            (r2, c) in reading and (r, c2) in reading and (r2, c2) in reading
            for r2 in range(6)
            for c2 in range(6)
            if r2 != r and c2 != c
        )


@given(cells)
def test_a_sound_reading_is_the_truth(truth):
    reading = ghosted(truth)
    assert truth <= reading
    if not ambiguous_cells(reading):
        assert reading == truth


@given(cells)
def test_ghosting_is_idempotent(truth):
    assert ghosted(ghosted(truth)) == ghosted(truth)


def test_l_shape_ghosts_its_fourth_corner():
    assert ghosted({(0, 0), (0, 3), (2, 0)}) == {(0, 0), (0, 3), (2, 0), (2, 3)}


def test_chain_ghosts_across_three_rows():
    truth = {(0, 0), (1, 0), (1, 1), (2, 1)}
    assert ghosted(truth) == {(r, c) for r in range(3) for c in range(2)}


@given(st.sets(st.integers(0, 35), max_size=20))
def test_diode_boards_are_never_ambiguous(reading):
    scan = matrix_scan(reading, columns=6, diodes=True)
    assert scan.sound and scan.closed == frozenset(reading)


@given(st.sets(st.integers(0, 35), max_size=20))
def test_diodeless_scan_splits_sure_and_unsure(reading):
    scan = matrix_scan(reading, columns=6, diodes=False)
    assert scan.closed | scan.ambiguous == frozenset(reading)
    assert not scan.closed & scan.ambiguous
