"""What a board shows, as functions of a :class:`Snapshot` of its controller: the LED frame
(:func:`build_frame`) and the OLED screen (:func:`build_screen`). Nothing here changes anything,
so each can be tried on a snapshot alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Callable, TypeVar

from engines.core import GameState
from firmware_host.board import recognise
from firmware_host.board.game import Game, win_sites
from firmware_host.board.phase import Awaiting, Choosing, Following, Moving, Over, Phase, Restoring, Why
from firmware_host.board.record import Standing
from firmware_host.board.seating import Seating
from firmware_host.board.turn import LightKind, Sync, by_name, capital, fix_words, named, small, words
from firmware_host.i18n import N_, _, current, ngettext, reword
from firmware_host.store.layout import Layout
from firmware_host.ui.kiosk import Spell
from firmware_host.ui.screens import Screen, fit_name, side_name, status_screen
from hardware.base import Led

# What the LEDs show: one colour per meaning, as the page's palette (LIGHT_COLOURS in
# firmware_host/net/web/shared/board.js), kept apart for colour-blind players, each kind told
# from the others of its colour by its pattern. "A piece goes here" is amber, a colour no side
# has, so a lit site never reads as a side's piece; the page draws each kind as a mark too.
LIGHTS: dict[LightKind, Led] = {
    "target": Led((255, 200, 0), "steady"),  # amber: a piece goes here
    "fill": Led((255, 200, 0), "pulse"),
    "twin": Led((255, 200, 0), "slow"),
    "pick": Led((30, 140, 255), "slow"),  # sky blue: tap one of these to choose
    "picked": Led((30, 140, 255), "fast"),
    "remove": Led((255, 0, 60), "fast"),  # crimson: put the board right
    "extra": Led((255, 0, 60), "fast"),
    "missing": Led((255, 0, 60), "pulse"),
    "empty": Led((255, 0, 60), "slow"),
    "flip": Led((255, 255, 255), "slow"),  # white: look here
    "win": Led((255, 255, 255), "pulse"),
    "hint": Led((255, 255, 255), "steady"),
    "marker": Led((100, 0, 255), "steady"),  # violet: a pawn stands here
    "carry": Led((100, 0, 255), "pulse"),  # its pawn to carry off
    "low_time": Led((255, 255, 255), "fast"),  # white, fast: the running clock is low
}

#: Said while a move that goes towards the position before one of the players' own last turns
#: waits to be read (a takeback by hand may be under way).
SET_BACK = N_("Taking back? Set the rest back or it's a move")
#: Said while the pieces show no move but only go towards such a position (the players' own
#: piece set back first, the opponent's lifted first).
SET_BACK_REST = N_("Taking back? Set the rest back")
#: What the screen says while a move offered, read with a token off its switch, may have been
#: a knock set right (or the placed token lifted is a tap on it under way).
KNOCK_SET_RIGHT = N_("Knock set right? Set it back to keep the move")
#: What the screen says while the board is guided back, by why.
RESTORE_WORDS: dict[Why, str] = {
    "takeback": "{Fix}",
    "new game": N_("New game: {fix}"),
    "resume": "{Fix}",
    "refused": "{Fix}",
}


@dataclass(frozen=True)
class Snapshot:
    """Where a board stands at one moment, as values: its phase, the game as recorded
    (``record``), the debounced board, the guidance and lights it decided (``movers``: the
    lifted pieces whose targets are lit), and what else is on show: the open menu's screen
    (``menu``) or an idle ``spell``. Values only, so two snapshots that are equal show the same."""

    phase: Phase
    record: Standing
    board: frozenset[str]
    sync: Sync | None
    targets: frozenset[str]
    movers: frozenset[str]
    hinted: frozenset[str]
    message: str | None
    flash: str | None
    notice: Screen | None
    menu: Screen | None
    spell: Spell | None
    connected: bool
    note: str | None
    #: The game clocks in one line (None: no clock).
    clock: str | None = None
    #: The running clock is low (``[clock] warn``): the board's corners flash.
    low_time: bool = False
    #: Who sits at the seats (the names the screen uses), a league round's table.
    seating: Seating = Seating()

    @property
    def expected(self) -> frozenset[str]:
        """The occupancy the board should show."""
        return self.phase.expected(self.record.board)

    @property
    def to_act(self) -> str | None:
        """The side who must act (during a move's steps, the side whose steps they are)."""
        return self.phase.acting(self.record.state)


def lights(snap: Snapshot) -> dict[str, LightKind]:
    """Site -> light kind (a key of :data:`LIGHTS`)."""
    phase, record = snap.phase, snap.record
    lit: dict[str, LightKind] = dict.fromkeys(corners(record.state) if snap.low_time else (), "low_time")
    if phase.over:
        lit.update(dict.fromkeys(record.board if record.on_time else win_sites(record.state), "win"))
    else:
        lit.update(dict.fromkeys(record.state.markers(), "marker"))
    lit.update(dict.fromkeys(snap.hinted, "hint"))
    lit.update(dict.fromkeys(snap.targets, "target"))
    lit.update(phase.lights(record.state, snap.board))
    missing, extra = phase.strays(record.board, snap.board, snap.sync, snap.connected)
    lit.update(dict.fromkeys(missing, "missing"))
    lit.update(dict.fromkeys(extra, "extra"))
    return lit


@lru_cache(maxsize=16)
def corners(state: GameState[Any]) -> tuple[str, ...]:
    """The sites furthest out in the four diagonal directions: the board's corners, where the
    low-time warning flashes (under any other light).

    >>> import engines
    >>> corners(engines.new_game("antipalos", 5))
    ('*A1', '*A5', '*E1', '*E5')
    """
    sites = state.sites()
    ends = {
        min(sites, key=lambda s: (dx * s.x + dy * s.y, s.label)).label
        for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1))
    }
    return tuple(sorted(ends))


