"""Game clocks on replayed sensor streams, with the times in them: the board presses the clock at
the sensor change that completed a turn, flips count for the mover, a computer's move carried
out counts for nobody, a takeback and a restart leave the clocks as they stood, a flag ends the
game."""

import json
from dataclasses import replace

from engines.ai import LIMITS
from engines.core.notation import read_record
from firmware_host.board.clock import DRAW_MS
from firmware_host.board.game import Game
from firmware_host.store.config import ClockConfig, Config, OpponentConfig, load_config
from firmware_host.store.export import record_text
from testbed.board_under_test import BoardUnderTest
from testbed.streams import STREAMS, Stream, moves, of, run, said

S = 1000


def clocked(control: str, **options) -> Config:
    return Config(clock=ClockConfig(control, **options))


def clocks(events) -> list[dict]:
    return [e for e in events if e["event"] == "clock"]


def since(event: dict) -> float:
    """When the clocks last switched: the press (ms)."""
    return event["t"] - event["elapsed"]


def changes(text: str) -> list[float]:
    """The times of a stream's sensor changes."""
    return [line["t"] for line in map(json.loads, text.splitlines()) if "site" in line]


def test_a_move_s_time_ends_at_its_last_sensor_change_not_when_it_was_recognised():
    """White places A1* at 2.1 s; the board recognises it a settle later; White is charged to
    2.1 s, gets its 2 s, and Black's clock runs from 2.1 s."""
    stream = Stream().wait(2000).place("A1*").settle().wait(3000).place("A3*").settle()
    events = run(stream.text(), "antipalos", 3, config=clocked("60+2"))
    start, white, black = clocks(events)
    assert (start["running"], since(start)) == ("white", 0)
    assert start["left"] == {"white": 60 * S, "black": 60 * S}
    move = next(e for e in events if e["event"] == "move")
    assert white["t"] == move["t"] > 2100  # told when recognised ...
    assert (white["running"], since(white)) == ("black", 2100)  # ... pressed at the change
    assert white["left"] == {"white": 60 * S - 2100 + 2 * S, "black": 60 * S}
    assert (black["running"], since(black)) == ("white", 5700)
    assert black["left"]["black"] == 60 * S - (5700 - 2100) + 2 * S


def test_flips_and_the_landing_tap_count_for_the_mover():
    """Antipode: Blue places, flips a1, taps its landing; Red places, flips, taps, flips the
    token its pawn passed. Each clock stops at the last change of its side's whole turn."""
    text = (STREAMS / "antipode_natural.jsonl").read_text()
    events = run(text, "antipode", config=clocked("300"))
    presses = [(e["running"], since(e)) for e in clocks(events)]
    assert presses == [("blue", 0), ("red", 2200), ("blue", 6200)]
    assert changes(text)[-1] == 6200 and clocks(events)[-1]["left"] == {
        "blue": 300 * S - 2200,
        "red": 300 * S - 4000,
    }
    assert moves(events) == ["b1:b1", "h9:i9"]


def test_the_computer_s_move_carried_out_counts_for_nobody():
    board = BoardUnderTest(Game.of("antipalos", 3), computer="black", config=clocked("60+1"))
    try:
        board.run(1000)
        board.place("B2*")
        board.settle()
        board.run(4000)  # the players take their time carrying the computer's move out
        carry = board.controller.record.moves  # the computer answered at once: lit, not recorded
        assert len(carry) == 1 and board.lit()
        ticks = clocks(board.events)
        assert [t["running"] for t in ticks] == ["white", "black", None]
        computer = ticks[-1]["left"]["black"]  # from when it was told the move to its answer, +1 s
        assert computer == 61 * S - (since(ticks[-1]) - since(ticks[-2]))
        assert since(ticks[-2]) > since(ticks[-3])  # told once the move was recognised
        for site, kind in board.lit().items():
            (board.lift if kind == "remove" else board.place)(site)
        board.settle()
        last = clocks(board.events)[-1]
        assert last["running"] == "white" and last["left"]["black"] == computer  # nobody's time
        assert since(last) > since(ticks[-1]) + 4000  # White's clock runs once it is carried out
        assert last["left"]["white"] == ticks[-1]["left"]["white"]
    finally:
        board.close()


