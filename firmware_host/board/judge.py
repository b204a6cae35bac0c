"""The transition table: what each phase (``firmware_host/board/phase.py``) does with a settled board,
a touch, a change of the debounced board and the OK and BACK buttons.

A settled board is judged by the rules :data:`SETTLED` lists for the phase, in order: the first
that applies decides. Each rule is a function ``(view, phase, board)`` that returns None when it
does not apply, else what should happen; its docstring's first line says when it applies and
what follows; docs/daemon.md prints the table (``python -m firmware_host.board.judge``). The
judge only reads (:class:`~firmware_host.board.decisions.View`) and returns decisions
(:mod:`firmware_host.board.decisions`); the controller applies them in order, and asks again
where a rule ends with ``Then`` (what follows a move saved, a phase entered).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Callable, TypeVar, cast

from engines.core import FollowUp
from firmware_host.board import recognise
from firmware_host.board.decisions import (
    Accept,
    AskTakeBack,
    BeginTurn,
    CountTouches,
    Decisions,
    DropLast,
    Emit,
    Flash,
    Follow,
    Forget,
    Go,
    GuideStep,
    InSync,
    Light,
    NewGame,
    Offer,
    OutOfSync,
    Rejudge,
    TakeBack,
    Then,
    View,
)
from firmware_host.board.events import Guide
from firmware_host.board.opponent import Asked
from firmware_host.board.phase import (
    TOKEN_HOLD_MS,
    Awaiting,
    Choosing,
    Following,
    Moving,
    Over,
    Phase,
    Restoring,
    on_the_way,
)
from firmware_host.board.recognise import Candidate
from firmware_host.board.turn import KNOCK_MS, Sync, Touch, Turn, TurnChoice, undo_steps
from firmware_host.i18n import _

Board = frozenset[str]

P = TypeVar("P", Moving, Choosing, Following, Awaiting, Restoring, Over)
#: A rule of the table: the decisions when it applies, else None; :func:`row` checks each takes
#: its row's phase.
Rule = Callable[[View, Any, Board], Decisions | None]


# --------------------------------------------------------------------------- every phase
def start_again(c: View, phase: Phase, board: Board) -> Decisions | None:
    """The start position set up again once the game is over (or, in kiosk mode, after an idle
    spell): a new game of the same kind. Pieces set back for a takeback when a flag fell (or
    a set-back then under way, finished after it) are not set up again until they change; a
    token the turn under way then still had to turn over, lifted, is a flip under way until it
    has been off for TOKEN_HOLD_MS."""
    idle = c.settings.idle is not None and c.settings.idle.stale
    stale = (phase.over and board != phase.standing() and not phase.mid_flip(board)) or idle
    if not (stale and board == c.record.boards[0] != c.record.boards[-1]):
        return None
    return [NewGame(c.record.game)]


def in_position(c: View, phase: Moving | Awaiting, board: Board) -> Decisions | None:
    """The board shows the position: nothing to do."""
    if board != c.record.board:
        return None
    unhold = phase.held is not None or phase.holding is not None
    return [InSync(), Light(frozenset()), *([Go(replace(phase, held=None, holding=None))] if unhold else [])]


def out_of_sync(c: View, phase: Phase, board: Board) -> Decisions | None:
    """Anything else: the pieces to put back and to take off are lit (towards the board of a
    legal move fewer changes reach, e.g. a placement that knocked a neighbour off; else the
    position), with the engine's reason when it looks like an attempted move, or why the board
    waits."""
    expected, aim, reason = c.phase.expected(c.record.board), None, None
    if phase.awaits_answer():
        reason = c.opponent.WAIT if c.opponent else None
    elif phase.players_to_move or next_side_may_begin(c, phase):
        aim = recognise.nearest(c.record.state, board)
        if aim is None:
            reason = recognise.attempt_reason(c.record.state, expected - board, board - expected)
    missing, extra = phase.differs(c.record.board, board, aim)
    return [OutOfSync(Sync(tuple(c.record.sorted(missing)), tuple(c.record.sorted(extra)), reason, aim))]


def next_side_may_begin(c: View, phase: Phase) -> bool:
    """Only steps the sensors cannot see are left of the turn followed, and the side to move
    next is at the table: its move may begin (and is what a stray piece is judged against)."""
    return phase.only_unsensed_left() and not opponent_to_move(c, -1)


# --------------------------------------------------------------------------- moving
def a_move(c: View, phase: Moving, board: Board) -> Decisions | None:
    """The board shows legal moves of the side to move: one is recorded (with the touches
    made before it showed); several are offered to choose among. Against an opponent, a move
    that only goes towards the position before one of the players' own last turns is recorded
    once the board has shown it for ``takeback_ms`` (a takeback by hand may be under way)."""
    found = recognise.candidates(c.record.state, board)
    if not found:
        return None
    if (begun := set_back_begun(c, phase, board)) is not None:
        return [InSync(), *begun]
    said, choice = _choice(c, found, board, phase.touched)
    return [InSync(), *said, _taken(choice, phase.late)]


def _taken(choice: TurnChoice, late: Board) -> Accept | Offer:
    """The one move ``choice`` holds recorded, else the choice offered."""
    return Accept(choice.sole()) if len(choice.turns) == 1 else Offer(choice, late)


def set_back_begun(c: View, phase: Moving | Following, board: Board) -> Decisions | None:
    """Against an opponent, a move whose every change goes towards a position before one of
    the players' own last turns (all of them since the opponent's turn before: several sides
    may play at the table) may be a takeback by hand under way (their piece set back first, or
    the opponent's lifted and theirs set on its site): nothing is recorded (or sent, or
    answered) until the board has shown it for ``takeback_ms``, so the rest of the set-back
    reads as a takeback, not as a move to undo too."""
    doubted = phase.set_back_since()
    if not (c.opponent and c.settings.takebacks) or doubted == (-math.inf, board):
        return None
    here = c.record.board
    if not any(on_the_way(board, here, c.record.boards[i]) for i in own_last_turns(c)):
        return None
    if doubted is None or doubted[1] != board:
        return [Go(phase.setting_back(c.now, board))]
    return []


def set_back_under_way(c: View, phase: Moving | Following, board: Board) -> Decisions | None:
    """Against an opponent, a board no move explains whose every change goes towards a
    position before one of the players' own last turns (their own piece set back first, the
    opponent's lifted first, both in the hand; while a takeback's unseen steps are still
    asked, the next turns set back): a takeback by hand under way, quiet (nothing lit, sent or
    answered) until the board has shown it for ``takeback_ms``; then what differs is pointed
    out."""
    begun = set_back_begun(c, phase, board)
    return None if begun is None else [InSync(), Light(frozenset()), *begun]


def set_back_aim(c: View, board: Board) -> Board | None:
    """The position a takeback by hand under way on ``board`` goes towards: the deepest the
    players may set back to (against an opponent, before their own last turns; else before
    the last move) whose pieces ``board`` lies between it and the position's (None: none).

    In Antipode against the computer, Blue's h5 and the computer's h9 placed, h9 lifted:
    the start position."""
    here, moves = c.record.board, len(c.record.moves)
    if board == here or not c.settings.takebacks or not moves:
        return None
    turns = own_last_turns(c) if c.opponent else [moves - 1]
    aims = (c.record.boards[i] for i in reversed(turns))
    return next((aim for aim in aims if on_the_way(board, here, aim)), None)


def own_last_turns(c: View) -> list[int]:
    """The positions the players were to move in, in their last run of turns, once the
    opponent has answered (none while it has not): the positions a takeback by hand returns to.

    In a game of four with the computer playing White after Blue, after Black, Red, Blue and
    White played: the positions before Blue's, Red's and Black's moves."""
    turns: list[int] = []
    for i in reversed(range(len(c.record.moves))):
        if not opponent_to_move(c, i):
            turns.append(i)
        elif turns:
            break
    return turns if turns and turns[0] != len(c.record.moves) - 1 else []


