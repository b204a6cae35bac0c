"""What the robustness scripts share: the repository's root, the table and JSON report, a
parallel map over seeds, and a stop asked by a signal."""

from __future__ import annotations

import json
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Iterable, Sequence

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def report(title: str, rows: Sequence[tuple[str, Any]], figures: dict[str, Any]) -> None:
    """Print a readable table, then ``figures`` as one JSON line (the last line)."""
    width = max((len(name) for name, _ in rows), default=0)
    print(title)
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    print(json.dumps(figures), flush=True)


class Stop:
    """What asked a bench to stop ("": nothing yet). As a signal's handler it only notes the
    signal, and the bench looks between two of its steps, so that nothing is cut half-way (a
    SQLite write, a daemon's step) and its report and cleanup still happen. A second signal
    stops at once (KeyboardInterrupt)."""

    def __init__(self) -> None:
        self.by = ""

    def __call__(self, signum: int, _frame: object) -> None:
        if self.by:
            raise KeyboardInterrupt
        self.by = signal.Signals(signum).name


def parallel_map(fn: Callable[[Any], Any], items: Iterable[Any], workers: int, chunk: int = 16) -> list:
    """``[fn(x) for x in items]``, over ``workers`` processes when more than one."""
    items = list(items)
    if workers <= 1:
        return [fn(x) for x in items]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(fn, items, chunksize=chunk))


def workers_default() -> int:
    return len(os.sched_getaffinity(0))
