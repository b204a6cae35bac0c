"""The café's clock: the times the dashboard shows and the day its tiles count, in the café's
zone (``[cafe] timezone``, default the system's local zone). Stored times stay UTC
("2026-12-05T23:43:00Z"); only what is shown is local.

>>> late = lambda: datetime(2026, 12, 6, 0, 25, tzinfo=timezone.utc)
>>> clock = Clock(zone("America/New_York"), late)
>>> clock.today(), clock.midnight()
('2026-12-05', '2026-12-05T05:00:00Z')
>>> clock.shown("2026-12-05T23:43:00Z"), clock.shown("2026-07-04T16:00:00Z", day=True)
('18:43 EST', '2026-07-04 12:00 EDT')
>>> clock.shown_now()
'19:25:00 EST'
"""

from __future__ import annotations

import os
from datetime import datetime, time, timezone, tzinfo
from typing import Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

#: Where the system keeps its local zone.
LOCALTIME = "/etc/localtime"


def zone(name: str | None) -> tzinfo:
    """The IANA zone ``name``; None: the system's local zone (``$TZ``, else /etc/localtime,
    else UTC). ``name`` is checked when the config is read."""
    if name:
        return ZoneInfo(name)
    named = os.environ.get("TZ", "").lstrip(":")
    if named:
        try:
            return ZoneInfo(named)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    try:
        with open(LOCALTIME, "rb") as file:
            return ZoneInfo.from_file(file, key="localtime")
    except (OSError, ValueError):
        return timezone.utc


class Clock:
    """Now and the stored times, in ``zone``; ``now`` gives the time (aware, tests set it)."""

    def __init__(self, zone: tzinfo, now: Callable[[], datetime] | None = None) -> None:
        self.zone = zone
        self._now = now or (lambda: datetime.now(timezone.utc))

    def today(self) -> str:
        """The café's date now (2026-12-05)."""
        return self._now().astimezone(self.zone).date().isoformat()

    def midnight(self) -> str:
        """When the café's day began, as stored times are written (UTC)."""
        start = datetime.combine(self._now().astimezone(self.zone).date(), time(), self.zone)
        return _utc(start)

    def shown_now(self) -> str:
        """The café's time now, to the second: "18:43:07 EST"."""
        return self._now().astimezone(self.zone).strftime("%H:%M:%S %Z")

    def shown(self, stamp: str, day: bool = False) -> str:
        """A stored time as the café reads it: "18:43 EST", with ``day`` "2026-12-05 18:43 EST"."""
        local = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(self.zone)
        return local.strftime(f"{'%Y-%m-%d ' if day else ''}%H:%M %Z")


def _utc(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
