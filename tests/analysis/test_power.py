"""Power: a check counts as a test only where a learner that does not learn would have failed it
(regretlab.analysis.evidence, regretlab.analysis.exponents)."""

from __future__ import annotations

import math
from dataclasses import replace

import pandas as pd
import pytest

from regretlab.analysis.evidence import counts, headline
from regretlab.analysis.evidence.items import curve_power, point_grade, point_power
from regretlab.analysis.exponents import REJECTED, accepted_band, rate_verdict
from regretlab.registry.claims import CLAIMS_BY_KEY

THEOREM3 = CLAIMS_BY_KEY["theorem3"]  # an explicit upper bound with a reference learner (Exp3.G)
THEOREM17 = CLAIMS_BY_KEY["theorem17"]  # an upper rate
LEMMA2 = CLAIMS_BY_KEY["lemma2"]  # a construction check
THEOREM5 = CLAIMS_BY_KEY["theorem5"]  # a lower bound with an alternative


def _row(bound: float, null: float, reference: float = math.nan, direction: str = "upper") -> dict:
    return {"bound_value": bound, "null_uniform": null, "null_reference": reference, "direction": direction}


def test_an_upper_bound_has_power_only_below_uniform_plays_value():
    assert point_power(THEOREM3, _row(65_000.0, 84_000.0)) == ("", "uniform")
    assert point_power(THEOREM3, _row(65_000.0, 84_000.0, reference=70_000.0)) == ("", "reference")
    # Exactly at or above uniform play's value: uniform play would pass it too.
    assert point_power(THEOREM3, _row(84_000.0, 84_000.0)) == ("powerless", "")
    assert point_power(THEOREM3, _row(90_000.0, 84_000.0, reference=95_000.0)) == ("powerless", "")
    # Exactly at the reference learner's value: it would pass too, so power against uniform play only.
    assert point_power(THEOREM3, _row(65_000.0, 84_000.0, reference=65_000.0)) == ("", "uniform")
    # Below uniform play but above the reference learner: power against uniform play only.
    assert point_power(THEOREM3, _row(65_000.0, 84_000.0, reference=1_000.0)) == ("", "uniform")
    assert point_power(THEOREM3, _row(65_000.0, math.nan)) == ("no null", "")


def test_construction_checks_and_lower_bounds_name_their_own_power():
    assert point_power(LEMMA2, _row(10.0, math.nan)) == ("", "construction")
    assert point_power(THEOREM5, _row(10.0, 1e5, direction="lower")) == ("", "alternative")
    without_alternative = CLAIMS_BY_KEY["theorem3"]
    assert point_power(without_alternative, _row(10.0, 1e5, direction="lower")) == ("no null", "")


def test_the_band_an_upper_rate_accepts_reaches_the_larger_of_exponent_and_drawn_slope():
    band = accepted_band(0.5, 0.41, "upper", 0.1)  # one hidden log over 10³–10⁶ widens it by ≈ 0.1
    assert (band.low, band.high) == (-math.inf, pytest.approx(0.6))
    band = accepted_band(0.5, 0.62, "upper", 0.1)  # drawn logarithms steepen the rate: it predicts 0.62
    assert band.high == pytest.approx(0.72)
    tight = accepted_band(0.5, 0.45, "tight", 0.1)
    assert (tight.low, tight.high) == (pytest.approx(0.35), pytest.approx(0.6))
    lower = accepted_band(1.0, math.nan, "lower", 0.1)
    assert (lower.low, lower.high) == (pytest.approx(0.9), math.inf)


def test_a_slope_steeper_than_an_upper_rate_is_rejected_and_a_shallower_one_is_not():
    assert rate_verdict(0.96, 0.94, 0.97, 0.75, 0.75, "upper", 0.1) == REJECTED
    assert rate_verdict(0.80, 0.78, 0.86, 0.75, 0.75, "upper", 0.1) == "consistent"  # reaches 0.85
    assert rate_verdict(0.80, 0.78, 0.86, 0.75, 0.75, "upper") == REJECTED  # no hidden log: ≤ 0.75
    assert rate_verdict(0.10, 0.05, 0.15, 0.5, 0.5, "upper") == "consistent"
    assert rate_verdict(0.10, 0.05, 0.15, 0.5, 0.5, "tight", 0.1) == REJECTED
    assert rate_verdict(0.30, 0.25, 0.35, 1.0, math.nan, "lower", 0.1) == REJECTED
    assert rate_verdict(math.nan, math.nan, math.nan, 0.5, 0.5, "upper") == ""


def _fit(null_slope: float, **extra) -> dict:
    return {
        "regime": "r", "algorithm": "algorithm6", "metric": "regret_best_S", "instance": "i",
        "bound_name": "theorem17_best_S", "theory_exponent": 0.5, "bound_slope": 0.47,
        "null_slope": null_slope, "log_power": 1.0, "log_slack": 0.1, **extra,
    }  # fmt: skip


def test_a_rate_curve_has_power_where_uniform_plays_slope_is_outside_the_band():
    no_fits = pd.DataFrame(columns=["regime", "algorithm", "metric", "instance", "ci_low", "ci_high"])
    assert curve_power(THEOREM17, _fit(1.0), no_fits) == ("", "uniform")
    # Against L* at a fixed T uniform play's slope is near 0: every upper rate accepts it.
    assert curve_power(THEOREM17, _fit(0.05), no_fits) == ("powerless", "")
    assert curve_power(THEOREM17, _fit(math.nan), no_fits) == ("no null", "")
    # The reference learner's slope interval wholly above the band too: power against it as well.
    reference = pd.DataFrame(
        [{"regime": "r", "algorithm": "exp3g_weak", "metric": "regret_best_S", "instance": "i",
          "ci_low": 0.64, "ci_high": 0.70}]
    )  # fmt: skip
    assert curve_power(THEOREM17, _fit(1.0), reference) == ("", "reference")
    reference.loc[0, "ci_low"] = 0.55
    assert curve_power(THEOREM17, _fit(1.0), reference) == ("", "uniform")


