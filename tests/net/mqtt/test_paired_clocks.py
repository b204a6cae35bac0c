"""Game clocks on paired boards, over a bus with a known delay: each board times its own
players and sends the time each turn took with the move, so both boards keep the same clocks;
the bus's delay and carrying a move out are nobody's time; a restart of either board keeps
them together."""

import json

import pytest

from firmware_host.actions.commands import SetClock
from firmware_host.board.controller import Game
from firmware_host.net.mqtt.remote import Remote, moves_topic
from firmware_host.store.storage import Storage
from testbed.board_under_test import BoardUnderTest
from testbed.clocked import DELAY_MS, clocked_pair
from testbed.pair import Pair
from testbed.pairs import carried_out, t1_and_t2
from testbed.robot import Robot
from testbed.tools import wait_until

#: The real-broker tests' clock: ten minutes each.
CLOCK = '[clock]\ncontrol = "600"\n'


def lit(board: BoardUnderTest) -> None:
    """The board lights the other board's move (within 5 s)."""
    for _ in range(50):
        if board.lit():
            break
        board.run(100)


def carry(board: BoardUnderTest, wait_ms: float) -> None:
    """The players see the lit move, take ``wait_ms`` and carry it out."""
    lit(board)
    board.run(wait_ms)
    for site, kind in board.lit().items():
        (board.lift if kind == "remove" else board.place)(site)
    board.settle()


def move(board: BoardUnderTest, site: str, think_ms: float) -> None:
    board.run(think_ms)
    board.place(site)
    board.settle()


def answered_alike(one: BoardUnderTest, two: BoardUnderTest) -> None:
    """Black's players at t2 answer A1* after 1 s and t1's carry it out: both boards then keep
    the same clocks for every move."""
    move(two, "A1*", 1000)
    carry(one, 500)
    assert kept(one) == kept(two)


def shown(board: BoardUnderTest) -> dict[str, float]:
    return board.controller.clock.clocks.shown(board.now_ms)


def apart(one: BoardUnderTest, two: BoardUnderTest) -> float:
    """How far apart the two boards' clocks are now (ms)."""
    a, b = shown(one), shown(two)
    return max(abs(a[side] - b[side]) for side in a)


def kept(board: BoardUnderTest) -> list[dict]:
    """The clocks stored after each move: each side's time left."""
    readings = board.storage.clocks(board.game_id())
    return [json.loads(readings[ply])["left"] for ply in sorted(readings)]


def placed(board: BoardUnderTest, site: str) -> float:
    """When the board's sensor saw a piece set on ``site`` last."""
    return [line["t"] for line in board.lines if line.get("site") == site and line["on"]][-1]


def test_both_boards_keep_the_same_clocks_the_bus_and_the_carrying_charged_to_nobody():
    with clocked_pair() as pair:
        one, two = pair.boards
        move(one, "B2*", 2000)  # White at t1
        carry(two, 1500)  # Black's players carry it out at t2, 1.5 s after it is lit
        assert two.controller.clock.clocks.running == "black"
        two.run(1000)
        assert one.controller.clock.clocks.running == "black" and apart(one, two) <= DELAY_MS
        move(two, "A1*", 2000)
        black = placed(two, "A1*") - placed(two, "B2*")  # from White's move carried out to Black's
        carry(one, 2500)
        one.run(500)
        assert kept(one) == kept(two)  # the same readings after each move on both boards
        assert kept(one)[-1]["black"] == 60_000 - black  # neither the bus nor the carrying
        assert one.controller.clock.clocks.running == "white" and apart(one, two) <= DELAY_MS


def test_a_restart_of_either_board_keeps_the_clocks_together():
    with clocked_pair() as pair:
        one, two = pair.boards
        move(one, "B2*", 2000)
        carry(two, 1000)
        two.run(3000)
        one.restart()  # t1 off for no time at all, while Black thinks at t2
        one.run(1000)
        assert one.controller.clock.clocks.running == "black" and apart(one, two) <= DELAY_MS
        two.run(2000)
        two.restart()  # t2's own players' clock resumes as stored: t1 hears how
        two.run(1000)
        assert apart(one, two) <= DELAY_MS
        answered_alike(one, two)


