"""Items of the evidence table from hand-made rows (regretlab.analysis.evidence.items): a blocked item has no
outcome and no power, an item at uncovered constants keeps both, a mechanism applies to the metrics it names
only, and a curve's rows are its own."""

from __future__ import annotations

import math

import pandas as pd

from regretlab.analysis.evidence.items import curve_items, curve_rows, mechanism_state, point_items
from regretlab.registry.claims import Claim, Mechanism

INSTANCES = {("r", "i"): {"numbers": {}}}
#: A registered bound (a curve's power looks up its reference learner there).
BOUND = "theorem6_violation_rate"
#: A mechanism on the metric ``m`` only: ``x_mean ≥ 1``.
ON_M = Mechanism("x ≥ 1", ("x_mean",), lambda point: point["x_mean"], 1.0, metrics=("m",))
CLAIM = Claim("k", "001", "K", "text", "line 1", "explicit bound", (BOUND,), mechanism=ON_M)
RATE = Claim("k", "001", "K", "text", "line 1", "rate", (BOUND,), mechanism=ON_M)


def point(**extra) -> dict:
    """An aggregate row of an upper bound that passes every check, with power against uniform play."""
    return {
        "regime": "r", "instance": "i", "algorithm": "a", "constants": "paper", "metric": "m",
        "bound_name": BOUND, "direction": "upper", "hypotheses_hold": True, "verdict": "holds",
        "identical_to": "", "bound_value": 5.0, "null_uniform": 9.0, "null_reference": 4.0, "x_mean": 2.0,
        **extra,
    }  # fmt: skip


def fit(**extra) -> dict:
    """An exponent fit of a rate whose slope is in its band, uniform play's outside it."""
    return {
        "regime": "r", "instance": "i", "algorithm": "a", "constants": "paper", "metric": "m",
        "bound_name": BOUND, "x": "T", "exponent": 0.5, "ci_low": 0.45, "ci_high": 0.55,
        "theory_exponent": 0.5, "bound_slope": 0.5, "bound_regime": "asymptotic", "hypotheses_hold": True,
        "identical_to": "", "null_slope": 1.0, **extra,
    }  # fmt: skip


def test_a_blocked_point_has_no_outcome_and_no_power_and_a_preset_point_keeps_both():
    rows = [point(), point(hypotheses_hold=False), point(constants="tuned")]
    items = point_items(CLAIM, pd.DataFrame(rows), INSTANCES)
    assert [(item.block, item.outcome, item.power) for item in items] == [
        ("", "holds", "uniform"),
        ("hypotheses", "", ""),
        ("preset", "holds", "uniform"),
    ]


def test_a_mechanism_blocks_only_the_points_of_the_metrics_it_names():
    rows = [point(x_mean=0.5), point(x_mean=0.5, metric="other")]
    blocks = [item.block for item in point_items(CLAIM, pd.DataFrame(rows), INSTANCES)]
    assert blocks == ["mechanism", ""]
    assert mechanism_state(CLAIM, "m", {"x_mean": 0.5}) == ("mechanism", 0.5)
    assert mechanism_state(CLAIM, "other", {"x_mean": 0.5})[0] == ""


def test_curve_blocks_in_order_and_a_blocked_curve_has_no_outcome_and_no_power():
    fits = pd.DataFrame(
        [
            fit(),
            fit(identical_to="b/paper"),
            fit(ci_low=math.nan),
            fit(constants="tuned"),
        ]
    )
    summary = pd.DataFrame([point(), point(constants="tuned")])
    items = curve_items(RATE, fits, summary, INSTANCES, fits.iloc[:0])
    assert [(item.block, item.power) for item in items] == [
        ("", "uniform"),
        ("identical", ""),
        ("no slope", ""),
        ("preset", "uniform"),
    ]
    assert items[0].outcome.startswith("consistent: 0.50") and items[3].outcome == items[0].outcome
    assert items[1].outcome == items[2].outcome == ""
    assert [item.mechanism_value for item in items] == [2.0, 2.0, 2.0, 2.0]


def test_a_curve_blocked_by_its_mechanism_on_its_metric():
    summary = pd.DataFrame([point(x_mean=0.5)])
    items = curve_items(RATE, pd.DataFrame([fit()]), summary, INSTANCES, summary.iloc[:0])
    assert [(item.block, item.mechanism_value) for item in items] == [("mechanism", 0.5)]


def test_a_curves_rows_are_those_of_its_regime_algorithm_constants_and_bound():
    summary = pd.DataFrame(
        [
            point(),
            point(bound_name="other"),
            point(constants="tuned"),
            point(algorithm="z"),
            point(instance="j"),
        ]
    )
    assert len(curve_rows(fit(), summary)) == 1
    assert len(curve_rows(fit(instance="all"), summary)) == 2
