"""A tiny scripted game (a test double of our own GameState interface, not of hardware): at each
ply the legal moves are given by a script, so tests can exercise every kind of follow-up."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.core import FollowUp, GameState, IllegalMove, Outcome, Realisation, Site
from firmware_host.board.game import Game

SITES = tuple(f"s{i}" for i in range(10))


@dataclass(frozen=True)
class ToyMove:
    name: str
    emptied: frozenset[str] = frozenset()
    filled: frozenset[str] = frozenset()
    follow_ups: tuple[FollowUp, ...] = ()

    def __str__(self) -> str:
        return self.name


def move(name, emptied=(), filled=(), *steps: tuple[str, tuple[str, ...]]) -> ToyMove:
    follow = tuple(FollowUp(action, frozenset(sites)) for action, sites in steps)
    return ToyMove(name, frozenset(emptied), frozenset(filled), follow)


@dataclass(frozen=True)
class ToyState(GameState):
    script: tuple[tuple[ToyMove, ...], ...]
    board: frozenset[str] = frozenset()
    up: tuple[tuple[str, str], ...] = ()  # site -> face, for tokens that have one
    played: int = 0
    ok_name: str = "ok"

    @property
    def to_move(self) -> str | None:
        return None if self.outcome() else self.sides[self.played % 2]

    @property
    def ply(self) -> int:
        return self.played

    @property
    def sides(self) -> tuple[str, ...]:
        return ("north", "south")

    def legal_moves(self) -> tuple[ToyMove, ...]:
        return () if self.outcome() else self.script[self.played]

    def check(self, move: Any) -> None:
        if move not in self.legal_moves():
            raise IllegalMove(f"{move} is not allowed now")

    def apply(self, move: ToyMove) -> "ToyState":
        board = self.realisations(move)[0].board_after(self.board, len(move.follow_ups))
        faces = dict(self.up)
        for step in move.follow_ups:
            if step.action == "flip":
                for site in step.sites:
                    faces[site] = "south" if faces.get(site, "north") == "north" else "north"
        return ToyState(self.script, board, tuple(sorted(faces.items())), self.played + 1)

    def outcome(self) -> Outcome | None:
        if self.played >= len(self.script):
            return Outcome("north", "script", sites=tuple(sorted(self.board)))
        return None

    def parse_move(self, text: str) -> ToyMove:
        for move in (m for moves in self.script for m in moves):
            if move.name == text:
                return move
        raise IllegalMove(f"Cannot read '{text}'")

    def sites(self) -> tuple[Site, ...]:
        return tuple(Site(label, i, 0) for i, label in enumerate(SITES))

    def occupied(self) -> frozenset[str]:
        return self.board

    def faces(self) -> dict[str, str]:
        faces = dict(self.up)
        return {site: faces.get(site, "north") for site in self.board}

    def realisations(self, move: ToyMove) -> tuple[Realisation, ...]:
        return (Realisation(move.emptied, move.filled, move.follow_ups),)

    def ok_move(self) -> ToyMove | None:
        return next((m for m in self.legal_moves() if m.name == self.ok_name), None)


@dataclass(frozen=True)
class ToyGame(Game):
    """The toy game for a Controller: ``script`` as in :class:`ToyState`."""

    script: tuple[tuple[ToyMove, ...], ...] = ()
    start: frozenset[str] = frozenset()

    def new(self) -> ToyState:
        return ToyState(self.script, self.start)

    @property
    def title(self) -> str:
        return "Toy"

    @property
    def shown_variant(self) -> str | None:
        return None
