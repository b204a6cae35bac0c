"""Two paired boards on a game clock, as the paired clock tests set them up: a context
manager that closes both boards however the test ends.

>>> with clocked_pair() as pair:
...     [board.controller.clock.clocks.left for board in pair.boards]
[{'white': 60000.0, 'black': 60000.0}, {'white': 60000.0, 'black': 60000.0}]
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from typing import Iterator

from firmware_host.board.controller import Game
from firmware_host.store.config import ClockConfig
from testbed.bus import Faults
from testbed.pair import Pair

#: The bus's delay each way (ms).
DELAY_MS = 300


@contextmanager
def clocked_pair(game: Game | None = None, control: str = "60", delay_ms: float = DELAY_MS) -> Iterator[Pair]:
    """t1 (the first seat's players) and t2 (the second's) of ``game`` (Antipalos on 3), each
    with ``[clock] control``, on a bus that takes ``delay_ms`` each way."""
    pair = Pair(
        game or Game.of("antipalos", 3),
        random.Random(1),
        kinds=(),
        faults=Faults(delay=(delay_ms, delay_ms)),
        clock=ClockConfig(control),
    )
    try:
        yield pair
    finally:
        pair.close()