def test_a_takeback_restores_the_clocks_as_they_stood_at_that_position():
    stream = Stream().wait(1000).place("A1*").settle().wait(2000).place("A3*").settle().wait(3000)
    stream.lift("A3*").wait(2000).settle()  # Black's move lifted back and held: taken back
    events = run(stream.text(), "antipalos", 3, config=clocked("60+2"))
    assert of(events, "takeback") == [{"move": "A3*"}]
    after_white = clocks(events)[1]["left"]
    restored = clocks(events)[3]
    assert restored["left"] == after_white and restored["running"] is None
    assert clocks(events)[-1]["running"] == "black"  # its clock runs again once the board shows it


def test_a_restart_resumes_with_the_stored_times_the_time_off_charged_to_nobody():
    board = BoardUnderTest(Game.of("antipalos", 3), config=clocked("60"))
    try:
        board.run(1000)
        board.place("B2*")
        board.settle()
        stored = clocks(board.events)[-1]["left"]
        board.run(3000)
        restarted = board.now_ms
        board.restart()  # the daemon was off: none of it is anyone's time
        board.run(20_000)
        board.settle()
        resumed = clocks(board.events[board.restarts[0] :])
        assert resumed[0]["left"] == stored and resumed[0]["running"] == "black"
        assert board.clocks().since >= restarted  # Black's clock runs again from the restart
        assert board.screen()[1].startswith("0:") or ">" in board.screen()[1]
    finally:
        board.close()


def test_a_flag_ends_the_game_on_time():
    stream = Stream().wait(1000).place("A1*").settle().wait(6000).settle()
    events = run(stream.text(), "antipalos", 3, config=clocked("5"))
    assert of(events, "game_over") == [{"winner": "white", "result": "time", "sites": []}]
    flag = next(e for e in clocks(events) if e["flag"])
    assert flag["flag"] == "black" and flag["t"] >= since(flag) + 5 * S
    assert said(events, "White wins: time") and said(events, "!0.0")
    assert events[-1]["position"]["winner"] is None  # the rules' position: nobody won on the board
    assert said(events, ">4.") and said(events, ">0.")  # the last 10 s in tenths
    drawn = [e["t"] for e in events if e["event"] == "display" and 2000 < e["t"] < flag["t"]]
    assert len(drawn) > 4 and all(b - a >= DRAW_MS for a, b in zip(drawn, drawn[1:]))  # a few a second


def test_a_flag_waits_for_a_move_whose_last_change_came_in_time():
    """Black's piece lands 0.1 s before its time is out; the board only recognises it after:
    the move counts."""
    stream = Stream().wait(1000).place("A1*").settle().wait(3800).place("A3*").settle()
    events = run(stream.text(), "antipalos", 3, config=clocked("5"))
    assert moves(events) == ["A1*", "A3*"] and not of(events, "game_over")


def test_a_casual_game_goes_on_after_a_flag():
    stream = Stream().wait(1000).place("A1*").settle().wait(6000).place("A3*").settle()
    events = run(stream.text(), "antipalos", 3, config=clocked("5", casual=True))
    assert moves(events) == ["A1*", "A3*"] and not of(events, "game_over")
    assert said(events, "Black: time is up") and said(events, "!0.0")


def test_a_flag_on_the_board_under_test_lights_the_board_and_stores_the_result():
    board = BoardUnderTest(Game.of("antipalos", 3), config=clocked("3"))
    try:
        board.run(1000)
        board.place("B2*")
        board.settle()
        board.run(4000)
        assert set(board.lit().values()) == {"win"} and set(board.lit()) == {"B2*"}
        assert board.screen()[2] == "White wins: time" and "!0.0" in board.screen()[1]
        (game,) = board.storage.games()
        assert game.result == "white wins by time"
    finally:
        board.close()


def test_no_clock_section_no_clock_events():
    stream = Stream().wait(1000).place("A1*").settle()
    events = run(stream.text(), "antipalos", 3)
    assert not clocks(events) and moves(events) == ["A1*"]


def test_the_export_has_the_time_control_and_each_move_s_clock():
    board = BoardUnderTest(Game.of("antipalos", 3), config=clocked("60+2"))
    try:
        board.run(1000)
        board.place("B2*")
        board.settle()
        board.run(10_000)
        board.place("A1*")
        board.settle()
        (game,) = board.storage.games()
        text = record_text(game)
        assert '[TimeControl "60+2"]' in text
        first, second = text.splitlines()[-1].removeprefix("1. ").split("; ")
        assert first.startswith("B2* {[%clk 0:01:0") and second.startswith("A1* {[%clk 0:00:5")
        assert read_record(text)[1] == ["B2*", "A1*"]  # read back as a record
    finally:
        board.close()


