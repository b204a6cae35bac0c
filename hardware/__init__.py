"""Drivers behind small interfaces, and the simulated board (docs/architecture.md)."""

import warnings

# gpiozero warns once for each pin library it tries before one works (or none does, on a machine
# without GPIO): Python's warning lines, two each. What failed is said in one line where a part
# is opened ("[sound] buzzer: cannot open GPIO 12 (Unable to load any default pin factory!)").
warnings.filterwarnings("ignore", message="Falling back from ", module="gpiozero")
