"""What the benchmark scripts share: percentiles of timing samples and their table.

>>> percentile([3.0, 1.0, 2.0, 4.0], 0.5), percentile([], 0.99)
(3.0, 0.0)
"""

from __future__ import annotations

import statistics


def percentile(samples: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``samples`` (nearest rank); 0.0 when there are none."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def print_timings(times: dict[str, list[float]]) -> None:
    """A table of each step's samples (seconds): count, mean, p50, p99 and max in ms."""
    width = max(map(len, times), default=4) + 4
    print(f"{'step':<{width}}{'n':>8}{'mean ms':>10}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    for key, samples in times.items():
        ms = [s * 1e3 for s in samples] or [0.0]
        print(
            f"{key:<{width}}{len(samples):>8}{statistics.fmean(ms):>10.3f}"
            f"{percentile(ms, 0.5):>10.3f}{percentile(ms, 0.99):>10.3f}{max(ms):>10.3f}"
        )
