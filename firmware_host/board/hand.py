"""What the players' hands did to pieces already on the board: :class:`Hand` turns debounced
lifts and set-backs into *touches* (a token lifted and set back: a flip or a tap).

A lift counts when the game has a piece on the site, or a piece was set down there long enough
not to be a hand passing over it; it becomes a touch when the site is set back. A token set back
and lifted again at once brushed its switch mid-flip: one touch; one that rested first
(``HOVER_MS``) was touched twice. Touches are handed out in the order the tokens were lifted.

>>> hand = Hand(tap_ms=1500)
>>> hand.changed(0, lifted={"a1"}, placed=set(), holding={"a1"})
[]
>>> hand.changed(300, lifted=set(), placed={"a1"}, holding={"a1"})
['a1']
>>> hand.settled(700, board={"a1"}, holding={"a1"})
[Touch(site='a1', held=300, quick=True)]
"""

from __future__ import annotations

from typing import Collection

from firmware_host.board.turn import HOVER_MS, Touch


class Hand:
    """Lifts under way and when each lifted site was set back; ``tap_ms``: the longest lift
    that is a tap."""

    def __init__(self, tap_ms: float) -> None:
        self.tap_ms = tap_ms
        self._lifted: dict[str, float] = {}  # site -> when it was lifted
        self._back: dict[str, float] = {}  # site -> when a lifted site was last set back
        self._placed: dict[str, float] = {}  # site -> when a piece was last set down there
        self._done: list[tuple[float, Touch]] = []  # touches ended by a second lift, with when

    def changed(
        self, now: float, lifted: Collection[str], placed: Collection[str], holding: Collection[str]
    ) -> list[str]:
        """A debounced change at ``now``; ``holding``: the sites the game has a piece on. The
        lifted sites just set back (touches that may count at once)."""
        for site in lifted:
            if site in self._lifted and site in self._back and now - self._back[site] >= HOVER_MS:
                self._done.append((self._lifted[site], self.take(site)))  # rested: touched again
            if site in holding or now - self._placed.get(site, now) >= HOVER_MS:
                self._lifted.setdefault(site, now)
        back = []
        for site in placed:
            self._placed[site] = now
            if site in self._lifted:
                self._back[site] = now
                back.append(site)
        return back

    def forget(self, sites: Collection[str]) -> None:
        """Lifts of ``sites`` no longer count: the game has no piece there after all (a move
        read from a knock, dropped)."""
        for site in sites:
            self._lifted.pop(site, None)
            self._back.pop(site, None)

    def touch(self, site: str) -> Touch:
        """The touch ``site`` makes if it counts now."""
        held = self._back[site] - self._lifted[site]
        return Touch(site, held, held <= self.tap_ms)

    def take(self, site: str) -> Touch:
        """``site``'s touch, counted now (it is forgotten)."""
        touch = self.touch(site)
        del self._lifted[site], self._back[site]
        return touch

    def settled(self, now: float, board: Collection[str], holding: Collection[str]) -> list[Touch]:
        """The board settled at ``now``: the lifted sites back on it, as touches in the order
        they were lifted. A lifted site the game no longer has a piece on is forgotten (its
        piece was taken off)."""
        back = sorted((t, s) for s, t in self._lifted.items() if s in board)
        for site in [s for s in self._lifted if s not in board and s not in holding]:
            del self._lifted[site]
        for _, site in back:
            self._back.setdefault(site, now)
        done, self._done = self._done, []
        touches = done + [(t, self.take(site)) for t, site in back]
        return [touch for _, touch in sorted(touches, key=lambda pair: pair[0])]
