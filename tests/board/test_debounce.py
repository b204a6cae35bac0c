"""The two-layer debouncer: per-channel counts, ambiguous channels, board settle."""

from hypothesis import given
from hypothesis import strategies as st

from firmware_host.board.debounce import Debouncer
from hardware.base import Scan

CHANNELS = 4
PERIOD = 10

readings = st.lists(st.frozensets(st.integers(0, CHANNELS - 1)), min_size=1, max_size=80)


def feed_all(debouncer, scans):
    """Feed scans at PERIOD ms; the stable set after each scan and the settle scans."""
    stable, settles = [], []
    for i, scan in enumerate(scans):
        if debouncer.feed(i * PERIOD, scan).settled:
            settles.append(i)
        stable.append(debouncer.stable)
    return stable, settles


@given(readings, st.integers(1, 5))
def test_a_change_needs_n_consecutive_equal_readings(raw, n):
    scans = [Scan(frozenset()), *(Scan(r) for r in raw)]
    stable, _ = feed_all(Debouncer(scans=n, settle_ms=50), scans)
    for i in range(1, len(scans)):
        for ch in stable[i] ^ stable[i - 1]:
            value = ch in stable[i]
            window = scans[i - n + 1 : i + 1]
            assert len(window) == n and all((ch in s.closed) == value for s in window)


@given(readings, st.integers(1, 5))
def test_debounced_pulses_last_at_least_n_scans(raw, n):
    scans = [Scan(frozenset()), *(Scan(r) for r in raw)]
    stable, _ = feed_all(Debouncer(scans=n), scans)
    for ch in range(CHANNELS):
        flips = [i for i in range(1, len(stable)) if (ch in stable[i]) != (ch in stable[i - 1])]
        assert all(b - a >= n for a, b in zip(flips, flips[1:]))


@given(readings, st.integers(1, 5))
def test_n_equal_readings_always_get_through(raw, n):
    final = raw[-1]
    scans = [Scan(frozenset()), *(Scan(r) for r in raw), *[Scan(final)] * n]
    stable, _ = feed_all(Debouncer(scans=n), scans)
    assert stable[-1] == final


@given(readings, st.lists(st.frozensets(st.integers(0, CHANNELS - 1)), min_size=1, max_size=80))
def test_ambiguous_channels_hold_their_last_sound_state(raw, ghosts):
    scans = [Scan(frozenset())]
    for closed, ghost in zip(raw, ghosts):
        scans.append(Scan(closed, ambiguous=ghost))
    d = Debouncer(scans=2, settle_ms=30)
    before = d.stable
    for i, scan in enumerate(scans):
        change = d.feed(i * PERIOD, scan)
        assert not (change.closed | change.opened) & scan.ambiguous
        assert not (change.settled and scan.ambiguous)
        assert (d.stable ^ before) & scan.ambiguous == frozenset()
        before = d.stable


@given(readings)
def test_the_board_settles_once_after_the_last_change(raw):
    settle_ms = 60
    scans = [Scan(frozenset()), *(Scan(r) for r in raw), *[Scan(raw[-1])] * 20]
    _, settles = feed_all(Debouncer(scans=3, settle_ms=settle_ms), scans)
    last_change = max(i for i in range(len(scans)) if i == 0 or scans[i] != scans[i - 1])
    assert settles and settles[-1] == last_change + settle_ms // PERIOD
    for i in settles:
        window = scans[i - settle_ms // PERIOD : i + 1]
        assert len(set(window)) == 1


def test_a_ghosted_board_never_settles():
    d = Debouncer(scans=3, settle_ms=100)
    ghost = Scan(frozenset({1, 2}), ambiguous=frozenset({1, 2, 5}))
    assert not any(d.feed(t, ghost).settled for t in range(0, 2000, 10))
    assert d.stable == frozenset() and not d.quiet(2000)
    assert any(d.feed(t, Scan(frozenset({1, 2}))).settled for t in range(2000, 2500, 10))
    assert d.stable == {1, 2}


def test_a_known_start_settles_without_a_change():
    d = Debouncer(scans=3, settle_ms=100, initial=frozenset({4}))
    results = [d.feed(t, Scan(frozenset({4}))) for t in range(0, 300, 10)]
    assert [bool(r.settled) for r in results].count(True) == 1
    assert d.stable == {4}
