"""Playing against the computer at the board: replayed streams (the computer's move is chosen
at once under replay, so each run is the same) and the separate process of a live board."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from engines import new_game
from engines.ai import budget, choose, ponder
from firmware_host.board import opponent
from firmware_host.board.game import Game
from firmware_host.board.opponent import Computer, Hints, forget, think, think_on
from firmware_host.board.turn import directions
from firmware_host.board.view import LIGHTS
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config, OpponentConfig
from firmware_host.store.storage import Storage
from hardware.base import ButtonEvent
from hardware.sim import SimBoard
from testbed.drive import Drive
from testbed.streams import Stream, kinds, of, run

CONFIG = replace(Config(), opponent=OpponentConfig("computer", None, 1))
#: Per game: its size and the human's first move (the human plays the side moving first).
#: Antipode, whose every turn ends in flips and a tap, has a test of its own (follow_guides).
GAMES = {
    "antipod": (4, "b2"),
    "anti-grid": (6, "c1-c5"),
    "antipalos": (6, "C3*"),
    "phalanx": (None, "d2nw-d4nw"),
}


def replayed(stream: Stream, game: str) -> list[dict]:
    return run(stream.text(), game, GAMES[game][0], config=CONFIG)


def follow_guides(stream: Stream, game: str, size: int | None = None) -> list[dict]:
    """Do what the board asks after the last move until it asks nothing more: flip a token by
    lifting and setting it back, tap a landing, place a twin, take off a removal. A guide's
    site is followed once (the turn ends with no event of its own)."""
    followed: set[tuple[int, str]] = set()
    for _ in range(12):
        events = run(stream.text(), game, size, config=CONFIG)
        last_move = [e for e in events if e["event"] in ("move", "expect")][-1]["t"]
        guides = [e for e in events if e["event"] == "guide" and e["t"] >= last_move]
        if not guides or guides[-1]["action"] == "confirm":
            return events
        guide = guides[-1]
        todo = [site for site in guide["sites"] if (guide["t"], site) not in followed]
        if not todo:
            return events
        action, site = guide["action"], todo[0]  # one site, then look again
        followed.add((guide["t"], site))
        if action in ("flip", "pick"):
            stream.lift(site).settle().place(site).settle()
        elif action == "twin":
            stream.place(site).settle()
        elif action == "remove":
            stream.lift(site).settle()
    return run(stream.text(), game, size, config=CONFIG)


def carry_out(stream: Stream, game: str, state, move: str) -> list[dict]:
    """Make ``move`` by hand, then any follow-up the board guides (a twin, a removal)."""
    real = state.realisations(state.parse_move(move))[0]
    stream.move(real.emptied, real.filled)
    return follow_guides(stream, game, GAMES[game][0])


def take_back(stream: Stream, game: str) -> None:
    """The menu's Take back."""
    menu = open_controller(CONFIG, Storage(":memory:"), configured_game(CONFIG, game)).menu
    labels = [line.lstrip("> ") for line in menu.screen().text_lines()[1:]]
    stream.press("menu")
    for _ in range(labels.index("Take back")):
        stream.press("menu", after=50)
    stream.press("ok").settle()


@pytest.mark.parametrize("game", list(GAMES))
def test_the_computer_move_is_lit_refused_when_wrong_carried_out_and_taken_back(game):
    size, first = GAMES[game]
    state = new_game(game, size)
    stream = Stream()
    carry_out(stream, game, state, first)
    state = state.play(first)
    chosen = think(state, 1, seed=1)  # the seed is the number of moves played
    events = replayed(stream, game)
    asked = of(events, "expect")
    real = state.realisations(state.parse_move(chosen))[0]
    assert asked == [{"move": chosen, "empty": sorted(real.emptied), "fill": sorted(real.filled)}]
    assert any(
        f"Computer plays {chosen}: {directions(state, state.parse_move(chosen))}" in e["lines"]
        for e in events
        if e["event"] == "display"
    )

    # Another legal move of the computer's side is refused: out of sync, never accepted.
    other = next(m for m in state.legal_moves() if state.notation(m) != chosen)
    wrong = state.realisations(other)[0]
    stream.move(wrong.emptied, wrong.filled)
    events = replayed(stream, game)
    assert kinds(events)[-2] == "out_of_sync" and len(of(events, "move")) == 1
    stream.move(wrong.filled, wrong.emptied)  # undone by hand
    assert kinds(replayed(stream, game))[-2] == "in_sync"

    events = carry_out(stream, game, state, chosen)
    assert of(events, "move")[1] == {"move": chosen, "side": state.to_move}
    assert events[-1]["moves"][:2] == [first, chosen]
    assert "out_of_sync" not in kinds(events)[kinds(events).index("in_sync") :]

    # Take back undoes the computer's move and the human's before it.
    moves_before = events[-1]["moves"]
    take_back(stream, game)
    events = replayed(stream, game)
    undone = [e["move"] for e in of(events, "takeback")]
    assert undone == list(reversed(moves_before)) and events[-1]["moves"] == []
    assert kinds(events)[-2] == "out_of_sync"  # the pieces are still on the board


