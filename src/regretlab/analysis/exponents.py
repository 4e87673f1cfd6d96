"""Log–log slope fits with bootstrap intervals: the empirical counterpart of paper 001's Table 1.

Three slopes describe a curve: the fitted slope of the metric's means (``exponent``), the local slope of the
drawn bound over the same points (``bound_slope``) and the theory's asymptotic exponent (Table 1). When the
last two differ, the swept range is not where the theorem's rate describes its own bound, and comparing the
data with the asymptotic exponent says nothing about the theorem: :func:`bound_regime` labels that.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from regretlab.analysis.bootstrap import bootstrap_indices, percentile_interval

#: A curve of means all within this fraction of its scale (the metric's trivial bound, else the bound) of 0 is
#: "≈ 0": its logarithm measures noise or round-off, not a rate (e.g. an inert multiplier, ‖λ‖₁ ~ 1e-5).
ZERO_TOLERANCE = 1e-5
#: ``bound_regime`` is ``pre-asymptotic`` when the drawn bound's local slope is further than this from the
#: asymptotic exponent: the lower-order terms (K² ln T, 1/η caps, log factors) still shape the bound. (The
#: slopes a rate check accepts are not set by it: :func:`accepted_band` widens by the declared log powers.)
ASYMPTOTIC_TOLERANCE = 0.1


def loglog_slope(x: np.ndarray, y: np.ndarray) -> float:
    """Least-squares slope of log y against log x; NaN unless every x and y is finite and positive and at
    least two x differ (a value that is not positive has no logarithm; dropping it would bias the fit)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if not (np.all(np.isfinite(x) & (x > 0)) and np.all(np.isfinite(y) & (y > 0))):
        return float("nan")
    if np.unique(x).size < 2:
        return float("nan")
    lx, ly = np.log(x), np.log(y)
    lx_c = lx - lx.mean()
    return float(np.dot(lx_c, ly - ly.mean()) / np.dot(lx_c, lx_c))