def test_a_restart_amid_a_move_s_follow_ups_charges_the_turn_so_far_on_both_boards():
    """Antipod: White's token k8 is recorded at t1, its twin still to place, when t1 restarts.
    t1 charges White the turn as far as it went when the move was recorded (not nothing, which
    showed White's whole time at t1 while t2 showed what was left), and t2 the same."""
    with clocked_pair(Game.of("antipod")) as pair:
        one, two = pair.boards
        move(one, "k8", 3000)
        assert one.lit() and one.controller.moves  # recorded, the twin lit
        one.run(500)
        one.restart()
        move(one, "k19", 500)  # the twin: White's turn is over
        carry(two, 1000)  # the token, then its twin
        carry(two, 300)
        two.run(1000)
        one.run(1000)
        assert shown(one)["white"] <= 60_000 - 3000
        assert kept(one) == kept(two) and apart(one, two) <= DELAY_MS


def test_a_move_corrected_by_its_players_while_the_other_side_thinks_keeps_the_clocks_together():
    """White's players at t1 change their move B2* to C3* while Black thinks at t2: t2 takes
    the move back and makes the corrected one, so Black's turn begins again once C3* stands
    there; t1 charges Black nothing before the correction either (it charged Black's time up
    to the correction: 2.8 s apart)."""
    with clocked_pair() as pair:
        one, two = pair.boards
        move(one, "B2*", 2000)
        carry(two, 1000)
        two.run(2000)  # Black thinks at t2
        one.lift("B2*")
        move(one, "C3*", 500)  # corrected: the next side has not begun
        assert one.held() == ("C3*",)
        carry(two, 1000)  # B2* back off the board, C3* on
        two.run(1000)
        assert two.held() == ("C3*",) and one.clocks().running == two.clocks().running == "black"
        assert apart(one, two) <= DELAY_MS
        assert shown(two)["black"] > 60_000 - 2000  # its time before the correction not charged
        answered_alike(one, two)


def test_a_turn_s_start_heard_late_from_what_the_broker_kept_is_timed_from_when_it_began():
    """t1's connection is down while Black's players carry out White's move at t2: the word
    that Black's turn began is lost, and t1 hears t2's game only when it reconnects, as the
    broker kept it, saying Black's turn had run a moment when it was sent, 2 s before. t1
    asks again (its own game sent again) and Black's clock runs there as from when Black's
    turn began at t2 (it ran from the reconnection: 2.3 s apart)."""
    with clocked_pair() as pair:
        one, two = pair.boards
        move(one, "B2*", 2000)
        lit(two)
        pair.bus.cut("t1")
        carry(two, 1000)
        two.run(3000)  # t1 reconnects after 2 s
        assert one.clocks().running == two.clocks().running == "black"
        assert apart(one, two) <= DELAY_MS


def test_team_play_a_restart_amid_a_turn_heard_late_keeps_the_player_s_clock_together():
    """Antipalos Team play: t2 restarts while its player B1 thinks, t1's connection down.
    t2 resumes B1's clock as stored (the turn so far charged to nobody); t1 hears of it only
    at its reconnection, from t2's game as the broker kept it, and then charges B1 as t2
    does, as from the restart (it ran from the reconnection: 2.3 s apart)."""
    with clocked_pair(Game.of("antipalos", 3, "team")) as pair:
        one, two = pair.boards
        move(one, "B2*", 2000)  # A1
        carry(two, 1000)
        two.run(1000)
        pair.bus.cut("t1")
        two.restart()
        two.run(4000)
        assert one.clocks().running == two.clocks().running == "B1"
        assert apart(one, two) <= DELAY_MS
        answered_alike(one, two)


def test_a_new_game_s_first_clock_waits_until_the_other_board_is_there():
    """The café's power goes before the first move and comes back: t1 (White's players) starts
    at once, t2 4 s later. White's clock does not run at t1 while t2 is still starting (the
    time a board is off or starting is nobody's, as a power cut's): it runs on both boards from
    when t1 hears t2, and White's first move is charged only its time since then (t1 charged
    the 4 s too)."""
    with clocked_pair() as pair:
        one, two = pair.boards
        both_back(one, two, 60_000)
        move(one, "B2*", 2000)
        carry(two, 500)
        assert kept(one) == kept(two) and kept(one)[0]["white"] >= 60_000 - 3000 - DELAY_MS


def opening(one, two) -> None:
    """White's B2* at t1 (1 s) and Black's C3* at t2 (0.5 s), each carried out on the other
    board in 0.5 s."""
    move(one, "B2*", 1000)
    carry(two, 500)
    move(two, "C3*", 500)
    carry(one, 500)


