"""The board: what reads the table and the model of where its game stands.

Sensor scans in (``debounce``, ``hand``: lifts and set-backs as touches), what a settled board
means to the engine (``recognise``), a move's steps (``turn``), where the game stands (``phase``)
and what each phase does (``judge``), the state machine that holds them (``controller``), what
it shows (``view``), the game being played and its only writer to storage (``record``, ``game``,
``matchplay``), what a board can play (``playable``), who plays the other side (``opponent``,
its search in a ``worker`` process), and the set-up wizard that learns the table (``wizard``).
"""
