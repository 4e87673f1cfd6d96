"""Confidence intervals over seeds: percentile bootstrap for means, Clopper–Pearson for proportions."""

from __future__ import annotations

import numpy as np
from scipy.special import betaincinv

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


def proportion_interval(values: np.ndarray) -> tuple[float, float]:
    """Clopper–Pearson (exact binomial) ``CONFIDENCE_LEVEL`` interval of the probability of an event from
    one 0/1 outcome per seed (e.g. Lemma 5's "every epoch's set contains P"); ``values`` must be 0 or 1.

    With ``n`` seeds all 1 the lower end is ``(0.025)^{1/n}`` (0.63 at 8 seeds; at least 0.9 needs 36).

    The ends are the Beta quantiles of Clopper and Pearson's construction, ``B⁻¹(α/2; k, n−k+1)`` and
    ``B⁻¹(1−α/2; k+1, n−k)`` (``scipy.special.betaincinv``): the roots ``scipy.stats.binomtest`` finds
    numerically, to 10⁻¹² (a test), without importing ``scipy.stats`` (half a second in every summary job).
    """
    values = np.asarray(values, dtype=float)
    if not np.all((values == 0.0) | (values == 1.0)):
        raise ValueError("a proportion needs one 0/1 outcome per seed")
    k, n = int(values.sum()), values.size
    tail = (1.0 - CONFIDENCE_LEVEL) / 2.0
    low = 0.0 if k == 0 else float(betaincinv(k, n - k + 1, tail))
    high = 1.0 if k == n else float(betaincinv(k + 1, n - k, 1.0 - tail))
    return low, high
