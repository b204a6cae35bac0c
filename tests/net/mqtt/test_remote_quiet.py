"""A paired board's loop polls the other board at every scan, mostly with nothing new: what is
new still reaches its players at the next scan, whether it comes from the other board, from
the players here, or from time alone (a board never heard)."""

from __future__ import annotations

from firmware_host.board.opponent import Ask, Play, Seen
from firmware_host.net.mqtt import topics
from firmware_host.net.mqtt.remote import Remote, moves_topic
from testbed.bus import Bus
from tests.net.mqtt.test_remote_history import GAME, TOKEN, pair, seen


def polled_quiet(remote: Remote, here: Seen) -> None:
    """The board's loop scans a while with nothing new: each poll asks nothing."""
    for _ in range(3):
        assert remote.poll(here) == []


def test_a_board_never_heard_is_said_out_of_reach_though_nothing_moves_here():
    bus = Bus()
    t1 = Remote(bus.link("t1"), "t1", "t2", "second", clock=lambda: bus.now / 1000)
    bus.deliver(0)
    here = seen(())
    polled_quiet(t1, here)
    bus.deliver(4900)
    assert t1.poll(here) == [] and t1.note is None
    bus.deliver(5100)
    t1.poll(here)
    assert t1.note is not None and "Cannot hear board t2" in t1.note


def test_the_other_boards_move_reaches_a_board_that_heard_nothing_for_long():
    bus, moves = Bus(), ("B2*",)
    t1, t2 = pair(bus)
    polled_quiet(t1, seen(moves))
    game = Remote.payload(GAME.name, GAME.size, GAME.variant, TOKEN, ["B2*", "A1*"], [], None, None)
    bus.link("t2").publish(moves_topic("t2"), game, retain=True)
    bus.deliver(100)
    here = Seen(GAME, 1, moves, seen(moves).states, awaiting=True, final=True, token=TOKEN)
    (play,) = t1.poll(here)
    assert isinstance(play, Play) and play.move == "A1*"


def test_the_players_no_to_a_takeback_is_sent_though_the_pieces_did_not_move():
    bus, moves = Bus(), ("B2*", "A1*")
    t1, t2 = pair(bus)
    here = seen(moves)
    assert t1.poll(here) == t2.poll(here) == []
    t2.takeback(here)
    t2.poll(here)
    bus.deliver(1)
    (ask,) = t1.poll(here)
    assert isinstance(ask, Ask)
    polled_quiet(t1, here)  # the question stands on the screen a while
    ask.answer(False)  # BACK
    t1.poll(here)
    bus.deliver(2)
    t2.poll(here)
    assert t2.note == Remote.REFUSED


def test_the_other_board_going_offline_is_said_at_once():
    bus = Bus()
    t1, _ = pair(bus)
    polled_quiet(t1, seen(()))
    bus.link("t2").publish(topics.availability_topic("t2"), topics.OFFLINE, retain=True)
    bus.deliver(50)
    t1.poll(seen(()))
    assert t1.note == "Opponent offline"
