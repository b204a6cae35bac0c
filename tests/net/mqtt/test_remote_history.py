"""Two boards' histories through the remote opponent alone (firmware_host/net/mqtt/remote.py),
over the in-memory bus: what each board is asked to do when the other's messages arrive late,
twice, or from a board that restarted in between."""

from __future__ import annotations

from dataclasses import replace

from firmware_host.board.controller import Game
from firmware_host.board.opponent import Ask, Asked, Play, Seen, TakeBackTo, Withdraw
from firmware_host.net.mqtt import topics
from firmware_host.net.mqtt.remote import Remote
from testbed.bus import Bus

GAME = Game.of("antipalos", 3, "two")
TOKEN = "00000001764050000000:t1"


def seen(
    moves: tuple[str, ...], rewrites: tuple[tuple[int, str], ...] = (), game_id: int = 1, token: str = TOKEN
) -> Seen:
    """The game at a board that is idle: ``moves`` played, ``rewrites`` made."""
    states = [GAME.new()]
    for move in moves:
        states.append(states[-1].play(states[-1].parse_move(move)))
    return Seen(
        GAME, game_id, moves, tuple(states), awaiting=False, final=True, token=token, rewrites=rewrites
    )


def remote(bus: Bus, board: str) -> Remote:
    """Board ``board``'s view of the other board, which takes the first seat (white) at t2 and
    the second (black) at t1."""
    other, side = ("t2", "second") if board == "t1" else ("t1", "first")
    bus.link(board).publish(topics.availability_topic(board), topics.ONLINE, retain=True)  # as it connects
    return Remote(bus.link(board), board, other, side, clock=lambda: bus.now / 1000)


def pair(bus: Bus) -> tuple[Remote, Remote]:
    """Boards t1 and t2, connected: each has heard the other is online."""
    t1, t2 = remote(bus, "t1"), remote(bus, "t2")
    bus.deliver(bus.now)
    return t1, t2


def test_an_agreed_takeback_stands_when_the_board_that_agreed_restarts_before_it_is_heard():
    """t2 asks to take back its players' last move; t1's players agree and t1 takes them back, then t1's
    daemon restarts before its history went out. The new t1 finds the request still on the
    broker, of a position it has left, and says no to it; t2 takes the history t1 sends, not
    that no: both boards end with t1's move alone (before, t2 said "refused" and kept its moves)."""
    bus, moves = Bus(), ("B2*", "A1*")
    t1, t2 = pair(bus)
    here = seen(moves)
    assert t1.poll(here) == t2.poll(here) == []  # both play the game
    assert isinstance(t2.takeback(here), Asked) and t2.poll(here) == []
    bus.deliver(1)
    (ask,) = t1.poll(here)
    assert isinstance(ask, Ask)
    ask.answer(True)  # OK
    assert t1.poll(here) == [TakeBackTo(1)]
    t1 = remote(bus, "t1")  # restarted: what it agreed to is in its history, its answer is not
    bus.deliver(2)  # the broker hands the new t1 what it retained
    t1.poll(seen(moves[:1], ((1, "black"),)))
    bus.deliver(3)
    assert t2.poll(here) == [TakeBackTo(1)]
    assert t2.note != Remote.REFUSED


def test_a_refusal_is_news_of_its_game_only():
    """t1 asks to take back its move; t2's players say no: t1 says so. Then a new game begins
    at t1: the refusal is no longer said, and t2's "no" is not kept for the new game, where a
    request at the same count of moves would read it as refused (before, "The opponent refused
    the take back" stayed on t1's screen through every later game)."""
    bus, t1, t2, here, ask = _asked_of_t2()
    ask.answer(False)  # BACK
    t2.poll(here)
    bus.deliver(2)
    t1.poll(here)
    assert t1.note == Remote.REFUSED
    new = seen((), game_id=2, token="00000001764050009999:t1")  # a new game, named at t1
    for _ in range(2):  # named, then published
        t1.poll(new)
        t2.poll(new)
    assert t1.note is None
    assert '"answer": null' in bus.retained["reedboard/t2/moves"].decode()


def _refused(bus: Bus, t1: Remote, t2: Remote, here: Seen, to: int | None = None) -> None:
    """t1 asks to take back (``to``: the pieces show that position), t2's players say no, and
    t1 hears it."""
    assert isinstance(t1.takeback(here, to), Asked)
    t1.poll(here)
    bus.deliver(bus.now + 1)
    (ask,) = t2.poll(here)
    ask.answer(False)  # BACK
    t2.poll(here)
    bus.deliver(bus.now + 1)
    t1.poll(here)
    assert t1.note == Remote.REFUSED


def _asked_again_and_agreed(bus, t1, t2, here) -> None:
    """t1's players ask again after t2's "no": t1 waits (the old "no", still retained, does not
    answer it), t2's players are asked, and their OK takes the move back."""
    answer = t1.takeback(here)
    assert isinstance(answer, Asked) and answer.waiting and t1.note == Remote.ASKED
    assert t1.takeback(here) == answer  # the board judges again meanwhile: the same request
    t1.poll(here)
    bus.deliver(bus.now + 1)
    assert t1.poll(here) == [] and t1.note == Remote.ASKED
    (ask,) = t2.poll(here)
    assert isinstance(ask, Ask)
    ask.answer(True)  # OK
    assert t2.poll(here) == [TakeBackTo(0)]


def test_a_takeback_refused_can_be_asked_again_from_the_menu():
    """t1's players ask to take back their move, t2's say no; t1's ask again: t2's players are
    asked again (the first "no", still retained, does not answer it), and their OK takes it back
    (before, asking again was refused at once without asking)."""
    bus = Bus()
    t1, t2 = pair(bus)
    here = seen(("B2*",))
    assert t1.poll(here) == t2.poll(here) == []
    _refused(bus, t1, t2, here)
    _asked_again_and_agreed(bus, t1, t2, here)


