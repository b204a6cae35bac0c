"""The ``clock`` event of a takeback, as a reader of the events (a replay's output, the page's
event log) takes it: ``t - elapsed`` is when the clocks last switched, so the switches a reader
finds never go back in time, and the takeback's is the takeback itself (the clocks set back
then, nobody's running), not the game's start."""

import pytest

from firmware_host.store.config import ClockConfig, Config
from testbed.streams import Stream, of, run


@pytest.mark.parametrize("takeback", ["restore", "keep"])
def test_a_takeback_s_clock_event_is_timed_at_the_takeback(takeback):
    stream = Stream().wait(1000).place("A1*").settle().wait(2000).place("A3*").settle().wait(3000)
    stream.lift("A3*").wait(2000).settle()  # Black's move lifted back and held: taken back
    events = run(stream.text(), "antipalos", 3, config=Config(clock=ClockConfig("60+2", takeback=takeback)))
    assert of(events, "takeback") == [{"move": "A3*"}]
    told = [e for e in events if e["event"] == "clock"]
    (set_back,) = [e for e, before in zip(told[1:], told) if e["running"] is None and before["running"]]
    assert set_back["elapsed"] == 0  # set back as the takeback is told: no clock ran since
    switched = [e["t"] - e["elapsed"] for e in told]
    assert switched == sorted(switched), told
