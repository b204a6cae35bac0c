"""``reedboard plan``: the board drawn at 1:1 for drilling or printing, the wiring sheets (the
controllers' pins, the board with its LED path, the table), and the parts list: the pieces and
their magnets, the parts and the pins of the build (docs/build.md).

The sites come from the engine (``state.sites()``), the pieces from ``state.piece_sets()``,
their channels from the layout (the config's or ``--layout``; else the default one, with the
LEDs chained row by row), the scanner, LEDs, OLED and buttons from the config's tables
(``--scanner`` names another scanner; a config on the simulated board plans a 74HC165 chain,
or the Mega's own LED chains under ``--scanner serial``).
"""