def test_a_takeback_while_the_computer_is_asked_undoes_the_human_move_only():
    game = "antipod"
    stream = Stream()
    carry_out(stream, game, new_game(game, 4), "b2")
    take_back(stream, game)
    events = replayed(stream, game)
    assert of(events, "takeback") == [{"move": "b2"}] and events[-1]["moves"] == []
    assert len(of(events, "expect")) == 1  # the white move again: the computer waits


def test_a_live_board_thinks_in_another_process_and_gets_the_same_move():
    config = replace(CONFIG, opponent=OpponentConfig("computer", "black", 1))
    controller = open_controller(config, Storage(":memory:"), configured_game(config, "antipod", 4))
    computer = controller.opponent
    assert isinstance(computer, Computer) and not computer.sync
    board = SimBoard(controller.layout.sensor_channels)
    for site in controller.boards[0]:
        board.place(controller.layout.sensor[site])
    now, steps = 0.0, 0
    try:
        controller.step(now, board.scan())
        board.place(controller.layout.sensor["b2"])
        deadline = time.monotonic() + 60
        while controller.pending is None and time.monotonic() < deadline:
            now += 10
            steps += 1
            controller.step(now, board.scan())
            time.sleep(0.005)
    finally:
        computer.close()
    assert controller.moves == ["b2"] and controller.pending is not None
    assert controller.pending.text == think(controller.state, 1, seed=1)
    assert steps > 1  # the steps went on while it thought


def test_the_answer_to_a_move_the_computer_pondered_is_searched_on_the_tree_it_kept():
    """What the worker process runs: the move, pondering until done (nothing interrupts it
    here), then the players' move. Expected: the answer grows the kept subtree. In another
    game (or after any other move) the answer is the fresh search's."""
    state = new_game("antipod", 4)
    try:
        move = think(state, 3, 1, True, (1, ()))
        assert opponent._PONDERING[0] == (1, (move,))
        assert think_on() >= ponder.TIMES[2] * budget(state, 3)
        thought = opponent._PONDERING[1]
        expected = max(thought.tree.children, key=lambda m: thought.tree.n.get(m, 0))
        kept = thought.tree.children[expected]
        before = kept.visits
        after = thought.state.apply(expected)
        moves = (move, thought.state.notation(expected))
        answer = think(after, 3, 2, True, (1, moves))
        after.check(after.parse_move(answer))
        assert kept.visits > before and kept.visits > choose(after, 3, seed=2).tree.visits
        think(state, 3, 1, True, (1, ()))
        think_on()
        assert think(after, 3, 2, True, (2, moves)) == think(after, 3, 2)  # another game
    finally:
        forget()
    assert opponent._PONDERING is None


@pytest.mark.parametrize("game,size,level", [("phalanx", None, 3), ("anti-grid", 6, 4), ("antipalos", 8, 5)])
def test_the_computer_ponders_at_every_level(game, size, level):
    """Pondering was shown to make the computer stronger at every level of every game
    (docs/performance.md, thirteenth round): after its move the worker keeps the position
    that follows to ponder on, and pondering does work there."""
    try:
        move = think(new_game(game, size), level, 1, True, (1, ()))
        assert opponent._PONDERING is not None and opponent._PONDERING[0] == (1, (move,))
        assert opponent._PONDERING[1].grow(opponent._PONDERING[1].least, lambda: False)
    finally:
        forget()


