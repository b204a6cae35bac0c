"""hypothesis: noise around a legal game's sensor events (contact bounce, a hovering hand, a
piece fiddled with or slid away and back) never changes the moves the game keeps, and noise
shorter than ``quick_settle_ms`` is never read as a move at all."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import new_game
from firmware_host.store.config import Timing
from testbed.streams import kept, moves, run

SIZE = 4
GAP = 1500  # ms between the starts of two moves; noise ends within 400 ms of a move's start
#: Noise shorter than this is never read as a move; longer may be, for a moment, then corrected.
QUICK = Timing().quick_settle_ms


def real_events(state, move, t):
    """(time, site, on) of a player making ``move`` from ``t``."""
    real = state.realisations(move)[0]
    lifts = [(t, site, False) for site in sorted(real.emptied)]
    places = [(t + 100, site, True) for site in sorted(real.filled)]
    return lifts + places


@st.composite
def noise(draw, t, board, busy, sites, lengths, least=0):
    """``least`` to 3 noise events between t-50 and t+400 on sites not in ``busy``, each
    lasting ``lengths`` (ms, least and most)."""
    events = []
    free = [s for s in sites if s not in busy]
    for _ in range(draw(st.integers(least, 3))):
        if not free:
            break
        site = free.pop(draw(st.integers(0, len(free) - 1)))
        start = t + draw(st.integers(-50, 290))
        length = draw(st.integers(*lengths))
        kind = draw(st.sampled_from(["hover", "slide"]))
        if site in board:  # a piece lifted and put back, or slid to an empty site and back
            events += [(start, site, False), (start + length, site, True)]
            empty = [s for s in free if s not in board]
            if kind == "slide" and empty and length >= 20:
                other = empty[0]
                free.remove(other)
                events += [(start + 5, other, True), (start + length - 5, other, False)]
        else:  # a hand hovering over an empty site
            events += [(start, site, True), (start + length, site, False)]
    return events


@st.composite
def bounced(draw, event):
    """The event with contact bounce: the switch flickers back within 30 ms."""
    t, site, on = event
    out = [event]
    for _ in range(draw(st.integers(0, 2))):
        a = draw(st.integers(1, 25))
        b = draw(st.integers(a + 1, 30))
        out += [(t + a, site, not on), (t + b, site, on)]
    return out


def played_with_noise(data, longest, once=False):
    """A random Antipalos game with noise of at most ``longest`` ms around its moves (``once``:
    noise at least as long as the quick settle around one move, shorter around the others): its
    moves (notation) and the events the daemon made of its sensor stream."""
    state = new_game("antipalos", SIZE)
    labels = [s.label for s in state.sites()]
    events, played = [], []
    plies = data.draw(st.integers(1, 16), label="plies")
    long_ply = data.draw(st.integers(0, plies - 1), label="long noise's ply") if once else None
    for ply in range(plies):
        legal = state.legal_moves()
        if not legal:
            break
        move = legal[data.draw(st.integers(0, len(legal) - 1), label="move")]
        t = 200 + ply * GAP
        real = real_events(state, move, t)
        busy = {site for _, site, _ in real}
        lengths, least = (5, longest), 0
        if long_ply is not None:
            lengths, least = ((QUICK, longest), 1) if ply == long_ply else ((5, QUICK - 1), 0)
        events += data.draw(noise(t, state.occupied(), busy, labels, lengths, least), label="noise")
        for event in real:
            events += data.draw(bounced(event), label="bounce")
        played.append(state.notation(move))
        state = state.apply(move)
    timing = Timing()
    end = (
        200 + len(played) * GAP + timing.settle_ms + timing.takeback_ms + 500
    )  # a hover read last: taken back
    events.sort(key=lambda e: e[0])
    lines = [json.dumps({"t": t, "site": site, "on": on}) for t, site, on in events]
    lines.append(json.dumps({"t": end}))
    return played, run(lines, "antipalos", SIZE)


@settings(max_examples=30)
@given(st.data())
def test_noise_shorter_than_the_quick_settle_is_never_read_as_a_move(data):
    played, events = played_with_noise(data, QUICK - 1)
    assert moves(events) == played


@settings(max_examples=60)
@given(st.data())
def test_longer_noise_read_for_a_moment_is_corrected(data):
    """Noise up to 40 ms past the quick settle around one move may be read as a move; the
    piece then set down where it was meant corrects it, or the board reads it taken back."""
    played, events = played_with_noise(data, QUICK + 40, once=True)
    assert kept(events) == played


@settings(max_examples=30)
@given(st.data())
def test_longer_noise_again_and_again_is_never_kept_unsaid(data):
    """Such noise around any move: a hover read as a move, then made again over the same site
    as the meant piece is set down, can leave a move the players did not make. The board then
    shows that it differs (out of sync) and says nothing is right until it is set right."""
    played, events = played_with_noise(data, QUICK + 40)
    synced = [e["event"] for e in events if e["event"] in ("out_of_sync", "in_sync")]
    assert kept(events) == played or synced[-1:] == ["out_of_sync"]
