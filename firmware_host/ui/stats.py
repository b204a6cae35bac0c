"""Today's games at the board: how many were played and how they ended (kiosk mode shows this
while the board waits, and the menu's "Today" item anywhere).

>>> from firmware_host.store.storage import Storage
>>> db = Storage(":memory:")
>>> for result in ("white wins by connection", "black wins by ring", "white wins by ring"):
...     game = db.start("antipalos", 5, "two"); db.add_move(game, 1, "A1*")
...     db.finish(game, result, result.split()[0])
>>> running = db.start("antipalos", 5, "two"); db.add_move(running, 1, "B2*")
>>> day_screen(today(db)).text_lines()
('Today', '4 games', 'white 2 · black 1 · 1 playing', 'Last: white wins by ring')

A board that played more than one game today names each game's sides with its game, so that
Phalanx's white is not counted with Antipalos's:

>>> game = db.start("phalanx", None, None); db.add_move(game, 1, "x")
>>> db.finish(game, "white wins", "white")
>>> today(db).results
{'Antipalos white': 2, 'Antipalos black': 1, 'Phalanx white': 1}
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import NamedTuple

from engines import game_info
from firmware_host.i18n import _, ngettext
from firmware_host.store.storage import Storage, StorageError, now_text
from firmware_host.ui.screens import Screen, message_screen


class Day(NamedTuple):
    """The games begun today (since local midnight) in which at least one move was played."""

    played: int
    #: winner ("white", "draw", ...) -> games, in the order first seen
    results: dict[str, int]
    running: int
    #: The latest finished game's result.
    last: str | None


def today(storage: Storage, now: datetime | None = None) -> Day:
    """The day's games in ``storage`` (local time; ``now`` for tests)."""
    now = (now or datetime.now()).astimezone()
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    games = [g for g in storage.games(since=now_text(midnight)) if g.moves]
    results: Counter[str] = Counter()
    last = None
    mixed = len({game.game for game in games}) > 1
    for game in games:
        if game.winner:
            named = f"{game_info(game.game).short_title} {game.winner}" if mixed else game.winner
            results[named] += 1
            last = game.result
    running = sum(game.finished is None for game in games)
    return Day(len(games), dict(results), running, last)


def day_screen(day: Day) -> Screen:
    """The "Today" screen: games played, wins per side, the last result."""
    if not day.played:
        return message_screen(_("Today"), [_("No games yet"), _("Set up the pieces to play")])
    tally = [f"{_(side)} {n}" for side, n in day.results.items()]
    if day.running:
        tally.append(_("{n} playing").format(n=day.running))
    lines = [ngettext("{n} game", "{n} games", day.played).format(n=day.played), " · ".join(tally)]
    if day.last:
        lines.append(_("Last: {game}").format(game=day.last))
    return message_screen(_("Today"), lines)


def today_screen(storage: Storage) -> Screen:
    """:func:`day_screen` for today, or a short message when the database cannot be read."""
    try:
        return day_screen(today(storage))
    except StorageError:
        return message_screen(_("Today"), [_("Not available"), _("The games cannot be read")])
