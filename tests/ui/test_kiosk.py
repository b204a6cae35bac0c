"""Kiosk mode through replayed sensor streams on the virtual clock: idle spells and their attract
animation, waking, a stale game put back in the start position, a finished game cleared for the
next table, the kiosk menu, today's games, and the long-press power-off."""

from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys
from dataclasses import replace
from datetime import datetime, timedelta

from firmware_host.runtime.replay import Replayer, parse
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config, Kiosk
from firmware_host.store.storage import Storage
from firmware_host.ui.menu import HELP
from firmware_host.ui.stats import Day, day_screen, today
from testbed.streams import STREAMS, Stream, kinds, moves, of, run, shown

GAME, SIZE = "antipalos", 3
MINUTE = 60_000
KIOSK = replace(Config(), kiosk=Kiosk(enabled=True, idle_minutes=1))


def at(events, kind: str) -> float:
    return next(e["t"] for e in events if e["event"] == kind)


def test_idle_minute_starts_the_attract_spell_and_a_piece_ends_it_keeping_the_game():
    stream = Stream().place("B2*").settle().wait(MINUTE).place("A1*").settle()
    events = run(stream.text(), GAME, SIZE, config=KIOSK)
    assert kinds(events) == ["move", "attract", "wake", "move", "end"]
    # a minute after the last change (B2*'s debounced placing, 20 ms after it came)
    assert at(events, "attract") == 100 + 20 + MINUTE
    assert ["Today", "1 game", "1 playing"] in shown(events)
    assert shown(events)[-1][:2] == ["Antipalos 3", "White to move"]
    assert moves(events) == ["B2*", "A1*"]


def test_without_kiosk_mode_the_board_never_idles():
    stream = Stream().place("B2*").settle().wait(2 * MINUTE)
    assert kinds(run(stream.text(), GAME, SIZE)) == ["move", "end"]


def test_a_button_only_wakes_the_board_and_activity_postpones_the_spell():
    stream = Stream().wait(MINUTE - 1000).press("ok").wait(MINUTE).press("menu")
    stream.press("menu").wait(500)
    events = run(stream.text(), GAME, SIZE, config=KIOSK)
    assert kinds(events) == ["attract", "wake", "end"]
    assert at(events, "attract") == 2 * MINUTE - 900  # the OK press started the minute anew
    assert shown(events)[-1][:2] == ["Menu", "> New game"]  # the waking press did nothing else


def won_game() -> Stream:
    """White wins by connection (A1* B2* C3*)."""
    return (
        Stream()
        .place("A1*")
        .settle()
        .place("A3*")
        .settle()
        .place("B2*")
        .settle()
        .place("C1*")
        .settle()
        .place("C3*")
        .settle()
    )


def test_the_attract_animation_is_a_dim_rolling_wave_and_the_game_lights_come_back():
    controller = open_controller(KIOSK, Storage(":memory:"), configured_game(KIOSK, GAME, SIZE))
    replayer = Replayer(controller, KIOSK.timing.scan_hz, io.StringIO())
    replayer.setup("start")
    stream = won_game()
    for item in parse(stream.text().splitlines(), [s.label for s in controller.state.sites()]):
        replayer.apply(item)
    replayer.run_until(stream.t)
    game_frame = dict(replayer.board.leds.frame)
    assert len(game_frame) == 3  # the winning chain
    frames = []
    for t in range(stream.t + MINUTE, stream.t + MINUTE + 6000, 250):
        replayer.run_until(t)
        frames.append(dict(replayer.board.leds.frame))
    assert controller.idle.attracting
    peak = round(255 * 0.3 * KIOSK.leds["brightness"])
    for frame in frames:
        assert all(max(led.colour) <= peak and led.pattern == "steady" for led in frame.values())
    assert len({tuple(sorted(f.items())) for f in frames}) > 5  # it moves
    corner, far = controller.layout.led["A1*"], controller.layout.led["C3*"]
    assert any(f.get(corner) != f.get(far) for f in frames)  # a wave, not a blink
    replayer.board.buttons.press("back")
    replayer.run_until(stream.t + MINUTE + 6010)
    assert not controller.idle.attracting and replayer.board.leds.frame == game_frame


def test_a_stale_game_put_back_in_the_start_position_starts_a_new_game():
    played = Stream().place("B2*").settle().place("A1*").settle()
    reset = replace(played, lines=list(played.lines)).wait(MINUTE).lift("A1*", "B2*").settle()
    events = run(reset.text(), GAME, SIZE, config=KIOSK)
    assert kinds(events) == ["move", "move", "attract", "wake", "new_game", "end"]
    assert of(events, "new_game") == [{"game": "antipalos", "size": 3, "variant": "two"}]
    assert events[-1]["moves"] == []
    # the same hands without an idle spell take the moves back (two turns: once they have
    # stood for takeback_ms, as a deeper set-back by hand does)
    quick = replace(played, lines=list(played.lines)).lift("A1*", "B2*").settle().stand(1600)
    assert kinds(run(quick.text(), GAME, SIZE, config=KIOSK)) == [
        "move",
        "move",
        "takeback",
        "takeback",
        "end",
    ]


