"""A board whose loop waits on a settled table (hardware that wakes it) hears the paired board
at once: what the other board sends wakes the loop, as a hand or a command does."""

from __future__ import annotations

from firmware_host.net.mqtt import topics
from firmware_host.net.mqtt.remote import Remote, moves_topic
from hardware.wake import Waker
from testbed.bus import Bus


def waiting_board() -> tuple[Bus, Waker]:
    """Board t1, paired with t2, its loop's waker given to its link with the other board,
    everything sent so far taken in."""
    bus, waker = Bus(), Waker()
    Remote(bus.link("t1"), "t1", "t2", "second").wakes(waker)
    bus.deliver(0.0)
    waker.wait(0.0)
    return bus, waker


def test_the_other_boards_game_wakes_a_waiting_loop():
    bus, waker = waiting_board()
    game = Remote.payload("antipod", 4, None, "", ["b2"], [], None, None)
    bus.link("t2").publish(moves_topic("t2"), game, retain=True)
    assert not waker.wait(0.0)  # still on its way
    bus.deliver(0.0)
    assert waker.wait(0.0)


def test_the_other_board_coming_online_and_a_stranger_on_this_boards_topic_wake_it():
    bus, waker = waiting_board()
    bus.link("t2").publish(topics.availability_topic("t2"), topics.ONLINE)
    bus.deliver(0.0)
    assert waker.wait(0.0)
    stranger = Remote.payload("antipod", 4, None, "", ["d4"], [], None, None)
    bus.link("x").publish(moves_topic("t1"), stranger, retain=True)  # this board's game overwritten
    bus.deliver(0.0)
    assert waker.wait(0.0)  # it publishes its own again at once
