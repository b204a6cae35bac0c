"""What the players and the rest of the daemon ask of the controller: its buttons (a notice
or question first, then the menu, a long OK for a hint, OK and BACK in a move), the menu's
actions, and the same actions sent from elsewhere (the page, the café network, another board).
:class:`Buttons` is a base of :class:`~firmware_host.controller.Controller`, whose attributes
it uses.
"""

from __future__ import annotations

from typing import Callable

from firmware_host.game import Game
from firmware_host.menu import (NewGame, PowerOff, SetBrightness, SetPlayers, ShowIP, ShowToday,
                                TakeBack)
from firmware_host.opponent import Computer
from firmware_host.recognise import Candidate
from firmware_host.screens import Screen, message_screen
from firmware_host.stats import today_screen
from hardware.base import ButtonEvent

#: How long a passing notice (IP address, today's games) stays unless the board changes first.
NOTICE_MS = 8000


class Buttons:
    """The controller's part that carries out what is asked of it."""

    def _on_button(self, press: ButtonEvent) -> None:
        self._dirty = True
        if self._notice is not None:
            self._notice = self._notice_until = None  # any button closes a notice
            answer, self._answer = self._answer, None
            if answer:
                answer(press.button == "ok" and not press.long)
        elif self.menu and (self.menu.is_open or press.button == "menu"):
            self._do(self.menu.press(press))
        elif press.long:
            if press.button == "ok" and self.hints and self.mode == "move" and not self.pending:
                self.hints.ask(self)  # a long OK: the computer's suggestion
        elif press.button == "ok":
            self._ok()
        elif press.button == "back" and self.choice:
            self.choice.highlight = (self.choice.highlight + 1) % len(self.choice.cands)

    def _do(self, action: NewGame | TakeBack | SetBrightness | ShowIP | None) -> None:
        """Carry out what the menu asks."""
        if isinstance(action, NewGame):
            self._new_game(Game(action.game, action.size, action.variant, action.match))
        elif isinstance(action, TakeBack) and self.moves:
            index = self.opponent.takeback_to(self) if self.opponent else len(self.moves) - 1
            if index is not None:  # None: asked another board, which answers later
                self.take_back(index)
        elif isinstance(action, SetBrightness):
            self.brightness = action.level
        elif isinstance(action, SetPlayers):
            self.set_players(action)
        elif isinstance(action, ShowIP):
            self._pass(message_screen("IP address", [self._address()]))
        elif isinstance(action, ShowToday):
            self._pass(today_screen(self.storage))
        elif isinstance(action, PowerOff):
            self._notice = message_screen("Powering off", ["Wait for the screen to go dark"])
            self._emit("power_off")  # the daemon runs the configured command

    def say(self, text: str | None) -> None:
        """Show ``text`` on the screen's message line until replaced (None: no more)."""
        if text != self.message:
            self.message, self._dirty = text, True

    def take_back(self, index: int) -> None:
        """Take back to the first ``index`` moves (the menu, another board): the pieces still
        stand, so their undoing is guided."""
        self._take_back(index)
        self._check_only = True
        self._rejudge()

    def set_players(self, players: SetPlayers, game: Game | None = None) -> None:
        """A new game (of ``game``, default the current one) in which the computer plays
        ``players.computer`` (None: nobody)."""
        if self.opponent:
            self.opponent.close()
        self.opponent = players.computer and Computer(players.computer, players.level)
        if self.menu:
            self.menu.players = (players.computer, players.level)
        self._new_game(game or self.game)

    def _pass(self, screen: Screen) -> None:
        """Show a passing notice: until a button, the next board change or NOTICE_MS."""
        self._notice, self._notice_until = screen, self._now + NOTICE_MS

    def command(self, action: NewGame | TakeBack | SetBrightness) -> None:
        """Carry out a menu action sent from elsewhere (the café network's commands)."""
        self._dirty = True
        self._do(action)

    def notice(self, screen: Screen | None) -> None:
        """Show ``screen`` until a button is pressed (the daemon's messages); None: no more."""
        self._notice, self._notice_until, self._answer = screen, None, None
        self._dirty = True

    def ask(self, screen: Screen, answer: Callable[[bool], None]) -> None:
        """Show the question ``screen`` until a button: OK calls ``answer(True)``, any other
        button ``answer(False)``."""
        self.notice(screen)
        self._answer = answer

    def _ok(self) -> None:
        if self.choice and self.choice.touches is not None:
            self._choice_advance()  # a flip made without lifting
        elif self.choice:
            cand = self.choice.cands[self.choice.highlight]
            done = cand.done + 1 if cand.pick is not None else cand.done
            self._accept(Candidate(cand.move, cand.real, done))
        elif self.turn and self.turn.current and not self.turn.current.sensed:
            self.turn.step += 1
            self._follow()
        elif self.mode == "move" and not self.sync and self.state.ok_move() is not None:
            if self.board != self.boards[-1]:
                self._ok_waiting = not self.debouncer.quiet(self._now)  # judged at the settle
                return
            ok = self.state.ok_move()
            self._accept(Candidate(ok, self.state.realisations(ok)[0]))