def test_a_live_computer_ponders_over_the_players_turn_and_a_takeback_stops_it():
    """After its move the computer's worker ponders (a yielding job) while the players carry
    the move out and think; their move stops it and the answer is searched in the same process,
    where the pondering was kept. A takeback makes it forget."""
    config = replace(CONFIG, opponent=OpponentConfig("computer", "black", 3))
    controller = open_controller(config, Storage(":memory:"), configured_game(config, "antipod", 4))
    computer = controller.opponent
    board = SimBoard(controller.layout.sensor_channels)
    for site in controller.boards[0]:
        board.place(controller.layout.sensor[site])
    clock = [0.0]

    def until(done) -> bool:
        deadline = time.monotonic() + 60
        while not done() and time.monotonic() < deadline:
            clock[0] += 10
            controller.step(clock[0], board.scan())
            time.sleep(0.005)
        return done()

    def place(real) -> None:  # a stone, and its twin on an edge point
        for site in (*real.filled, *(s for step in real.follow_ups for s in step.sites)):
            board.place(controller.layout.sensor[site])

    def carry_out() -> None:
        place(controller.pending.real)

    def players_move() -> None:
        place(controller.state.realisations(controller.state.legal_moves()[0])[0])

    try:
        controller.step(clock[0], board.scan())
        players_move()
        assert until(lambda: controller.pending is not None)
        thinker = computer.worker
        process = thinker.pid
        assert thinker._job is not None and thinker._job.yields  # pondering already
        carry_out()
        assert until(lambda: controller.pending is None and len(controller.moves) == 2)
        players_move()
        assert until(lambda: controller.pending is not None and len(controller.moves) == 3)
        controller.state.check(controller.pending.move)
        assert thinker.pid == process and thinker.failures == 0  # pondering yielded
        carry_out()
        assert until(lambda: len(controller.moves) == 4)
        assert computer._pondering is not None
        controller.take_back(2)
        assert until(lambda: computer._pondering is None)
        assert thinker.failures == 0
    finally:
        computer.close()


def test_a_game_against_the_computer_keeps_the_level_and_side_in_its_record(tmp_path):
    from firmware_host.store.export import export

    config = replace(CONFIG, opponent=OpponentConfig("computer", "black", 3))
    storage = Storage(str(tmp_path / "games.db"))
    controller = open_controller(config, storage, configured_game(config, "antipod", 4))
    (record,) = storage.games()
    assert record.opponent == "computer black, level 3"
    assert '[Opponent "computer black, level 3"]' in export([record])
    controller.opponent.close()
    alone = Storage(str(tmp_path / "two.db"))
    open_controller(Config(), alone, configured_game(Config(), "antipod", 4))
    assert alone.games()[0].opponent is None


def test_the_menu_puts_the_computer_on_a_side_for_a_new_game_and_takes_it_off_again(tmp_path):
    from firmware_host.actions.commands import SetPlayers

    storage = Storage(str(tmp_path / "games.db"))
    controller = open_controller(Config(), storage, configured_game(Config(), "antipod", 4))
    menu = controller.menu
    controller.step(0.0, SimBoard(controller.layout.sensor_channels).scan())
    labels = [line.lstrip("> ") for line in menu.screen().text_lines()[1:]]
    action = None
    for button in ["menu", *["menu"] * labels.index("Players"), "ok", "menu", "menu", "ok"]:
        action = menu.press(ButtonEvent(button)) or action
    assert action == SetPlayers("black", 1)
    controller.command(action)
    try:
        assert isinstance(controller.opponent, Computer) and controller.opponent.side == "black"
        first, second = storage.games()
        assert first.result == "abandoned" and second.opponent == "computer black, level 1"
    finally:
        controller.opponent.close()
    controller.command(SetPlayers(None, 1))
    assert controller.opponent is None and storage.games()[-1].opponent is None


class Pondering(Computer):
    """A computer that is still thinking (its answer never comes)."""

    def poll(self, seen) -> list:
        return []


def test_a_move_made_for_the_computer_while_it_thinks_is_refused_and_a_takeback_still_works():
    d = Drive(Game.of("antipod", 4))
    d.ctl.opponent = Pondering("black", 1)
    d.run(50).place("b2").run(500)
    assert d.ctl.moves == ["b2"]
    d.place("c3").run(500)  # the player moves for the computer
    assert d.ctl.moves == ["b2"]
    assert d.last("illegal")["reason"] == "Wait: the computer is thinking"
    assert d.ctl.screen().text_lines()[2] == "Wait: the computer is thinking · Take c3 off"
    d.lift("c3").run(500)
    assert d.kinds()[-1] == "in_sync"
    d.lift("b2").run(500)  # the player's own move off the board: in the hand, for now
    assert d.ctl.moves == ["b2"] and "out_of_sync" not in d.kinds()[-1:]
    d.run(1500)  # held off for takeback_ms: taken back
    assert d.ctl.moves == [] and d.last("takeback")["move"] == "b2"


