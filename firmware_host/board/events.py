"""What a board tells as it goes: its events, one typed dict per kind, all in :data:`Event`.

Each event has ``t`` (the step's time, ms) and ``event`` (its kind) first, then its fields in
the order the JSON lines print them (``reedboard run`` writes one per line; docs/daemon.md lists
them). A consumer tells them apart by ``event["event"]``, which mypy narrows.

>>> move: Event = Moved(t=0, event="move", move="a1", side="white")
>>> list(move)
['t', 'event', 'move', 'side']
"""

from __future__ import annotations

from typing import Literal, TypedDict

from firmware_host.board.turn import GuideAction


class InSync(TypedDict):
    """The board shows what it should again."""

    t: float
    event: Literal["in_sync"]


class OutOfSync(TypedDict):
    """The board differs: the sites to put pieces back on and to take them off."""

    t: float
    event: Literal["out_of_sync"]
    missing: list[str]
    extra: list[str]


class Refused(TypedDict):
    """Why the board differs: an illegal attempt, or what it waits for (``waiting``)."""

    t: float
    event: Literal["illegal", "waiting"]
    reason: str
    sites: list[str]


class Targets(TypedDict):
    """The lifted pieces' targets, lit (none: dark again)."""

    t: float
    event: Literal["targets"]
    sites: list[str]


class Guide(TypedDict):
    """The players are asked to do ``action`` on ``sites``."""

    t: float
    event: Literal["guide"]
    action: GuideAction
    sites: list[str]


class Moved(TypedDict):
    """A move recorded, by ``side``."""

    t: float
    event: Literal["move"]
    move: str
    side: str | None


class Corrected(TypedDict):
    """``move`` recorded in place of the last move, ``replaces``."""

    t: float
    event: Literal["correction"]
    move: str
    replaces: str
    side: str | None


class TookBack(TypedDict):
    """``move`` taken back."""

    t: float
    event: Literal["takeback"]
    move: str


class GameOver(TypedDict):
    """The game is over: the winner (or "draw"), how, the sites that show it."""

    t: float
    event: Literal["game_over"]
    winner: str
    result: str
    sites: list[str]


class MatchScore(TypedDict):
    """A match's totals by side after a game (or a takeback of its last move)."""

    t: float
    event: Literal["match"]
    totals: dict[str, int]
    target: int
    winner: str | None


class NewGame(TypedDict):
    """A new game begun."""

    t: float
    event: Literal["new_game"]
    game: str
    size: int | None
    variant: str | None


class Expect(TypedDict):
    """The opponent's move to carry out: the sites to empty and to fill."""

    t: float
    event: Literal["expect"]
    move: str
    empty: list[str]
    fill: list[str]


class Hint(TypedDict):
    """The computer's suggestion, lit on ``sites``."""

    t: float
    event: Literal["hint"]
    move: str
    sites: list[str]


class Signal(TypedDict):
    """No fields: the daemon runs the power-off command; someone woke the board; an idle spell
    began."""

    t: float
    event: Literal["power_off", "wake", "attract"]


class Display(TypedDict):
    """The screen's text changed."""

    t: float
    event: Literal["display"]
    lines: list[str]


class ClockEvent(TypedDict):
    """The game clocks switched, were set back or a flag fell: each side's time ``left`` (ms)
    as it stood when they last switched, ``elapsed`` ms before ``t`` (the press: the sensor
    change that completed a turn; a takeback's 0, the clocks set back at ``t``), when the
    clock of ``running`` started (None: nobody's runs); the side whose flag fell (None: none)."""

    t: float
    event: Literal["clock"]
    left: dict[str, float]
    running: str | None
    elapsed: float
    flag: str | None


class Said(TypedDict):
    """A sentence the board says (``[sound] speech``) and the page may speak."""

    t: float
    event: Literal["say"]
    text: str


Event = (
    InSync
    | OutOfSync
    | Refused
    | Targets
    | Guide
    | Moved
    | Corrected
    | TookBack
    | GameOver
    | MatchScore
    | NewGame
    | Expect
    | Hint
    | Signal
    | Display
    | ClockEvent
    | Said
)
