"""Python's cyclic garbage collector, and what is loaded, while ``reedboard run`` starts.

The start makes tens of thousands of objects that live as long as the daemon (modules, classes,
functions, the game) and hardly any garbage; the collector, run every 700 new objects, went
through them some 40 times before READY (about 5 % of the CPU to READY here). While the daemon
starts it runs only every :data:`STARTING` new objects (never, in a start that gets to READY;
now and then in one that does not); at READY what the start made is set aside from its rounds
for good (``gc.freeze``), and it runs as before on what is made next.

``dataclasses`` imports ``inspect`` (with ``ast``, ``dis`` and ``tokenize``: some 35 million
instructions here, a tenth of the start's own) for one call, when a dataclass has no docstring
(none of the start's lacks one): until something uses it, a stand-in takes its place
(:func:`hardware.lazy.defer`), and the first name asked of it loads it.

>>> hold(); gc.get_threshold()[0] == STARTING
True
>>> release(freeze=False); gc.get_threshold()[0] < STARTING
True
"""

from __future__ import annotations

import gc

from hardware import lazy

#: The collector's first threshold (new objects between two rounds) while the daemon starts.
STARTING = 100_000

_normal: list[tuple[int, int, int]] = []  # the thresholds before hold(), while held


def hold() -> None:
    """Collect rarely until :func:`release`; ``inspect`` loaded when it is first used."""
    lazy.defer("inspect")
    if not _normal:
        _normal.append(gc.get_threshold())
        gc.set_threshold(STARTING, *_normal[0][1:])


def release(freeze: bool = True) -> None:
    """The thresholds as they were before :func:`hold`; with ``freeze`` (at READY), what was
    made until now is set aside from the collector's rounds for good."""
    if _normal:
        if freeze:
            gc.freeze()
        gc.set_threshold(*_normal.pop())
