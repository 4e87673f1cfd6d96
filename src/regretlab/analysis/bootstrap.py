"""Percentile-bootstrap confidence intervals over seeds."""

from __future__ import annotations

import numpy as np

#: Two-sided confidence level of every interval the project reports.
CONFIDENCE_LEVEL = 0.95


def bootstrap_indices(rng: np.random.Generator, n_values: int, n_resamples: int) -> np.ndarray:
    """``(n_resamples, n_values)`` indices drawn with replacement."""
    return rng.integers(0, n_values, size=(n_resamples, n_values))


def percentile_interval(samples: np.ndarray) -> tuple[float, float]:
    """The central ``CONFIDENCE_LEVEL`` percentile interval of bootstrap replicates (NaNs ignored)."""
    tail = 50.0 * (1.0 - CONFIDENCE_LEVEL)
    low, high = np.nanpercentile(samples, [tail, 100.0 - tail])
    return float(low), float(high)


def mean_interval(values: np.ndarray, rng: np.random.Generator, n_resamples: int) -> tuple[float, float]:
    """Percentile-bootstrap interval of the mean of ``values`` (one value per seed).

    With a single seed the interval is degenerate (both ends equal the value).
    """
    values = np.asarray(values, dtype=float)
    if values.size == 1:
        return float(values[0]), float(values[0])
    means = values[bootstrap_indices(rng, values.size, n_resamples)].mean(axis=1)
    return percentile_interval(means)
