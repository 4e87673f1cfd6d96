"""Log–log slope fits with bootstrap intervals: the empirical counterpart of paper 001's Table 1."""

from __future__ import annotations

import numpy as np

from regretlab.analysis.bootstrap import bootstrap_indices, percentile_interval


def loglog_slope(x: np.ndarray, y: np.ndarray) -> float:
    """Least-squares slope of log y against log x over the points with ``x > 0`` and ``y > 0``.

    NaN when fewer than two such points with distinct x remain (a regret that is not positive has no
    logarithm; such points carry no information about a polynomial rate).
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = (x > 0) & (y > 0)
    if np.unique(x[keep]).size < 2:
        return float("nan")
    lx, ly = np.log(x[keep]), np.log(y[keep])
    lx_c = lx - lx.mean()
    return float(np.dot(lx_c, ly - ly.mean()) / np.dot(lx_c, lx_c))


def fit_exponent(
    x: np.ndarray, per_point_values: list[np.ndarray], rng: np.random.Generator, n_resamples: int
) -> tuple[float, float, float]:
    """Slope of the per-point mean against ``x`` on log–log axes, with a bootstrap interval.

    Args:
        x: ``(n_points,)`` swept variable (T, or the mean L*).
        per_point_values: for each point, the per-seed values (e.g. final regrets).
        rng: the bootstrap's generator.
        n_resamples: number of bootstrap replicates; seeds are resampled independently at every point.

    Returns:
        ``(slope, ci_low, ci_high)`` — the slope of the observed means and the percentile interval of the
        slopes of resampled means (NaN where it cannot be fitted).
    """
    means = np.array([np.mean(v) for v in per_point_values])
    slope = loglog_slope(x, means)
    boot_means = np.column_stack(
        [
            np.asarray(v, dtype=float)[bootstrap_indices(rng, len(v), n_resamples)].mean(axis=1)
            for v in per_point_values
        ]
    )
    slopes = np.array([loglog_slope(x, row) for row in boot_means])
    if np.all(np.isnan(slopes)):
        return slope, float("nan"), float("nan")
    low, high = percentile_interval(slopes)
    return slope, low, high