def test_a_lower_rate_with_an_alternative_has_power_against_it_and_an_upper_one_does_not():
    no_fits = pd.DataFrame(columns=["regime", "algorithm", "metric", "instance", "ci_low", "ci_high"])
    lower = replace(THEOREM17, rate_sense="lower", alternative="a learner that does not explore")
    assert curve_power(lower, _fit(math.nan), no_fits) == ("", "alternative")
    # An upper rate naming an alternative, or a lower one naming none, is judged against uniform play.
    upper = replace(THEOREM17, alternative="a learner that does not explore")
    assert curve_power(upper, _fit(math.nan), no_fits) == ("no null", "")
    assert curve_power(replace(THEOREM17, rate_sense="lower"), _fit(math.nan), no_fits) == ("no null", "")


def test_a_reference_fit_without_an_interval_gives_no_power_against_the_reference():
    reference = pd.DataFrame(
        [{"regime": "r", "algorithm": "exp3g_weak", "metric": "regret_best_S", "instance": "i",
          "ci_low": math.nan, "ci_high": math.nan}]
    )  # fmt: skip
    assert curve_power(THEOREM17, _fit(1.0), reference) == ("", "uniform")
    assert curve_power(THEOREM17, _fit(1.0), pd.DataFrame()) == ("", "uniform")


def test_the_headline_counts_only_the_papers_claims_tested_with_power():
    table = pd.DataFrame(
        [
            {"role": "claim", "tested": True, "power": "reference", "outcome": "holds", "check": "rate"},
            {
                "role": "claim",
                "tested": True,
                "power": "uniform",
                "outcome": f"{REJECTED}: 0.9",
                "check": "rate",
            },
            {
                "role": "claim",
                "tested": True,
                "power": "construction",
                "outcome": "holds",
                "check": "construction",
            },
            {
                "role": "claim",
                "tested": True,
                "power": "alternative",
                "outcome": "holds",
                "check": "lower bound",
            },
            {"role": "claim", "tested": False, "power": "", "outcome": "", "check": "explicit bound"},
            {"role": "claim", "tested": False, "power": "", "outcome": "", "check": "proof-internal"},
            # A claim about quantities the runs do not record has no check either (issue 36: the legend
            # counted only the proof-internal ones).
            {"role": "claim", "tested": False, "power": "", "outcome": "", "check": "not recorded"},
            {"role": "reference", "tested": True, "power": "uniform", "outcome": "holds", "check": "rate"},
            # Explicit bounds graded: strong and nominal counted apart; a reference row's grade not at all.
            {"role": "claim", "tested": True, "power": "uniform", "grade": "strong", "outcome": "holds",
             "check": "explicit bound"},
            {"role": "claim", "tested": True, "power": "reference", "grade": "nominal", "outcome": "holds",
             "check": "explicit bound"},
            {"role": "claim", "tested": True, "power": "uniform", "grade": "nominal", "outcome": "holds",
             "check": "explicit bound"},
            {"role": "reference", "tested": True, "power": "uniform", "grade": "strong", "outcome": "holds",
             "check": "explicit bound"},
        ]
    ).fillna({"grade": ""})
    assert counts(table) == {
        "claims": 10, "powered": 5, "rates": 2, "violated": 0, "strong": 1, "nominal": 2,
        "against_reference": 2, "rejected": 1, "persistent": 0, "construction": 1, "alternative": 1,
        "unchecked": 2,
        "references": 2,
    }  # fmt: skip
    sentence = (
        "Of {} claims of the two papers, {} are tested with power against uniform play: 1 explicit bounds "
        "with strong power (a learner half the paper's, half uniform, would fail too), 2 with nominal power "
        "(only uniform play would) and {} rates; 2 of them also against the reference learner; 0 violated "
        "where the theorem's hypotheses hold, {} rejected over the measured range (0 persistent over the "
        "last two decades measured, or all of a shorter range)"
    )
    assert headline(table) == sentence.format(10, 5, 2, 1)
    assert headline(table[~table["outcome"].str.startswith(REJECTED)]) == sentence.format(9, 4, 1, 0)
    violated = table.assign(outcome=table["outcome"].where(table["grade"] != "strong", "violated at 1/2 pts"))
    assert counts(violated)["violated"] == 1 and "; 1 violated where" in headline(violated)


@pytest.mark.parametrize(
    ("bound", "mean", "null", "expected"),
    [
        (40.0, 10.0, 100.0, (0.4, "strong")),  # below (10 + 100) / 2 = 55: a half-uniform learner fails too
        (55.0, 10.0, 100.0, (0.55, "nominal")),  # at the average: the half-uniform learner passes
        (99.0, 10.0, 100.0, (0.99, "nominal")),
        (100.0, 10.0, 100.0, (1.0, "none")),  # uniform play passes (not below its value)
        (40.0, math.nan, 100.0, (0.4, "nominal")),  # no measured mean: only uniform play is known to fail
        (40.0, 10.0, math.nan, (math.nan, "")),  # no null value: not graded
    ],
)
def test_a_points_grade_is_the_half_uniform_learners_verdict(bound, mean, null, expected):
    margin, grade = point_grade({"bound_value": bound, "mean": mean, "null_uniform": null})
    assert grade == expected[1]
    assert (math.isnan(margin) and math.isnan(expected[0])) or margin == pytest.approx(expected[0])