def a_move_in_hand(c: View, phase: Moving, board: Board) -> Decisions | None:
    """The board shows legal moves but for tokens lifted that those moves turn over (a flip
    under way as the placement lands, the token held while it is turned): the move is taken
    up as if they stood, and each counts as turned once it is set back."""
    lifted = c.record.board - board
    if not lifted:
        return None
    whole = board | lifted
    found = recognise.candidates(c.record.state, whole)
    if not found:
        return None
    said, choice = _choice(c, found, whole, phase.touched)
    flips = [frozenset().union(*(s.sites for s in t.steps if s.action == "flip")) for t in choice.turns]
    if not lifted <= frozenset().union(*flips):
        return [*said, *_decide(c, board, after=a_move_in_hand)] if said else None
    turns = tuple(replace(t, knocked=lifted & f) for t, f in zip(choice.turns, flips))
    return [*said, InSync(), _taken(replace(choice, turns=turns), phase.late)]


def _choice(
    c: View, found: list[Candidate], board: Board, touched: tuple[Touch, ...]
) -> tuple[Decisions, TurnChoice]:
    """The candidates as a choice, the touches made so far counted in order (and what is said
    of them)."""
    choice = TurnChoice(tuple(Turn.of(f, c.record.board, c.record.state.to_move) for f in found), board)
    said: Decisions = []
    for touch in touched:
        choice, taken = choice.touch(touch, early=touch.site in c.record.board)
        said += _say_taken(choice, touch, taken)
    return said, choice


def ok_then_move(c: View, phase: Moving, board: Board) -> Decisions | None:
    """The board shows a move that follows the OK move (the opponent starting while a capture
    chain could go on): both are recorded."""
    ok = c.record.state.ok_move()
    if ok is None or not recognise.candidates(c.record.state.apply(ok), board):
        return None
    return [
        InSync(),
        Accept(ok_turn(c, ok), then=lambda c: settled(c, board) if c.phase.players_to_move else []),
    ]


def ok_turn(c: View, move: Any) -> Turn:
    """The OK move ``move`` as a turn of the side to move (it changes nothing the sensors see)."""
    state = c.record.state
    return Turn.of(Candidate(move, state.realisations(move)[0]), c.record.board, state.to_move)


def piece_in_hand(c: View, phase: Moving, board: Board) -> Decisions | None:
    """Only pieces the side to move may move are lifted, and pieces a move of theirs captures
    (taken off first by the other hand): a move under way (their targets lit); the next side
    has begun, so the last move is no longer corrected."""
    if not recognise.lifting(c.record.state, board, lambda site: c.targets_of(-1, site), c.captures):
        return None
    begun = replace(phase, correctable=False, held=None)
    return [InSync(), Go(begun), Light(lifted_targets(c, board, begun))]


