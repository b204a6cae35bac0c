"""Helpers for the replayed sensor streams: build them, run them, read the events."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from firmware_host.runtime.replay import replay
from firmware_host.runtime.session import configured_game
from firmware_host.store.config import Config

STREAMS = Path(__file__).resolve().parent.parent / "tests" / "board" / "streams"
#: Enough quiet after a change for the board to settle at the default timing.
SETTLE = 500


@dataclass
class Stream:
    """A sensor stream written as a player would act; ``t`` in ms."""

    setup: str | None = None
    t: int = 0
    lines: list[dict[str, Any]] = field(default_factory=list)

    def wait(self, ms: int) -> "Stream":
        self.t += ms
        return self

    def stand(self, ms: int) -> "Stream":
        """Nothing touched for ``ms``, the replay running through them (a wait at the end)."""
        self.t += ms
        self.lines.append({"t": self.t})
        return self

    def switch(self, site: str, on: bool, after: int = 100) -> "Stream":
        self.t += after
        self.lines.append({"t": self.t, "site": site, "on": on})
        return self

    def place(self, *sites: str, after: int = 100) -> "Stream":
        for site in sites:
            self.switch(site, True, after)
        return self

    def lift(self, *sites: str, after: int = 100) -> "Stream":
        for site in sites:
            self.switch(site, False, after)
        return self

    def press(self, button: str, after: int = 100) -> "Stream":
        self.t += after
        self.lines.append({"t": self.t, "button": button})
        return self

    def restart(self, after: int = 100) -> "Stream":
        """The daemon restarts (a robot line: replayed through the board under test)."""
        self.t += after
        self.lines.append({"t": self.t, "restart": True})
        return self

    def move(self, emptied: Iterable[str] = (), filled: Iterable[str] = ()) -> "Stream":
        """Lift then place by hand, then let the board settle."""
        self.lift(*sorted(emptied))
        self.place(*sorted(filled))
        return self.settle()

    def settle(self) -> "Stream":
        self.t += SETTLE
        self.lines.append({"t": self.t})
        return self

    def text(self) -> str:
        head = [{"setup": self.setup}] if self.setup else []
        return "".join(json.dumps(obj) + "\n" for obj in head + self.lines)


def board_after(stream: Stream, game: str, size=None, variant=None, computer=None):
    """The board under test (testbed/board_under_test.py) that played ``stream`` from the start position;
    the caller closes it. Streams with robot lines (a restart) are replayed so."""
    from engines import new_game
    from testbed.board_under_test import BoardUnderTest

    start = new_game(game, size, variant) if size or variant else new_game(game)
    head = [{"setup": "empty", "game": game, "size": size, "variant": variant}]
    head += [{"t": 0, "site": site, "on": True} for site in sorted(start.occupied())]
    text = "".join(json.dumps(obj) + "\n" for obj in head + stream.lines)
    return BoardUnderTest.replay(text, computer=computer)


def run(lines: str | Iterable[str], game: str, size=None, variant=None, config=None):
    """Replay ``lines`` (text or lines); the output events as dicts."""
    config = config or Config()
    if isinstance(lines, str):
        lines = lines.splitlines()
    out = io.StringIO()
    status = replay(list(lines), config, configured_game(config, game, size, variant), out)
    assert status == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def run_file(name: str, game: str, size=None, variant=None, config=None):
    return run((STREAMS / name).read_text(), game, size, variant, config)


def moves(events) -> list[str]:
    return [e["move"] for e in events if e["event"] == "move"]


def kept(events) -> list[str]:
    """The moves the game keeps at the end: each ``move`` as played, a ``correction`` in place
    of the move it replaces, a ``takeback`` undoing the last.

    >>> kept([{"event": "move", "move": "*A1"}, {"event": "correction", "move": "A1*", "replaces": "*A1"}])
    ['A1*']
    """
    record: list[str] = []
    for event in events:
        if event["event"] == "move":
            record.append(event["move"])
        elif event["event"] == "correction":
            assert record[-1] == event["replaces"], (record, event)
            record[-1] = event["move"]
        elif event["event"] == "takeback":
            assert record.pop() == event["move"], (record, event)
    return record


def of(events, kind: str) -> list[dict[str, Any]]:
    """Events of one kind without their time."""
    return [{k: v for k, v in e.items() if k not in ("t", "event")} for e in events if e["event"] == kind]


def kinds(events) -> list[str]:
    """The event names in order, display events left out."""
    return [e["event"] for e in events if e["event"] != "display"]


def after(events, kind: str) -> list[dict[str, Any]]:
    """The events after the first one of ``kind`` (none if there is none)."""
    names = [e["event"] for e in events]
    return events[names.index(kind) + 1 :] if kind in names else []


def shown(events) -> list[list[str]]:
    """The lines of every screen shown (the ``display`` events), in order."""
    return [e["lines"] for e in events if e["event"] == "display"]


def said(events, words: str) -> bool:
    """Whether any screen shown (a ``display`` event) had a line containing ``words``."""
    return any(words in line for e in events if e["event"] == "display" for line in e["lines"])