def test_a_long_ok_lights_the_computers_hint_until_the_board_changes():
    stream = Stream().place("b2").settle()
    stream.t += 100
    stream.lines.append({"t": stream.t, "button": "ok", "long": True})
    stream.settle()
    events = run(stream.text(), "antipod", 4)
    (hint,) = of(events, "hint")
    assert hint["move"] == think(new_game("antipod", 4).play("b2"), 1, seed=1, gentle=False)
    (site,) = hint["sites"]  # said as what to do, not in notation
    assert any(f"Hint: place {site}" in e["lines"] for e in events if e["event"] == "display")
    kiosk = replace(Config(), kiosk=Config().kiosk._replace(enabled=True))
    assert of(run(stream.text(), "antipod", 4, config=kiosk), "hint") == []  # guests: off


def test_the_hint_is_lit_and_goes_dark_as_the_player_moves():
    d = Drive(Game.of("antipod", 4))
    d.ctl.hints = Hints(1, sync=True)
    d.run(50).press("ok", long=True)
    (site,) = d.last("hint")["sites"]
    assert d.lit(site) == LIGHTS["hint"]
    other = next(m for m in d.ctl.state.legal_moves() if str(m) != d.last("hint")["move"])
    for placed in d.ctl.state.realisations(other)[0].filled:
        d.place(placed)
    d.run(50)
    assert d.lit(site) != LIGHTS["hint"]


@pytest.mark.parametrize("game", ["anti-grid", "phalanx"])
def test_a_hint_for_a_move_names_the_piece_and_where_it_goes(game):
    d = Drive(Game.of(game))
    d.ctl.hints = Hints(1, sync=True)
    d.run(50).press("ok", long=True)
    hint = d.last("hint")
    real = d.ctl.state.realisations(d.ctl.state.parse_move(hint["move"]))[0]
    said = next(line for line in d.ctl.screen().text_lines() if line.startswith("Hint:"))
    assert hint["move"] not in said and all(site in said for site in real.emptied | real.filled), said
    assert said.startswith("Hint: move ") and " to " in said


def test_a_hint_is_never_one_of_the_gentle_level_1s_loose_moves():
    """Antipode's level 1 plays most moves loosely; a hint at that level is still its search's
    own move, the same for every ask at the position."""
    d = Drive(Game.of("antipode"))
    d.ctl.hints = Hints(1, sync=True)
    d.run(50).place("b2").run(500).lift("a1").run(300).place("a1").run(500)  # b2:a1, flip a1
    assert d.ctl.moves == ["b2:a1"]
    seed = len(d.ctl.moves)  # what a hint is seeded with
    assert choose(d.ctl.state, 1, seed).loose  # the move the computer itself would play here
    searched = think(d.ctl.state, 1, seed, gentle=False)
    for _ in range(3):
        d.run(50).press("ok", long=True)
        assert d.last("hint")["move"] == searched


def test_lifting_the_computers_piece_to_set_it_right_undoes_nothing():
    """A player straightening the computer's stone (lifted longer than a settle) is shown where
    it goes once it has been off for ``takeback_ms`` (before, it may be the first half of a
    set-back by hand: the board waits, quietly); it is not a take back of two turns, nor of
    the computer's alone."""
    d = Drive(Game.of("antipod", 4))
    d.ctl.opponent = Computer("black", 1, sync=True)
    d.run(50).place("b2").run(500)
    reply = d.last("expect")
    for placed in reply["fill"]:
        d.place(placed)
    d.run(500)
    assert d.ctl.moves == ["b2", reply["move"]]
    begun = len(d.events)
    d.lift(*reply["fill"]).run(800)
    assert "out_of_sync" not in [e["event"] for e in d.events[begun:]]
    d.run(2000)
    out = d.last("out_of_sync")
    assert (out["missing"], out["extra"]) == (reply["fill"], [])  # put it back
    assert d.ctl.moves == ["b2", reply["move"]] and "takeback" not in d.kinds()
    d.place(*reply["fill"]).run(500)
    assert d.kinds()[-1] == "in_sync" and d.ctl.moves == ["b2", reply["move"]]
    assert d.ctl.pending is None and d.ctl.state.to_move == "white"


def test_taking_the_computers_piece_and_yours_off_takes_both_turns_back():
    d = Drive(Game.of("antipod", 4))
    d.ctl.opponent = Computer("black", 1, sync=True)
    d.run(50).place("b2").run(500)
    reply = d.last("expect")
    d.place(*reply["fill"]).run(500)
    d.lift(*reply["fill"]).run(500)  # the computer's stone first: not yet a take back
    assert d.ctl.moves == ["b2", reply["move"]]
    d.lift("b2").run(500)  # then the player's own: the board as before both turns
    assert d.ctl.moves == [] and [e["move"] for e in d.events if e["event"] == "takeback"] == [
        reply["move"],
        "b2",
    ]
    assert d.ctl.state.ply == 0 and d.ctl.pending is None and d.ctl.sync is None