def token_in_hand(c: View, phase: Moving | Awaiting, board: Board) -> Decisions | None:
    """Only tokens a legal move turns over or taps, or pieces it captures, are lifted (a flip
    or a tap made before the move shows, a captured piece taken off first): quiet, their
    return counted as a touch; off for TOKEN_HOLD_MS, they are pointed out (knocked off)."""
    lifted = c.record.board - board
    if not lifted or not board < c.record.board or not lifted <= c.touchable() | capturable(c):
        return None
    if phase.holding is not None and c.now - phase.holding >= TOKEN_HOLD_MS:
        return None
    return [InSync(), *([Go(replace(phase, holding=c.now))] if phase.holding is None else [])]


def capturable(c: View) -> Board:
    """The pieces a legal move of the side to move takes off."""
    return frozenset().union(*(removed for _, removed in c.captures()))


def due_under_way(c: View, phase: Moving, board: Board) -> Decisions | None:
    """Part of the removal that is the side's whole turn is made (a piece of several sites
    lifted one site at a time)."""
    due, position = c.record.state.due(), c.record.board
    if due is None or not (board < position and position - board <= due.sites):
        return None
    return [InSync()]


def last_move_in_hand(c: View, phase: Moving | Awaiting | Following, board: Board) -> Decisions | None:
    """The last move's pieces lifted back to where they came from (tokens its takeback turns
    back may be in the hand meanwhile, though the board then equals an earlier position: it is
    no deeper takeback): a takeback once held there for ``takeback_ms`` (a piece lifted by
    mistake and set down again takes nothing back; a move read while a token it turns lay off
    its switch, undone before the next side began, was a knock set right: dropped at once,
    nothing asked back); before the next side began, lifted on its way elsewhere, a correction,
    quietly (targets lit), unless a move of the side to move captures them (a capture begun)."""
    if not (c.record.moves and c.settings.takebacks):
        return None
    if (undone := knock_undone(c, phase, board)) is not None:
        return undone
    if before_last(c, board) and not opponent_to_move(c, -2):
        return [
            InSync(),
            Light(frozenset()),
            *([Go(replace(phase, held=c.now))] if phase.held is None else []),
        ]
    if (
        phase.correctable
        and not opponent_to_move(c, -2)
        and recognise.lifting(c.record.states[-2], board, lambda site: c.targets_of(-2, site))
        and not c.record.board - board <= capturable(c)
    ):  # a capture begun, rather
        return [InSync(), Light(lifted_targets(c, board, phase))]
    return None


def taken_back(c: View, phase: Phase, board: Board) -> Decisions | None:
    """The board shows an earlier position (takebacks allowed): the game goes back there; with
    an opponent away from the board only to a position the players are to move in (its piece
    lifted alone is being set right), as far back as the opponent agrees; refused, the pieces
    are guided back to the game's position, nothing read as a move meanwhile."""
    if not c.settings.takebacks:
        return None
    index = c.record.earlier(board)
    if index is None or opponent_to_move(c, index):
        return None
    if index < len(c.record.moves) - 1 and (other := corrected(c, phase, board)) is not None:
        return other  # a different last move explains it better than undoing several
    if (deeper := set_back_deeper(c, phase, board, index)) is not None:
        return deeper
    if c.opponent:
        return [InSync(), AskTakeBack(index, lambda c, answer: _answered(c, phase, board, index, answer))]
    return [InSync(), *took_back(phase, index)]


def took_back(phase: Phase, keep: int) -> Decisions:
    """Taken back by hand to the first ``keep`` moves: the tokens the players turned back on
    the way (touches kept for the move to come) count for its undoing."""
    return [TakeBack(keep, phase.touches())]


def _answered(c: View, phase: Phase, board: Board, index: int, answer: int | Asked) -> Decisions:
    """The opponent's answer to a takeback by hand to position ``index``: taken back as far
    as it agrees, else the pieces guided back (and a refused one's flips to turn again)."""
    if not isinstance(answer, Asked):
        return took_back(phase, answer)
    refused = [] if answer.waiting else [Go(Restoring(undo=turned_meanwhile(c, phase, index), why="refused"))]

    def guided(c: View) -> Decisions:
        expected = c.phase.expected(c.record.board)
        missing, extra = c.record.sorted(expected - board), c.record.sorted(board - expected)
        return [OutOfSync(Sync(tuple(missing), tuple(extra), answer.why, waiting=answer.waiting))]

    return [*refused, Then(guided)]


def turned_meanwhile(c: View, phase: Phase, index: int) -> Turn | None:
    """A takeback by hand to position ``index`` refused: a flip of the tokens it turns back,
    those the players turned meanwhile (an odd number of times) still to turn over again, the
    others done (a touch on one while the pieces are guided back makes it one to turn again:
    :func:`touched_restoring`); None when it turns no token."""
    flips = flips_back(c, index)
    if not flips:
        return None
    made = [t.site for t in phase.touches() if t.site in flips]
    undo = Turn.undo((FollowUp("flip", flips),), c.record.board, c.record.states[index].to_move)
    for site in flips - {site for site in made if made.count(site) % 2}:
        undo = undo.touched(0, site)
    return undo


