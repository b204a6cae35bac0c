"""The page during ``reedboard setup``: the same page as the game's, showing the set-up wizard
(its OLED screen and words, the site to put a piece on, lit, and the sites the sensors see)
and taking its buttons; on the simulated board a click puts a piece on a site or lifts it and a
drag moves one, as on the game's page (``pieces.py``), one site's changes and the buttons after
them spaced out alike (``spacing.py``), so that the wizard sees each before the button.

It publishes to a :class:`~firmware_host.net.web.bridge.Hub` the keys the page reads (``game``,
``sites``, ``pieces``, ``leds``, ``oled``, ``status``, ``events``); the loop calls
:meth:`SetupPage.sync` after every wizard step.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from engines.core.contract import Site
from firmware_host.board.wizard import Wizard
from firmware_host.net.web.bridge import Hub, _png, put
from firmware_host.net.web.commands import Drag, Press, SetNoise, SiteChange
from firmware_host.net.web.pieces import SimPieces
from firmware_host.net.web.spacing import Spacing
from hardware.sim import SimBoard

#: How the site to put a piece on is lit on the page, and a lit LED's site (simulated board).
PROMPT, LIT = ["#3fa7ff", "pulse"], ["#ffffff", "steady"]


class SetupPage:
    """The wizard's side of the page for ``board`` (a SimBoard, or real hardware's tapped
    parts); ``believed``: site -> channel the simulated board uses when it has no wiring;
    ``gap_ms``, ``gap_scans``: how far apart one site's changes are applied (``spacing.gap``)."""

    def __init__(
        self,
        board,
        sites: Sequence[Site],
        believed: Mapping[str, int],
        game,
        gap_ms: float,
        gap_scans: int = 0,
        hub: Hub | None = None,
    ) -> None:
        self.board, self.sites, self.believed, self.game = board, list(sites), believed, game
        self.spacing = Spacing(gap_ms, gap_scans)
        self.hub = hub or Hub()
        self.hub.labels = frozenset(s.label for s in sites)
        self.simulated = getattr(board, "simulated", True)
        #: The simulated pieces the page moves (None on real hardware).
        self.hands = SimPieces(board, self.spacing, sites) if isinstance(board, SimBoard) else None
        self._shown: dict[str, Any] = {}
        self._started = False

    @property
    def quiet(self) -> bool:
        return not self.spacing.waiting and not self.hub.pending

    def sync(self, now: float, wizard: Wizard, events: Iterable[dict[str, Any]]) -> None:
        for command in self.spacing.due(now, self.hub.take):
            self._apply(command, now)
        update: dict[str, Any] = {}
        if not self._started:
            self._started = True
            game = self.game
            update["game"] = {
                "name": game.name,
                "title": f"Set-up: {game.title}",
                "size": game.size,
                "variant": game.variant,
                "shown_variant": None,
                "sides": [],
                "setup": True,
            }
            update["sites"] = [{"label": s.label, "x": s.x, "y": s.y, "shape": s.shape} for s in self.sites]
            update["drawing"] = {"lines": [], "kinds": {}}
        self._put(update, "pieces", sorted(self._sensed(wizard)))
        self._put(update, "noise", self.board.noise is not None)
        self._put(update, "leds", self._leds(wizard))
        self._put(
            update,
            "status",
            {
                "to_move": None,
                "result": None,
                "winner": None,
                "moves": 0,
                "last": None,
                "lines": list(wizard.screen().text_lines()),
            },
        )
        if self.board.display.images_shown != self._shown.get("images"):
            self._shown["images"] = self.board.display.images_shown
            update["oled"] = _png(self.board.display.image)
        events = [{**e, "t": round(now)} for e in events]
        if events:
            update["events"] = events
        if update:
            self.hub.publish(update)

    def _apply(self, command, now: float) -> None:
        if isinstance(command, Press):
            self.board.buttons.press(command.button, command.long)
        elif isinstance(command, (SiteChange, Drag, SetNoise)) and self.hands:
            self.hands.apply(command, self.board.sensors(self.believed), now)

    def _sensed(self, wizard: Wizard) -> set[str]:
        """The sites whose switch reads closed: as wired (simulated board), else as learned."""
        closed = self.board.pieces()
        if self.simulated:
            sensors = self.board.sensors(self.believed)
            return {s.label for s in self.sites if sensors.get(s.label) in closed}
        known = wizard.layout().sensor | wizard.progress.sensor
        return {site for site, ch in known.items() if ch in closed and site in self.hub.labels}

    def _leds(self, wizard: Wizard) -> dict[str, list[str]]:
        lit = {wizard.prompt: PROMPT} if wizard.prompt else {}
        if wizard.lit is not None and self.simulated:  # where the LED really is
            lights = self.board.lights(self.believed)
            lit |= {site: LIT for site in self.hub.labels if lights.get(site) == wizard.lit}
        return lit

    def _put(self, update: dict[str, Any], key: str, value: Any) -> None:
        put(self._shown, update, key, value)
