"""Two-layer debounce of sensor scans, on a clock the caller supplies (milliseconds).

Layer one: a channel's debounced state changes only after it has read the new value in ``scans``
consecutive sound scans. Layer two: the board is *settled* when no reading has changed for
``settle_ms``, no channel is half-way through its debounce and nothing is ambiguous.

Channels a scan marks ambiguous (a ghosting matrix) are never trusted: they keep their last sound
state, their debounce count starts again, and the board does not settle while any remain.

The settle policy: while the caller marks the debounced board ``complete`` (e.g. it shows exactly
one legal move whose piece cannot still be on its way), it settles once its newest change has
stood ``quick_ms`` since its first contact and its bounce has been quiet for ``landing_ms`` (a
channel's readings less than ``landing_ms`` apart are one change, bouncing); and ``landing_ms``
after the last reading when it also marks it a ``landing`` (nothing but the piece's contact
bounce to wait for: the one site a lifted piece can land on, the opponent's move carried out).
The caller says which with :meth:`Debouncer.expect`.

>>> from hardware.base import Scan
>>> d = Debouncer(scans=3, settle_ms=100)
>>> d.feed(0, Scan(frozenset())).settled
False
>>> [sorted(d.feed(t, Scan(frozenset({7}))).closed) for t in (10, 20, 30)]
[[], [], [7]]
>>> d.feed(120, Scan(frozenset({7}))).settled, d.feed(130, Scan(frozenset({7}))).settled
(True, False)
>>> sorted(d.stable), d.quiet(130)
([7], True)
>>> d = Debouncer(scans=1, settle_ms=300, quick_ms=100, initial=frozenset())
>>> d.feed(0, Scan(frozenset({5}))).closed, d.quiet(150)
(frozenset({5}), False)
>>> d.complete = True
>>> d.quiet(150)
True
>>> d = Debouncer(scans=1, settle_ms=300, quick_ms=100, landing_ms=40, initial=frozenset())
>>> d.feed(0, Scan(frozenset({5}))).closed, d.quiet(50)
(frozenset({5}), False)
>>> d.complete = d.landing = True
>>> d.quiet(50)
True
>>> d = Debouncer(scans=1, settle_ms=300, quick_ms=100, landing_ms=40, initial=frozenset())
>>> [d.feed(t, Scan(frozenset({5} if t != 10 else ()))).closed for t in (0, 10, 20)][0]
frozenset({5})
>>> d.complete = True  # its bounce ended at 20 ms: judged 100 ms after its first contact
>>> d.quiet(90), d.quiet(100), d.settles_at()
(False, True, 100)
"""

from __future__ import annotations

import math
from typing import Literal, NamedTuple

from hardware.base import Scan

_NONE: frozenset[int] = frozenset()

#: How soon a changed board is judged: after ``settle_ms``; after ``quick_ms`` (``complete``:
#: it shows one whole move); or once its bounce is over, after ``landing_ms`` (``complete``
#: and ``landing``: nothing else can be meant by it).
Settle = Literal["full", "quick", "landing"]


class Change(NamedTuple):
    """What one scan changed: channels that became closed and opened after debouncing, and
    ``settled`` on the one scan at which the board became settled."""

    closed: frozenset[int] = _NONE
    opened: frozenset[int] = _NONE
    settled: bool = False


NOTHING = Change()


