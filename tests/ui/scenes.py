"""Moments at the board, one for every kind of thing the OLED asks or tells the players: a
piece in the hand, each kind of follow-up, a choice, a takeback, a refusal, a knocked piece, the
computer's move to carry out, the end, a correction, the menu. Each scene is a real controller
on a real engine, driven by hand changes on a simulated board (testbed/drive.py's
:class:`Drive`). The OLED tests render them all; docs/play/make.py shows them in the players'
guides.

>>> scene = SCENES["antipod-twin"]()
>>> [line for line in scene.ctl.screen().text_lines() if "twin" in line]
['Place the twin on a13']
"""

from __future__ import annotations

import random
from typing import Callable

from firmware_host import i18n
from firmware_host.board.game import Game
from firmware_host.store.storage import Storage
from firmware_host.ui.menu import Menu, game_choices
from testbed.drive import SELF_PHALANX, Drive, Scripted


def with_menu(game: Game, **kw) -> Drive:
    """A board playing ``game`` with the menu every board has."""
    choices = game_choices()
    ours = [c for c in choices if c.game == game.name]
    current = next((c for c in ours if c.size == game.size), ours[0])
    return Drive(game, menu=Menu(choices, current), **kw).run(600)


def play(d: Drive, move: str, index: int = 0) -> Drive:
    """Make ``move`` by hand (its ``index``-th realisation, follow-ups not done)."""
    state = d.ctl.state
    real = state.realisations(state.parse_move(move))[index]
    for site in sorted(real.emptied):
        d.lift(site)
    for site in sorted(real.filled):
        d.place(site)
    return d.run(800)


def finish(d: Drive) -> Drive:
    """Do the follow-ups of the move under way (sensed ones by hand, the rest by OK)."""
    for _ in range(8):
        step = getattr(d.ctl.phase, "turn", None)
        if step is None or step.current is None:
            return d
        current = step.current
        for site in sorted(step.remaining(d.ctl.board)):
            if current.action == "remove":
                d.lift(site)
            elif current.action == "twin":
                d.place(site)
        d.run(600)
        if getattr(d.ctl.phase, "turn", None) is step:
            d.press("ok").run(300)
    return d


def found(game: str, wanted: Callable, size: int | None = None, seed: int = 3, plies: int = 60):
    """The moves of a seeded random game up to a position with a legal move ``wanted(state,
    move)`` accepts, and that move."""
    rng = random.Random(seed)
    state = Game.of(game, size).new()
    moves = []
    for _ in range(plies):
        hit = next((m for m in state.legal_moves() if wanted(state, m)), None)
        if hit is not None:
            return moves, str(hit)
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.apply(move)
    raise LookupError(f"no such move in {plies} plies of {game}")


def resumed(game: str, moves: list[str], size: int | None = None, **kw) -> Drive:
    storage = Storage(":memory:")
    game_id = storage.start(game, size, None)
    for ply, move in enumerate(moves, 1):
        storage.add_move(game_id, ply, move)
    return with_menu(Game.of(game, size), storage=storage, resume=(game_id, moves), **kw)


def _steps(action: str):
    return lambda state, move: any(s.action == action for s in state.realisations(move)[0].follow_ups)


def lifted() -> Drive:
    d = with_menu(Game.of("anti-grid"))
    return d.lift("c1").run(300)


def phalanx_lifted() -> Drive:
    d = with_menu(Game.of("phalanx"))
    for site in ("a1nw", "a1se"):  # an Archer
        d.lift(site)
    return d.run(300)


def capture() -> Drive:
    moves, move = found("anti-grid", _steps("remove"))
    return play(resumed("anti-grid", moves), move)


def twin() -> Drive:
    moves, move = found("antipod", _steps("twin"))
    return play(resumed("antipod", moves), move)


def flip() -> Drive:
    d = with_menu(Game.of("antipode"))
    return d.place("b1").run(800)


def choice() -> Drive:
    d = flip()
    return d.lift("a1").run(300).place("a1").run(800)


