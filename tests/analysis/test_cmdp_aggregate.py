"""Aggregation of CMDP runs: bounds on running sums evaluated at the checkpoint of a trajectory regime, and
Lemma 5's per-seed event summarised by a Clopper–Pearson interval and tested, not certified."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.analysis.aggregate import fit_exponents, summarise
from regretlab.analysis.bootstrap import proportion_interval
from regretlab.analysis.evidence.items import Item
from regretlab.analysis.evidence.table import _outcome
from regretlab.analysis.verdicts import verdict
from regretlab.cmdp import bounds
from regretlab.registry.theory import BOUNDS

NUMBERS = {"L": 3, "m": 1, "n_states": 6, "n_actions": 2, "delta": 0.1, "stochastic_rewards": True}
INSTANCES = {"i": {"numbers": {**NUMBERS, "lambda_star_l1": 0.4}}}
HORIZON = 4096


def trajectory_runs(covered: list[int]) -> pd.DataFrame:
    """One run per seed of horizon 4096, checkpoints 16..4096; seed k's Lemma 5 event is ``covered[k]``."""
    rows = []
    for seed, event in enumerate(covered):
        for t in (16, 256, HORIZON):
            rows.append(
                {
                    "instance": "i",
                    "algorithm": "pdgd_ops",
                    "constants": "paper",
                    "T": HORIZON,
                    "seed": seed,
                    "t": t,
                    "q_error_l1": 5.0 * t**0.5 + seed,
                    "dual_regret": -0.01 * t,
                    "lambda_l1_max": 0.001 * t,
                    "lambda_l1": 0.001 * t,
                    "all_epochs_covered": float(event),
                    "rho": 2.92,
                    "lambda_star_l1": 0.4,
                    "hypotheses_hold": True,
                }
            )
    return pd.DataFrame(rows)


#: The learners' parameters the aggregate reads from the run metadata (App. C's dual step at T = 4096 and its
#: C = 5|X||A|/L = 20, line 959).
ETA = bounds.dual_learning_rate(bounds.paper_K(1, 6, 2), HORIZON, 0.1)


def params(n_seeds: int) -> dict:
    return {("i", "pdgd_ops", "paper", HORIZON, seed): {"eta": ETA, "C": 20.0} for seed in range(n_seeds)}


TRAJECTORY = {
    "kind": "cmdp",
    "paper": "000",
    "theorem": "Theorem 4",
    "x": "t",
    "bounds": {
        "pdgd_ops": ["lemma2_q_error", "dual_regret_paper", "theorem4_zeta", "lemma5_all_epochs_covered"]
    },
}


def rows_of(summary: pd.DataFrame, bound: str) -> pd.DataFrame:
    return summary[summary["bound_name"] == bound].sort_values("t")


def test_running_sum_bounds_are_evaluated_at_the_checkpoint_and_zeta_at_the_horizon():
    runs = trajectory_runs([1, 1, 1, 1])
    summary = summarise("r", TRAJECTORY, INSTANCES, runs, 200, params(4))
    ts = [16, 256, HORIZON]
    eq = rows_of(summary, "lemma2_q_error")
    assert list(eq["t"]) == ts and (eq["T"] == HORIZON).all()
    expected = [bounds.lemma2_Eq(HORIZON, 0.1, 3, 6, 2, length=t).value for t in ts]
    np.testing.assert_allclose(eq["bound_value"], expected, rtol=1e-12)
    assert expected[0] < expected[1] < expected[2] == bounds.lemma2_Eq(HORIZON, 0.1, 3, 6, 2).value
    dual = rows_of(summary, "dual_regret_paper")
    np.testing.assert_allclose(dual["bound_value"], [ETA * 9 * t / 2 for t in ts], rtol=1e-12)
    zeta = rows_of(summary, "theorem4_zeta")  # a bound on a running maximum: ζ of the horizon, flat
    np.testing.assert_allclose(zeta["bound_value"], 20 * 9 / 2.92**2)
    assert not zeta["hypotheses_hold"].any()  # Condition 2 at T = 4096 fails: judged at the run's horizon
    exponents = fit_exponents("r", TRAJECTORY, runs, summary, 200).set_index("bound_name")
    assert exponents.loc["lemma2_q_error", "bound_slope"] == pytest.approx(0.5, abs=0.01)
    assert exponents.loc["dual_regret_paper", "bound_slope"] == pytest.approx(1.0)
    assert math.isnan(exponents.loc["theorem4_zeta", "bound_slope"])
    assert "flat in t" in exponents.loc["theorem4_zeta", "reason"]


def test_a_sweep_in_T_is_unchanged_by_the_checkpoint_flag():
    # At t = T the point at the checkpoint is the point at the horizon: the flag changes nothing.
    runs = trajectory_runs([1, 1])
    runs = runs[runs["t"] == runs["T"]]
    summary = summarise("r", {**TRAJECTORY, "x": "T"}, INSTANCES, runs, 200, params(2))
    eq = rows_of(summary, "lemma2_q_error")
    assert eq["bound_value"].iloc[0] == pytest.approx(bounds.lemma2_Eq(HORIZON, 0.1, 3, 6, 2).value)


