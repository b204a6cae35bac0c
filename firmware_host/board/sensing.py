"""The board as its sensors read it: :class:`Sensing` debounces the scans, reads the sites they
show under the game's layout, keeps the touches under way, the faces polarity sensors read and
the button presses that wait for the board to settle.
"""

from __future__ import annotations

from typing import Any, Mapping

from engines.core import GameState
from firmware_host.board.debounce import Change, Debouncer
from firmware_host.board.hand import Hand
from firmware_host.board.presses import Presses
from firmware_host.store.config import Timing
from firmware_host.store.layout import Layout
from hardware.base import Scan


class Sensing:
    """``debouncer``: the debounced scans; ``board``: the sites they show under ``layout``;
    ``hand``: the touches under way (a new game begins a new one)."""

    def __init__(self, timing: Timing) -> None:
        self.debouncer = Debouncer(
            timing.debounce_scans,
            timing.settle_ms,
            quick_ms=timing.quick_settle_ms,
            landing_ms=timing.landing_settle_ms,
        )
        self._tap_ms = timing.tap_ms
        self._polarity: Mapping[int, bool] | None = None
        self.layout: Layout  # set by :meth:`regame`, as a game begins
        self.board: frozenset[str] = frozenset()
        self.hand = Hand(timing.tap_ms)
        #: False while the board does not answer (the daemon says): nothing is judged.
        self.connected = True
        #: Button presses waiting for the board to settle.
        self.presses = Presses()

    def regame(self, layout: Layout) -> None:
        """A new game on ``layout``: the board read under it, no touches under way."""
        self.layout = layout
        self.board = layout.sites_of(self.debouncer.stable)
        self.hand = Hand(self._tap_ms)
        self.presses.forget()

    def feed(self, now: float, scan: Scan) -> tuple[bool, Change]:
        """One scan at ``now``: whether it was the first, and what changed."""
        if scan.polarity is not None:
            self._polarity = scan.polarity
        fresh = not self.debouncer.started
        change = self.debouncer.feed(now, scan)
        if fresh or change.closed or change.opened:
            self.board = self.layout.sites_of(self.debouncer.stable)
        return fresh, change

    def sites(self, channels: frozenset[int]) -> frozenset[str]:
        """The sites of sensor ``channels``."""
        return self.layout.sites_of(channels)

    @property
    def reads_faces(self) -> bool:
        """True once polarity sensors have read the faces."""
        return self._polarity is not None

    def faces_shown(self, state: GameState[Any], sites: frozenset[str]) -> bool:
        """True when polarity sensors read the face ``state`` expects on every one of ``sites``."""
        north, faces, polarity = state.sides[0], state.faces(), self._polarity or {}
        readings = [polarity.get(self.layout.sensor[site]) for site in sites]
        return all(r is not None and r == (faces.get(s) == north) for s, r in zip(sites, readings))
