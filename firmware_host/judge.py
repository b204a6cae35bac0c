"""How a settled board is judged against the game (docs/daemon.md, "The settled board is
judged"): equal, a legal move (or several to choose among), a move in progress, a takeback, a
correction of the last move, or out of sync with guidance. :class:`Judge` is a base of
:class:`~firmware_host.controller.Controller`, whose attributes it uses, beside
:class:`~firmware_host.view.Display`.
"""

from __future__ import annotations

from firmware_host import recognise
from firmware_host.recognise import Candidate
from firmware_host.turn import Sync


class Judge:
    """The settled board's judgement (the controller's part that decides what a board means)."""

    def _on_settle(self) -> None:
        self._settle_touches()
        if self.choice:
            self.choice.armed = True
        if self._ok_waiting:
            self._ok_waiting = False
            self._ok()
        if self.board == self._evaluated or not self.connected:
            return
        self._evaluated = self.board
        self._judge(self.board)

    def rejudge(self) -> None:
        """Judge the board again now, if it is settled (a move the storage refused is tried
        again)."""
        self._rejudge()

    def _rejudge(self) -> None:
        """Judge the board again now (the game changed under it), if it is settled."""
        self._evaluated = None
        if self.debouncer.quiet(self._now):
            self._on_settle()

    def _judge(self, board: frozenset[str]) -> None:
        if self.idle and self.idle.stale and board == self.boards[0] != self.boards[-1]:
            return self._new_game(self.game)  # put back for the next table after an idle spell
        if self._check_only:
            self._check_only = False
            if board == self.expected:
                self._in_sync()
            else:
                self._out_of_sync(board)
        elif self.mode == "follow":
            self._judge_follow(board)
        elif self.mode == "over":
            self._judge_over(board)
        else:
            self._judge_move(board)

    def _judge_move(self, board: frozenset[str]) -> None:
        if self.pending is not None:
            return self._judge_pending(board)
        waiting = self.opponent and self.opponent.side_in(self.state) == self.state.to_move
        if waiting and board != self.boards[-1]:  # only a takeback while the opponent thinks
            return (self._correct(board) or self._takeback_to(board)
                    or self._out_of_sync(board, self.opponent.WAIT))
        cancelled = False
        if self.choice:
            if board == self.choice.board:
                return self._in_sync()
            if board ^ self.choice.board <= self.choice.sites:
                return  # a tap in progress
            self.choice, self.mode, cancelled = None, "move", True
        state = self.state
        if board == self.boards[-1]:
            self._in_sync()
            self._clear_targets()
            if cancelled:
                self._begin_turn()
            return
        found = recognise.candidates(state, board)
        if found:
            self._in_sync()
            return self._take(found, board)
        if self._ok_then_move(board):
            return
        if recognise.lifting(state, board, self._targets_of):
            self._in_sync()  # a piece in the hand: its targets stay lit
            self._correctable = False  # the next side has begun
            return self._light_targets()
        if self._takeback_to(board) or self._correct(board):
            return
        self._out_of_sync(board)

    def _judge_pending(self, board: frozenset[str]) -> None:
        pending, before = self.pending, self.boards[-1]
        done = pending.done(before, board)
        if done is not None:
            self._in_sync()
            self.pending = None
            return self._accept(Candidate(pending.move, pending.real, done))
        missing, extra = pending.stray(before, board)
        if missing and self.opponent and self.opponent.RETHINKS and self._correct(board):
            return  # the players' move slid on before the computer's answer was carried out
        if missing or extra:
            return self._out_of_sync(board)
        self._in_sync()  # part-way through the move

    def _ok_then_move(self, board: frozenset[str]) -> bool:
        """The board shows a move that follows the OK move (e.g. the opponent starting after a
        capture chain): play both."""
        ok = self.state.ok_move()
        if ok is None or not recognise.candidates(self.state.apply(ok), board):
            return False
        self._in_sync()
        self._accept(Candidate(ok, self.state.realisations(ok)[0]))
        if self.mode == "move":
            self._judge_move(board)
        return True

    def _judge_follow(self, board: frozenset[str]) -> None:
        turn = self.turn
        for step in turn.sensed_run():
            if board == turn.board(step):
                self._in_sync()
                if step > turn.step:
                    turn.step = step
                    self._follow()
                return
        current = turn.current
        if current is not None and board ^ turn.board() <= current.sites:
            return self._in_sync()  # part-way through this step
        if self._takeback_to(board) or self._next_side_began(board) or self._correct(board):
            return
        self._out_of_sync(board)

    def _next_side_began(self, board: frozenset[str]) -> bool:
        """The next side acts while only unsensed steps (flips) are left: they are taken as done
        and the board is judged as the next move."""
        state = self.state
        if not self.turn.only_unsensed_left():
            return False
        if not (recognise.candidates(state, board) or recognise.lifting(state, board, self._targets_of)):
            return False
        self.turn.step = len(self.turn.steps)
        self._follow()
        if self.mode == "move":
            self._judge_move(board)
        return True

    def _judge_over(self, board: frozenset[str]) -> None:
        if board == self.boards[0] and board != self.boards[-1]:
            self._new_game(self.game)

    def _takeback_to(self, board: frozenset[str]) -> bool:
        if not self.takebacks:
            return False
        index = recognise.earlier(self.boards, board)
        if index is None or self._opponent_to_move(index):
            return False  # the opponent's move alone is not undone: its piece is guided back
        if index < len(self.moves) - 1 and self._correct(board):
            return True  # a different last move explains it better than undoing several
        self._in_sync()
        if self.opponent:  # the opponent's turn and the players' before it, as the menu does
            allowed = self.opponent.takeback_to(self)
            if allowed is None:  # asked another board: the board waits for its answer
                self._out_of_sync(board, self.opponent.why, self.opponent.waiting)
                return True
            index = min(index, allowed)
        self._take_back(index)
        if board != self.expected:
            self._out_of_sync(board)
        return True

    def _opponent_to_move(self, index: int) -> bool:
        """Whether the position ``index`` (of ``self.states``) is the opponent's (the computer's,
        the other board's) to move: a board back there has only its piece off, being set right,
        and a take back goes to the players' turn before it (their own piece off too)."""
        state = self.states[index]
        return bool(self.opponent) and state.to_move == self.opponent.side_in(state)

    def _out_of_sync(self, board: frozenset[str], reason: str | None = None,
                     waiting: bool = False) -> None:
        """Guide the board back (``reason``: why it cannot be taken, else the engine's; a
        ``waiting`` reason is an answer still to come, not a refusal)."""
        expected, aim = self.expected, None
        if self.mode == "move" and reason is None:
            aim = recognise.nearest(self.state, board)
            if aim is None:
                reason = recognise.attempt_reason(self.state, expected - board, board - expected)
        target = expected if aim is None else aim
        missing, extra = target - board, board - target
        sync = Sync(missing, extra, reason, aim)
        if sync == self.sync:
            return
        self.sync = sync
        self._clear_targets()
        self._emit("out_of_sync", missing=self._sorted(missing), extra=self._sorted(extra))
        if reason:
            self._emit("waiting" if waiting else "illegal", reason=reason,
                       sites=self._sorted(missing | extra))

    def _in_sync(self) -> None:
        if self.sync:
            self.sync = None
            self._emit("in_sync")

    def _correct(self, board: frozenset[str]) -> bool:
        """Before the next side begins, a board showing the position before the last move changed
        by one different legal move (a piece slid on after resting; a change of mind): that move
        replaces the last one."""
        if not (self.moves and self._correctable):
            return False
        for back in range(1, 2 + self._took_off_arrival()):
            if self._opponent_to_move(-1 - back):
                return False  # the opponent's move is not the players' to change
            before, last = self.states[-1 - back], self.moves[-back]
            found = [c for c in recognise.candidates(before, board) if before.notation(c.move) != last]
            if len(found) == 1:
                self._in_sync()
                if back == 2:  # the arrival's removal was the piece lifted to move on
                    self._take_back(len(self.moves) - 1)
                self.turn = None
                self._accept(found[0], replaces=last)
                return True
        return False

    def _took_off_arrival(self) -> bool:
        """True when the last move only took off pieces the move before it put down (a piece
        lifted to move on from where it rested reads as its removal, e.g. a Phalanx piece
        self-phalanxed where it rested)."""
        if len(self.boards) < 3:
            return False
        earlier, arrived, now = self.boards[-3:]
        return now < arrived and arrived - now <= arrived - earlier