def test_after_a_spell_a_new_move_makes_the_game_current_again():
    stream = Stream().place("B2*").settle().wait(MINUTE).place("A1*").settle()
    stream.lift("A1*", "B2*").settle().stand(1600)  # two turns set back: read after takeback_ms
    events = run(stream.text(), GAME, SIZE, config=KIOSK)
    assert kinds(events)[-3:] == ["takeback", "takeback", "end"]


def test_a_finished_game_is_cleared_for_the_next_table_and_counted_today():
    won = won_game().wait(MINUTE)
    won.lift("A1*", "A3*", "B2*", "C1*", "C3*").settle()
    events = run(won.text(), GAME, SIZE, config=KIOSK)
    assert kinds(events)[-5:] == ["game_over", "attract", "wake", "new_game", "end"]
    assert ["Today", "1 game", "white 1", "Last: white wins by connection"] in shown(events)


def test_kiosk_menu_chooses_games_and_shows_today():
    stream = Stream().press("menu").press("menu").press("menu").press("ok")
    events = run(stream.text(), GAME, SIZE, config=KIOSK)
    assert shown(events)[1] == ["Menu", "> New game", "Choose game", "Today", "Exit", *HELP]
    assert shown(events)[-1] == ["Today", "No games yet", "Set up the pieces to play"]


def test_long_menu_press_offers_power_off_ok_confirms_back_cancels():
    def press(*buttons):
        stream = Stream()
        for button in buttons:
            stream.lines.append(
                {"t": stream.wait(100).t, "button": button, **({"long": True} if button == "menu" else {})}
            )
        return run(stream.text(), GAME, SIZE, config=KIOSK)

    confirmed = press("menu", "ok")
    assert shown(confirmed)[1] == ["Power off?", "> Power off now", "Cancel"]
    assert kinds(confirmed) == ["power_off", "end"]
    assert shown(confirmed)[-1][0] == "Powering off"
    cancelled = press("menu", "back")
    assert kinds(cancelled) == ["end"] and shown(cancelled)[-1][1] == "White to move"
    guests_cannot = replace(KIOSK, kiosk=Kiosk(enabled=True, power_off=False))
    stream = Stream().press("menu")
    stream.lines[-1]["long"] = True
    events = run(stream.wait(100).press("ok").text(), GAME, SIZE, config=guests_cannot)
    assert kinds(events) == ["end"] and len(shown(events)) == 1


def test_today_counts_only_the_day_s_games_with_moves():
    db = Storage(":memory:")
    empty = db.start(GAME, SIZE, "two")
    db.finish(empty, "abandoned")
    draw = db.start(GAME, SIZE, "two")
    db.add_move(draw, 1, "B2*")
    db.finish(draw, "draw by repetition", "draw")
    assert today(db) == Day(1, {"draw": 1}, 0, "draw by repetition")
    assert today(db, datetime.now() + timedelta(days=1)).played == 0
    assert day_screen(today(db)).text_lines()[1:3] == ("1 game", "draw 1")


def test_reedboard_replay_with_a_kiosk_config(tmp_path):
    config = tmp_path / "kiosk.toml"
    config.write_text("[kiosk]\nenabled = true\nidle_minutes = 1\n")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "firmware_host.cli.main",
            "replay",
            str(STREAMS / "kiosk_idle.jsonl"),
            "--game",
            GAME,
            "--size",
            str(SIZE),
            "--config",
            str(config),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert kinds(events) == ["move", "move", "attract", "wake", "new_game", "end"]


def test_a_database_from_before_the_winner_column_is_upgraded(tmp_path):
    path = str(tmp_path / "old.db")
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, size INTEGER,"
        " variant TEXT, started TEXT NOT NULL, finished TEXT, result TEXT);"
        "CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
        " ply INTEGER NOT NULL, notation TEXT NOT NULL, time TEXT NOT NULL,"
        " PRIMARY KEY (game_id, ply));"  # the first release's file: games and their moves
    )
    old.close()
    db = Storage(path)
    game = db.start(GAME, SIZE, "two")
    db.add_move(game, 1, "B2*")
    db.finish(game, "white wins by connection", "white")
    assert today(db).results == {"white": 1}
    db.close()