def set_back_deeper(c: View, phase: Phase, board: Board, index: int) -> Decisions | None:
    """The board shows a position deeper than the players' last turn (a knocked piece, or a
    token in the hand, can leave the pieces so): it is taken back only once the board has shown
    it, settled, for ``takeback_ms``; meanwhile nothing is taken back, sent or answered."""
    if index >= len(c.record.moves) - 1 or index in own_last_turns(c):
        return None
    doubted = phase.set_back_since()
    if doubted == (-math.inf, board):
        return None  # it has stood: a takeback
    later = [Go(phase.setting_back(c.now, board))] if doubted is None or doubted[1] != board else []
    return [InSync(), Light(frozenset()), *later]


def corrected(c: View, phase: Phase, board: Board) -> Decisions | None:
    """Before the next side begins, the position before the players' last move changed by one
    different legal move (a piece slid on after resting; a change of mind): that move replaces
    the last one. When the last move only took off what the move before it put down (a piece
    lifted from where it rested reads as its removal; an opponent that answers again took it
    off), the correction reaches past it."""
    if not (c.record.moves and phase.may_correct()):
        return None
    reach = took_off_arrival(c)
    for back in range(1, 2 + reach):
        if opponent_to_move(c, -1 - back):
            if back == 1 and reach and rethinks(c):
                continue  # its removal of the piece the players rested there is dropped
            return None  # the opponent's move is not the players' to change
        before, last = c.record.states[-1 - back], c.record.moves[-back]
        found = [f for f in recognise.candidates(before, board) if before.notation(f.move) != last]
        if len(found) == 1:
            move = found[0]
            return [
                InSync(),
                *([DropLast()] if back == 2 else []),
                Then(lambda c: [Accept(Turn.of(move, c.record.boards[-2], before.to_move), correct=True)]),
            ]
    return None


def took_off_arrival(c: View) -> bool:
    """True when the last move only took off pieces the move before it put down."""
    return len(c.record.boards) >= 3 and took_off(*c.record.boards[-3:])


def took_off(earlier: Board, arrived: Board, now: Board) -> bool:
    """True when ``now`` only lacks pieces the move from ``earlier`` to ``arrived`` put down.

    >>> took_off(frozenset({"a1"}), frozenset({"b2"}), frozenset())
    True
    """
    return now < arrived and arrived - now <= arrived - earlier


def opponent_to_move(c: View, index: int) -> bool:
    """Whether position ``index`` is the opponent's to move (not the players')."""
    state = c.record.states[index]
    return c.opponent is not None and state.to_move == c.opponent.side_in(state)


def lifted_targets(c: View, board: Board, phase: Phase) -> frozenset[str]:
    """The targets of the pieces lifted: the side to move's, or the players' last move's while
    it may be corrected (in ``phase``). A piece a capture of the side to move takes off has
    none (taken off first; in an Anti-Grid chain the opponent's pawn could otherwise end the
    chain by moving)."""
    targets: set[str] = set()
    lifted = c.record.board - board
    for site in lifted - capturable(c):
        targets |= c.targets_of(-1, site)
    if (
        not targets
        and phase.may_correct()
        and len(c.record.boards) > 1
        and lifted <= c.record.boards[-1] - c.record.boards[-2]
        and not lifted <= capturable(c)
    ):
        for site in c.record.boards[-2] - board:
            targets |= c.targets_of(-2, site)
    return frozenset(targets)


# --------------------------------------------------------------------------- choosing
def at_choice(c: View, phase: Choosing, board: Board) -> Decisions | None:
    """The board shows what the choice was offered at: nothing to do."""
    return [InSync()] if board == phase.choice.board else None


def touch_under_way(c: View, phase: Choosing, board: Board) -> Decisions | None:
    """A token the moves flip or pick is off its switch (a flip or a tap under way, or a token
    already turned lifted again)."""
    choice = phase.choice
    return [InSync()] if board < choice.board and choice.board - board <= choice.handled else None


def next_side_chose(c: View, phase: Choosing, board: Board) -> Decisions | None:
    """The next side acts while the choice is open and only steps the sensors cannot see are
    left: the move shown is taken (as OK would take it; the screen says so), its flips as
    done, and the board is judged as the next side's."""
    turn = phase.choice.chosen()
    if not turn.only_unsensed_left():
        return None
    after = c.record.state.apply(turn.move)
    if not (recognise.candidates(after, board) or recognise.lifting(after, board)):
        return None
    text = c.record.state.notation(turn.move)

    def taken(c: View) -> Decisions:
        finish: Decisions = [Go(c.phase.finish_unsensed()), Follow()] if c.phase.unseen() is not None else []
        return [Flash(f"{text} taken: the next side began"), *finish, Then(turning_judged(board))]

    return [Accept(turn, then=taken)]


def turning_judged(board: Board) -> Callable[[View], Decisions]:
    """``board`` judged again if a turn has begun (the steps left taken as done)."""
    return lambda c: settled(c, board) if c.phase.turning else []


def choice_dropped(c: View, phase: Choosing, board: Board) -> Decisions | None:
    """Anything else: the choice is dropped and the board judged as the side's move again."""
    return [BeginTurn(), Then(lambda c: settled(c, board) if c.phase.turning or c.phase.over else [])]


# --------------------------------------------------------------------------- following
def steps_shown(c: View, phase: Following, board: Board) -> Decisions | None:
    """The board shows the move with some of its sensed steps done (pieces removed, a twin
    placed): on from there."""
    turn = phase.turn
    for step in turn.sensed_run():
        if board == turn.board(step):
            unheld = [Go(phase.unheld())] if phase.held is not None else []  # its piece set down again
            on: Decisions = (
                [Go(replace(phase, turn=turn.skip_to(step))), Follow()] if step > turn.step else []
            )
            return [InSync(), *unheld, *on]
    return None


