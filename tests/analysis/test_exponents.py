"""The slope fits and rate verdicts of regretlab.analysis.exponents on hand-made curves: each expected slope,
reason, band and verdict is written out here from the curve's numbers (powers of ten, exact exponents), never
with the module's own formulas."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from regretlab.analysis.exponents import (
    REJECTED,
    Band,
    accepted_band,
    bound_regime,
    bound_slope,
    fit_exponent,
    log_slack,
    loglog_slope,
    loglog_slopes,
    measured_decades,
    rate_verdict,
    rejection_kind,
    rejection_text,
    unfittable_reason,
)

X = np.array([10.0, 100.0, 1000.0])


def test_loglog_slope_of_a_power_law_through_three_decades():
    # y = 4·x^{0.75}: y grows by 10^{0.75} per decade; three points, and two distinct x of four.
    assert loglog_slope(X, 4 * X**0.75) == pytest.approx(0.75, rel=1e-12)
    assert loglog_slope(
        np.array([10.0, 10.0, 100.0, 100.0]), np.array([1.0, 1.0, 10.0, 10.0])
    ) == pytest.approx(1.0, rel=1e-12)
    assert loglog_slope(np.array([0.5, 5.0]), np.array([2.0, 20.0])) == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize(
    ("x", "y"),
    [
        ([10.0, 100.0], [0.0, 5.0]),  # a mean of 0 has no logarithm
        ([10.0, 100.0], [-1.0, 5.0]),
        ([10.0, 100.0], [math.inf, 5.0]),
        ([0.0, 100.0], [1.0, 5.0]),  # nor has x = 0
        ([math.nan, 100.0], [1.0, 5.0]),
        ([100.0, 100.0], [1.0, 5.0]),  # one distinct x: no line
    ],
)
def test_loglog_slope_is_nan_without_positive_finite_values_at_two_distinct_x(x, y):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # declined before any logarithm is taken: no warning either
        assert math.isnan(loglog_slope(np.array(x), np.array(y)))


@pytest.mark.parametrize(
    ("y", "scale", "reason"),
    [
        ([1.0, 2.0, 3.0], math.nan, ""),
        ([1.0, math.nan, 3.0], math.nan, "mean not finite at some point"),
        ([1.0, math.inf, 3.0], math.nan, "mean not finite at some point"),
        ([-1.0, 2.0, 3.0], math.nan, "mean changes sign across points"),
        ([0.0, -2.0, -3.0], math.nan, "mean ≤ 0 at every point"),
        ([0.0, 2.0, 3.0], math.nan, "mean ≤ 0 at some point"),
        # Within 10⁻⁵ of a scale of 10³ (≤ 0.01 in absolute value) the means are ≈ 0, at 0.01 itself too.
        ([0.01, 0.005, -0.01], 1000.0, "≈ 0 at every point (max |mean| = 0.01)"),
        ([0.0101, 0.005, 0.001], 1000.0, ""),
        # No scale (NaN) or a scale that is not positive: no "≈ 0" test.
        ([1e-9, 2e-9, 3e-9], math.nan, ""),
        ([1e-9, 2e-9, 3e-9], 0.0, ""),
        ([1e-9, 2e-9, 3e-9], -1.0, ""),
        ([0.0, 0.0, 0.0], 0.0, "mean ≤ 0 at every point"),
        # A scale below 1 counts too: 10⁻⁵ · 0.5 = 5·10⁻⁶.
        ([1e-7, 2e-7, 3e-7], 0.5, "≈ 0 at every point (max |mean| = 3e-07)"),
        # Means between 0 and 1 are positive like any other.
        ([0.5, 0.25, 0.75], math.nan, ""),
        ([-1.0, 0.5, 0.5], math.nan, "mean changes sign across points"),
    ],
)
def test_why_no_power_law_is_fitted(y, scale, reason):
    assert unfittable_reason(X, np.array(y), scale) == reason


def test_two_distinct_x_are_needed_before_anything_else():
    assert unfittable_reason(np.array([5.0, 5.0, 5.0]), np.array([1.0, math.nan, -1.0])) == (
        "fewer than two distinct x"
    )
    assert unfittable_reason(np.array([5.0, 50.0]), np.array([1.0, 2.0])) == ""


def test_fit_of_seeds_without_spread_is_the_slope_with_a_degenerate_interval():
    # Every seed of a point has the same value, so every bootstrap replicate has the same means: slope 0.5.
    values = [np.full(4, 3.0 * x**0.5) for x in X]
    slope, low, high, reason = fit_exponent(X, values, np.random.default_rng(0), 50)
    assert (slope, low, high) == pytest.approx((0.5, 0.5, 0.5), rel=1e-12)
    assert reason == ""


def test_fit_without_replicates_keeps_the_slope_and_has_no_interval():
    values = [np.array([2.0, 4.0]) * x for x in X]
    slope, low, high, reason = fit_exponent(X, values, np.random.default_rng(0), 0)
    assert slope == pytest.approx(1.0, rel=1e-12) and reason == ""
    assert math.isnan(low) and math.isnan(high)


def test_fit_interval_brackets_the_slope_of_the_means_of_spread_seeds():
    # Means 10, 100, 1000 (slope 1) from seeds spread ±50 %: the interval is not degenerate and contains 1.
    values = [np.array([0.5, 1.5, 0.5, 1.5]) * m for m in (10.0, 100.0, 1000.0)]
    slope, low, high, reason = fit_exponent(X, values, np.random.default_rng(1), 200)
    assert slope == pytest.approx(1.0, rel=1e-12)
    assert low < 1.0 < high and reason == ""


def test_fit_of_an_unfittable_curve_is_nan_with_the_reason():
    values = [np.array([1.0, -1.0]), np.array([2.0, 2.0]), np.array([3.0, 3.0])]
    slope, low, high, reason = fit_exponent(X, values, np.random.default_rng(0), 20)
    assert all(math.isnan(v) for v in (slope, low, high))
    assert reason == "mean ≤ 0 at some point"
    values = [np.array([1e-9, 1e-9]), np.array([2e-9]), np.array([3e-9])]
    assert fit_exponent(X, values, np.random.default_rng(0), 20, scale=1.0)[3] == (
        "≈ 0 at every point (max |mean| = 3e-09)"
    )


@pytest.mark.parametrize(
    ("bound", "slope", "reason"),
    [
        (2.0 * X**0.25, 0.25, ""),
        (np.array([1.0, 0.0, 3.0]), math.nan, "bound not finite and positive at every point"),
        (np.array([1.0, math.inf, 3.0]), math.nan, "bound not finite and positive at every point"),
        (np.array([1.0, -2.0, 3.0]), math.nan, "bound not finite and positive at every point"),
    ],
)
def test_bound_slope_and_why_it_has_none(bound, slope, reason):
    found, why = bound_slope(X, bound)
    assert why == reason
    assert found == pytest.approx(slope, rel=1e-12, nan_ok=True)


def test_bound_slope_needs_two_distinct_x():
    slope, why = bound_slope(np.array([10.0, 10.0]), np.array([1.0, 2.0]))
    assert math.isnan(slope) and why == "fewer than two distinct x"


@pytest.mark.parametrize(
    ("slope", "exponent", "regime"),
    [
        (0.5, 0.5, "asymptotic"),
        (0.1, 0.0, "asymptotic"),  # exactly the tolerance 0.1 away: still asymptotic
        (0.0, 0.1, "asymptotic"),
        (0.125, 0.0, "pre-asymptotic"),
        (0.375, 0.5, "pre-asymptotic"),
        (math.nan, 0.5, "undetermined"),
        (0.5, math.nan, "undetermined"),
        (math.inf, 0.5, "undetermined"),
    ],
)
def test_bound_regime_within_a_tenth_of_the_theorys_exponent(slope, exponent, regime):
    assert bound_regime(slope, exponent) == regime


def test_band_edges_belong_to_the_band():
    band = Band(0.25, 0.75, "0.50")
    assert band.contains(0.25) and band.contains(0.75) and band.contains(0.5)
    assert not band.contains(0.2) and not band.contains(0.8)
    assert band.meets(0.75, 0.9) and band.meets(0.1, 0.25) and band.meets(0.3, 0.4) and band.meets(0.0, 1.0)
    assert not band.meets(0.8, 0.9) and not band.meets(0.0, 0.2)


HIDDEN = "ln^1 hidden: widened by 0.10"


@pytest.mark.parametrize(
    ("exponent", "drawn", "sense", "low", "high", "text", "against"),
    [
        # An upper rate accepts up to the larger of exponent and drawn slope, plus the hidden logs' slack.
        (0.5, 0.75, "upper", -math.inf, 0.85, "≤ 0.85", f"0.50 (drawn 0.75; {HIDDEN})"),
        (0.75, 0.5, "upper", -math.inf, 0.85, "≤ 0.85", f"0.75 (drawn 0.50; {HIDDEN})"),
        # A lower rate from the smaller, minus the slack; a tight one between both.
        (0.5, 0.75, "lower", 0.4, math.inf, "≥ 0.40", f"0.50 (drawn 0.75; {HIDDEN})"),
        (0.5, 0.75, "tight", 0.4, 0.85, "0.40–0.85", f"0.50 (drawn 0.75; {HIDDEN})"),
        # A drawn slope that is NaN is left out; one that rounds to the exponent is not repeated.
        (0.5, math.nan, "tight", 0.4, 0.6, "0.40–0.60", f"0.50 ({HIDDEN})"),
        (0.5, 0.501, "tight", 0.4, 0.601, "0.40–0.60", f"0.50 ({HIDDEN})"),
        (2 / 3, 0.67, "upper", -math.inf, 0.77, "≤ 0.77", f"0.67 ({HIDDEN})"),
    ],
)
def test_accepted_band_by_sense(exponent, drawn, sense, low, high, text, against):
    band = accepted_band(exponent, drawn, sense, 0.1, 1.0)
    assert (band.low, band.high) == pytest.approx((low, high), rel=1e-12)
    assert band.text() == text
    assert band.against == against


def test_a_rate_that_hides_no_log_accepts_no_slope_above_its_own():
    """No fixed tolerance: without hidden logs the band ends at the larger of exponent and drawn slope."""
    band = accepted_band(0.5, 0.41, "upper")
    assert (band.low, band.high) == (-math.inf, 0.5) and band.against == "0.50 (drawn 0.41; no log hidden)"
    assert not band.meets(0.51, 0.6) and band.meets(0.5, 0.6)


@given(
    st.floats(0.0, 1.0),
    st.floats(0.0, 3.0),
    st.lists(st.floats(2.0, 1e9), min_size=2, max_size=8, unique=True),
)
def test_log_slack_is_exactly_what_hidden_logs_add_to_a_fitted_slope(a, k, xs):
    """Least squares is linear: the slope fitted to x^a (ln x)^k over any points is a + log_slack(x, k)."""
    x = np.array(xs)
    assume(np.ptp(np.log(x)) > 1e-3)
    assert loglog_slope(x, x**a * np.log(x) ** k) == pytest.approx(a + log_slack(x, k), abs=1e-9)


def test_log_slack_by_hand():
    # ln ln x against ln x over 10³…10⁶ (four decades' points): ≈ 0.1 per power of the log.
    x = 10.0 ** np.arange(3, 7)
    by_hand = np.polyfit(np.log(x), np.log(np.log(x)), 1)[0]
    assert log_slack(x, 2.0) == pytest.approx(2 * by_hand) and 0.099 < by_hand < 0.102
    assert log_slack(x, 0.0) == 0.0 and log_slack(np.array([0.5, 4.0]), 1.0) == 0.0  # ln 0.5 < 0


@pytest.mark.parametrize(
    ("ci", "sense", "verdict"),
    [
        ((0.8, 0.9), "upper", "consistent"),  # reaches ≤ 0.85
        ((0.86, 0.9), "upper", REJECTED),
        ((0.1, 0.2), "upper", "consistent"),
        ((0.1, 0.2), "lower", REJECTED),  # below ≥ 0.4
        ((0.1, 0.4), "lower", "consistent"),
        ((0.9, 1.0), "tight", REJECTED),
    ],
)
def test_rate_verdict_is_the_interval_against_the_band(ci, sense, verdict):
    low, high = ci
    assert rate_verdict((low + high) / 2, low, high, 0.5, 0.75, sense, 0.1) == verdict


@pytest.mark.parametrize(
    "args",
    [
        (math.nan, 0.1, 0.2, 0.5),
        (0.15, math.nan, 0.2, 0.5),
        (0.15, 0.1, math.inf, 0.5),
        (0.15, 0.1, 0.2, math.nan),
    ],
)
def test_no_rate_verdict_without_a_slope_an_interval_or_an_exponent(args):
    assert rate_verdict(*args, 0.5, "upper") == ""


@given(
    st.lists(st.floats(0.5, 1e6), min_size=2, max_size=8, unique=True),
    st.integers(1, 6),
    st.integers(0, 2**32 - 1),
)
def test_the_vectorised_bootstrap_slopes_are_the_slopes_of_each_row(xs, n_rows, seed):
    """loglog_slopes gives, row by row, what loglog_slope gives (to round-off), NaN exactly where it does:
    rows with a zero or negative value among positive ones."""
    rng = np.random.default_rng(seed)
    x = np.array(xs)
    rows = rng.lognormal(size=(n_rows, x.size))
    rows[rng.random(size=rows.shape) < 0.1] *= -1.0
    expected = np.array([loglog_slope(x, row) for row in rows])
    got = loglog_slopes(x, rows)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    np.testing.assert_allclose(got[~np.isnan(got)], expected[~np.isnan(expected)], rtol=1e-12, atol=1e-12)


def test_no_slope_for_any_row_when_x_has_none():
    rows = np.ones((3, 2))
    assert np.isnan(loglog_slopes(np.array([5.0, 5.0]), rows)).all()
    assert np.isnan(loglog_slopes(np.array([-1.0, 5.0]), rows)).all()


def test_every_rate_declares_the_logs_its_o_tilde_hides():
    """A rate's accepted band widens only by the logs its proof puts there: each rate names, for each variable
    it is fitted in, the power it hides (0 allowed) and where the paper puts it (a named statement)."""
    from regretlab.registry.theory import BOUNDS

    named = re.compile(r"Theorem|Lemma|Corollary|App\.|Appendix|proof|Proof|eq\.|§|Algorithm|line")
    for name, spec in BOUNDS.items():
        if spec.explicit or spec.direction == "reference":
            assert not spec.log_powers, name  # an explicit bound carries its logs in its formula
            continue
        assert set(spec.log_powers) == set(spec.exponents), (name, spec.log_powers, spec.exponents)
        assert all(k >= 0 for k in spec.log_powers.values()), name
        assert named.search(spec.log_note), (name, spec.log_note)


# ---- a rejection's kind: persistent over the last two decades measured, or pre-asymptotic -----------------

#: Four seeds' values at every point: the curve times these factors (a known slope, a narrow interval).
SEED_FACTORS = np.array([0.98, 1.0, 1.01, 1.02])


def _curve(x: list[float], segment_slopes: list[float]) -> tuple[np.ndarray, list[np.ndarray]]:
    """Points x (decades apart or not) and per-seed values of a curve with the given log–log slope between
    consecutive points."""
    x = np.asarray(x, dtype=float)
    log_y = np.concatenate([[0.0], np.cumsum(np.asarray(segment_slopes) * np.diff(np.log10(x)))])
    return x, [10**value * SEED_FACTORS for value in log_y]


def _kind(x, values, **options) -> str:
    """``rejection_kind`` of an upper rate of exponent 1/2 (drawn 1/2) over the points."""
    rng = np.random.default_rng(0)
    return rejection_kind(x, values, rng, 400, float("nan"), 0.5, 0.5, "upper", **options)


def test_a_rejection_is_judged_over_the_last_two_decades_only():
    """Slopes 1, 1, 0.1, 0.8 between 10, 10², …, 10⁵: over all points the fit is steep, over the last two
    decades (10³, 10⁴, 10⁵: (0.1 + 0.8)/2 = 0.45) it reaches the band (≤ 1/2): the rejection drifts toward
    the rate, pre-asymptotic. Without 10³ (the last decade only) the slope would be 0.8."""
    x, values = _curve([1e1, 1e2, 1e3, 1e4, 1e5], [1.0, 1.0, 0.1, 0.8])
    assert _kind(x, values) == "pre-asymptotic"
    x, values = _curve([1e1, 1e2, 1e3, 1e4, 1e5], [1.0, 1.0, 0.9, 0.9])
    assert _kind(x, values) == "persistent"


def test_a_rejection_with_one_point_in_its_last_two_decades_is_judged_on_the_last_two_points():
    """10, 10², 10⁵: only 10⁵ lies in the last two decades; the fit takes the last two points (slope 0.9 from
    10² to 10⁵, persistent; 0.4 there after a slope 2 from 10 to 10², pre-asymptotic, where all three points
    would give 0.71)."""
    x, values = _curve([1e1, 1e2, 1e5], [0.0, 0.9])
    assert _kind(x, values) == "persistent"
    x, values = _curve([1e1, 1e2, 1e5], [2.0, 0.4])
    assert _kind(x, values) == "pre-asymptotic"


def test_the_logs_a_rate_hides_widen_the_band_a_rejection_is_judged_against():
    """Slope 0.55 over 10³–10⁵ against exponent 1/2: persistent with no log hidden (the default), within
    ln x's slack (≈ 1/ln 10⁴ = 0.11 per power) with one power hidden. Slope 0.68 needs two: one of x and one
    of a hidden h = x, which add."""
    x, values = _curve([1e3, 1e4, 1e5], [0.55, 0.55])
    assert _kind(x, values) == "persistent"
    assert _kind(x, values, power=1.0) == "pre-asymptotic"
    x, values = _curve([1e3, 1e4, 1e5], [0.68, 0.68])
    assert _kind(x, values, power=1.0) == "persistent"
    assert _kind(x, values, power=1.0, hidden=(x, 1.0)) == "pre-asymptotic"


def test_a_curve_that_cannot_be_fitted_is_not_called_persistent():
    x = np.array([1e3, 1e4, 1e5])
    assert _kind(x, [np.array([1.0]), np.array([0.0]), np.array([2.0])]) == "pre-asymptotic"


def test_measured_decades_are_the_last_two_or_the_whole_span_if_shorter():
    assert measured_decades(np.array([10.0, 1e5])) == 2.0
    assert measured_decades(np.array([100.0, 400.0])) == pytest.approx(math.log10(4.0), rel=1e-12)
    assert measured_decades(np.array([0.5, 5.0])) == pytest.approx(1.0, rel=1e-12)
    for x in ([5.0], [0.0, 10.0], [-1.0, 10.0]):
        assert math.isnan(measured_decades(np.array(x)))


def test_a_persistent_rejection_over_less_than_two_decades_says_over_how_many():
    assert rejection_text("persistent", 0.6) == "persistent over 0.6 decades"
    assert rejection_text("persistent", 1.5) == "persistent over 1.5 decades"
    assert rejection_text("persistent", 2.0) == "persistent"
    assert rejection_text("persistent", 2.0 - 1e-10) == "persistent"  # two decades up to rounding
    assert rejection_text("persistent", float("nan")) == "persistent"
    assert rejection_text("pre-asymptotic", 0.6) == "pre-asymptotic"


def test_a_rejection_s_window_is_the_last_two_decades_in_base_ten():
    """10⁴ / 10² = 100: a point at x = 90 lies outside the last two decades (it would lie inside 10⁴ / 11²):
    flat up to 10³ and 0.9 after, the window sees 0.9 alone, persistent."""
    x, values = _curve([90.0, 1e3, 1e4], [0.0, 0.9])
    assert _kind(x, values) == "persistent"


def test_a_rejection_judges_zero_against_the_curve_s_scale():
    """The curve's scale decides "≈ 0": a steep curve whose values are ≈ 0 on the scale of its metric gets no
    slope there, so it is not called persistent."""
    x, values = _curve([1e3, 1e4, 1e5], [0.9, 0.9])
    rng = np.random.default_rng(0)
    assert rejection_kind(x, values, rng, 400, 1e8, 0.5, 0.5, "upper") == "pre-asymptotic"
    assert rejection_kind(x, values, rng, 400, 1.0, 0.5, 0.5, "upper") == "persistent"


def test_a_hidden_log_is_of_its_own_variable_not_of_x():
    """Slope 0.55 against 1/2: a hidden ln h of rounds h that do not change along the points widens nothing
    (persistent), where a ln x would (pre-asymptotic)."""
    x, values = _curve([1e3, 1e4, 1e5], [0.55, 0.55])
    assert _kind(x, values, hidden=(np.full(3, 1e6), 1.0)) == "persistent"
    assert _kind(x, values, hidden=(x, 1.0)) == "pre-asymptotic"


def test_log_slack_is_zero_where_the_points_give_no_slope():
    assert log_slack(np.array([10.0, 10.0]), 1.0) == 0.0
    assert log_slack(np.array([10.0, 100.0]), 1.0, np.array([50.0, 50.0])) == 0.0