def test_each_player_of_a_cut_throat_game_has_a_clock_and_a_flag_leaves_the_game_on():
    stream = Stream().wait(1000).place("A1*").settle().wait(2000).place("A3*").settle()
    stream.wait(1000).place("C1*").settle().wait(10_000).settle()
    events = run(stream.text(), "antipalos", 3, "cut-throat-3", config=clocked("10"))
    ticks = clocks(events)
    assert [t["running"] for t in ticks[:4]] == ["white", "black", "red", "white"]
    assert ticks[3]["left"] == {"white": 10 * S - 1100, "black": 10 * S - 2600, "red": 10 * S - 1600}
    assert ticks[-1]["flag"] == "white" and not of(events, "game_over")
    assert said(events, "White: time is up") and said(events, "!0.0 7.4 8.4")


def test_the_config_md_example_plays_on_a_bronstein_clock(tmp_path):
    """The [clock] block docs/config.md shows, loaded as the daemon loads it: 300+3 with a 2 s
    Bronstein delay; a 1.1 s move gives back 1.1 s and gains 3 s."""
    text = (STREAMS.parents[2] / "docs" / "config.md").read_text(encoding="utf-8")
    block = next(b.split("```", 1)[0] for b in text.split("```toml\n")[1:] if b.startswith("[clock]"))
    path = tmp_path / "config.toml"
    path.write_text(block, encoding="utf-8")
    config = load_config(str(path))
    events = run(Stream().wait(1000).place("A1*").settle().text(), "antipalos", 3, config=config)
    assert clocks(events)[-1]["left"] == {"white": 303 * S, "black": 300 * S}


def test_takeback_keep_leaves_the_clocks_as_they_read():
    """A tournament's house option: the move taken back, its time stays spent."""
    stream = Stream().wait(1000).place("A1*").settle().wait(2000).place("A3*").settle().wait(3000)
    stream.lift("A3*").wait(2000).settle()
    events = run(stream.text(), "antipalos", 3, config=clocked("60+2", takeback="keep"))
    assert of(events, "takeback") == [{"move": "A3*"}]
    after_black, kept = clocks(events)[2], clocks(events)[3]
    assert kept["running"] is None and kept["left"]["black"] == after_black["left"]["black"] < 60 * S
    assert kept["left"]["white"] == after_black["left"]["white"] - (kept["t"] - since(after_black))
    assert clocks(events)[-1]["running"] == "black"


def carried_out(carry: str) -> tuple[list[dict], int]:
    """Against the computer with ``[clock] carry``: White moves, the computer answers, the
    players carry its move out 4 s later; the clock events and how many came before the carry."""
    board = BoardUnderTest(Game.of("antipalos", 3), computer="black", config=clocked("60", carry=carry))
    try:
        board.run(1000)
        board.place("B2*")
        board.settle()
        board.run(4000)
        before = len(clocks(board.events))
        for site, kind in board.lit().items():
            (board.lift if kind == "remove" else board.place)(site)
        board.settle()
        return clocks(board.events), before
    finally:
        board.close()


def test_carry_players_starts_the_players_clock_once_the_computer_answers():
    ticks, before = carried_out("players")
    assert [t["running"] for t in ticks[:before]] == ["white", "black", "white"]
    assert len(ticks) == before  # carrying it out switches nothing
    assert since(ticks[-1]) == since(ticks[-2])  # at the computer's answer (at once here)


def test_carry_opponent_charges_the_computer_until_its_move_is_carried_out():
    ticks, before = carried_out("opponent")
    assert [t["running"] for t in ticks] == ["white", "black", "white"] and before == 2
    used = since(ticks[-1]) - since(ticks[-2])
    assert used > 4000 and ticks[-1]["left"]["black"] == 60 * S - used


def test_the_computer_budgets_its_search_by_its_clock():
    """Level 5 may think 6 s a move; on 12 s +1 for the game it takes 12/30 + 0.8 s; with 2
    moves to make in 10 s, or 4 s for each move, half of what it has."""

    def limit(control: str) -> float:
        config = replace(clocked(control), opponent=OpponentConfig("computer", "black", 5))
        board = BoardUnderTest(Game.of("antipalos", 3), config=config)
        try:
            board.run(500)
            controller = board.controller
            return controller.opponent.seconds(controller.seen())
        finally:
            board.close()

    assert limit("-") == LIMITS[4] == 6.0
    assert limit("12+1") == 12 / 30 + 0.8
    assert limit("2/10:60") == limit("*10") == 5.0


