"""What a controller shows: its LED frame and its OLED screen, both derived from where the
game and the turn stand. :class:`~firmware_host.controller.Controller` has :class:`Display` as
its base, so that judging the board (``controller.py``) and showing it (here) each have a home.
"""

from __future__ import annotations

from dataclasses import replace

from firmware_host.game import result_lines
from firmware_host.screens import Screen, status_screen
from firmware_host.turn import LIGHTS, STEPS, words
from hardware.base import Led


class Display:
    """The frame and the screen of a controller (its attributes are the controller's)."""

    def _build_frame(self) -> dict[int, Led]:
        if self.idle and self.idle.attracting:
            return self.idle.frame(self._now, self.state.sites(), self.layout.led, self.brightness)
        lit: dict[str, str] = {}
        if self.mode != "over":
            lit.update(dict.fromkeys(self.state.markers(), "marker"))
        if self.mode == "over":
            outcome = self.state.outcome()
            lit.update(dict.fromkeys(self._win_sites(outcome) if outcome else (), "win"))
        lit.update(dict.fromkeys(self.hinted, "hint"))
        lit.update(dict.fromkeys(self.targets, "target"))
        lit.update(self.pending.lights(self.board) if self.pending else {})
        if self.due is not None and self.mode == "move":
            lit.update(dict.fromkeys(self.due.sites & self.board, STEPS[self.due.action].light))
        lit.update(self.choice.lights() if self.choice else {})
        if self.turn and self.turn.current:
            lit.update(dict.fromkeys(self.turn.left(self.board), STEPS[self.turn.current.action].light))
        if self.sync:
            aim = self.expected if self.sync.aim is None else self.sync.aim
            lit.update(dict.fromkeys(aim - self.board, "missing"))
            lit.update(dict.fromkeys(self.board - aim, "extra"))
        return {self.layout.led[site]: self._light(kind) for site, kind in lit.items()}

    def _light(self, kind: str) -> Led:
        led = LIGHTS[kind]
        if self.brightness >= 1:
            return led
        colour = tuple(round(c * self.brightness) for c in led.colour)
        return Led(colour, led.pattern)

    def screen(self) -> Screen:
        """What the OLED shows now (the page due of a long screen)."""
        return replace(self._screen(), page=self._page)

    def _screen(self) -> Screen:
        """An idle spell's screen, a notice, the open menu, or the game's status."""
        if self.idle and self.idle.attracting:
            return self.idle.screen
        if self._notice is not None:
            return self._notice
        if self.menu and self.menu.is_open:
            screen = self.menu.screen()
            needs = self.sync or self.turn or self.choice
            return replace(screen, title="Board: see lights") if needs else screen
        state = self.state
        outcome = state.outcome()
        result, score = result_lines(outcome, self.match)
        return status_screen(
            game_title=self.game.title,
            variant=self.game.shown_variant,
            to_move=None if outcome and not self.turn else self.to_act,
            side_colour=None,
            phase=state.phase,
            status_lines=state.status_lines(),
            instruction=self._instruction(),
            error=self.message or self._error() or (self._flashed and self._flashed[0]),
            result=result,
            match_score=score,
        )

    def _instruction(self) -> str | None:
        if self.mode == "over":
            return "Set up to play again"
        if self.pending:
            return self.pending.say
        if self.choice:
            return self.choice.instruction(self.state.notation)
        if self.due is not None and self.mode == "move":
            return words(self.due, len(self.due.sites & self.board))
        step = self.turn.current if self.turn else None
        if step is not None:
            return words(step, len(self.turn.left(self.board)))
        if self.targets:
            return "Put it on a lit site"
        if self.state.ok_move() is not None:
            return "OK ends the turn"
        return None

    def _error(self) -> str | None:
        if not self.connected:
            return "Board not connected"
        return self.sync.words() if self.sync else None