def test_the_computers_piece_moved_on_after_its_move_is_refused_not_taken_as_a_correction():
    """The players' own move slid on is corrected in place; the computer's is not theirs to
    change: its piece pushed to another legal site is shown to go back."""
    d = Drive(Game.of("anti-grid", 6))
    d.ctl.opponent = Computer("blue", 1, sync=True)
    d.run(50).lift("c1").place("c5").run(500)
    reply = d.last("expect")
    d.lift(*reply["empty"]).place(*reply["fill"]).run(500)
    assert d.ctl.moves == ["c1-c5", reply["move"]] and d.ctl.state.to_move == "red"
    before = d.ctl.states[-2]
    (landed,) = reply["fill"]
    elsewhere = next(
        r
        for m in before.legal_moves()
        for r in before.realisations(m)
        if r.emptied == frozenset(reply["empty"])
        and r.filled != {landed}
        and len(r.filled) == 1
        and not r.filled & d.ctl.board
    )
    (other,) = elsewhere.filled
    d.lift(landed).place(other).run(800)
    assert d.ctl.moves == ["c1-c5", reply["move"]] and "correction" not in d.kinds()
    out = d.last("out_of_sync")
    assert (out["missing"], out["extra"]) == ([landed], [other])
    d.lift(other).place(landed).run(500)
    assert d.kinds()[-1] == "in_sync" and d.ctl.moves == ["c1-c5", reply["move"]]


def test_a_move_slid_on_while_the_computer_thinks_is_corrected_and_the_computer_thinks_again():
    d = Drive(Game.of("antipalos", 6))
    d.ctl.opponent = Pondering("black", 1)
    d.run(50).place("C3*").run(500)
    assert d.ctl.moves == ["C3*"]
    d.lift("C3*").place("D4*").run(600)  # the stone rested on C3* on its way to D4*
    assert d.ctl.moves == ["D4*"] and d.last("correction")["move"] == "D4*"


def test_a_move_slid_on_before_the_computers_answer_is_carried_out_gets_a_new_answer():
    d = Drive(Game.of("antipalos", 6))
    d.ctl.opponent = Computer("black", 1, sync=True)
    d.run(50).place("C3*").run(500)
    first = d.ctl.pending
    assert d.ctl.moves == ["C3*"] and first is not None
    d.lift("C3*").place("D4*").run(600)
    assert d.ctl.moves == ["D4*"] and d.last("correction")["move"] == "D4*"
    assert d.ctl.pending is not None and d.ctl.pending is not first
    assert d.ctl.pending.text == think(d.ctl.state, 1, seed=1)


def test_antipode_against_the_computer_its_turn_lit_refused_when_wrong_carried_out_taken_back():
    state = new_game("antipode")
    stream = Stream()
    first = state.realisations(state.parse_move("b2:a1"))[0]
    stream.move(first.emptied, first.filled)
    follow_guides(stream, "antipode")
    state = state.play("b2:a1")
    chosen = think(state, 1, seed=1)
    events = run(stream.text(), "antipode", config=CONFIG)
    assert of(events, "expect")[-1]["move"] == chosen
    assert any(
        f"Computer plays {chosen}: place {chosen.split(':')[0]}, red pawn to {chosen.split(':')[1]}"
        in e["lines"]
        for e in events
        if e["event"] == "display"
    )
    real = state.realisations(state.parse_move(chosen))[0]
    other = next(m for m in state.legal_moves() if not state.realisations(m)[0].filled & real.filled)
    wrong = state.realisations(other)[0].filled
    stream.move((), wrong)  # another placement for the computer: refused, never its move
    events = run(stream.text(), "antipode", config=CONFIG)
    assert kinds(events)[-2] == "out_of_sync" and len(of(events, "move")) == 1
    stream.move(wrong, ())
    stream.move(real.emptied, real.filled)
    events = follow_guides(stream, "antipode")
    assert events[-1]["moves"] == ["b2:a1", chosen]
    assert {"move": chosen, "side": "red"} in of(events, "move")
    take_back(stream, "antipode")
    events = run(stream.text(), "antipode", config=CONFIG)
    assert [e["move"] for e in of(events, "takeback")] == [chosen, "b2:a1"]
    assert events[-1]["moves"] == []
