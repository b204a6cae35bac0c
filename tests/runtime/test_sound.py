"""What a player who cannot see the board hears: every move, every step the board asks for,
every refusal and result said as a ``say`` event (and by the voice with ``[sound] speech``),
the whole position on a long BACK press, and a cue for each kind of moment."""

from __future__ import annotations

import json
import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import get_args, get_type_hints

import pytest

from bench.robust.noisy import Run, whole_game
from firmware_host.board.clock import Clock
from firmware_host.board.events import Event, Guide
from firmware_host.board.game import Game
from firmware_host.board.turn import GuideAction
from firmware_host.runtime.sound import Speaker, sentences
from firmware_host.store.config import ClockConfig
from firmware_host.ui import speech
from hardware.sound import Player
from testbed.drive import Drive, Scripted
from testbed.running import Running
from testbed.tools import sim_config

#: How a move is said after its side.
VERBS = ("places on", "moves from", "removes the piece on", "plays on")
GAMES = [("antipalos", 5), ("antipode", None), ("antipod", 4), ("anti-grid", 6), ("phalanx", None)]


@dataclass
class Cues:
    """An output that keeps the cues it is given."""

    played: list[str]

    def cue(self, name: str) -> None:
        self.played.append(name)


@dataclass
class Heard(Run):
    """A run whose every step is said, as the daemon says it."""

    speaker: Speaker = field(default_factory=Speaker)
    said: list[dict] = field(default_factory=list)

    def scan(self) -> None:
        told = len(self.events)
        super().scan()
        said = self.speaker.step(self.last_ms, self.controller, self.events[told:])
        self.events += said
        self.said += said


@pytest.mark.parametrize("name, size", GAMES)
def test_a_whole_game_is_said_move_by_move(name, size):
    run, plan, _ = whole_game(Game.of(name, size), random.Random(7), 3000, kind=Heard)
    said = [e["text"] for e in run.said]
    moves = [e for e in run.events if e["event"] == "move"]
    assert [e["move"] for e in moves] == plan.moves
    for event in moves:  # each move said in the same step, by its side, naming a site of it
        texts = [e["text"] for e in run.events if e["event"] == "say" and e["t"] == event["t"]]
        by = speech.side(event["side"])
        assert any(t.startswith(tuple(f"{by} {verb}" for verb in VERBS)) for t in texts), texts
    asked = [e for e in run.events if e["event"] == "guide"]
    for event in asked:  # every step asked is said, naming its sites
        assert speech.asked(event["action"], event["sites"]) in said
    (over,) = [e for e in run.events if e["event"] == "game_over"]
    assert speech.result(over["winner"], over["result"]) in said
    out = Path("test-output/speech")
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.txt").write_text("\n".join(said) + "\n")


@pytest.mark.parametrize("action", get_args(GuideAction.__args__[0]) + ("confirm",))
def test_every_step_the_board_asks_for_is_said_with_its_sites(action):
    guide = Guide(t=0, event="guide", action=action, sites=["h4", "h5"] if action != "confirm" else [])
    (text,) = sentences(None, [guide])
    assert text == speech.asked(action, guide["sites"])
    assert action == "confirm" or "h 4" in text and "h 5" in text


def test_a_refused_move_is_said_with_its_reason_and_what_to_put_right():
    drive = Drive(Game.of("antipalos", 5)).run(50)
    drive.place("B2*").run()
    drive.place("*B2").run(1000)  # a second Trirod on B2
    said = sentences(drive.ctl, drive.events)
    refusal = next(e for e in drive.events if e["event"] == "illegal")
    assert f"{speech.refused(refusal['reason'])}. Take off the piece on star B 2" in said
    assert said[0] == "White places on B 2 star"


def test_the_computers_move_and_the_players_turn_are_said_and_cued():
    cues = []
    speaker = Speaker(outputs=[Cues(cues)])
    drive = Drive(Game.of("antipalos", 5), opponent=Scripted("black", "C3*"))
    said = []
    for _ in range(200):
        before = len(drive.events)
        drive.run(10)
        said += [s["text"] for s in speaker.step(drive.t, drive.ctl, drive.events[before:])]
        if len(said) == 0 and drive.t == 300:
            drive.place("B2*")
        if "Opponent's move: place a piece on C 3 star" in said and drive.t % 500 == 0:
            drive.place("C3*")
    assert said[:2] == ["White places on B 2 star", "Opponent's move: place a piece on C 3 star"]
    assert "Black places on C 3 star" in said
    assert cues[:2] == ["opponent", "turn"]  # a step's most important cue: the move's is the reply's