def test_a_match_s_next_game_begins_on_the_same_control_with_fresh_clocks():
    """Game 1 of a match to 6 played on 30 s +1; game 2 begins with 30 s each again, the
    loser's (Black's) clock running, and Black's first move charged to Black."""
    game_1, game_2 = ["B1*", "A1*", "*B2", "C1*", "B3*"], ["A1*", "B1*"]
    stream = Stream()
    for site in game_1:
        stream.wait(1000).place(site).settle()
    stream.lift(*game_1).settle()
    for site in game_2:
        stream.wait(2000).place(site).settle()
    events = run(stream.text(), "antipalos", 3, config=Config(match=6, clock=ClockConfig("30+1")))
    begun = next(i for i, e in enumerate(events) if e["event"] == "new_game")
    before, after = clocks(events[:begun]), clocks(events[begun:])
    assert before[-1]["left"] != {"white": 30 * S, "black": 30 * S}
    assert after[0]["left"] == {"white": 30 * S, "black": 30 * S} and after[0]["running"] == "black"
    black = after[1]
    assert (
        black["running"] == "white"
        and black["left"]["black"] == 30 * S - (since(black) - since(after[0])) + S
    )


def test_each_player_of_a_team_game_has_a_clock_and_a_flag_loses_the_game_for_the_team():
    """Team play: four players, two teams; each player's clock runs on their own turns only
    (A1, B1, A2, B2 clockwise), the OLED shows all four, the one running marked; B2's flag
    loses the game for Black's team."""
    stream = Stream().wait(1000).place("A1*").settle().wait(2000).place("A3*").settle()
    stream.wait(1000).place("C1*").settle().wait(12_000).settle()
    events = run(stream.text(), "antipalos", 3, "team", config=clocked("10"))
    ticks = clocks(events)
    assert list(ticks[0]["left"]) == ["A1", "B1", "A2", "B2"]
    assert [t["running"] for t in ticks[:4]] == ["A1", "B1", "A2", "B2"]
    assert ticks[3]["left"] == {"A1": 10 * S - 1100, "B1": 10 * S - 2600, "A2": 10 * S - 1600, "B2": 10 * S}
    assert said(events, "8.9 7.4 >9.9 0:10")  # A2's turn, White's second player
    assert ticks[-1]["flag"] == "B2"
    assert of(events, "game_over")[0]["winner"] == "white" and of(events, "game_over")[0]["result"] == "time"


def test_a_flag_in_a_match_scores_the_game_and_the_next_begins_on_fresh_clocks():
    """A match to 6 on 10 s clocks: White places B1*, Black's flag falls. The game is White's
    on time and counts in the match (1 point, Chart A's least); Black, the loser, begins the
    next game once the board is cleared, both clocks at 10 s again."""
    stream = Stream().wait(1000).place("B1*").settle().wait(11_000).settle()
    stream.lift("B1*").settle().wait(1000)
    events = run(stream.text(), "antipalos", 3, config=Config(match=6, clock=ClockConfig("10")))
    over = of(events, "game_over")[0]
    assert over["winner"] == "white" and over["result"] == "time"
    assert of(events, "match")[0]["totals"] == {"white": 1, "black": 0}
    begun = next(i for i, e in enumerate(events) if e["event"] == "new_game")
    fresh = clocks(events[begun:])[0]
    assert fresh["left"] == {"white": 10 * S, "black": 10 * S} and fresh["running"] == "black"


def test_a_match_game_lost_on_time_still_counts_after_a_restart():
    """The daemon starts again during the match's next game: the game lost on time is
    replayed into the match's score as it was counted, and the game goes on."""
    board = BoardUnderTest(Game.of("antipalos", 3, match=6), config=Config(match=6, clock=ClockConfig("10")))
    try:
        board.run(1000)
        board.place("B1*")
        board.settle()
        board.run(11_000)  # Black's flag falls
        board.settle()
        assert board.timed_out()
        board.lift("B1*")
        board.settle()
        board.run(1000)
        board.place("A1*")  # Black begins the next game
        board.settle()
        board.restart()
        board.run(1000)
        assert board.held() == ("A1*",)
        assert board.controller.match.score == "1-0 (to 6)"
    finally:
        board.close()