def step_under_way(c: View, phase: Following, board: Board) -> Decisions | None:
    """Part of the current step is made (some of the pieces to remove off), or a token to
    flip is in the hand."""
    turn, expected = phase.turn, phase.turn.board()
    step = turn.current
    if step is None:
        return None
    in_hand = board < expected and expected - board <= turn.to_touch()
    return [InSync()] if (step.sensed and board ^ expected <= step.sites) or in_hand else None


def knock_set_right(c: View, phase: Following | Choosing, board: Board) -> Decisions | None:
    """The move (or the moves offered) read while a token it turns lay off its switch, and the
    board shows the position before it again (a knock set right, or a tap on the placed token
    under way): once shown for ``takeback_ms``, the move is dropped, nothing asked back. While
    offered, the placed piece off and the token still in the hand: quiet, the token awaited."""
    last = phase.knocked_turn()
    if phase.offering and last is not None and board == c.record.board - last.knocked:
        return [InSync()]
    return knock_undone(c, phase, board)


def next_side_token_in_hand(c: View, phase: Following, board: Board) -> Decisions | None:
    """Only steps the sensors cannot see are left, and the next side lifts only tokens its
    moves turn over or tap (a flip made early): quiet, their return kept for its turn."""
    expected = phase.expected(c.record.board)
    lifted = expected - board
    if not (lifted and board < expected and next_side_may_begin(c, phase)):
        return None
    return [InSync()] if lifted <= c.touchable() else None


def next_side_began(c: View, phase: Following, board: Board) -> Decisions | None:
    """The next side acts while only steps the sensors cannot see (flips) are left: they are
    taken as done and the board is judged as the next side's."""
    turn, state = phase.turn, c.record.state
    if not turn.only_unsensed_left():
        return None
    if not (
        recognise.candidates(state, board)
        or recognise.lifting(state, board, lambda site: c.targets_of(-1, site))
    ):
        return None
    return [Go(phase.finish_unsensed()), Follow(), Then(turning_judged(board))]


# --------------------------------------------------------------------------- awaiting
def opponent_move_made(c: View, phase: Awaiting, board: Board) -> Decisions | None:
    """The board shows the opponent's move carried out (with some of its sensed steps; a move
    that changes nothing the sensors see, such as OK ending a capture chain or a pawn moved,
    at once): it is recorded, with the touches made for it so far."""
    pending = phase.pending
    if pending is None or (done := pending.done(c.record.board, board)) is None:
        return None
    said, choice = _choice(c, [Candidate(pending.move, pending.real, done)], board, phase.touched)
    return [InSync(), *said, Accept(choice.sole(), correctable=took_off_players_arrival(c, board))]


def took_off_players_arrival(c: View, board: Board) -> bool:
    """Whether the opponent's move ``board`` shows only took off what the players' last move
    put down, and the opponent answers again: the players may still go on from where the
    piece rested, correcting their move."""
    return (
        rethinks(c)
        and len(c.record.boards) >= 2
        and not opponent_to_move(c, -2)
        and took_off(c.record.boards[-2], c.record.board, board)
    )


def rethinks(c: View) -> bool:
    """Whether the opponent answers again when the players' last move is corrected."""
    return c.opponent is not None and c.opponent.rethinks


def opponent_move_under_way(c: View, phase: Awaiting, board: Board) -> Decisions | None:
    """Part of the opponent's move is carried out: nothing else has changed."""
    if phase.pending is None or any(phase.pending.stray(c.record.board, board)):
        return None
    return [InSync()]


def rethought(c: View, phase: Awaiting, board: Board) -> Decisions | None:
    """The players' last move corrected before the opponent's answer is carried out (an
    opponent that answers again, or one that has not answered)."""
    if phase.pending is not None and not rethinks(c):
        return None
    return corrected(c, phase, board)


# --------------------------------------------------------------------------- restoring
def restored(c: View, phase: Restoring, board: Board) -> Decisions | None:
    """The board shows the position (but for tokens in the hand that are to be turned back):
    what the sensors cannot see (tokens to turn back, unseen pieces to carry) is guided next,
    then the turn begins."""
    undo, position = phase.undo, c.record.board
    if board != position and not (undo and board < position and position - board <= undo.to_touch()):
        return None

    def next_turn(c: View) -> Decisions:
        undo = cast(Restoring, c.phase).undo
        if undo is not None and not undo.done:  # else announced with the takeback (or resume)
            refused = phase.why == "refused"
            return [Go(Following(undo, refused=refused)), Follow(announce=refused)]
        return [BeginTurn()]

    # the touches made on the way: the undo's flips count, the rest were no flips or taps
    return [InSync(), CountTouches(board, position), Then(next_turn)]


def restore_guidance(c: View, phase: Restoring, board: Board) -> Decisions | None:
    """Anything else: the pieces to put back and to take off are lit, nothing is read as a
    move meanwhile."""
    target = c.record.board
    return [OutOfSync(Sync(tuple(c.record.sorted(target - board)), tuple(c.record.sorted(board - target))))]


def row(
    phase: type[P], *rules: Callable[[View, P, Board], Decisions | None]
) -> tuple[type[P], tuple[Rule, ...]]:
    """A row of the table: ``phase`` and its rules in order, each checked to take that phase."""
    return phase, rules