def both_back(one, two, white: float) -> None:
    """Both boards lose power; t1 starts again 1 s later, t2 4 s after that: White's clock, as
    stored (``white`` ms), waits at t1 until t2 is there, then runs on both boards alike."""
    one.power_off(), two.power_off()
    one.run(1000)
    one.restart()
    one.run(4000)
    assert one.clocks().running is None and shown(one)["white"] == white
    two.restart()
    one.run(1000)
    assert one.clocks().running == two.clocks().running == "white"
    assert apart(one, two) <= DELAY_MS


def test_after_a_power_cut_of_both_the_side_to_move_s_clock_waits_for_the_other_board():
    """Both boards lose power while White thinks at t1; t1 starts again 1 s later, t2 only 4 s
    after that. White's clock resumes as stored and waits at t1 until t2 is there; then it
    runs on both boards, and White's move is charged what it took on either side of the cut."""
    with clocked_pair() as pair:
        one, two = pair.boards
        opening(one, two)
        white = kept(one)[-1]["white"]
        one.run(2000)  # White thinks
        both_back(one, two, white)
        move(one, "A1*", 1000)
        carry(two, 500)
        assert kept(one) == kept(two) and kept(one)[-1]["white"] >= white - 2000 - 2000 - DELAY_MS


def test_a_board_that_loses_the_other_mid_turn_keeps_its_players_clock_running():
    """t2 loses power while White thinks at t1: White is still thinking, so White's clock runs
    on at t1; t2, back, shows it as t1 does."""
    with clocked_pair() as pair:
        one, two = pair.boards
        opening(one, two)
        white = kept(one)[-1]["white"]
        two.power_off()
        one.run(3000)
        assert one.clocks().running == "white" and shown(one)["white"] <= white - 3000
        two.restart()
        one.run(1000)
        assert one.clocks().running == two.clocks().running == "white"
        assert apart(one, two) <= DELAY_MS


def test_a_flag_falls_on_the_board_of_its_players_and_ends_the_game_on_both():
    with clocked_pair() as pair:
        one, two = pair.boards
        move(one, "B2*", 1000)
        carry(two, 500)
        two.run(61_000)  # Black's time runs out at t2
        pair.check()
        assert two.timed_out() and one.timed_out()
        assert [g.result for g in one.storage.games()] == [g.result for g in two.storage.games()]
        assert one.storage.games()[0].result == "white wins by time"
        assert one.screen()[2] == two.screen()[2] == "White wins: time"


def stored_readings(folder, board: str) -> list[dict]:
    """The clock readings ``board``'s games file keeps for its first game, after each move."""
    storage = Storage(str(folder / f"{board}.db"), read_only=True)
    kept = storage.clocks(storage.games()[0].id)
    return [json.loads(kept[ply]) for ply in sorted(kept) if ply]  # ply 0: the start


def test_two_daemons_on_a_real_broker_keep_the_same_clock_readings(tmp_path, broker, watcher, boards):
    """``reedboard run --sim`` at t1 (White) and t2 (Black), each with ``[clock] control =
    "600"``: after White's move, carried out at t2, and Black's, carried out at t1, both games
    files hold the same readings after each move, each side charged as its own board timed it."""
    one, two = t1_and_t2(tmp_path, broker.port, boards, CLOCK)
    carried_out(watcher, ("t1", one), ("t2", two), "B2*")
    assert carried_out(watcher, ("t2", two), ("t1", one), "C3*")["moves"] == ["B2*", "C3*"]
    # The mover's board may keep its move's readings a moment after the other board shows it.
    assert wait_until(lambda: [len(stored_readings(tmp_path, b)) for b in ("t1", "t2")] == [2, 2], 15)
    readings = [stored_readings(tmp_path, board) for board in ("t1", "t2")]
    for one_s, two_s in zip(*readings, strict=True):  # the same, but for rounding to the ms
        assert all(abs(one_s["left"][side] - two_s["left"][side]) <= 1 for side in ("white", "black"))
    assert [r["mover"] for r in readings[0]] == ["white", "black"]
    assert (
        all(r["left"]["white"] < 600_000 for r in readings[0]) and readings[0][1]["left"]["black"] < 600_000
    )