def build_frame(snap: Snapshot, layout: Layout, brightness: float) -> dict[int, Led]:
    """LED channel -> what it shows (colours scaled by ``brightness``)."""
    if snap.spell:
        return snap.spell.frame(brightness)
    return {layout.led[site]: _dim(LIGHTS[kind], brightness) for site, kind in lights(snap).items()}


def _dim(led: Led, brightness: float) -> Led:
    if brightness >= 1:
        return led
    red, green, blue = (round(c * brightness) for c in led.colour)
    return Led((red, green, blue), led.pattern)


def build_screen(snap: Snapshot) -> Screen:
    """An idle spell's screen, a notice, the open menu, or the game's status."""
    if snap.spell and snap.spell.screen is not None:
        return snap.spell.screen
    if snap.notice is not None:
        return snap.notice
    if snap.menu is not None:
        return snap.menu
    record = snap.record
    state, phase = record.state, snap.phase
    outcome = state.outcome()
    result, score = record.result, record.score
    fix = snap.sync.fix() if snap.sync and snap.connected else None  # what to do on a refusal
    said, asked = (snap.message and _(snap.message)) or error(snap), instruction(snap)
    if fix and said and not asked:  # the refusal and what to do about it, in one line
        said = f"{said} · {fix}"
    faces = setting_up(snap)  # what no switch sees of the start, while it is set up
    seating = snap.seating
    if seating.waiting:  # a league round: nothing counts until each player has pressed OK
        to_do = None if phase.players_to_move else asked or fix
        lines = tuple(filter(None, (seating.asked(), said, to_do)))
        if not (said or to_do):  # the start's faces once nothing else is asked (the table's
            lines += faces  # name stays in view)
        return Screen(seating.title() or "", lines, invert_title=bool(said), large=True, keep=len(lines))
    side = None if outcome and phase.final else phase.acting(state)
    name = seating.name_of(side, state.seat_sides)
    table = _("Table {table}").format(table=seating.league.table) if seating.league else None
    return _fitted(
        snap,
        status_screen(
            game_title=" · ".join(filter(None, (table, record.game.title))),
            variant=record.game.shown_variant,
            to_move=fit_name(name) if name else side,
            side_colour=None,
            phase=state.phase,
            status_lines=faces or [reword(line) for line in state.status_lines()],
            instruction=asked or (None if said else fix),
            error=said,
            result=result,
            match_score=score,
            news=snap.flash,
            clock=snap.clock,
        ),
    )


def _fitted(snap: Snapshot, screen: Screen) -> Screen:
    """``screen`` without what to do next (:func:`_next`) where those words alone make it page:
    a crowded screen (a team match) keeps its news on one page."""
    idle = _next(snap)
    if idle is None or idle not in screen.lines or len(screen.pages()) == 1:
        return screen
    short = replace(screen, lines=tuple(line for line in screen.lines if line != idle), keep=screen.keep - 1)
    return short if len(short.pages()) == 1 else screen


def instruction(snap: Snapshot) -> str | None:
    """What the players are asked to do now (as :data:`INSTRUCTIONS` words it for the phase)."""
    return INSTRUCTIONS[type(snap.phase)](snap.phase, snap)


