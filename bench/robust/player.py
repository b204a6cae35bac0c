"""A seeded player: a random legal game turned into timed board actions by the physical contract.

A move is made as a player would: the realisation's emptied sites lifted and filled sites placed
(in a random order, sometimes slid across other sites, sometimes paused with the piece in the
hand), then its follow-ups (remove, twin; a tap on a pick site when the board cannot tell the
move from others; each flipped token lifted and set back, no OK). Noise rides along: hands
hovering over empty sites, neighbours bumped and falling back, a piece resting on the wrong site
long enough to be read before it goes on (the daemon corrects the last move). The actions come
in *segments*; the player waits for the board to settle after each segment (a real player waits
for the lights).

The hand's actions and their noise are :mod:`testbed.hands`; nothing here runs the daemon:
:mod:`bench.robust.noisy` plays the segments on a simulated board.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Iterable

from engines.core import GameState
from firmware_host.board import recognise
from testbed.hands import Hand, Segment

#: Noise kinds a stream may carry besides contact bounce (always on).
KINDS = ("slide", "hover", "bump", "missed", "ghost", "order", "pause", "rest")


@dataclass
class Plan:
    """The intended moves (canonical notation) and the segments that make them."""

    moves: list[str] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)
    #: Stopped early: the next move would leave a board a diode-less matrix cannot read.
    cut_short: bool = False


def capturing_first(state: GameState, rng: random.Random):
    """A random legal move, a capturing one (a move with a remove follow-up) when there is one,
    so that games of captures end."""
    moves = state.legal_moves()
    captures = [
        m
        for m in moves
        if any(step.action == "remove" for real in state.realisations(m) for step in real.follow_ups)
    ]
    return rng.choice(captures or moves)


class Player:
    """Plans ``plies`` random legal moves from ``state`` with the noise ``kinds``.

    ``readable(board)`` says whether the sensors can read a settled board (a diode-less matrix
    cannot read some); the game stops before a move that would need an unreadable one.
    ``choose(state, rng)`` picks each move (default: any legal move, uniformly).
    """

    def __init__(
        self,
        rng: random.Random,
        sites: Iterable[str],
        kinds: frozenset[str],
        readable: Callable[[frozenset[str]], bool] = lambda board: True,
        choose: Callable[[GameState, random.Random], object] | None = None,
    ) -> None:
        self.rng = rng
        self.sites = tuple(sites)
        self.kinds = kinds
        self.hand = Hand(rng, self.sites, kinds)
        self.readable = readable
        self.choose = choose or (lambda state, rng: rng.choice(state.legal_moves()))

    def plan(self, state: GameState, plies: int) -> Plan:
        plan = Plan()
        occ = state.occupied()
        for _ in range(plies):
            if state.outcome() is not None:
                break
            move = self.choose(state, self.rng)
            segments, boards, after = self._move(state, move, occ)
            if not all(map(self.readable, boards)):
                plan.cut_short = True
                break
            plan.moves.append(state.notation(move))
            plan.segments += segments
            state = state.apply(move)
            occ = after
            assert occ == state.occupied(), "the contract's changes do not give the new position"
        return plan

    # -- one move -------------------------------------------------------------------------
    def _move(self, state: GameState, move, occ: frozenset[str]):
        """The segments of ``move``, the settled boards between them, and the board after."""
        rng = self.rng
        ok = state.ok_move()
        if ok is not None and state.notation(ok) == state.notation(move):
            seg = Segment()
            seg.add("press", gap=rng.uniform(0.05, 0.4), button="ok")
            return [seg], [occ], occ
        real = rng.choice(state.realisations(move))
        steps = list(real.follow_ups)
        seg = Segment()
        board = occ
        early = []
        if "order" in self.kinds and steps and steps[0].action == "remove" and rng.random() < 0.5:
            early.append(steps.pop(0))  # the captured piece lifted before the move is made
            board = self.hand.step(seg, early[0], board)
        touched = real.emptied | real.filled | frozenset().union(*(s.sites for s in real.follow_ups))
        start = seg.t
        rest = self._rest(state, move, real) if not early else None
        segments, boards = [], []
        if rest is not None:  # placed on the wrong site first, read as that move, then moved on
            board = self.hand.change(seg, real.emptied, rest, board)
            segments, boards, seg = [seg], [board], Segment()
            board = self.hand.change(seg, rest, real.filled, board)
        else:
            board = self.hand.change(seg, real.emptied, real.filled, board)
        self.hand.noise(seg, start, board, occ, touched)
        segments.append(seg)
        done = len(early)
        # sensed steps may be done in the same breath as the move
        while steps and steps[0].sensed and rng.random() < 0.5:
            board = self.hand.step(seg, steps.pop(0), board)
            done += 1
        boards.append(board)
        for step in steps:
            seg = Segment()
            if step.action == "pick":
                if not self._pick(seg, state, move, real, done, board):
                    done += 1
                    continue
            elif step.action == "flip":
                self.hand.flip(seg, step.sites)
            else:
                board = self.hand.step(seg, step, board)
            done += 1
            segments.append(seg)
            boards.append(board)
        return segments, boards, board

    def _pick(self, seg, state, move, real, done, board) -> bool:
        """Taps on the move's pick sites while the board cannot tell it from other moves (as
        the daemon offers them); False when no tap is needed."""
        hand = real.emptied | real.filled
        cands = recognise.candidates(state, board) if hand else recognise.offered(state)
        flipped = sum(step.action == "flip" for step in real.follow_ups[:done])  # shared, before
        cands = [recognise.Candidate(c.move, c.real, c.done + flipped) for c in cands]
        if len(cands) <= 1:
            return False
        for site in sorted(real.follow_ups[done].sites):
            self.hand.tap(seg, site, board)
            cands = recognise.choose(cands, site)
            if len(cands) <= 1:
                break
        return True

    def _rest(self, state: GameState, move, real) -> frozenset[str] | None:
        """Sites of another legal move made by the same lift ("rest" noise), where the piece
        rests first; None when the stream has no rest here."""
        if "rest" not in self.kinds or len(real.filled) != 1 or self.rng.random() > 0.3:
            return None
        text = state.notation(move)
        for other in self.rng.sample(state.legal_moves(), min(20, len(state.legal_moves()))):
            (alt,) = state.realisations(other)[:1] or (None,)
            if (
                alt is None
                or state.notation(other) == text
                or alt.follow_ups
                or alt.emptied != real.emptied
                or len(alt.filled) != 1
                or alt.filled & real.filled
                or state.apply(other).outcome()
            ):
                continue
            board = (state.occupied() - alt.emptied) | alt.filled
            if len(recognise.candidates(state, board)) == 1:
                return alt.filled
        return None