def test_a_long_back_press_says_the_whole_position():
    drive = Drive(Game.of("antipod", 4)).run(50)
    drive.place("e7").run()
    before = len(drive.events)
    drive.sim.buttons.press("back", long=True)
    presses = drive.sim.buttons.events()
    said = Speaker().step(drive.t, drive.ctl, drive.events[before:], presses)
    (position,) = [s["text"] for s in said]
    assert position.startswith("Black to move. White: stones on ") and "e 7" in position


def test_the_last_seconds_on_a_clock_sound_the_low_time_cue_once():
    cues = []
    speaker = Speaker(outputs=[Cues(cues)], low_time=5000)
    drive = Drive(Game.of("antipalos", 5)).run(50)
    drive.ctl.clock = Clock(ClockConfig(control="8").time_control(), False, drive.storage)
    drive.ctl.clock.begin(drive.ctl.game_id, drive.ctl.state.sides, 0)
    drive.place("B2*").run()
    for _ in range(90):  # black's 8 s run out
        drive.run(100)
        speaker.step(drive.t, drive.ctl, [])
    assert cues.count("low_time") == 1


@pytest.mark.parametrize(
    "top, said",
    [
        ("", ("White places on B 2 star", "Black places on C 3 star")),
        ('language = "de"\n', ("Weiß setzt auf B 2 Stern", "Schwarz setzt auf C 3 Stern")),
    ],
)
def test_a_board_without_espeak_says_so_once_and_plays_on(tmp_path, monkeypatch, top, said):
    """The ``say`` events of a real process, in the board's language (``language = "de"``:
    German, in the German voice), whether or not the voice can be heard."""
    monkeypatch.setenv("PATH", str(tmp_path))  # neither espeak-ng nor aplay to be found
    board = Running(sim_config(tmp_path, f"{top}[sound]\nspeech = true"))
    try:
        board.wait_for("display")  # the first scan: the board empty
        board.send(site="B2*", on=True)
        assert board.wait_for("say")["text"] == said[0]
        board.send(site="C3*", on=True)
        assert board.wait_for("say")["text"] == said[1]
    finally:
        board.stop()
    errors = board.stderr()
    assert errors.count("is not installed: the board stays silent") == 1, errors
    assert "Traceback" not in errors


def test_say_events_are_json_lines_of_the_daemon(tmp_path):
    board = Running(sim_config(tmp_path))
    try:
        board.wait_for("display")  # the first scan: the board empty
        board.send(site="B2*", on=True)
        say = board.wait_for("say")
        assert list(say) == ["t", "event", "text"] and json.dumps(say)
    finally:
        board.stop()


def test_a_newer_sentence_replaces_one_not_yet_begun():

    busy, heard = threading.Event(), []

    def say(text):
        heard.append(text)
        busy.wait(5)

    player = Player("test voice", say)
    player.give("White places on a 1")
    deadline = time.monotonic() + 5
    while not heard and time.monotonic() < deadline:
        time.sleep(0.01)
    player.give("Black places on b 2")  # stale before it is begun
    player.give("White places on c 3")
    busy.set()
    while len(heard) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    player.close()
    assert heard == ["White places on a 1", "White places on c 3"]


#: The events that ask nothing of a player and change nothing they must know: never said.
SILENT = {"in_sync", "targets", "display", "clock", "match", "power_off", "wake", "attract", "say"}
#: One event of each kind that is said, and what is said.
SAID = {
    "out_of_sync": ({"missing": ["c1"], "extra": []}, "Put back the piece on c 1"),
    "illegal": (
        {"reason": "c4 leaves the pawn no move", "sites": []},
        "Refused: c 4 leaves the pawn no move",
    ),
    "waiting": ({"reason": "Waiting for the other board", "sites": []}, "Waiting for the other board"),
    "guide": ({"action": "flip", "sites": ["h5"]}, "Turn the token on h 5"),
    "expect": (
        {"move": "e1-e9", "empty": ["e1"], "fill": ["e9"]},
        "Opponent's move: move the piece from e 1 to e 9",
    ),
    "takeback": ({"move": "f14"}, "Move f 14 taken back"),
    "game_over": ({"winner": "black", "result": "ring", "sites": []}, "Game over. Black wins by ring"),
    "new_game": ({"game": "phalanx", "size": None, "variant": None}, "New game of phalanx"),
    "hint": ({"move": "d8"}, "Hint: d 8"),
}


def test_every_kind_of_event_is_said_or_knowingly_silent():
    kinds = {arg for kind in get_args(Event) for arg in get_args(get_type_hints(kind)["event"])}
    assert kinds - SILENT - {"move", "correction"} == set(SAID)  # moves: said whole games above
    for kind, (fields, text) in SAID.items():
        assert sentences(None, [{"t": 0, "event": kind, **fields}]) == [text]
