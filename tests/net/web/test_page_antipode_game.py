"""One whole game of Antipode on ``reedboard run --sim``, played through the page in Debian's
chromium as players do: a click puts each token down, two quick clicks turn a lit token over
(lifted and set back) or tap the token the pawn lands on, each step as the board's guide asks.
The OLED asks for the start's token faces (a reed switch cannot see them) when the game begins
and again once it is over, and once more when a new game is asked from the page."""

from __future__ import annotations

import json
import time

import pytest

from engines import new_game
from testbed.running import Running
from testbed.tools import free_port
from tests.board.test_start_faces import FACES
from tests.net.web.test_page_result import uncovered
from tests.net.web.test_web_browser import open_panel, site
from tests.net.web.web_tools import screenshot

#: A short game (random turns, the shortest of many): Blue joins a5 to i5 with its last turn.
GAME = (
    "h4:h4 e2:e1 g4:g4 f2:f2 d3:h4 e3:e1 f3:i5 e6:e9 g5:g5 d5:e6 f7:a5 b6:e1 c5:c5 b4:e6 c6:i5 d4:e1 e5:h4"
).split()
#: The OLED's words on the page.
OLED = "() => document.getElementById('oled').alt"


def shows(page, *words: str) -> None:
    """Wait until the OLED on the page shows each of ``words``."""
    page.wait_for_function(
        "(words) => words.every((w) => document.getElementById('oled').alt.includes(w))", arg=words
    )


def next_event(board: Running, kinds: set[str], timeout: float = 30) -> dict | None:
    """The daemon's next event of one of ``kinds`` (the others passed over); None when none
    comes within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while line := board.events.next(deadline - time.monotonic()):
        event = json.loads(line)
        if event["event"] in kinds:
            return event
    return None


def twice(page, label: str) -> None:
    """Two clicks on a token: lifted and set back (turned over, or a tap)."""
    site(page, label).click()
    site(page, label).click()


def play(page, board: Running, state, move: str):
    """Make ``move`` as the board guides the players: the placement, then each step it asks
    (turn the lit tokens over, tap the landing when it asks which) until the turn is over;
    the position after it. The board lights the tokens still to turn after each (a token
    turned is not turned again)."""
    place, landing = move.split(":")
    after = state.play(move)
    turn = None if after.outcome() else f"{after.to_move.capitalize()} to move"
    site(page, place).click()
    made, turned, deadline = False, set(), time.monotonic() + 60
    while True:
        event = next_event(board, {"guide", "move", "game_over"}, timeout=1)
        if event is None:
            assert time.monotonic() < deadline, (move, page.evaluate(OLED))
            if made and page.evaluate("() => document.getElementById('turn').textContent") == turn:
                return after
        elif event["event"] == "move":
            assert event["move"] == move, (event, move)
            made, turned = True, set()
        elif event["event"] == "game_over":
            assert made and after.outcome(), (event, move)
            assert (event["winner"], event["result"]) == (after.outcome().winner, after.outcome().result)
            return after
        elif event["action"] == "pick":
            twice(page, landing)
        else:
            for label in sorted(set(event["sites"]) - turned):
                twice(page, label)
                turned.add(label)


@pytest.mark.slow
def test_a_whole_game_through_the_page_asks_for_the_faces_at_the_start_and_the_end(tmp_path, page):
    port, config = free_port(), tmp_path / "config.toml"
    config.write_text(f'game = "antipode"\nstorage = "{tmp_path}/games.db"\n[web]\nport = {port}\n')
    board = Running(config)
    try:
        assert board.said("is at http", timeout=30), board.stderr()
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_selector('[data-site="e5"]')
        shows(page, "Place a token", *FACES)
        screenshot(page, "antipode-game-start")
        state = new_game("antipode")
        for move in GAME:
            state = play(page, board, state, move)
        assert state.outcome().winner == "blue"
        shows(page, *FACES)
        assert uncovered(page) == []  # the result above the board, clear of its coordinates
        screenshot(page, "antipode-game-over")
        page.on("dialog", lambda dialog: dialog.accept())
        open_panel(page, "new-game")
        page.click("#picker button[type=submit]")
        assert next_event(board, {"new_game"})["game"] == "antipode"
        shows(page, "Place a token", *FACES)
        screenshot(page, "antipode-game-again")
    finally:
        board.stop()