@pytest.mark.parametrize("restarted", [0, 1], ids=["the flagged players' board", "the other board"])
def test_after_a_flag_a_board_that_restarts_begins_a_new_game_the_other_board_joins(restarted):
    """White's flag falls at t1 and ends the game on both; then one daemon starts again: it
    begins a new game (the last is over), never the one lost on time again, and the other
    board joins it, both at the start with fresh clocks."""
    with clocked_pair() as pair:
        one, two = pair.boards
        opening(one, two)
        one.run(61_000)  # White's time runs out at t1
        pair.check()
        assert one.timed_out() and two.timed_out()
        ended = one.token()
        board, other = pair.robots[restarted], pair.robots[1 - restarted]
        before = other.board.game_id()
        board.restart()
        pair._joins(board, other, before)
        pair.check()
        assert one.token() == two.token() != ended
        assert one.held() == two.held() == ()
        assert shown(one)["black"] == shown(two)["black"] == 60_000 and shown(one)["white"] > 50_000
        assert apart(one, two) <= DELAY_MS


def test_a_board_whose_power_goes_as_its_players_flag_falls_begins_a_new_game_the_other_joins():
    """bench/robot.py --paired --clock 5 (seed 708, episode 44): White's flag falls at t1 and
    the power goes at once, before its word of the flag reached the broker (nor t1's
    connection, down meanwhile); t1 starts again. Its own record says the game is over, so it
    begins a new game, never the one lost on time, and t2, which never heard of the flag,
    joins it. (t1 took its new game for t2's, the same game with no moves yet; then each
    board refused the other's moves and neither began anything.)"""
    with clocked_pair() as pair:
        one, two = pair.boards
        opening(one, two)
        topic, ended = moves_topic("t1"), one.token()
        said = pair.bus.retained[topic]  # t1's last word before the flag
        pair.bus.cut("t2")
        while not one.timed_out():  # White's time runs out at t1
            one.run(100)
        one.run(DELAY_MS)
        pair.bus.retained[topic] = said  # the flag's word never reached the broker
        before = two.game_id()
        pair.robots[0].restart()
        pair._joins(pair.robots[0], pair.robots[1], before)
        pair.check()
        assert one.token() == two.token() != ended
        assert one.held() == two.held() == ()


def test_a_takeback_asked_as_the_askers_flag_falls_is_still_put_and_agreed_on_both():
    """White's players at t1 ask to take back from the menu 0.2 s before their time runs out:
    the flag falls at t1 while the request crosses the bus, ending the game on both boards; the
    request still stands and is put to Black's players at t2, whose OK takes the game back on
    both boards, with the clocks as they stood at that position."""
    with clocked_pair() as pair:
        one, two = pair.boards
        opening(one, two)
        white = shown(one)["white"]
        one.run(white - 200)
        pair.robots[0].menu("Take back")
        one.run(400)
        assert one.timed_out()
        for _ in range(20):
            if "Take back?" in two.screen():
                break
            two.run(100)
        assert two.timed_out() and "Take back?" in two.screen()
        two.press("ok")
        two.run(2000)  # the rewrite crosses the bus
        assert one.held() == two.held() == ()
        assert not one.timed_out() and not two.timed_out()
        assert one.clocks().left == two.clocks().left == {"white": 60_000, "black": 60_000}


def test_a_pause_and_an_adjustment_on_either_board_reach_the_other():
    """An arbiter pauses the clocks at t1 while Black thinks at t2: both boards' clocks stop
    and show the same times; a minute added to White at t2 shows on both; resumed at t2, both
    run again, Black's at both boards; a restart of t2 keeps the correction and sets nothing
    twice."""
    with clocked_pair() as pair:
        one, two = pair.boards
        move(one, "B2*", 2000)
        carry(two, 500)
        two.run(3000)
        one.controller.command(SetClock("pause"))
        one.run(1000)
        assert one.clocks().paused and two.clocks().paused
        two.run(5000)  # nobody's time while paused
        assert shown(one) == shown(two)
        two.controller.command(SetClock("adjust", "white", 60))
        two.run(1000)
        assert shown(one) == shown(two) and shown(one)["white"] > 100_000
        two.controller.command(SetClock("resume"))
        two.run(1000)
        assert not one.clocks().paused and not two.clocks().paused
        assert one.clocks().running == two.clocks().running == "black"
        assert apart(one, two) <= DELAY_MS
        two.restart()
        two.run(1000)
        assert not two.clocks().paused and apart(one, two) <= DELAY_MS
        assert shown(two)["white"] > 100_000