SETTLED: dict[type[Phase], tuple[Rule, ...]] = dict(
    (
        row(
            Moving,
            start_again,
            in_position,
            a_move,
            a_move_in_hand,
            ok_then_move,
            piece_in_hand,
            due_under_way,
            last_move_in_hand,
            taken_back,
            corrected,
            token_in_hand,
            set_back_under_way,
            out_of_sync,
        ),
        row(
            Choosing,
            start_again,
            at_choice,
            knock_set_right,
            touch_under_way,
            next_side_chose,
            choice_dropped,
        ),
        row(
            Following,
            start_again,
            steps_shown,
            knock_set_right,
            step_under_way,
            last_move_in_hand,
            taken_back,
            next_side_began,
            next_side_token_in_hand,
            corrected,
            set_back_under_way,
            out_of_sync,
        ),
        row(
            Awaiting,
            start_again,
            opponent_move_made,
            in_position,
            opponent_move_under_way,
            last_move_in_hand,
            rethought,
            taken_back,
            out_of_sync,
        ),
        row(Restoring, restored, restore_guidance),
        row(Over, start_again),
    )
)


def settled(c: View, board: Board) -> Decisions:
    """Judge the settled ``board``: the first rule of the phase's row that applies decides (a
    hold of the last move's pieces ends when the board shows anything else). A turn that
    began on it (the last one's steps done) is judged on it too: a piece already off counts."""
    phase = c.phase
    unhold = phase.held_since() is not None and (
        board != c.record.board if phase.offering else not before_last(c, board)
    )
    moves = len(c.record.moves)

    def began(c: View) -> Decisions:
        turned = len(c.record.moves) != moves and c.phase.turning
        return _decide(c, board) if turned and board != c.record.board else []

    return [*([Go(phase.unheld())] if unhold else []), Then(lambda c: [*_decide(c, board), Then(began)])]


def _decide(c: View, board: Board, after: Rule | None = None) -> Decisions:
    """The first rule of the phase's row that applies to ``board`` (``after``: of the rules
    after that one)."""
    rules = SETTLED[type(c.phase)]
    for rule in rules[rules.index(after) + 1 :] if after else rules:
        if (decided := rule(c, c.phase, board)) is not None:
            return decided
    return []


def held_back(c: View, board: Board) -> Decisions:
    """The players' last move held off the board for ``takeback_ms``: taken back."""
    phase = c.phase
    return [Go(phase.unheld()), Then(lambda c: _held_off(c, phase, board))]


def _held_off(c: View, phase: Phase, board: Board) -> Decisions:
    """After :func:`held_back` ended the hold of ``phase``: the knock set right, or the move
    taken back (the tokens turned back while it was held off counted for its undoing)."""
    if (last := phase.knock_pending()) and board == knock_before(c, phase):
        return drop_knock(c, phase, last)  # no tap under way: the knock set right
    if phase.offering or not before_last(c, board):
        return []
    return taken_back(c, phase.fixed(), c.record.boards[-2]) or []


def touch_judged(touch: Touch) -> Callable[[View], Decisions]:
    """``touch`` judged as the game then stands."""
    return lambda c: touched(c, touch)


def knock_undone(c: View, phase: Moving | Awaiting | Following | Choosing, board: Board) -> Decisions | None:
    """The players' last move, read as a token it turns lay off its switch (the hand may have
    knocked it off as the piece landed: a token pushed onto its neighbour equals a placement
    with a flip), undone on its own board before the next side began: the knock undone. The
    move is dropped at once, nothing asked to turn back or carry (no flip was made). Against an
    opponent, only while the move is in doubt (neither sent nor answered yet). While its steps
    are still followed or its landing chosen and the placed token lifted may be a tap on it
    under way, once the board has shown it for ``takeback_ms``."""
    last = phase.knocked_turn()
    if not (
        last
        and (phase.may_correct() or phase.offering)
        and board == knock_before(c, phase)
        and (c.opponent is None or not phase.opponents_turn or phase.in_doubt())
    ):
        return None
    if not phase.tap_maybe(board):
        return [InSync(), Light(frozenset()), *drop_knock(c, phase, last)]
    return [InSync(), Light(frozenset()), *([Go(phase.hold(c.now))] if phase.held_since() is None else [])]


def knock_before(c: View, phase: Phase) -> Board:
    """The board before the move read as a knock (while offered, it is not recorded yet)."""
    return c.record.board if phase.offering else c.record.boards[-2]


def drop_knock(c: View, phase: Phase, last: Turn) -> Decisions:
    """The move read from a knock set right dropped (or no longer offered): nothing asked back;
    its piece set down later is placed, not turned."""
    offered = phase.offering
    text = c.record.state.notation(last.move) if offered else c.record.moves[-1]
    said = _("No move {move}: {sites} knocked off").format(
        move=text, sites=", ".join(c.record.sorted(last.knocked))
    )
    return [*([] if offered else [DropLast()]), Forget(last.real.filled), BeginTurn(), Flash(said)]


def before_last(c: View, board: Board) -> bool:
    """Whether ``board`` shows the position before the last move, but for tokens lifted that
    its takeback turns back (in the hand, being turned): a takeback of that move under way,
    never of more (the position before an earlier move the pieces may then equal).

    The position before a deeper move is read (``taken_back``) only from a board whose lifted
    pieces are down, or were asked off."""
    before = c.record.boards[-2]
    return board == before or (board < before and before - board <= undo_flips(c))