def loglog_slopes(x: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """:func:`loglog_slope` of every row of ``rows`` (``(n_rows, len(x))``) against ``x`` at once: NaN for a
    row with a value that is not finite and positive, every entry NaN when ``x`` has no slope (the bootstrap's
    thousands of replicates in one vectorised least-squares fit instead of a Python loop)."""
    x, rows = np.asarray(x, dtype=float), np.asarray(rows, dtype=float)
    slopes = np.full(rows.shape[0], np.nan)
    if not np.all(np.isfinite(x) & (x > 0)) or np.unique(x).size < 2:
        return slopes
    valid = np.all(np.isfinite(rows) & (rows > 0), axis=1)
    lx = np.log(x)
    lx_c = lx - lx.mean()
    ly = np.log(rows[valid])
    slopes[valid] = (ly - ly.mean(axis=1, keepdims=True)) @ lx_c / np.dot(lx_c, lx_c)
    return slopes


def unfittable_reason(x: np.ndarray, y: np.ndarray, scale: float = float("nan")) -> str:
    """Why no power law can be fitted to the means ``y`` at ``x`` ("" when one can).

    ``scale`` is what "≈ 0" is relative to (see :data:`ZERO_TOLERANCE`); NaN skips that test.
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if np.unique(x).size < 2:
        return "fewer than two distinct x"
    if not np.all(np.isfinite(y)):
        return "mean not finite at some point"
    if np.isfinite(scale) and scale > 0 and np.abs(y).max() <= ZERO_TOLERANCE * scale:
        return f"≈ 0 at every point (max |mean| = {np.abs(y).max():.3g})"
    if (y > 0).any() and (y < 0).any():
        return "mean changes sign across points"
    if (y <= 0).all():
        return "mean ≤ 0 at every point"
    if (y <= 0).any():
        return "mean ≤ 0 at some point"
    return ""


def fit_exponent(
    x: np.ndarray,
    per_point_values: list[np.ndarray],
    rng: np.random.Generator,
    n_resamples: int,
    scale: float = float("nan"),
) -> tuple[float, float, float, str]:
    """Slope of the per-point mean against ``x`` on log–log axes, with a bootstrap interval.

    Args:
        x: ``(n_points,)`` swept variable (T, t, or the mean L*).
        per_point_values: for each point, the per-seed values (e.g. final regrets).
        rng: the bootstrap's generator.
        n_resamples: number of bootstrap replicates; seeds are resampled independently at every point.
        scale: the curve's scale for the "≈ 0" test of :func:`unfittable_reason`.

    Returns:
        ``(slope, ci_low, ci_high, reason)`` — the slope of the observed means and the percentile interval of
        the slopes of resampled means (replicates with a non-positive mean are left out), or NaNs and the
        reason no slope is fitted.
    """
    nan = float("nan")
    means = np.array([np.mean(v) for v in per_point_values])
    reason = unfittable_reason(x, means, scale)
    if reason:
        return nan, nan, nan, reason
    slope = loglog_slope(x, means)
    boot_means = np.column_stack(
        [
            np.asarray(v, dtype=float)[bootstrap_indices(rng, len(v), n_resamples)].mean(axis=1)
            for v in per_point_values
        ]
    )
    slopes = loglog_slopes(x, boot_means)
    if np.all(np.isnan(slopes)):
        return slope, nan, nan, ""
    low, high = percentile_interval(slopes)
    return slope, low, high, ""


def bound_slope(x: np.ndarray, bound: np.ndarray) -> tuple[float, str]:
    """The local log–log slope of a drawn bound over the curve's points, and why it is NaN if it is."""
    bound = np.asarray(bound, dtype=float)
    if not np.all(np.isfinite(bound) & (bound > 0)):
        return float("nan"), "bound not finite and positive at every point"
    slope = loglog_slope(x, bound)
    return slope, "" if np.isfinite(slope) else "fewer than two distinct x"


def bound_regime(slope: float, theory_exponent: float) -> str:
    """``asymptotic`` when the drawn bound's local slope is within :data:`ASYMPTOTIC_TOLERANCE` of the
    theory's exponent, ``pre-asymptotic`` otherwise, ``undetermined`` when the bound has no slope (or the
    theory no exponent in this variable)."""
    if not (np.isfinite(slope) and np.isfinite(theory_exponent)):
        return "undetermined"
    return "asymptotic" if abs(slope - theory_exponent) <= ASYMPTOTIC_TOLERANCE else "pre-asymptotic"


@dataclass(frozen=True)
class Band:
    """The slopes a rate check accepts over a curve: ``[low, high]``, and the slopes it was built from."""

    low: float
    high: float
    against: str  # e.g. "0.50 (drawn 0.41)"

    def contains(self, slope: float) -> bool:
        return self.low <= slope <= self.high

    def meets(self, low: float, high: float) -> bool:
        """The interval ``[low, high]`` reaches the band."""
        return low <= self.high and high >= self.low

    def text(self) -> str:
        if math.isinf(self.low):
            return f"≤ {self.high:.2f}"
        if math.isinf(self.high):
            return f"≥ {self.low:.2f}"
        return f"{self.low:.2f}–{self.high:.2f}"


def log_slack(x: np.ndarray, power: float, hidden: np.ndarray | None = None) -> float:
    """How much a hidden ``(ln h)^power`` steepens a power law's log–log slope fitted over the points ``x``:
    ``power`` times the least-squares slope of ``ln ln h`` against ``ln x`` (for h = x, ≈ ``power / ln x``
    at the points' middle: 0.10 per power over 10³–10⁶). ``h`` is x itself, or ``hidden`` (its value at
    each point: the rounds of a curve across instances fitted at epoch ends, whose ln T varies along it).
    0 for ``power`` 0, or where ``ln h`` is not positive at every point (a log that changes sign hides no
    power law)."""
    x = np.asarray(x, dtype=float)
    h = x if hidden is None else np.asarray(hidden, dtype=float)
    if not power or x.size < 2 or not np.all(h > 1.0):
        return 0.0
    slope = loglog_slope(x, np.log(h))
    return float(power * slope) if math.isfinite(slope) else 0.0


def accepted_band(exponent: float, drawn: float, sense: str, slack: float = 0.0, power: float = 0.0) -> Band:
    """The slopes a rate of the claim's ``sense`` accepts over a curve: the theory's exponent and the drawn
    rate's own local slope over the same points (its lower-order terms included: what the rate predicts over
    the measured range), widened by ``slack`` — the log powers the Õ hides beyond the drawn expression
    (``power``, :attr:`regretlab.specs.bound_spec.BoundSpec.log_powers`) times the local slope of the log
    (:func:`log_slack`) — on the side the rate allows: up to the larger plus the slack for an upper rate, from
    the smaller minus it for a lower one, between the two for a tight one. No fixed tolerance: a rate that
    hides no log accepts no slope above its own."""
    slopes = [exponent, *([drawn] if math.isfinite(drawn) else [])]
    low, high = min(slopes) - slack, max(slopes) + slack
    local = f"drawn {drawn:.2f}" if math.isfinite(drawn) and round(drawn, 2) != round(exponent, 2) else ""
    logs = f"ln^{power:g} hidden: widened by {slack:.2f}" if power else "no log hidden"
    return Band(
        -math.inf if sense == "upper" else low,
        math.inf if sense == "lower" else high,
        f"{exponent:.2f} ({'; '.join(p for p in (local, logs) if p)})",
    )


#: A fitted slope outside the band its rate accepts: a failure over the measured range (counted as tested,
#: drawn in red), never "no contradiction".
REJECTED = "rejected over the measured range"


def rate_verdict(
    slope: float, ci_low: float, ci_high: float, exponent: float, drawn: float, sense: str, slack: float = 0.0
) -> str:
    """``consistent`` where the fitted slope's interval reaches the band a rate of ``sense`` accepts
    (:func:`accepted_band`, widened by ``slack``), :data:`REJECTED` where it lies wholly beyond it; "" where
    there is no slope or no exponent."""
    if not all(math.isfinite(v) for v in (slope, ci_low, ci_high, exponent)):
        return ""
    return "consistent" if accepted_band(exponent, drawn, sense, slack).meets(ci_low, ci_high) else REJECTED


#: How far back from the last point a rejection must persist: the last two decades of x measured.
PERSISTENCE_DECADES = 2.0


def rejection_kind(
    x: np.ndarray,
    per_point_values: list[np.ndarray],
    rng: np.random.Generator,
    n_resamples: int,
    scale: float,
    exponent: float,
    drawn: float,
    sense: str,
    power: float = 0.0,
    hidden: tuple[np.ndarray, float] | None = None,
) -> str:
    """A rejected rate's kind: ``persistent`` when the slope fitted over the last :data:`PERSISTENCE_DECADES`
    decades measured (all of them if the curve spans less) still lies wholly beyond the band the rate
    accepts there (its hidden log ``power`` of x over those points, and ``hidden = (h, power)``'s of h, as
    :func:`log_slack`; no drift toward the rate), ``pre-asymptotic`` when it reaches the band there."""
    x = np.asarray(x, dtype=float)
    last = x >= x.max() / 10**PERSISTENCE_DECADES
    if last.sum() < 2:
        last[-2:] = True
    values = [v for v, keep in zip(per_point_values, last, strict=True) if keep]
    slope, low, high, _ = fit_exponent(x[last], values, rng, n_resamples, scale)
    if not (math.isfinite(low) and math.isfinite(high)):
        return "pre-asymptotic"
    slack = log_slack(x[last], power)
    if hidden is not None:
        slack += log_slack(x[last], hidden[1], np.asarray(hidden[0], dtype=float)[last])
    band = accepted_band(exponent, drawn, sense, slack)
    return "pre-asymptotic" if band.meets(low, high) else "persistent"


def measured_decades(x: np.ndarray) -> float:
    """How many decades of x a rejection's persistence was judged over: the last
    :data:`PERSISTENCE_DECADES`, or all the points span when less (NaN with fewer than two positive x)."""
    x = np.asarray(x, dtype=float)
    if x.size < 2 or not np.all(x > 0):
        return float("nan")
    return float(min(PERSISTENCE_DECADES, math.log10(x.max() / x.min())))


def rejection_text(kind: str, decades: float) -> str:
    """A rejection's kind as the tables and figures say it: ``persistent over 0.6 decades`` when the points
    span less than :data:`PERSISTENCE_DECADES` (no drift could be seen over a longer range), else the kind."""
    if kind == "persistent" and math.isfinite(decades) and decades < PERSISTENCE_DECADES - 1e-9:
        return f"persistent over {decades:.1f} decades"
    return kind