def test_an_arbiter_s_pause_sent_to_one_daemon_pauses_both_on_a_real_broker(
    tmp_path, broker, watcher, boards
):
    """Two ``reedboard run --sim`` boards on Mosquitto: the café's ``clock`` command pauses t1
    while Black thinks at t2; t2's state says paused too, with the same times, and a minute given
    to White at t2 shows at t1."""
    one, two = t1_and_t2(tmp_path, broker.port, boards, CLOCK)
    carried_out(watcher, ("t1", one), ("t2", two), "B2*")
    watcher.state("t2", lambda s: s["moves"] == ["B2*"] and s["clock"]["running"] == "black")
    watcher.publish("reedboard/t1/command", '{"command": "clock", "action": "pause"}')
    paused = watcher.state("t2", lambda s: s["clock"]["paused"])["clock"]
    assert watcher.state("t1", lambda s: s["clock"]["paused"])["clock"]["left"] == paused["left"]
    watcher.publish(
        "reedboard/t2/command", '{"command": "clock", "action": "adjust", "side": "white", "seconds": 60}'
    )
    white = paused["left"]["white"] + 60_000
    watcher.state("t1", lambda s: s["clock"]["left"]["white"] == white and s["clock"]["paused"])
    assert one.proc.poll() is None and two.proc.poll() is None


def test_pieces_set_back_for_a_takeback_as_the_flag_falls_are_not_a_new_game_set_up():
    """bench/robot.py --paired --clock 5 (seed 702, episode 2): White's players at t1 set both
    turns back by hand, which leaves the start position, shortly before their time runs out;
    the flag falls while Black's players at t2 are asked, and they say no. The board had begun
    a new game at once (the start "set up again"), which t2 then joined: the game lost on time
    and its pieces gone from both boards. Now the pieces as they stood when the flag fell are
    no new game: t1 asks them put back in the game lost on time; cleared after that, the board
    begins the next game, which t2 joins."""
    with clocked_pair() as pair:
        one, two = pair.boards
        opening(one, two)
        ended = one.token()
        one.run(shown(one)["white"] - 1500)
        for site in ("C3*", "B2*"):  # set back by hand: the start position (no piece)
            one.lift(site)
            one.run(200)
        one.settle()
        while "Take back?" not in two.screen():
            two.run(100)
        while not one.timed_out():  # White's flag falls while t2's players are asked
            one.run(100)
        two.press("back")
        two.run(2000)
        assert one.token() == two.token() == ended
        assert one.held() == two.held() == ("B2*", "C3*")
        assert one.timed_out() and two.timed_out()
        assert one.lit() == {"B2*": "missing", "C3*": "missing"}
        for site in ("B2*", "C3*"):
            one.place(site)
        one.settle()
        pair.check()
        for site in ("B2*", "C3*"):  # the players clear the board: the next game
            one.lift(site)
        one.settle()
        pair._joins(pair.robots[0], pair.robots[1], two.game_id())
        assert one.token() == two.token() != ended
        assert one.held() == two.held() == ()


def _to_set_back(pair: Pair) -> tuple[Robot, Robot]:
    """Seeded play until the players to move at one board may set back their last move and
    the other side's answer: (that board's robot, the other's)."""
    for _ in range(20):
        pair.act("move")
        asker = next((r for r in pair.robots if r.at_table()), None)
        if asker is not None and len(asker.moves) >= 2 and asker.states[-3].to_move == asker.state.to_move:
            return asker, pair.robots[1 - pair.robots.index(asker)]
    raise AssertionError("no such position")


@pytest.mark.parametrize("game", [("antipalos", 3, "two"), ("antipode", None, "standard")])
def test_a_takeback_by_hand_refused_keeps_the_askers_clock_running_on_both_boards(game):
    """bench/robot.py --paired --clock 5 (seed 706, episode 11, Antipalos Team play): the
    players to move set their partner's move and the other side's answer back by hand; the
    other board's players say no, and the askers put the pieces back (in Antipode turning the
    tokens again) and move. Their turn went on all along, the pieces set back and put back
    being their own doing: their board stopped their clock while it guided the pieces back,
    then sent the move's time from when it ran again, so the other board charged them less
    (3.4 s apart)."""
    with clocked_pair(Game.of(*game)) as pair:
        one, two = pair.boards
        asker, other = _to_set_back(pair)
        here, there = asker.board, other.board
        assert asker.take_back("hands", ask=True) == len(here.held()) - 2
        assert pair._until(lambda: "Take back?" in there.screen())
        there.press("back")
        assert pair._until(lambda: Remote.REFUSED in here.screen())
        here.run(3000)  # the players read the refusal, then put the pieces back
        asker.agreed(None)
        assert here.clocks().running == there.clocks().running == asker.state.to_move
        assert apart(one, two) <= DELAY_MS
        pair.act("move")
        two.run(1000)
        assert kept(one) == kept(two) and apart(one, two) <= DELAY_MS