def self_phalanx() -> Drive:
    d = resumed("phalanx", SELF_PHALANX)
    return play(d, "e5se-e7se")


def takeback() -> Drive:
    d = choice()
    d.lift("a1").run(150).place("a1").run(800)  # the tap: the move is made
    finish(d)
    d.press("menu")
    items = d.ctl.menu.screen().lines
    for _ in range(items.index(i18n._("Take back"))):
        d.press("menu")
    return d.press("ok").run(300)


def undo_carry() -> Drive:
    d = takeback()
    for site in sorted(d.ctl.board - d.ctl.record.board):
        d.lift(site)
    d.run(800)
    return d.press("ok").run(300)  # the flip back, turned without lifting


def refused() -> Drive:
    d = with_menu(Game.of("antipalos", 12))
    play(d, "*C3")
    return d.place("C3*").run(800)


def knocked() -> Drive:
    d = with_menu(Game.of("anti-grid"))
    return d.lift("c1").lift("e1").place("c3").run(800)


def differs() -> Drive:
    d = with_menu(Game.of("antipod"))
    return d.place("c3").place("d4").lift("a1").run(800)


def new_game() -> Drive:
    d = with_menu(Game.of("antipalos", 12))
    play(d, "B2*")
    d.press("menu")
    return d.press("ok").run(300)


def computer() -> Drive:
    state = Game.of("anti-grid").new()
    move = str(next(m for m in state.legal_moves() if len(str(m)) > 4))
    d = Drive(Game.of("anti-grid"), opponent=_Computer(state.to_move, move))
    return d.run(300)


def set_back() -> Drive:
    """Anti-Grid against the computer: c1-c3, its b12-b8 carried out, then c3 set back on c1
    (a takeback by hand begun with the own piece, or the move c3-c1)."""
    d = Drive(Game.of("anti-grid"), opponent=_Computer("blue", "b12-b8")).run(300)
    play(d, "c1-c3")
    d.lift("b12").place("b8").run(800)
    return d.lift("c3").place("c1").run(600)


def over() -> Drive:
    d = with_menu(Game.of("antipalos", 3))
    for move in ("A1*", "A3*", "B2*", "C1*", "C3*"):
        play(d, move)
    return d


def corrected() -> Drive:
    d = with_menu(Game.of("antipalos", 12))
    play(d, "B2*")
    return d.lift("B2*").place("B3*").run(800)


def menu() -> Drive:
    return with_menu(Game.of("antipode")).press("menu")


def players() -> Drive:
    d = menu()
    items = d.ctl.menu.screen().lines
    for _ in range(items.index(i18n._("Players"))):
        d.press("menu")
    return d.press("ok")


class _Computer(Scripted):
    """A scripted opponent that words its move as the computer does."""

    def poll(self, seen):
        if seen.awaiting and self.moves:
            from firmware_host.board.opponent import Play
            from firmware_host.board.turn import directions

            move = self.moves.pop(0)
            state = seen.states[-1]
            how = directions(state, state.parse_move(move))
            return [Play(move, i18n._("Computer plays {move}: {how}").format(move=move, how=how))]
        return []


#: name -> a function making the scene.
SCENES: dict[str, Callable[[], Drive]] = {
    "anti-grid-lifted": lifted,
    "phalanx-lifted": phalanx_lifted,
    "anti-grid-capture": capture,
    "antipod-twin": twin,
    "antipode-flip": flip,
    "antipode-choice": choice,
    "phalanx-self-phalanx": self_phalanx,
    "antipode-takeback": takeback,
    "antipode-takeback-carry": undo_carry,
    "antipalos-refused": refused,
    "anti-grid-knocked": knocked,
    "antipod-differs": differs,
    "antipalos-new-game": new_game,
    "anti-grid-computer": computer,
    "anti-grid-set-back": set_back,
    "antipalos-over": over,
    "antipalos-corrected": corrected,
    "antipode-menu": menu,
    "antipode-players": players,
}