def _moving(phase: Moving, snap: Snapshot) -> str | None:
    """A hold of the last move, a set-back under way, a token in the hand, the removal that is
    the whole turn, else what anyone is asked (:func:`_anyone`)."""
    if (hands := _first(phase, snap, _held, _set_back, _in_hand)) is not None:
        return hands
    if (due := snap.record.state.due()) is not None:
        return words(due, due.sites & snap.board)
    return _anyone(snap) or _next(snap)


def _awaiting(phase: Awaiting, snap: Snapshot) -> str | None:
    """A hold of the last move, a set-back under way, a token in the hand, else the opponent's
    move to carry out."""
    if (hands := _first(phase, snap, _held, _set_back, _in_hand)) is not None:
        return hands
    return phase.pending.say if phase.pending else None


def _following(phase: Following, snap: Snapshot) -> str | None:
    """A hold of the last move, a set-back under way, the step under way, else what anyone is
    asked."""
    if (hands := _first(phase, snap, _held, _set_back)) is not None:
        return hands
    if (step := phase.turn.current) is not None:
        return words(step, phase.turn.remaining(snap.board))
    return _anyone(snap)


def _choosing(phase: Choosing, snap: Snapshot) -> str | None:
    """A knock set right, maybe, else how to choose among the moves."""
    if phase.held is not None:
        return _(KNOCK_SET_RIGHT)
    return phase.choice.instruction(snap.record.state.notation)


def _restoring(phase: Restoring, snap: Snapshot) -> str | None:
    """The pieces to set back (once the board was read), else the takeback's step."""
    missing, extra = phase.strays(snap.record.board, snap.board, snap.sync, snap.connected)
    if missing or extra:
        fix = fix_words(snap.record.sorted(missing), snap.record.sorted(extra))
        return _(RESTORE_WORDS[phase.why]).format(fix=small(fix), Fix=fix)
    undo = phase.undo
    return words(undo.current, undo.remaining(snap.board)) if undo and undo.current else None


def _over(phase: Over, snap: Snapshot) -> str | None:
    return _("Set up to play again")


def setting_up(snap: Snapshot) -> tuple[str, ...]:
    """The faces the start's two-faced pieces show (:func:`faces_up`) while the players may be
    setting it up: the game over, or no move made yet and nothing under way or just said."""
    phase = snap.phase
    quiet = not (snap.record.moves or snap.flash or snap.message or phase.unseen() or phase.shown_turn())
    return faces_up(snap.record.game) if phase.over or quiet else ()


def faces_up(game: Game) -> tuple[str, ...]:
    """The faces the two-faced pieces of ``game``'s start show (:meth:`GameState.faces`: a
    reed switch senses a piece, not its face), a line for each face, for the players to set
    them up so; none for a game without.

    >>> faces_up(Game.of("antipode")), faces_up(Game.of("phalanx"))
    (('Blue face up: a5 e1 i9', 'Red face up: a1 e9 i5'), ())
    """
    return _faces_up(game, current())


@lru_cache(maxsize=8)
def _faces_up(game: Game, language: str) -> tuple[str, ...]:
    """:func:`faces_up` in ``language`` (kept by language: the words are made in it)."""
    start = game.new()
    faces, order = start.faces(), [site.label for site in start.sites()]
    return tuple(
        _("{side} face up: {sites}").format(
            side=side_name(side), sites=" ".join(s for s in order if faces.get(s) == side)
        )
        for side in start.sides
        if side in faces.values()
    )


#: A phase in which the players' hands may hold, set back or carry pieces.
P = TypeVar("P", Moving, Awaiting, Following)


def _first(phase: P, snap: Snapshot, *asks: Callable[[P, Snapshot], str | None]) -> str | None:
    """What the first of ``asks`` that has something to say about the hands says (None: none)."""
    for ask in asks:
        if (said := ask(phase, snap)) is not None:
            return said
    return None


def _held(phase: Moving | Awaiting | Following, snap: Snapshot) -> str | None:
    """The players' last move held back: set down again, or taken back in a moment."""
    if phase.held is None or not snap.record.moves:
        return None
    move = snap.record.moves[-1]
    if snap.board < snap.record.board:
        return _("{move}: set it down, or leave it off to undo").format(move=move)
    return _("{move} undone soon, or set it as it was").format(move=move)


