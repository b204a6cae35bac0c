"""What a board shows, as functions of a :class:`Snapshot` of its controller: the LED frame
(:func:`build_frame`) and the OLED screen (:func:`build_screen`). Nothing here changes anything,
so each can be tried on a snapshot alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from firmware_host.board import recognise
from firmware_host.board.game import result_lines
from firmware_host.board.phase import Awaiting, Choosing, Following, Moving, Over, Phase, Restoring, acting
from firmware_host.board.record import GameRecord
from firmware_host.board.turn import LIGHTS, STEPS, Sync, by_name, fix_words, named, words
from firmware_host.store.layout import Layout
from firmware_host.ui.kiosk import Idle
from firmware_host.ui.screens import Screen, status_screen
from hardware.base import Led

#: A screen too long for the OLED shows its pages in turn, each this long (ms).
PAGE_MS = 3000

#: Said while a move that goes towards the position before one of the players' own last turns
#: waits to be read (a takeback by hand may be under way).
SET_BACK = "Taking back? Set the rest back, or it is a move in a moment"
#: What the screen says while a move offered, read with a token off its switch, may have been
#: a knock set right (or the placed token lifted is a tap on it under way).
KNOCK_SET_RIGHT = "Knock set right? Dropped in a moment, or set it as it was"
#: What the screen says while a set-back deeper than the players' last turn waits.
SET_BACK_DEEPER = "Taking back {n} moves in a moment, or set it as it was"
#: What the screen says while the board is guided back, by why.
RESTORE_WORDS = {"takeback": "{Fix}", "new game": "New game: {fix}", "resume": "{Fix}", "refused": "{Fix}"}


@dataclass(frozen=True)
class Snapshot:
    """Where a board stands at one moment: its phase and game, the debounced board, the
    guidance and lights it decided (``movers``: the lifted pieces whose targets are lit), and
    what else is on show."""

    phase: Phase
    record: GameRecord
    board: frozenset[str]
    sync: Sync | None
    targets: frozenset[str]
    movers: frozenset[str]
    hinted: frozenset[str]
    message: str | None
    flash: str | None
    notice: Screen | None
    menu: Any
    idle: Idle | None
    connected: bool
    note: str | None
    now: float

    @property
    def expected(self) -> frozenset[str]:
        phase = self.phase
        return phase.turn.board() if isinstance(phase, Following) else self.record.board

    def restore_left(self) -> tuple[frozenset[str], frozenset[str]]:
        """While restoring: the sites still to fill and to empty."""
        target = self.record.board
        return target - self.board, self.board - target


def lights(snap: Snapshot) -> dict[str, str]:
    """Site -> light kind (a key of :data:`LIGHTS`)."""
    phase, state = snap.phase, snap.record.state
    lit: dict[str, str] = {}
    if isinstance(phase, Over):
        outcome = state.outcome()
        won = (site for name in (outcome.sites if outcome else ()) for site in state.sites_of(name))
        lit.update(dict.fromkeys(won, "win"))
    else:
        lit.update(dict.fromkeys(state.markers(), "marker"))
    lit.update(dict.fromkeys(snap.hinted, "hint"))
    lit.update(dict.fromkeys(snap.targets, "target"))
    if isinstance(phase, Awaiting) and phase.pending:
        lit.update(phase.pending.lights(snap.board))
    if isinstance(phase, Moving) and (due := state.due()) is not None:
        lit.update(dict.fromkeys(due.sites & snap.board, STEPS[due.action].light))
    if isinstance(phase, Choosing):
        lit.update(phase.choice.lights())
    if isinstance(phase, Following) and phase.turn.current:
        lit.update(dict.fromkeys(phase.turn.remaining(snap.board), STEPS[phase.turn.current.action].light))
    if isinstance(phase, Restoring):
        undo = phase.undo
        if undo is not None and undo.current is not None:
            lit.update(dict.fromkeys(undo.remaining(snap.board), STEPS[undo.current.action].light))
        if snap.sync:  # guided once the board was read at a settle: no flash meanwhile
            missing, extra = snap.restore_left()
            lit.update(dict.fromkeys(missing, "missing"))
            lit.update(dict.fromkeys(extra, "extra"))
    elif snap.sync and snap.connected:
        if isinstance(phase, Awaiting) and phase.pending:
            missing, extra = phase.pending.stray(snap.record.board, snap.board)
        else:
            aim = snap.expected if snap.sync.aim is None else snap.sync.aim
            missing, extra = aim - snap.board, snap.board - aim
            if isinstance(phase, Following):  # as the judge has it: a token to turn is in the hand
                missing -= phase.turn.to_touch()
        lit.update(dict.fromkeys(missing, "missing"))
        lit.update(dict.fromkeys(extra, "extra"))
    return lit


def build_frame(snap: Snapshot, layout: Layout, brightness: float) -> dict[int, Led]:
    """LED channel -> what it shows (colours scaled by ``brightness``)."""
    if snap.idle and snap.idle.attracting:
        return snap.idle.frame(snap.now, snap.record.state.sites(), layout.led, brightness)
    return {layout.led[site]: _dim(LIGHTS[kind], brightness) for site, kind in lights(snap).items()}


def _dim(led: Led, brightness: float) -> Led:
    if brightness >= 1:
        return led
    red, green, blue = (round(c * brightness) for c in led.colour)
    return Led((red, green, blue), led.pattern)


def build_screen(snap: Snapshot) -> Screen:
    """An idle spell's screen, a notice, the open menu, or the game's status."""
    if snap.idle and snap.idle.attracting and snap.idle.screen is not None:
        return snap.idle.screen
    if snap.notice is not None:
        return snap.notice
    if snap.menu is not None:
        return snap.menu.screen()
    record = snap.record
    state, phase = record.state, snap.phase
    outcome = state.outcome()
    result, score = result_lines(outcome, record.match)
    following = isinstance(phase, Following)
    fix = snap.sync.fix() if snap.sync and snap.connected else None  # what to do on a refusal
    said, asked = snap.message or error(snap), instruction(snap)
    if fix and said and not asked:  # the refusal and what to do about it, in one line
        said = f"{said} · {fix}"
    return status_screen(
        game_title=record.game.title,
        variant=record.game.shown_variant,
        to_move=None if outcome and not following else acting(phase, state),
        side_colour=None,
        phase=state.phase,
        status_lines=state.status_lines(),
        instruction=asked or (None if said else fix),
        error=said,
        result=result,
        match_score=score,
        news=snap.flash,
    )


def instruction(snap: Snapshot) -> str | None:
    """What the players are asked to do now."""
    phase, state = snap.phase, snap.record.state
    if isinstance(phase, Over):
        return "Set up to play again"
    if isinstance(phase, (Moving, Awaiting, Following)) and phase.held is not None and snap.record.moves:
        move = snap.record.moves[-1]
        if snap.board < snap.record.board:
            return f"{move} lifted: set it down again, or leave it off to take it back"
        return f"{move} undone: taken back in a moment, or set it as it was"
    if isinstance(phase, Choosing) and phase.held is not None:
        return KNOCK_SET_RIGHT
    doubted = phase.doubted if isinstance(phase, (Moving, Awaiting)) else None
    if doubted is not None and doubted[1] == snap.board != snap.record.board and doubted[0] > -math.inf:
        index = snap.record.earlier(snap.board)
        if index is None or recognise.candidates(state, snap.board):  # a move, maybe
            return SET_BACK
        return SET_BACK_DEEPER.format(n=len(snap.record.moves) - index)
    lifted = snap.record.board - snap.board
    if isinstance(phase, (Moving, Awaiting)) and phase.holding is not None and lifted and not snap.sync \
            and not snap.movers:
        return f"{named(by_name(lifted))} in the hand"
    if isinstance(phase, Restoring):
        missing, extra = snap.restore_left()
        if (missing or extra) and snap.sync:
            order = {s.label: i for i, s in enumerate(state.sites())}
            fix = fix_words(*(sorted(sites, key=lambda s: order.get(s, len(order)))
                              for sites in (missing, extra)))
            return RESTORE_WORDS[phase.why].format(fix=fix[:1].lower() + fix[1:], Fix=fix)
        undo = phase.undo
        return words(undo.current, undo.remaining(snap.board)) if undo and undo.current else None
    if isinstance(phase, Awaiting):
        return phase.pending.say if phase.pending else None
    if isinstance(phase, Choosing):
        return phase.choice.instruction(state.notation)
    if isinstance(phase, Moving) and (due := state.due()) is not None:
        return words(due, due.sites & snap.board)
    if isinstance(phase, Following) and (step := phase.turn.current) is not None:
        return words(step, phase.turn.remaining(snap.board))
    if snap.targets:  # the pieces whose targets are lit (not one they capture, lifted too)
        lifted = snap.movers or snap.expected - snap.board
        return f"Move {named(by_name(lifted))} to a lit site" if lifted else "Put it on a lit site"
    if state.ok_move() is not None:
        return "OK ends the turn"
    return None


def error(snap: Snapshot) -> str | None:
    """What is wrong: the board not answering, the opponent's news, the board differing."""
    if not snap.connected:
        return "Board not connected"
    if snap.note:
        return snap.note
    if snap.sync and not isinstance(snap.phase, Restoring):
        return snap.sync.words()
    return None


class Pager:
    """A screen too long for the panel, shown a page at a time for PAGE_MS each, from its first
    page whenever the screen changes.

    >>> pager = Pager()
    >>> pager.show(Screen("Title", ("one",)), now=0)
    ('Title', 'one')
    >>> pager.show(Screen("Title", ("one",)), now=10) is None
    True
    """

    def __init__(self) -> None:
        self.page = 0
        self._pages = 0
        self._shown: Screen | None = None
        self._at = 0.0
        self._lines: tuple[str, ...] = ()

    def turn_due(self, now: float) -> bool:
        """True when a long screen's next page is due."""
        return self._pages > 1 and (now - self._at) // PAGE_MS != self.page

    def show(self, screen: Screen, now: float) -> tuple[str, ...] | None:
        """Show ``screen`` at ``now``; the page's text when it changed, else None."""
        if screen != self._shown:
            self._shown, self._at = screen, now
        self.page = int((now - self._at) // PAGE_MS)
        paged = replace(screen, page=self.page)
        self._pages = len(paged.pages())
        lines = paged.text_lines()
        if lines == self._lines:
            return None
        self._lines = lines
        return lines