class Debouncer:
    """Per-channel debounce and board settle detection. Pure: time is passed in (ms)."""

    def __init__(
        self,
        scans: int = 3,
        settle_ms: float = 300,
        initial: frozenset[int] | None = None,
        quick_ms: float | None = None,
        landing_ms: float | None = None,
    ) -> None:
        if scans < 1:
            raise ValueError("scans must be at least 1")
        self.scans = scans
        self.settle_ms = settle_ms
        #: The settle time while ``complete`` (None: always settle_ms).
        self.quick_ms = settle_ms if quick_ms is None else min(quick_ms, settle_ms)
        #: The settle time while ``complete`` and ``landing`` (None: quick_ms).
        self.landing_ms = self.quick_ms if landing_ms is None else min(landing_ms, self.quick_ms)
        #: Set by the caller whenever the debounced board changes: True when it needs no more
        #: than ``quick_ms`` of quiet to be judged (and, if ``landing`` too, ``landing_ms``).
        self.complete = False
        self.landing = False
        #: The debounced closed channels.
        self.stable: frozenset[int] = initial if initial is not None else _NONE
        #: False until the first scan (or an ``initial`` set) is known.
        self.started = initial is not None
        self._counts: dict[int, int] = {}
        self._raw: frozenset[int] | None = None
        self._ambiguous: frozenset[int] = _NONE
        self._activity = 0.0
        #: When (ms) the newest change began (its first contact) and each channel last read anew.
        self._began = 0.0
        self._read_at: dict[int, float] = {}
        self._read = -math.inf  # when any reading last changed
        self._settled = False

    def expect(self, settle: Settle) -> None:
        """How soon the board as it now stands is judged (:data:`Settle`)."""
        self.complete = settle != "full"
        self.landing = settle == "landing"

    @property
    def changed_at(self) -> float:
        """When (ms) a reading last changed (the scan that began the quiet spell under way)."""
        return self._activity

    def quiet(self, now: float) -> bool:
        """True when the board is settled at ``now``."""
        due = self._due()
        return due is not None and now >= due

    def settles_at(self) -> float | None:
        """When (ms) the board settles if no reading changes first: a scan then judges it
        without waiting for the next one. None once settled, and while only scans can tell
        (a channel part-way through its debounce or ambiguous, before the first scan)."""
        return None if self._settled else self._due()

    def _due(self) -> float | None:
        if not self.started or self._counts or self._ambiguous:
            return None
        if not self.complete:
            return self._activity + self.settle_ms
        bounced = self._activity + self.landing_ms
        return bounced if self.landing else max(bounced, self._began + self.quick_ms)

    def moving(self, now: float) -> bool:
        """True while a reading that changed has not settled at ``now`` (a piece landing, a
        hand over the board); False for the wait at the start or after :meth:`restart` alone."""
        changed = self._counts or self._ambiguous or self._read >= self._activity
        return self.started and bool(changed) and not self.quiet(now)

    def restart(self, now: float) -> None:
        """Count the board as changed at ``now``: it settles again after a quiet spell (a new
        game is read from the pieces only once the hands have had time to set them)."""
        self._activity = self._began = now
        self._settled = False

    def feed(self, now: float, scan: Scan) -> Change:
        """Take one scan read at ``now``; the debounced changes it completes."""
        raw, ambiguous = scan.closed, scan.ambiguous
        if not self.started:
            self.started = True
            self.stable = raw - ambiguous
            self._raw, self._ambiguous, self._activity = raw, ambiguous, now
            self._began = now
            return NOTHING
        if (raw is not self._raw and raw != self._raw) or ambiguous or self._ambiguous:
            self._contact(now, raw ^ (self._raw or _NONE))
            self._raw, self._ambiguous, self._activity = raw, ambiguous, now
            self._settled = False
        elif not self._counts:
            return self._settle(now)
        return self._count(raw, ambiguous, now)

    def _contact(self, now: float, channels: frozenset[int]) -> None:
        """Note the readings of ``channels`` changed at ``now``: a channel quiet for
        ``landing_ms`` before begins a new change (one that read anew sooner is bouncing)."""
        for ch in channels:
            if now - self._read_at.get(ch, -math.inf) >= self.landing_ms:
                self._began = now
            self._read_at[ch] = self._read = now

    def _count(self, raw: frozenset[int], ambiguous: frozenset[int], now: float) -> Change:
        differing = (raw ^ self.stable) - ambiguous
        counts = {ch: self._counts.get(ch, 0) + 1 for ch in differing}
        done = {ch for ch, n in counts.items() if n >= self.scans}
        for ch in done:
            del counts[ch]
        self._counts = counts
        if not done:
            return self._settle(now)
        closed = frozenset(done & raw)
        opened = frozenset(done - raw)
        self.stable = (self.stable | closed) - opened
        settle = self._settle(now)
        return Change(closed, opened, settle.settled)

    def _settle(self, now: float) -> Change:
        if self._settled or not self.quiet(now):
            return NOTHING
        self._settled = True
        return Change(settled=True)