def test_a_takeback_by_hand_refused_is_heard_once_then_asked_again():
    """t1's players set the pieces back and t2's say no: the board, judging the pieces still
    set back, hears the refusal (they are guided back) and does not ask again by itself; the
    players setting them back once more ask again."""
    bus = Bus()
    t1, t2 = pair(bus)
    here = seen(("B2*",))
    assert t1.poll(here) == t2.poll(here) == []
    _refused(bus, t1, t2, here, to=0)
    heard = t1.takeback(here, 0)  # the board judges the pieces, still set back
    assert isinstance(heard, Asked) and not heard.waiting and heard.why == Remote.REFUSED
    again = t1.takeback(here, 0)  # set back once more, after they were guided back
    assert isinstance(again, Asked) and again.waiting
    t1.poll(here)
    bus.deliver(bus.now + 1)
    (ask,) = t2.poll(here)
    assert isinstance(ask, Ask)


def test_a_takeback_refused_then_asked_again_after_the_asking_board_restarts_reaches_the_other_board():
    """t1's players ask to take back, t2's say no; t1 restarts; t1's players ask again: t1
    waits for t2's answer and t2's players are asked (before, the count of asks was lost with
    the restart, t2's "no" still on the broker answered the new request at once: "The opponent
    refused the take back", and t2 was never asked)."""
    bus = Bus()
    t1, t2 = pair(bus)
    here = seen(("B2*",))
    assert t1.poll(here) == t2.poll(here) == []
    _refused(bus, t1, t2, here)
    t1 = remote(bus, "t1")  # restarted
    bus.deliver(bus.now + 1)  # the broker hands the new t1 what it retained
    assert t1.poll(here) == [] and t1.note is None
    _asked_again_and_agreed(bus, t1, t2, here)


def _asked_of_t2():
    """A pair after one move whose t1 asks to take back, put to t2's players: (the bus, t1,
    t2, the position, t2's question)."""
    bus = Bus()
    t1, t2 = pair(bus)
    here = seen(("B2*",))
    assert t1.poll(here) == t2.poll(here) == []
    t1.takeback(here)
    t1.poll(here)
    bus.deliver(bus.now + 1)
    (ask,) = t2.poll(here)
    assert isinstance(ask, Ask)
    return bus, t1, t2, here, ask


def test_a_takeback_asked_when_the_asking_board_restarts_still_stands_on_both_boards():
    """t1's players ask to take back and t1 restarts while t2's players are being asked: t1
    still says it waits for the answer, t2 still asks (nothing withdrawn), and t2's OK takes
    the move back on both boards (before, t1 forgot its request: t2's question went away
    unsaid, and had t2 agreed first, t1 would have refused the takeback as asked by nobody)."""
    bus, t1, t2, here, ask = _asked_of_t2()
    t1 = remote(bus, "t1")  # restarted while t2's players think
    t1.poll(here)
    bus.deliver(bus.now + 1)
    assert t1.poll(here) == [] and t1.note == Remote.ASKED
    bus.deliver(bus.now + 1)
    assert t2.poll(here) == [] and t2.note is None  # still asked: no withdrawal
    ask.answer(True)  # OK
    assert t2.poll(here) == [TakeBackTo(0)]
    t2.poll(seen((), ((0, "white"),)))
    bus.deliver(bus.now + 1)
    assert t1.poll(here) == [TakeBackTo(0)]


def test_a_request_the_asking_board_no_longer_knows_is_said_withdrawn_on_the_board_asked():
    """t1 restarts while t2 is asked, and the broker lost what t1 kept there (it restarted
    too, without persistence): t1 publishes no request; t2's question goes and its screen
    says the opponent no longer asks, until the game moves on."""
    bus, t1, t2, here, ask = _asked_of_t2()
    del bus.retained["reedboard/t1/moves"]  # the broker forgot it
    t1 = remote(bus, "t1")
    bus.deliver(bus.now + 1)
    t1.poll(here)
    assert t1.note is None
    bus.deliver(bus.now + 1)
    assert t2.poll(here) == [Withdraw()] and t2.note == Remote.WITHDRAWN
    assert t2.poll(here) == [] and t2.note == Remote.WITHDRAWN  # said until the game moves on
    t2.poll(seen(("B2*", "C3*")))
    assert t2.note is None


def test_a_takeback_of_a_move_heard_in_the_same_message_is_put_to_the_players():
    """t1's players move and ask to take it back before t2 has read the move (its message lost,
    or the two sent at once): t2 reads both in one message. It lights the move and asks its
    players (before, it said no at once, the move not yet lit there: found by the robot)."""
    bus = Bus()
    t1, t2 = pair(bus)
    before, here = seen(()), seen(("B2*",))
    assert t1.poll(before) == t2.poll(before) == []
    waiting = replace(before, awaiting=True)  # t2 waits for t1's move
    t1.poll(here)  # the move goes out; t2 does not read it yet
    assert isinstance(t1.takeback(here), Asked)
    t1.poll(here)
    bus.deliver(bus.now + 1)  # t2 keeps the last message: the move and the request
    intents = t2.poll(waiting)
    asks = [intent for intent in intents if isinstance(intent, Ask)]
    assert len(asks) == 1 and "Opponent asks to undo 1 move" in asks[0].screen.lines, intents
    assert [intent.move for intent in intents if isinstance(intent, Play)] == ["B2*"]
    asks[0].answer(True)  # OK
    lit = replace(waiting, pending="B2*")
    assert t2.poll(lit) == [TakeBackTo(0)]
