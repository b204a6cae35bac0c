"""Shared pieces of every game engine: value types, the physical contract, graphs, history."""

from engines.core.contract import FollowUp, Realisation, Site
from engines.core.state import (
    GameInfo, GameState, IllegalMove, MatchPlay, OptionError, Outcome,
)

__all__ = [
    "FollowUp",
    "GameInfo",
    "GameState",
    "IllegalMove",
    "MatchPlay",
    "OptionError",
    "Outcome",
    "Realisation",
    "Site",
]
