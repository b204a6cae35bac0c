"""``reedboard plan``: the board drawn at 1:1 for drilling or printing, a wiring sheet, and the
bill of materials (docs/build.md).

The sites come from the engine (``state.sites()``), their channels from the layout (the config's
or ``--layout``; else the default one), the scanner and LED chain from the config's
``[sensors]`` and ``[leds]`` tables (``--scanner`` names another scanner; a config on the
simulated board plans a 74HC165 chain).
"""
