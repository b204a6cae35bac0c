"""Button presses held while the board settles, so that a placing is judged before a press
made as the piece lands: place, press OK at once, and OK acts on what the placing showed.

A press made while the board is unsettled waits for the settle; a board that never settles (a
chattering switch) lets it through ``HOLD_MS`` after the first press held. Presses keep their
order; one made on a settled board with none waiting goes through at once. An OK let through
with a hand still over the board waits on for the settle, however long (:meth:`Presses.wait`),
and is judged there before the board is: it stands in for no step the settle then reads (the
bound passed, the press is no longer taken for part of the placing).

>>> from hardware.base import ButtonEvent
>>> presses = Presses()
>>> presses.due(0, [ButtonEvent("ok")], settled=False)
[]
>>> presses.due(10, [ButtonEvent("menu", long=True)], settled=False)
[]
>>> presses.due(120, [], settled=True)
[ButtonEvent(button='ok', long=False), ButtonEvent(button='menu', long=True)]
>>> presses.due(130, [ButtonEvent("back")], settled=False)
[]
>>> presses.due(130 + HOLD_MS, [], settled=False)  # never settled: let through
[ButtonEvent(button='back', long=False)]
>>> presses.wait()  # an OK let through that the board must settle for
>>> presses.waited(), presses.waited()
(True, False)
"""

from __future__ import annotations

from typing import Iterable

from hardware.base import ButtonEvent

#: How long (ms) a press waits for the board to settle at most.
HOLD_MS = 2000.0


class Presses:
    """The presses waiting for the board to settle, and since when (ms); whether an OK waits
    for it past the bound."""

    def __init__(self) -> None:
        self._held: list[ButtonEvent] = []
        self._since = 0.0
        self._ok = False

    def due(self, now: float, presses: Iterable[ButtonEvent], settled: bool) -> list[ButtonEvent]:
        """The presses to act on at ``now``, ``presses`` made since the last step among them:
        all waiting once the board is ``settled`` or the first has waited HOLD_MS."""
        if not self._held:
            self._since = now
        self._held.extend(presses)
        if not settled and now - self._since < HOLD_MS:
            return []
        due, self._held = self._held, []
        return due

    def wait(self) -> None:
        """OK let through with a hand still over the board: it waits for the settle."""
        self._ok = True

    def waited(self) -> bool:
        """At the settle: whether an OK waited for it (then no longer)."""
        waited, self._ok = self._ok, False
        return waited

    def forget(self) -> None:
        """A new game: an OK waiting for the last one's settle counts for nothing."""
        self._ok = False
