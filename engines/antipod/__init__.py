"""Antipod (Cameron Browne, 2003): Hex on a sphere (RULINGS §3).

``state`` holds the sphere, the rules, notation and physical contract. See
docs/games/antipod.md.

>>> new(6).to_move
'white'
"""

from engines.antipod.state import INFO, AntipodState, Place, new, sphere_of

__all__ = ["INFO", "AntipodState", "Place", "new", "sphere_of"]
