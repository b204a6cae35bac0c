"""The OLED's words as a first-time player reads them: the screen of a board at rest says what a
move is (place a piece, or lift one to move it), a hint says what to do rather than the move's
notation, and the common screens of every game fit on one page at the UI's font. The idle and
hint screens of every game are saved to test-output/ (oled-<game>-idle.png, -hint.png, 4x) for a
person to look at."""

from __future__ import annotations

import random

import pytest
from luma.core.device import dummy

from engines import GAME_NAMES
from firmware_host.board.game import Game
from firmware_host.board.opponent import Hints
from firmware_host.board.turn import by_name, named
from firmware_host.board.view import KNOCK_SET_RIGHT, SET_BACK, next_words, set_back_deeper
from firmware_host.ui.menu import game_choices
from firmware_host.ui.screens import SIZE, fits, status_screen
from testbed.drive import Drive
from tests.net.web.web_tools import OUTPUT

#: What the idle screen of each game asks at the start.
IDLE = {
    "antipalos": "Place a trirod",
    "antipode": "Place a token",
    "antipod": "Place a stone",
    "anti-grid": "Lift a pawn to move it",
    "phalanx": "Lift a piece to move it",
}


def one_page(drive: Drive, name: str) -> tuple[str, ...]:
    """The controller's screen now, which must fit on one page; saved for a person to look at."""
    pages = drive.ctl.screen().pages()
    assert len(pages) == 1 and fits(pages[0]), [page.text_lines() for page in pages]
    OUTPUT.mkdir(exist_ok=True)
    image = pages[0].render(dummy(*SIZE, mode="1"))
    image.convert("L").resize((SIZE[0] * 4, SIZE[1] * 4)).save(OUTPUT / f"oled-{name}.png")
    return pages[0].text_lines()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_idle_screen_says_what_to_do_and_the_hint_says_it_in_words(game):
    drive = Drive(Game.of(game)).run(600)
    assert IDLE[game] in one_page(drive, f"{game}-idle")
    drive.ctl.hints = Hints(1, sync=True)
    drive.press("ok", long=True).run(50)
    move = drive.last("hint")["move"]
    said = next(line for line in one_page(drive, f"{game}-hint") if line.startswith("Hint: "))
    real = drive.ctl.state.realisations(drive.ctl.state.parse_move(move))[0]
    assert said != f"Hint: {move}" and said.split()[1] in ("place", "move"), said
    assert all(site in said for site in real.emptied | real.filled), said


def test_a_lifted_piece_asks_for_the_move_and_the_idle_words_come_back_once_it_is_made():
    drive = Drive(Game.of("anti-grid")).run(600)
    move = drive.ctl.state.legal_moves()[0]
    real = drive.ctl.state.realisations(move)[0]
    (source,), (target,) = real.emptied, real.filled
    drive.lift(source).run(300)
    assert f"Move {source} to a lit site" in one_page(drive, "anti-grid-lift")
    assert IDLE["anti-grid"] not in drive.ctl.screen().text_lines()
    drive.place(target).run(800)
    assert drive.ctl.moves and IDLE["anti-grid"] in one_page(drive, "anti-grid-idle-next")


def test_a_board_that_differs_says_what_to_fix_not_what_to_do_next():
    drive = Drive(Game.of("antipod", 4)).run(600)
    free = sorted(set(drive.ctl.layout.sensor) - drive.ctl.board)
    drive.place(free[0]).place(free[-1]).run(800)  # no move places two stones apart
    lines = drive.ctl.screen().text_lines()
    assert drive.ctl.sync is not None and IDLE["antipod"] not in lines, lines


@pytest.mark.parametrize("choice", game_choices(), ids=lambda c: f"{c.game}-{c.size}-{c.variant}")
def test_the_idle_screen_and_the_common_instructions_fit_on_one_page(choice):
    """Throughout a random game of every game, size and variant: what to do next, a lifted
    piece's "Move … to a lit site" and "OK ends the turn", each with the game's status lines."""
    rng = random.Random(f"{choice.game}{choice.size}{choice.variant}")
    game = Game(choice.game, choice.size, choice.variant)
    state, checked = game.new(), 0
    while state.outcome() is None and checked < 40:
        pieces = [named(by_name(f.sites)) for f in state.figures()] or ["a1"]
        lifted = f"Move {max(pieces, key=len)} to a lit site"
        asked = (next_words(state), lifted, "OK ends the turn") if state.due() is None else ()
        for instruction in asked:  # (a removal due is the whole turn: it is all that is asked)
            screen = status_screen(
                game.title,
                game.shown_variant,
                state.to_move,
                None,
                state.phase,
                state.status_lines(),
                instruction,
                None,
                None,
            )
            assert len(screen.pages()) == 1 and fits(screen), screen.text_lines()
        state, checked = state.apply(rng.choice(state.legal_moves())), checked + 1
    assert checked


@pytest.mark.parametrize("game", GAME_NAMES)
def test_what_a_takeback_or_a_knock_under_way_says_fits_on_one_page(game):
    """The words said while the board waits to tell a takeback or a knock from a move, with the
    game's status lines, throughout a random game at the game's usual size and variant (but
    for a Phalanx removal due, whose extra status line makes these page)."""
    rng = random.Random(game)
    played, state = Game.of(game), Game.of(game).new()
    for _ in range(30):
        if state.outcome() is not None:
            break
        move = rng.choice(state.legal_moves())
        last = max((state.notation(m) for m in state.legal_moves()[:40]), key=len)
        waits = (
            SET_BACK,
            KNOCK_SET_RIGHT,
            set_back_deeper(12),
            f"{last}: set it down, or leave it off to undo",
            f"{last} undone soon, or set it as it was",
        )
        for said in waits if state.due() is None else ():
            screen = status_screen(
                played.title,
                played.shown_variant,
                state.to_move,
                None,
                state.phase,
                state.status_lines(),
                said,
                None,
                None,
            )
            assert len(screen.pages()) == 1 and fits(screen), screen.lines
        state = state.apply(move)