def undo_flips(c: View) -> Board:
    """The tokens taking back the last move turns over."""
    return flips_back(c, -2)


# --------------------------------------------------------------------------- touches
def asked_back(c: View, touch: Touch) -> bool:
    """Whether ``touch`` puts back a token the board had asked back (knocked off): only that,
    unless the pieces now stand as one of the last few earlier positions (but for tokens in the
    hand) whose takeback turns that token over (turned back by hand as the pieces are set
    back: a touch)."""
    if c.sync is None or touch.site not in c.sync.missing:
        return False
    board, boards = c.board, c.record.boards
    for index in range(len(boards) - 2, max(-1, len(boards) - 6), -1):
        if board <= boards[index] and touch.site in (flips := flips_back(c, index)):
            if boards[index] - board <= flips:
                return False
    return True


def flips_back(c: View, index: int) -> Board:
    """The tokens a takeback to position ``index`` turns over."""
    steps = undo_steps(c.record.state, c.record.states[index])
    return frozenset().union(*(s.sites for s in steps if s.action == "flip"))


def touched_turning(c: View, phase: Moving | Awaiting, touch: Touch) -> Decisions:
    """Before the move shows: a tap choosing the last move's landing again, the last turn's flip
    made late, or a touch kept for the move to come."""
    if asked_back(c, touch):
        return []
    if phase.correctable and phase.last is not None and (again := rechosen(c, phase.last, touch)):
        return again
    if touch.site in phase.late:
        return _late_flip(phase, touch)
    return [Go(phase.touch(touch))]


def touched_choosing(c: View, phase: Choosing, touch: Touch) -> Decisions:
    """While choosing: the last turn's flip made late, or a touch that narrows the choice."""
    if touch.site in phase.late:
        return _late_flip(phase, touch)
    choice, taken = phase.choice.touch(touch)
    return [*_say_taken(phase.choice, touch, taken), *_choice_moved_on(c, phase, choice)]


def touched_following(c: View, phase: Following, touch: Touch) -> Decisions:
    """While following: a step's flip or tap (the steps go on), a tap choosing the last move's
    landing again, or a touch kept for the next turn (a flip of its own, made early)."""
    if asked_back(c, touch):
        return []
    index = phase.turn.taker(touch)
    if index is None and phase.correctable and (again := rechosen(c, phase.turn, touch)):
        return again
    if index is None:
        return [Go(phase.touch(touch))]
    return [Go(replace(phase, turn=phase.turn.touched(index, touch.site))), Follow()]


def touched_restoring(c: View, phase: Restoring, touch: Touch) -> Decisions:
    """While restoring: a takeback's flip, made as the pieces are set back (a takeback by hand
    refused: a token it would turn back, turned again, is to turn over once more)."""
    undo = phase.undo
    index = undo.taker(touch) if undo is not None else None
    if undo is not None and index is not None:
        return _undo_moved_on(c, phase, undo.touched(index, touch.site))
    if undo is not None and phase.why == "refused" and touch.site in undo.steps[0].sites:
        undo = replace(undo, left=(undo.left[0] | {touch.site}, *undo.left[1:]))
        return [Go(replace(phase, undo=undo)), GuideStep(undo)]
    return []


def _late_flip(phase: Moving | Awaiting | Choosing, touch: Touch) -> Decisions:
    """The last turn's flip of ``touch.site``, made late: counted."""
    return [
        Go(replace(phase, late=phase.late - {touch.site})),
        Flash(_("Flip of {site} counted").format(site=touch.site)),
    ]


def _undo_moved_on(c: View, phase: Restoring, undo: Turn) -> Decisions:
    """A takeback's step done while the pieces are set back: the next step, announced."""
    undo = undo.advance(c.board, None)
    moved = undo.current is not None and undo.step != cast(Turn, phase.undo).step
    return [Go(replace(phase, undo=undo)), *([GuideStep(undo)] if moved else [])]


def rechosen(c: View, turn: Turn, touch: Touch) -> Decisions | None:
    """The last move ``turn`` still correctable: a tap on the landing of another move of the
    same placement, whose pawn passes the landing taken from a touch made before the move
    showed. That touch was a token turned on the pawn's way, and the tapped move replaces the
    one recorded (its flips made so far kept). Only a tap on a board that shows nothing else
    (not a knock of the next side's hand: brief, or with its piece landing)."""
    shown = c.board == c.phase.expected(c.record.board)
    if not (turn.early and touch.quick and touch.held >= KNOCK_MS and shown and len(c.record.states) > 1):
        return None
    done = turn.done_touches() | {turn.early}
    for cand in recognise.candidates(c.record.states[-2], c.record.boards[-1]):
        other = Turn.of(cand, c.record.boards[-2], turn.side)
        pick = other.pick_index()
        if (
            pick is None
            or touch.site not in other.left[pick]
            or not any(turn.early in s.sites for s in other.steps[pick + 1 :] if s.action == "flip")
        ):
            continue
        other = other.touched(pick, touch.site)
        for i, step in enumerate(other.steps):
            for site in step.sites & done if step.action == "flip" else ():
                other = other.touched(i, site)
        return [Accept(other, correct=True)]
    return None