def _set_back(phase: Moving | Awaiting | Following, snap: Snapshot) -> str | None:
    """A set-back by hand under way: of the players' last turn (or a move, maybe), or deeper."""
    doubted = phase.doubted
    if doubted is None or doubted[0] == -math.inf or not doubted[1] == snap.board != snap.record.board:
        return None
    index = snap.record.earlier(snap.board)
    if recognise.candidates(snap.record.state, snap.board):  # a move, maybe
        return _(SET_BACK)
    deeper = len(snap.record.moves) - index if index is not None else 0
    return set_back_deeper(deeper) if deeper > 1 else _(SET_BACK_REST)


def set_back_deeper(n: int) -> str:
    """What the screen says while a set-back ``n`` moves deeper than the players' last turn waits.

    >>> set_back_deeper(2)
    'Taking back 2 moves soon, or set it as it was'
    """
    return ngettext(
        "Taking back {n} move soon, or set it as it was", "Taking back {n} moves soon, or set it as it was", n
    ).format(n=n)


def _in_hand(phase: Moving | Awaiting, snap: Snapshot) -> str | None:
    """Tokens held off their switches for long before the move shows."""
    lifted = snap.record.board - snap.board
    if phase.holding is not None and lifted and not snap.sync and not snap.movers:
        return _("{pieces} in the hand").format(pieces=named(by_name(lifted)))
    return None


def _anyone(snap: Snapshot) -> str | None:
    """A lifted piece's targets lit, or OK to end the turn."""
    if snap.targets:  # the pieces whose targets are lit (not one they capture, lifted too)
        lifted = snap.movers or snap.expected - snap.board
        if lifted:
            return _("Move {pieces} to a lit site").format(pieces=named(by_name(lifted)))
        return _("Put it on a lit site")
    if snap.record.state.ok_move() is not None:
        return _("OK ends the turn")
    return None


def _next(snap: Snapshot) -> str | None:
    """What the side to move does next (:func:`next_words`), unless the board differs from the
    game (it says what to fix), news is shown (a hint says more) or the game is over."""
    if snap.sync or snap.message or snap.flash or snap.record.state.outcome():
        return None
    return next_words(snap.record.state)


def next_words(state: GameState[Any]) -> str | None:
    """What a move of the side to move is, in words, as its legal moves are made by hand
    (:meth:`~engines.core.state.GameState.hand_kinds`): placing a piece, moving one, or both;
    the piece named as the game's one sensed kind of piece, else "piece".
    In the language spoken now (a menu's switch mid-game too).

    >>> from engines import new_game
    >>> next_words(new_game("antipode")), next_words(new_game("anti-grid"))
    ('Place a token', 'Lift a pawn to move it')
    """
    return _next_words(state, current())


@lru_cache(maxsize=8)
def _next_words(state: GameState[Any], language: str) -> str | None:
    """:func:`next_words` in ``language`` (kept by language: the words are made in it)."""
    kinds = state.hand_kinds()
    sensed = {piece.kind for piece in state.piece_sets() if piece.sensed}
    piece = sensed.pop() if len(sensed) == 1 else "piece"
    a_piece = _(A_PIECE.get(piece, A_PIECE["piece"]))
    if {"move", "place"} <= kinds:
        return capital(_("Place {a_piece}, or lift one to move it").format(a_piece=a_piece))
    first = next((kind for kind in NEXT_WORDS if kind in kinds), None)  # in NEXT_WORDS' order
    return capital(_(NEXT_WORDS[first]).format(a_piece=a_piece)) if first else None


#: What a move is, by how its hand changes go (:func:`next_words`).
NEXT_WORDS = {
    "move": N_("Lift {a_piece} to move it"),
    "place": N_("Place {a_piece}"),
    "take": N_("Take {a_piece} off"),
}
#: One piece of a kind the games sense, as :data:`NEXT_WORDS` name it (each language has its
#: own article); a kind not here is a "piece".
A_PIECE = {
    "token": N_("a token"),
    "pawn": N_("a pawn"),
    "stone": N_("a stone"),
    "trirod": N_("a trirod"),
    "piece": N_("a piece"),
}


#: The players' instruction, by phase: each takes its phase and the snapshot.
INSTRUCTIONS: dict[type[Phase], Callable[[Any, Snapshot], str | None]] = {
    Moving: _moving,
    Awaiting: _awaiting,
    Following: _following,
    Choosing: _choosing,
    Restoring: _restoring,
    Over: _over,
}


def error(snap: Snapshot) -> str | None:
    """What is wrong: the board not answering, the opponent's news, the board differing."""
    if not snap.connected:
        return _("Board not connected")
    if snap.note:
        return _(snap.note)
    if snap.sync and snap.phase.says_differs:
        return snap.sync.words()
    return None
