"""What the benchmark scripts share: percentiles of timing samples.

>>> percentile([3.0, 1.0, 2.0, 4.0], 0.5), percentile([], 0.99)
(3.0, 0.0)
"""

from __future__ import annotations


def percentile(samples: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``samples`` (nearest rank); 0.0 when there are none."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0