@pytest.mark.parametrize(
    ("covered", "expected"),
    [([1] * 4, "inconclusive"), ([1, 0, 1, 1], "inconclusive"), ([0] * 4, "violated"), ([1] * 40, "holds")],
)
def test_lemma5_is_the_fraction_of_seeds_with_every_epoch_covered_with_a_binomial_test(covered, expected):
    summary = summarise("r", TRAJECTORY, INSTANCES, trajectory_runs(covered), 200, params(len(covered)))
    row = rows_of(summary, "lemma5_all_epochs_covered").iloc[-1]
    assert row["mean"] == pytest.approx(np.mean(covered)) and row["bound_value"] == pytest.approx(0.9)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(proportion_interval(np.array(covered, float)))
    assert row["verdict"] == expected


def test_clopper_pearson_interval_by_hand():
    # All n successes: the lower end solves p^n = 0.025; none: the upper end solves (1 - p)^n = 0.025.
    for n in (4, 8, 35, 40):
        low, high = proportion_interval(np.ones(n))
        assert low == pytest.approx(0.025 ** (1 / n), rel=1e-9) and high == 1.0
        assert proportion_interval(np.zeros(n)) == pytest.approx((0.0, 1 - 0.025 ** (1 / n)), rel=1e-9)
    assert proportion_interval(np.ones(36))[0] >= 0.9 > proportion_interval(np.ones(35))[0]
    with pytest.raises(ValueError, match="0/1"):
        proportion_interval(np.array([0.5, 1.0]))


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 200), st.data())
def test_the_clopper_pearson_ends_are_scipy_stats_binomtests(n, data):
    from scipy.stats import binomtest  # the reference: the interval computes the same ends in closed form

    k = data.draw(st.integers(0, n))
    reference = binomtest(k, n).proportion_ci(0.95, method="exact")
    low, high = proportion_interval(np.r_[np.ones(k), np.zeros(n - k)])
    assert low == pytest.approx(reference.low, abs=1e-11) and high == pytest.approx(reference.high, abs=1e-11)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 60), st.data())
def test_a_binomial_verdict_is_violated_only_if_the_whole_interval_is_below(n, data):
    k = data.draw(st.integers(0, n))
    low, high = proportion_interval(np.r_[np.ones(k), np.zeros(n - k)])
    outcome = verdict("lower", True, 0.9, 0.0, low, high, proportion=True)
    assert outcome == ("holds" if low >= 0.9 else "violated" if high < 0.9 else "inconclusive")
    # The same interval on a mean, the project's conservative rule: anything below the bound is violated.
    assert verdict("lower", True, 0.9, 0.0, low, high) == ("holds" if low >= 0.9 else "violated")


def test_new_cmdp_bounds_are_registered_with_their_metrics():
    assert BOUNDS["lemma5_all_epochs_covered"].metric == "all_epochs_covered"
    assert BOUNDS["theorem4_dual_never_clipped"].metric == "dual_clipped"
    assert BOUNDS["dual_box"].direction == "reference"
    assert {name for name, spec in BOUNDS.items() if spec.at_checkpoint} == {
        "lemma2_q_error",
        "dual_regret_paper",
        "dual_regret_tuned",
        "lemma14_violation",
        "lemma14_dual",
        "lemma16_violation",
    }


def test_the_evidence_outcome_counts_inconclusive_points_apart():

    items = [Item("r", "", {"verdict": v}, outcome=v) for v in ("holds", "holds", "inconclusive")]
    assert _outcome(items) == "holds at 2/3 pts, inconclusive at 1/3"
    items.append(Item("r", "", {"verdict": "violated"}, outcome="violated"))
    assert _outcome(items).startswith("violated at 1/4 pts")


def test_the_ceiling_column_is_the_largest_ceiling_over_the_seeds():
    """App. C's dual moves ‖λ‖₁ by at most ηmL per step inside [0, T^{1/4}]^m: at checkpoint t the ceiling on
    max ‖λ‖₁ is min{mT^{1/4}, ηmLt} (m = 1, L = 3, T^{1/4} = 8), the larger over the seeds (η and 2η here);
    a metric without a ceiling (Σ‖q − q̂‖₁) has +∞."""
    per_seed = {
        ("i", "pdgd_ops", "paper", HORIZON, seed): {"eta": ETA * (1 + seed), "C": 20.0} for seed in range(2)
    }
    summary = summarise("r", TRAJECTORY, INSTANCES, trajectory_runs([1, 1]), 50, per_seed)
    zeta = rows_of(summary, "theorem4_zeta")
    np.testing.assert_allclose(zeta["ceiling"], [min(8.0, 2 * ETA * 3 * t) for t in (16, 256, 4096)], 1e-12)
    assert (rows_of(summary, "lemma2_q_error")["ceiling"] == math.inf).all()
