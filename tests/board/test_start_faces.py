"""The faces of a new game's tokens, as players set the start up again: a reed switch senses a
token, not its face, so an Antipode board that cannot see that the last game left i5 blue up
asks for the start's faces on its screen from the game's end, through the clearing and the
set-up, until the new game's first move (replayed sensor streams, testbed/streams.py), and
with the pieces to take off at a new game asked mid-game. Other games ask for no faces."""

from __future__ import annotations

import json

import pytest

from engines import GAME_NAMES, new_game
from firmware_host.actions.commands import NewGame
from firmware_host.board.game import Game
from firmware_host.board.view import faces_up
from testbed.streams import Stream, of, run
from tests.ui.scenes import resumed

#: A game of Antipode Blue wins by connection with its last move, f2:d7, which leaves the
#: corners i9, a1, e9 and i5 showing the faces the start does not have.
GAME = (
    "e8:e8 f9:f9 b2:e1 e7:e8 i6:i5 g7:e7 e5:e1 e2:g7 g6:a1 f6:g6 g8:e1 d7:f6 f7:a1 b6:g7 d3:e1 "
    "b4:d7 c1:c1 d6:g7 h5:a1 i8:f6 h9:c1 f3:g6 c4:c4 d4:b6 b5:f7 b1:i6 f5:f6 e4:g6 c3:c3 d5:g7 "
    "e3:e5 e6:d7 d1:e4 h7:f9 g3:d3 d2:f6 h8:g6 c7:d6 a3:f5 h4:d2 a2:b5 b3:d3 i7:b6 g4:h7 g5:a5 "
    "a4:b1 f8:i5 d8:e4 f4:b5 c6:e2 f2:d7"
).split()
FACES = ["Blue face up: a5 e1 i9", "Red face up: a1 e9 i5"]
CORNERS = ["e1", "a5", "i9", "a1", "e9", "i5"]


def flip(stream: Stream, *sites: str) -> Stream:
    """Each token turned over: lifted, turned in the hand, set back."""
    for site in sites:
        stream.lift(site).place(site, after=700).settle()
    return stream


def played() -> tuple[Stream, list[str]]:
    """The last move made by hand (place f2, turn its neighbours, tap the landing d7, turn
    c6), and the tokens standing once the game is over."""
    before = new_game("antipode")
    for move in GAME[:-1]:
        before = before.play(move)
    stream = Stream().place("f2").settle()
    flip(stream, "e1", "f3", "g3")
    stream.lift("d7").place("d7", after=200).settle()
    flip(stream, "c6")
    return stream.stand(1000), sorted(before.occupied() | {"f2"})


def replayed(stream: Stream) -> list[dict]:
    """The events of ``stream`` replayed after the game's moves but the last."""
    head = json.dumps({"setup": "start", "game": "antipode", "moves": GAME[:-1]})
    return run([head, *stream.text().splitlines()], "antipode")


def screen(stream: Stream) -> list[str]:
    """The last screen the board shows for ``stream``."""
    return [e["lines"] for e in replayed(stream) if e["event"] == "display"][-1]


def test_the_faces_are_asked_from_the_game_s_end_to_the_new_game_s_first_move():
    stream, standing = played()
    over = screen(stream)
    assert over[1] == "Blue wins: connection" and over[2:] == ["Set up to play again", *FACES], over

    stream.lift(*standing[: len(standing) // 2]).settle()
    assert screen(stream)[2:] == ["Set up to play again", *FACES]  # clearing
    stream.lift(*standing[len(standing) // 2 :]).settle()
    assert screen(stream)[2:] == ["Set up to play again", *FACES]  # cleared
    stream.place(*CORNERS[:3]).settle()
    assert screen(stream)[2:] == ["Set up to play again", *FACES]  # half set up
    stream.place(*CORNERS[3:]).settle()
    assert screen(stream) == ["Antipode", "Blue to move", "Place a token", *FACES]  # a new game

    stream.place("b1").settle()  # the new game's first move, b1:a1
    flip(stream, "a1")
    stream.lift("a1").place("a1", after=200).settle()
    flip(stream, "b1")
    events = replayed(stream)
    assert [m["move"] for m in of(events, "move")][-2:] == ["f2:d7", "b1:a1"]
    shown = [e["lines"] for e in events if e["event"] == "display"]
    assert not set(FACES) & set(shown[-1]), shown[-1]  # made: asked no more


def test_a_new_game_asked_mid_game_asks_for_the_faces_with_the_pieces_to_take_off():
    board = resumed("antipode", GAME[:2])
    board.ctl.command(NewGame("antipode", None, "standard"))
    assert board.run(1000).ctl.screen().text_lines()[2:] == ("New game: take e8, f9 off", *FACES)
    board.lift("e8").lift("f9").run(1000)
    assert board.ctl.screen().text_lines()[2:] == ("Place a token", *FACES)


@pytest.mark.parametrize("game", [name for name in GAME_NAMES if name != "antipode"])
def test_a_game_without_two_faced_pieces_asks_for_no_faces(game):
    assert faces_up(Game.of(game)) == ()
