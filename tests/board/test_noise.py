"""hypothesis: noise around a legal game's sensor events (contact bounce, a hovering hand, a
piece fiddled with or slid away and back) never changes the moves the daemon accepts."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import new_game
from testbed.streams import moves, run

SIZE = 4
GAP = 1500  # ms between the starts of two moves; noise ends within 400 ms of a move's start


def real_events(state, move, t):
    """(time, site, on) of a player making ``move`` from ``t``."""
    real = state.realisations(move)[0]
    lifts = [(t, site, False) for site in sorted(real.emptied)]
    places = [(t + 100, site, True) for site in sorted(real.filled)]
    return lifts + places


@st.composite
def noise(draw, t, board, busy, sites):
    """Noise events between t-50 and t+400 on sites not in ``busy``."""
    events = []
    free = [s for s in sites if s not in busy]
    for _ in range(draw(st.integers(0, 3))):
        if not free:
            break
        site = free.pop(draw(st.integers(0, len(free) - 1)))
        start = t + draw(st.integers(-50, 290))
        length = draw(st.integers(5, 100))
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


@settings(max_examples=30)
@given(st.data())
def test_noise_never_changes_the_accepted_moves(data):
    state = new_game("antipalos", SIZE)
    labels = [s.label for s in state.sites()]
    events, played = [], []
    for ply in range(data.draw(st.integers(1, 16), label="plies")):
        legal = state.legal_moves()
        if not legal:
            break
        move = legal[data.draw(st.integers(0, len(legal) - 1), label="move")]
        t = 200 + ply * GAP
        real = real_events(state, move, t)
        busy = {site for _, site, _ in real}
        events += data.draw(noise(t, state.occupied(), busy, labels), label="noise")
        for event in real:
            events += data.draw(bounced(event), label="bounce")
        played.append(state.notation(move))
        state = state.apply(move)
    end = 200 + len(played) * GAP + 500
    events.sort(key=lambda e: e[0])
    lines = [json.dumps({"t": t, "site": site, "on": on}) for t, site, on in events]
    lines.append(json.dumps({"t": end}))
    accepted = moves(run(lines, "antipalos", SIZE))
    assert accepted == played
