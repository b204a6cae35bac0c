"""Anti-Grid (David McCord, 2009): two offset grids, custodial capture (RULINGS §4).

``grid`` holds the geometry, point names and precomputed tables; ``state`` the rules, notation
and physical contract. See docs/games/anti-grid.md.

>>> s = new(6)
>>> s.to_move, len(s.sites())
('red', 122)
"""

from engines.antigrid.grid import point_kind
from engines.antigrid.state import INFO, OK, QUIET_LIMIT, AntiGridState, EndTurn, Move, new

__all__ = ["INFO", "OK", "QUIET_LIMIT", "AntiGridState", "EndTurn", "Move", "new", "point_kind"]
