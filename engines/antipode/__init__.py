"""Antipode (Shane Hendrickson, 2011) on the 61-cell hexagon (RULINGS §2).

``state`` holds the board tables, the rules, notation and physical contract. See
docs/games/antipode.md.

>>> new().to_move
'blue'
"""

from engines.antipode.state import INFO, AntipodeState, HouseRules, Turn, new

__all__ = ["INFO", "AntipodeState", "HouseRules", "Turn", "new"]