def _say_taken(choice: TurnChoice, touch: Touch, taken: str | None) -> Decisions:
    """A touch that could have been a tap on a lit pick site but counted as a flip: say so."""
    picks = frozenset().union(*(t.left[i] for t in choice.turns if (i := t.pick_index()) is not None))
    if taken == "flip" and touch.site in picks:
        return [Flash(_("Flip of {site} counted").format(site=touch.site))]
    return []


def _choice_moved_on(c: View, phase: Choosing, choice: TurnChoice) -> Decisions:
    """After a touch or OK: the chosen move recorded, else the choice as it now stands."""
    if choice.known is not None:
        return [Accept(choice.sole())]
    was, guide = phase.choice, []
    if (choice.action, choice.sites) != (was.action, was.sites):
        guided = Guide(t=c.now, event="guide", action=choice.action, sites=c.record.sorted(choice.sites))
        guide = [Emit(guided)]
    return [Go(replace(phase, choice=choice)), *guide]


def changed_restoring(c: View, phase: Restoring) -> Decisions:
    """A board restored to the position needs no settle."""
    return (restored(c, phase, c.board) or []) if c.board == c.record.board else []


def changed_over(c: View, phase: Over) -> Decisions:
    """The pieces that stood when a flag fell changed: a start shown now is set up again (a
    token still to turn over, lifted, is a flip under way; set back, it is turned), unless a
    set-back by hand under way as the flag fell went on to it (:func:`set_back_aim`)."""
    now = phase.moved(c.board).changed(c.now, c.board)
    return [] if now == phase else [Go(now)]


def changed_following(c: View, phase: Following) -> Decisions:
    """A step seen done goes dark at once."""
    return [Follow()]


def changed_turning(c: View, phase: Moving | Awaiting) -> Decisions:
    """A lifted piece's targets light (unless the board is being guided back)."""
    return [] if c.sync else [Light(lifted_targets(c, c.board, phase))]


# --------------------------------------------------------------------------- buttons
def ok_choosing(c: View, phase: Choosing) -> Decisions:
    """OK chooses the shown move (or counts a shared flip made without lifting)."""
    return _choice_moved_on(c, phase, phase.choice.ok())


def ok_following(c: View, phase: Following) -> Decisions:
    """OK does a step the sensors cannot see (a flip, an unseen piece carried)."""
    if phase.turn.current and not phase.turn.current.sensed:
        # then the board as it stands, in the step or the turn that follows
        return [Go(replace(phase, turn=phase.turn.complete())), Follow(), Rejudge()]
    return []


def ok_restoring(c: View, phase: Restoring) -> Decisions:
    """OK does a takeback's step the sensors cannot see."""
    if phase.undo and phase.undo.current:
        return [*_undo_moved_on(c, phase, phase.undo.complete()), Rejudge()]
    return []


def ok_moving(c: View, phase: Moving) -> Decisions:
    """OK plays the OK move (ending a capture chain) on a board that shows the position."""
    if not c.sync and c.board == c.record.board and (move := c.record.state.ok_move()) is not None:
        return [Accept(ok_turn(c, move))]
    return []


def back_choosing(c: View, phase: Choosing) -> Decisions:
    """BACK shows the next candidate."""
    return [Go(replace(phase, choice=phase.choice.next()))]


#: What a touch (:func:`touched`), a change of the debounced board (:func:`changed`), OK and
#: BACK do, by phase (a phase not listed: nothing).
TOUCHED: dict[type[Phase], Callable[[View, Any, Touch], Decisions]] = {
    Moving: touched_turning,
    Awaiting: touched_turning,
    Choosing: touched_choosing,
    Following: touched_following,
    Restoring: touched_restoring,
}
CHANGED: dict[type[Phase], Callable[[View, Any], Decisions]] = {
    Restoring: changed_restoring,
    Following: changed_following,
    Moving: changed_turning,
    Awaiting: changed_turning,
    Over: changed_over,
}
OK: dict[type[Phase], Callable[[View, Any], Decisions]] = {
    Choosing: ok_choosing,
    Following: ok_following,
    Restoring: ok_restoring,
    Moving: ok_moving,
}
BACK: dict[type[Phase], Callable[[View, Any], Decisions]] = {Choosing: back_choosing}


def touched(c: View, touch: Touch) -> Decisions:
    """A token lifted and set back: a flip or a tap, counted as the phase has it."""
    handler = TOUCHED.get(type(c.phase))
    return handler(c, c.phase, touch) if handler else []


def changed(c: View) -> Decisions:
    """The debounced board changed (before it settles)."""
    handler = CHANGED.get(type(c.phase))
    return handler(c, c.phase) if handler else []


def ok(c: View) -> Decisions:
    """The OK button."""
    handler = OK.get(type(c.phase))
    return handler(c, c.phase) if handler else []


def back(c: View) -> Decisions:
    """The BACK button."""
    handler = BACK.get(type(c.phase))
    return handler(c, c.phase) if handler else []


def table() -> str:
    """The table as docs/daemon.md prints it: each phase's rules in order, with their first
    docstring line."""
    rows = []
    for phase, rules in SETTLED.items():
        for n, rule in enumerate(rules, 1):
            rows.append(
                f"| {phase.__name__ if n == 1 else ''} | {n}. `{rule.__name__}` | "
                f"{' '.join((rule.__doc__ or '').split(chr(10) + chr(10))[0].split())} |"
            )
    return "| phase | rule | when, and what follows |\n|---|---|---|\n" + "\n".join(rows)


if __name__ == "__main__":
    print(table())
