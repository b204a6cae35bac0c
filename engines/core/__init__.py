"""Shared pieces of every game engine: value types, the physical contract, graphs, history."""

from engines.core.contract import FollowUp, Realisation, Site
from engines.core.errors import IllegalMove, InvalidMove, OptionError
from engines.core.info import GameInfo
from engines.core.outcome import DRAW, Draw, Outcome, Result
from engines.core.state import GameState, MatchPlay

__all__ = [
    "DRAW",
    "Draw",
    "FollowUp",
    "GameInfo",
    "GameState",
    "IllegalMove",
    "InvalidMove",
    "MatchPlay",
    "OptionError",
    "Outcome",
    "Realisation",
    "Result",
    "Site",
]
