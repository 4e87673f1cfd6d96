"""Bootstrap intervals, exponent fits, the aggregate table and the exponent table on synthetic runs."""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regretlab.analysis.aggregate import (
    aggregate_regime,
    drawn_metrics,
    fit_exponents,
    instance_label,
    learner_params,
    runs_hash,
    summarise,
    with_references,
)
from regretlab.analysis.bootstrap import mean_interval
from regretlab.analysis.exponents import REJECTED, fit_exponent, loglog_slope
from regretlab.analysis.tables import EXPONENT_COLUMNS, exponent_table, records, to_markdown
from regretlab.core.io import config_hash, read_parquet_metadata, write_parquet
from regretlab.graphs.families import figure1_graph
from regretlab.registry.theory import BOUNDS


@given(slope=st.floats(-2, 2), scale=st.floats(0.1, 100))
def test_slope_of_an_exact_power_law(slope, scale):
    x = np.array([10.0, 100.0, 1000.0, 1e4])
    assert loglog_slope(x, scale * x**slope) == pytest.approx(slope, abs=1e-9)


def test_slope_needs_positive_values_at_two_distinct_points():
    assert np.isnan(loglog_slope([1, 10, 100], [-1.0, 10.0, 100.0]))
    assert np.isnan(loglog_slope([1, 10], [0.0, 5.0]))
    assert np.isnan(loglog_slope([10, 10], [1.0, 5.0]))


def test_mean_interval_brackets_the_mean_and_is_degenerate_for_one_seed():
    rng = np.random.default_rng(0)
    values = rng.normal(10, 1, size=30)
    low, high = mean_interval(values, rng, 2000)
    assert low < values.mean() < high
    assert high - low == pytest.approx(2 * 1.96 / np.sqrt(30), rel=0.3)
    assert mean_interval(np.array([3.0]), rng, 100) == (3.0, 3.0)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 1000))
def test_exponent_interval_covers_the_slope_of_noisy_power_laws(seed):
    rng = np.random.default_rng(seed)
    x = np.array([1e3, 1e4, 1e5])
    per_point = [xi**0.5 * rng.lognormal(0, 0.05, size=20) for xi in x]
    slope, low, high, reason = fit_exponent(x, per_point, rng, 500)
    assert low <= slope <= high and reason == ""
    assert abs(slope - 0.5) < 0.05


def synthetic_runs() -> pd.DataFrame:
    rng = np.random.default_rng(1)
    rows = []
    for horizon in (100, 1000, 10000):
        for seed in range(4):
            for t in (1, horizon // 2, horizon):
                rows.append(
                    {
                        "regime": "r",
                        "instance": "i",
                        "algorithm": "exp3g",
                        "constants": "paper",
                        "T": horizon,
                        "seed": seed,
                        "t": t,
                        "pseudo_regret": 3 * t**0.5 * rng.uniform(0.9, 1.1),
                        "realized_regret": 3 * t**0.5,
                        "L_star": 0.3 * t,
                        "best_arm": 0,
                        "hypotheses_hold": horizon >= 1000,
                    }
                )
    return pd.DataFrame(rows)


REGIME = {"kind": "bandit", "paper": "001", "theorem": "§3.1", "x": "T", "bounds": {"exp3g": ["exp3g_rate"]}}
INSTANCES = {"i": {"numbers": {"K": 4, "alpha": 2, "kappa": 2}}}


def test_summary_has_one_row_per_point_with_bounds_and_hypotheses():
    summary = summarise("r", REGIME, INSTANCES, synthetic_runs(), 300)
    assert list(summary["T"]) == [100, 1000, 10000]
    # Only the null columns are NaN here: these instances have no loss model, and exp3g_rate no reference.
    assert not summary.drop(columns=["null_uniform", "null_reference"]).isna().any().any()
    assert summary["null_uniform"].isna().all() and summary["null_reference"].isna().all()
    assert (summary["n_seeds"] == 4).all()
    assert list(summary["hypotheses_hold"]) == [False, True, True]
    expected = [BOUNDS["exp3g_rate"].evaluate({"T": t, "alpha": 2, "K": 4}) for t in (100, 1000, 10000)]
    np.testing.assert_allclose(summary["bound_value"], expected)
    assert (summary["ci_low"] <= summary["mean"]).all() and (summary["mean"] <= summary["ci_high"]).all()
    assert (summary["metric"] == "pseudo_regret").all()
    assert (summary["verdict"] == "rate only").all() and (summary["direction"] == "upper").all()
    np.testing.assert_array_equal(summary["trivial_bound"], summary["T"])  # regret ≤ T
    np.testing.assert_array_equal(summary["mean"], summary["pseudo_regret_mean"])
    assert summary["instance_label"].iloc[0] == "K=4, α=2, κ=2"
    names = summary[["regime", "paper", "theorem", "x_name"]].drop_duplicates()
    assert names.values.tolist() == [["r", "001", "§3.1", "T"]]


def test_exponent_fit_and_table():
    runs = synthetic_runs()
    summary = summarise("r", REGIME, INSTANCES, runs, 300)
    exponents = fit_exponents("r", REGIME, runs, summary, 300)
    assert len(exponents) == 1
    row = exponents.iloc[0]
    assert row["exponent"] == pytest.approx(0.5, abs=0.05)
    assert row["ci_low"] <= row["exponent"] <= row["ci_high"]
    # The hypotheses fail at T = 100 and hold at the two larger horizons: the fit uses those two only.
    assert row["theory_exponent"] == 0.5 and row["hypotheses_hold"]
    assert row["fitted_on"] == "hypotheses hold" and row["n_points"] == 2
    # √(αT ln K) is an exact power law in T: its local slope is the asymptotic one.
    assert row["bound_slope"] == pytest.approx(0.5) and row["bound_regime"] == "asymptotic"
    assert row["reason"] == ""
    table = exponent_table([exponents])
    assert list(table.columns) == EXPONENT_COLUMNS
    markdown = to_markdown(table)
    assert markdown.splitlines()[0].startswith("| regime | algorithm | x | exponent")
    assert len(markdown.splitlines()) == 3


def test_fit_uses_all_points_unless_two_hold():
    """With the hypotheses holding at one point only (or at every point), every point is fitted."""
    for holds in (lambda horizon: horizon >= 10000, lambda horizon: True):
        runs = synthetic_runs()
        runs["hypotheses_hold"] = runs["T"].map(holds)
        row = fit_exponents("r", REGIME, runs, summarise("r", REGIME, INSTANCES, runs, 300), 300).iloc[0]
        assert row["fitted_on"] == "all points" and row["n_points"] == 3
        assert row["hypotheses_hold"] == bool(runs["hypotheses_hold"].all())


def test_summary_is_deterministic():
    a = summarise("r", REGIME, INSTANCES, synthetic_runs(), 300)
    b = summarise("r", REGIME, INSTANCES, synthetic_runs(), 300)
    assert a.equals(b)


def test_sweep_in_L_star_fits_one_curve_across_instances():
    rng = np.random.default_rng(2)
    rows = []
    for instance, best_mean in (("a", 0.05), ("b", 0.2), ("c", 0.8)):
        for seed in range(5):
            l_star = 1000 * best_mean * rng.uniform(0.95, 1.05)
            rows.append(
                {
                    "regime": "r",
                    "instance": instance,
                    "algorithm": "exp3g",
                    "constants": "paper",
                    "T": 1000,
                    "seed": seed,
                    "t": 1000,
                    "pseudo_regret": 2 * l_star**0.5,
                    "realized_regret": 2 * l_star**0.5,
                    "L_star": l_star,
                    "best_arm": 0,
                    "hypotheses_hold": True,
                }
            )
    runs = pd.DataFrame(rows)
    regime = {**REGIME, "x": "L_star"}
    instances = {name: INSTANCES["i"] for name in "abc"}
    summary = summarise("r", regime, instances, runs, 300)
    np.testing.assert_allclose(summary["x"], summary["L_star_mean"])
    exponents = fit_exponents("r", regime, runs, summary, 300)
    assert len(exponents) == 1 and exponents["instance"].iloc[0] == "all"
    assert exponents["exponent"].iloc[0] == pytest.approx(0.5, abs=0.02)
    assert exponents["theory_exponent"].iloc[0] == 0.0  # Exp3.G's bound does not depend on L*


def test_the_summary_stores_uniform_plays_expected_regret_not_the_learners():
    """On the Figure-1 graph (K = 7) with Bernoulli means 0.3 and six times 0.65, uniform play loses
    (0.3 + 6·0.65)/7 = 0.6 per round; the runs measured L* = 0.3·T, so uniform play's pseudo-regret at T is
    0.3·T (the learner's own, ≈ 3√T, is what the ``mean`` column holds: 97 and 316 at T = 10³, 10⁴)."""
    means = [0.3] + [0.65] * 6
    instance = {
        "graph": figure1_graph().to_dict(),
        "losses": {"kind": "bernoulli", "means": means},
        "numbers": {"K": 7, "alpha": 2, "kappa": 2},
    }
    summary = summarise("r", REGIME, {"i": instance}, synthetic_runs(), 50)
    final = summary[summary["t"] == summary["T"]]
    np.testing.assert_allclose(final["null_uniform"], [30.0, 300.0, 3000.0], rtol=1e-12)
    # Its slope over the curve's points (those where the hypotheses hold): 1, linear regret.
    fit = fit_exponents("r", REGIME, synthetic_runs(), summary, 50).iloc[0]
    assert fit["null_slope"] == pytest.approx(1.0, rel=1e-12)


def test_null_reference_is_the_reference_learners_mean_at_the_same_point():
    """Theorem 3's rate names Exp3.G as its reference learner: at T = 100 the row gets Exp3.G's measured mean
    there (55); at T = 1000, where Exp3.G did not run, NaN; so do a bound naming no reference and a
    baseline."""
    rows = [
        ("algorithm1", "theorem3_rate", 100, 40.0),
        ("algorithm1", "theorem3_rate", 1000, 90.0),
        ("exp3g", "exp3g_rate", 100, 55.0),
        ("uniform", "", 100, 70.0),
    ]
    summary = pd.DataFrame(
        [
            {"algorithm": algorithm, "bound_name": bound, "metric": "pseudo_regret", "instance": "i", "T": T,
             "t": T, "pseudo_regret_mean": mean}
            for algorithm, bound, T, mean in rows
        ]
    )  # fmt: skip
    np.testing.assert_array_equal(with_references(summary)["null_reference"], [55.0, np.nan, np.nan, np.nan])
    assert list(with_references(summary.iloc[:0]).columns)[-1] == "null_reference"


def test_a_baseline_without_a_bound_gets_the_drawn_metric_with_no_bound():
    """A learner drawn without a bound (``bounds: {uniform: []}``) gets one row per point of the metric the
    regime's bounds draw: no bound, verdict ``no bound``, its trivial bound T; with no bound in the regime
    at all, the kind's first metric (the pseudo-regret)."""
    runs = synthetic_runs()
    runs = pd.concat([runs, runs.assign(algorithm="uniform")], ignore_index=True)
    regime = {**REGIME, "bounds": {"exp3g": ["exp3g_rate"], "uniform": []}}
    summary = summarise("r", regime, INSTANCES, runs, 50)
    baseline = summary[summary["algorithm"] == "uniform"]
    assert list(baseline["T"]) == [100, 1000, 10000] and (baseline["metric"] == "pseudo_regret").all()
    assert (baseline["verdict"] == "no bound").all() and (baseline["bound_name"] == "").all()
    assert (baseline["direction"] == "none").all() and baseline["bound_value"].isna().all()
    assert (baseline["bound_label"] == "").all() and not baseline["bound_explicit"].any()
    # Every other column of a baseline row is filled in, as in a bounded row (the learner's interval too).
    unfilled = ["bound_value", "null_uniform", "null_reference", "ceiling"]
    assert baseline.drop(columns=unfilled).notna().all().all()
    assert (baseline["ci_low"] < baseline["mean"]).all() and (baseline["mean"] < baseline["ci_high"]).all()
    np.testing.assert_array_equal(baseline["trivial_bound"], [100, 1000, 10000])
    np.testing.assert_array_equal(baseline["mean"], summary[summary["algorithm"] == "exp3g"]["mean"])
    alone = summarise(
        "r",
        {**REGIME, "bounds": {"uniform": []}},
        INSTANCES,
        synthetic_runs().assign(algorithm="uniform"),
        50,
    )
    assert (alone["metric"] == "pseudo_regret").all() and len(alone) == 3


def test_learner_params_are_read_per_run_from_the_run_tables_metadata(tmp_path):
    """A bandit run table lists its learners' constants per seed, a CMDP one its runs' records; a table with
    neither contributes nothing."""
    runs = synthetic_runs()
    batches = {
        "bandit": (runs[runs["T"] == 100], {"learners": [{"seed": 0, "params": {"eta": 0.5}},
                                                         {"seed": 3, "params": {"eta": 0.25}}]}),
        "cmdp": (runs[runs["T"] == 1000].assign(algorithm="pdgd_ops"), {"runs": [{"seed": 1, "eta": 0.01}]}),
        "none": (runs[runs["T"] == 10000], {}),
    }  # fmt: skip
    for name, (frame, metadata) in batches.items():
        write_parquet(tmp_path / f"{name}.parquet", frame, metadata)
    params = learner_params(sorted(str(path) for path in tmp_path.glob("*.parquet")))
    assert params == {
        ("i", "exp3g", "paper", 100, 0): {"eta": 0.5},
        ("i", "exp3g", "paper", 100, 3): {"eta": 0.25},
        ("i", "pdgd_ops", "paper", 1000, 1): {"seed": 1, "eta": 0.01},
    }


def test_aggregate_regime_writes_the_summary_and_the_fits_with_their_provenance(tmp_path):
    """From run tables on disk: the summary and the fits, with the regime's provenance, and the bounds read
    each run's learner constants from its table's metadata (η = 1/2 here): Theorem 4's rate (κ ln T + ln K)/η
    + ηL* + β² ln T at κ = 2, K = 4, β = κ + s̄ = 3, L* = 0.3·T."""
    runs = synthetic_runs()
    for horizon, frame in runs.groupby("T"):
        (tmp_path / "runs" / str(horizon)).mkdir(parents=True)
        learners = [{"seed": seed, "params": {"eta": 0.5}} for seed in range(4)]
        write_parquet(tmp_path / "runs" / str(horizon) / "batch.parquet", frame, {"learners": learners})
    instance = tmp_path / "i.json"
    instance.write_text(json.dumps({"numbers": {**INSTANCES["i"]["numbers"], "s_bar": 1}}))
    regime = {**REGIME, "bounds": {"exp3g": ["exp3g_rate", "algorithm1_rate"]}}
    summary_path, exponents_path = tmp_path / "summary.parquet", tmp_path / "exponents.parquet"
    run_dirs = [str(tmp_path / "runs" / str(horizon)) for horizon in (100, 1000, 10000)]
    aggregate_regime("r", regime, [str(instance)], run_dirs, 50, str(summary_path), str(exponents_path))
    summary = pd.read_parquet(summary_path)
    assert list(summary["T"]) == [100, 100, 1000, 1000, 10000, 10000] and (summary["instance"] == "i").all()
    assert summary["instance_label"].iloc[0] == "K=4, α=2, κ=2"
    theorem4 = summary[summary["bound_name"] == "algorithm1_rate"].set_index("T")["bound_value"]
    log_t = math.log(100)
    assert theorem4[100] == pytest.approx((2 * log_t + math.log(4)) / 0.5 + 0.5 * 30 + 9 * log_t, rel=1e-12)
    exponents = pd.read_parquet(exponents_path)
    assert len(exponents) == 2 and exponents["exponent"].iloc[0] == pytest.approx(0.5, abs=0.05)
    for path in (summary_path, exponents_path):
        assert read_parquet_metadata(path) == {
            "regime": "r",
            "config_hash": config_hash(regime),
            "n_resamples": 50,
        }


def test_the_bootstrap_intervals_are_those_of_the_regimes_own_streams():
    """The intervals come from generators seeded by the regime's name alone (regretlab.core.seeding): the same
    numbers on every machine and run — these, for the synthetic runs (a change of stream changes them)."""
    runs = synthetic_runs()
    summary = summarise("r", REGIME, INSTANCES, runs, 300)
    np.testing.assert_allclose(
        summary["ci_low"], [28.28370793069722, 92.0821211052854, 304.941498332548], 1e-9
    )
    np.testing.assert_allclose(
        summary["ci_high"], [30.263211002677018, 101.80417116054161, 326.6166935402111], 1e-9
    )
    fit = fit_exponents("r", REGIME, runs, summary, 300).iloc[0]
    assert (fit["ci_low"], fit["ci_high"]) == pytest.approx(
        (0.4857253667950885, 0.5385435839548521), rel=1e-9
    )


def test_a_trajectory_is_fitted_per_instance_in_t_and_its_horizons_bound_is_flat():
    runs = synthetic_runs()
    regime = {**REGIME, "x": "t"}
    fit = fit_exponents("r", regime, runs, summarise("r", regime, INSTANCES, runs, 50), 50).iloc[0]
    assert (fit["instance"], fit["n_points"], fit["x"]) == ("i", 3, "t")  # t = 1, 5 000, 10 000 of T = 10⁴
    assert math.isnan(fit["bound_slope"]) and fit["reason"] == "bound taken at the run's horizon T: flat in t"
    assert fit["exponent"] == pytest.approx(0.5, abs=0.01)  # realized regret 3√t, pseudo-regret ≈ 3√t


def test_means_negligible_beside_the_trivial_bound_get_no_slope():
    """Pseudo-regrets of 10⁻⁶·t: within 10⁻⁵ of the trivial bound T at every point, so ≈ 0 (no rate), though
    far above 10⁻⁵ of the drawn bound √(αT ln K) ≈ 170 at T = 10⁴."""
    runs = synthetic_runs().assign(pseudo_regret=lambda r: 1e-6 * r["t"])
    fit = fit_exponents("r", REGIME, runs, summarise("r", REGIME, INSTANCES, runs, 50), 50).iloc[0]
    assert math.isnan(fit["exponent"]) and fit["reason"].startswith("≈ 0 at every point")
    # Along a trajectory both reasons are given, and the bound has no exponent in t.
    regime = {**REGIME, "x": "t"}
    fit = fit_exponents("r", regime, runs, summarise("r", regime, INSTANCES, runs, 50), 50).iloc[0]
    assert fit["reason"] == (
        "≈ 0 at every point (max |mean| = 0.01); bound taken at the run's horizon T: flat in t"
    )
    assert math.isnan(fit["theory_exponent"])


def test_each_fit_says_its_rate_verdict_theory_exponent_and_twin():
    """Per curve: a rate (√(αT ln K), exponent 1/2) gets a verdict on the side its bound allows — the
    upper rate ``consistent`` with the fitted ≈ 0.5; the same curve drawn against Theorem 5's lower rate
    T^{1−ε} (exponent 1, drawn as T) rejected —, an explicit bound none; a second family with bit-identical
    runs names its twin."""
    runs = synthetic_runs()
    runs = pd.concat([runs, runs.assign(constants="tuned")], ignore_index=True)
    regime = {**REGIME, "bounds": {"exp3g": ["exp3g_rate", "theorem2_bound"]}}
    params = {
        ("i", "exp3g", constants, T, seed): {"eta": 0.1, "c": 1.0}
        for constants in ("paper", "tuned")
        for T in (100, 1000, 10000)
        for seed in range(4)
    }
    summary = summarise("r", regime, INSTANCES, runs, 50, params)
    rate = summary[summary["bound_name"] == "exp3g_rate"]
    lower = rate.assign(bound_name="theorem5_lower", bound_value=rate["T"].astype(float))
    # The same curve against a lower rate of exponent 0 drawn flat (a slope ≥ −0.1 is accepted) and an
    # upper one of exponent 3/4 drawn as T^{3/4} (≤ 0.85 accepted): both consistent, on their own side.
    flat = rate.assign(bound_name="theorem7_reward_ratio", bound_value=1.0)
    steep = rate.assign(bound_name="theorem6_violation_rate", bound_value=rate["T"].astype(float) ** 0.75)
    summary = pd.concat([summary, lower, flat, steep], ignore_index=True)
    fits = fit_exponents("r", regime, runs, summary, 50).set_index(["constants", "bound_name"])
    paper = fits.loc["paper"]
    assert paper.loc["exp3g_rate", ["rate_verdict", "theory_exponent", "bound_explicit"]].tolist() == [
        "consistent", 0.5, False
    ]  # fmt: skip
    assert paper.loc["theorem5_lower", ["rate_verdict", "theory_exponent"]].tolist() == [REJECTED, 1.0]
    assert paper.loc["theorem7_reward_ratio", "rate_verdict"] == "consistent"
    assert paper.loc["theorem6_violation_rate", "rate_verdict"] == "consistent"
    assert paper.loc["theorem2_bound", ["rate_verdict", "bound_explicit"]].tolist() == ["", True]
    assert (paper["identical_to"] == "").all() and (paper["instance"] == "i").all()
    assert (fits.loc["tuned", "identical_to"] == "exp3g/paper").all()


def test_instance_labels_show_integers_whole_and_floats_to_three_digits():
    label = instance_label({"K": 1234, "rho": 1 / 3, "m": 2, "L": 3, "other": 7})
    assert label == "K=1234, L=3, m=2, ρ=0.333"


def test_the_summary_does_not_depend_on_the_order_of_the_run_rows():
    runs = synthetic_runs()
    shuffled = runs.sample(frac=1.0, random_state=0)
    pd.testing.assert_frame_equal(
        summarise("r", REGIME, INSTANCES, shuffled, 50), summarise("r", REGIME, INSTANCES, runs, 50)
    )


def test_runs_hash_tells_bit_identical_runs_apart_from_different_ones():
    group = synthetic_runs().query("T == 100 and t == 100")
    metrics = ("pseudo_regret", "L_star")
    same = runs_hash(group.sample(frac=1.0, random_state=1), metrics)  # seed order does not matter
    assert same == runs_hash(group, metrics) and len(same) == 16
    assert runs_hash(group.assign(pseudo_regret=group["pseudo_regret"] + 1e-12), metrics) != same
    assert runs_hash(group, ("pseudo_regret",)) != same


def test_drawn_metrics_read_bounds_listed_per_preset():
    per_preset = {"paper": ["theorem17_best_S"], "tuned": ["theorem17_best_Sbar"]}
    regime = {"kind": "bandit", "bounds": {"algorithm6": per_preset, "uniform": []}}
    assert drawn_metrics(regime) == ["regret_best_S", "regret_best_Sbar"]
    assert drawn_metrics({"kind": "bandit", "bounds": {"uniform": []}}) == ["pseudo_regret"]


def _curve(means, nulls, direction="upper"):
    x = [1e3, 1e4, 1e5, 1e6][: len(means)]
    return pd.DataFrame({"x": x, "mean": means, "null_uniform": nulls, "direction": direction})


def test_the_learning_onset_is_where_regret_stays_below_half_of_uniform_plays():
    from regretlab.analysis.aggregate import learning_onset

    nulls = [100.0, 1000.0, 1e4, 1e5]
    assert learning_onset(_curve([90.0, 400.0, 600.0, 900.0], nulls)) == 1e4  # 90 ≥ 50, then below half
    assert learning_onset(_curve([90.0, 400.0, 6000.0, 900.0], nulls)) == 1e6  # must stay below from there
    assert learning_onset(_curve([10.0, 40.0, 60.0, 90.0], nulls)) == 1e3
    assert learning_onset(_curve([10.0, 40.0, 60.0, 6e4], nulls)) == math.inf  # not learning at the end
    assert math.isnan(learning_onset(_curve([90.0, 400.0, 600.0, 900.0], [100.0, math.nan, 1e4, 1e5])))
    # A metric the learner raises (a reward ratio under a lower bound): no onset, every point fitted.
    assert math.isnan(learning_onset(_curve([0.9, 0.9, 0.9, 0.9], [0.5] * 4, direction="lower")))
    # Uniform play's value must be positive at every point (0 is not); any positive value will do (0.5 is).
    assert math.isnan(learning_onset(_curve([0.0, 40.0, 60.0, 90.0], [0.0, 1000.0, 1e4, 1e5])))
    assert learning_onset(_curve([0.1, 40.0, 60.0, 90.0], [0.5, 1000.0, 1e4, 1e5])) == 1e3


def test_a_hand_set_step_is_in_every_row_of_its_algorithm_as_sorted_json():
    step = {"eta": 0.1, "a": 2}  # keys out of order: the column sorts them
    summary = summarise("r", {**REGIME, "step": {"exp3g": step}}, INSTANCES, synthetic_runs(), 50)
    assert set(summary["step"]) == {'{"a": 2, "eta": 0.1}'}
    assert set(summarise("r", REGIME, INSTANCES, synthetic_runs(), 50)["step"]) == {""}


def test_a_rejection_is_persistent_unless_the_last_two_decades_reach_the_band():
    from regretlab.analysis.exponents import rejection_kind

    rng = np.random.default_rng(0)
    x = np.array([1e2, 1e3, 1e4, 1e5, 1e6])
    steep = [np.full(4, v) * (1 + 0.001 * np.arange(4)) for v in x**0.8]  # slope 0.8 throughout
    assert rejection_kind(x, steep, rng, 200, math.nan, 0.5, math.nan, "upper") == "persistent"
    bending = [np.full(4, v) * (1 + 0.001 * np.arange(4)) for v in [1e2**0.9, 1e3**0.9, 1e4**0.9,
               1e4**0.9 * 10**0.5, 1e4**0.9 * 10]]  # fmt: skip  (0.9, then 0.5 over the last two decades)
    assert rejection_kind(x, bending, rng, 200, math.nan, 0.5, math.nan, "upper") == "pre-asymptotic"


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(allow_nan=True, allow_infinity=True),
            st.integers(-(2**40), 2**40),
            st.booleans(),
            st.one_of(st.none(), st.text(max_size=5)),
        ),
        max_size=6,
    )
)
def test_records_are_to_dict_records(rows):
    """``records`` (the evidence searches' fast path) gives what ``to_dict("records")`` gives: the same keys
    in the same order, the same Python types and values (NaN as NaN), on a frame of mixed column types."""
    frame = pd.DataFrame(rows, columns=["x", "n", "ok", "label"]).astype({"n": "int64", "ok": bool})
    frame["ratio"] = frame["x"] * 2.0  # a float column next to the object one
    expected, got = frame.to_dict("records"), records(frame)
    assert len(got) == len(expected)
    for want, have in zip(expected, got, strict=True):
        assert list(have) == list(want)
        for key, value in want.items():
            assert type(have[key]) is type(value)
            assert have[key] == value or (value != value and have[key] != have[key])


def _fit_with_uniform(null_uniform: list[float], step: str = "") -> pd.Series:
    """The synthetic regime's one fit (regret ≈ 3√T at T = 100, 10³, 10⁴; the theorem's hypotheses from
    10³ on), uniform play's regret set by hand at the three points, step sizes set by hand or not."""
    runs = synthetic_runs()
    summary = summarise("r", REGIME, INSTANCES, runs, 300).sort_values("x")
    summary["null_uniform"] = null_uniform
    if step:
        summary["step"] = step
    return fit_exponents("r", REGIME, runs, summary, 300).iloc[0]


def test_a_rate_is_fitted_from_the_learners_onset_and_not_at_all_when_it_does_not_learn():
    """Regret ≈ 30, 97, 316: against uniform play's 1e6 everywhere the learner learns at every point (the
    fit on the two points where the hypotheses hold, ≈ 1/2); against 100 at 10³ it learns only from 10⁴ on
    (one point: no slope, and the reason says so); against 400 at 10⁴ it does not learn at the last point."""
    learning = _fit_with_uniform([1e6, 1e6, 1e6])
    assert learning["exponent"] == pytest.approx(0.5, abs=0.05) and learning["reason"] == ""
    late = _fit_with_uniform([1e6, 100.0, 1e6])
    # The drawn bound's slope over that one point has its own reason, after the fit's (as the table says it).
    assert late["reason"] == (
        "the learner learns (regret < half of uniform play's) only at the last point; "
        "fewer than two distinct x"
    )
    assert math.isnan(late["exponent"])
    never = _fit_with_uniform([1e6, 1e6, 400.0])
    assert never["reason"] == "the learner does not learn at the last point (regret ≥ half of uniform play's)"
    assert math.isnan(never["exponent"]) and math.isnan(never["ci_low"]) and math.isnan(never["ci_high"])


def test_step_sizes_set_by_hand_leave_a_rate_without_a_theory_exponent():
    """The bounds' exponents are those of the theorem's tuning: at steps fixed in the config (``step``) the
    fit stands but no theory exponent is drawn, and the reason says why (after any other reason)."""
    tuned = _fit_with_uniform([1e6, 1e6, 1e6])
    assert tuned["theory_exponent"] == pytest.approx(BOUNDS["exp3g_rate"].exponents["T"])
    by_hand = _fit_with_uniform([1e6, 1e6, 1e6], step='{"eta": 0.1}')
    assert math.isnan(by_hand["theory_exponent"]) and by_hand["exponent"] == tuned["exponent"]
    assert by_hand["reason"] == "step sizes set by hand (config step): no theory exponent"
    both = _fit_with_uniform([1e6, 1e6, 400.0], step='{"eta": 0.1}')
    assert both["reason"] == (
        "the learner does not learn at the last point (regret ≥ half of uniform play's); "
        "step sizes set by hand (config step): no theory exponent"
    )


def test_a_rejected_rate_row_says_its_kind_the_decades_judged_and_the_logs_it_allowed():
    """Regret ≈ 3·T^0.9 against Exp3.G's rate √T (ln T hidden, one power): fitted on 10³ and 10⁴ (where the
    hypotheses hold), rejected, persistent over the one decade measured; the row carries the log power and
    the slack it widened the band by (``log_slack`` over the fitted points: (ln ln 10⁴ − ln ln 10³)/ln 10)."""
    from regretlab.analysis.exponents import REJECTED, log_slack

    runs = synthetic_runs()
    runs["pseudo_regret"] = runs["pseudo_regret"] * runs["t"].astype(float) ** 0.4
    summary = summarise("r", REGIME, INSTANCES, runs, 300)
    row = fit_exponents("r", REGIME, runs, summary, 300).iloc[0]
    assert row["fitted_on"] == "hypotheses hold" and row["exponent"] == pytest.approx(0.9, abs=0.05)
    assert row["rate_verdict"] == REJECTED and row["rejection"] == "persistent"
    assert row["rejection_decades"] == pytest.approx(1.0, rel=1e-12)
    assert row["log_power"] == 1.0
    by_hand = (math.log(math.log(1e4)) - math.log(math.log(1e3))) / math.log(10.0)
    assert row["log_slack"] == pytest.approx(by_hand, rel=1e-9)
    assert row["log_slack"] == pytest.approx(log_slack(np.array([1e3, 1e4]), 1.0), rel=1e-12)
    assert row["epoch_end_points"] == "" and row["fitted_at"] == "checkpoints"
    plain = synthetic_runs()
    learning = fit_exponents("r", REGIME, plain, summarise("r", REGIME, INSTANCES, plain, 300), 300).iloc[0]
    assert learning["rejection"] == "" and math.isnan(learning["rejection_decades"])


def test_the_aggregate_reads_only_the_tables_its_run_jobs_wrote(tmp_path, monkeypatch):
    """Given the tables the run jobs write, the aggregate refuses directories holding another one (a stray
    copy), naming the regime and the file, before it reads any table or writes anything."""
    from regretlab.analysis.aggregate import aggregate_regime
    from regretlab.analysis.run_table_checks import RunTableError

    monkeypatch.chdir(tmp_path)
    part = tmp_path / "results/runs/r/exp3g/part~0"
    table = part / "paper/i/T~100/seeds~0-3.parquet"
    table.parent.mkdir(parents=True)
    table.write_bytes(b"not read")
    (table.parent / "x.parquet").write_bytes(b"a stray copy")
    instance = tmp_path / "i.json"
    instance.write_text(json.dumps(INSTANCES["i"]))
    outputs = {"summary_path": str(tmp_path / "s.parquet"), "exponents_path": str(tmp_path / "e.parquet")}
    with pytest.raises(RunTableError) as error:
        aggregate_regime("r", REGIME, [str(instance)], [str(part)], 50, **outputs, run_tables=[str(table)])
    assert "the run tables of regime 'r'" in str(error.value)
    assert f"{table.parent / 'x.parquet'}: not a table of this regime's run jobs" in str(error.value)
    assert not any(Path(path).exists() for path in outputs.values())


def test_a_curve_across_instances_at_epoch_ends_widens_its_band_by_the_rounds_hidden_log():
    """Exp3.G's rate hides one ln T (log_powers T: 1) and none of L*. Fitted at epoch ends across instances,
    the ends' rounds τ grow along the curve (100, 300, 900): the band widens by ln τ's slope against L* there,
    and the log power is that one. A slope of 0.3 against the exponent 0 of L* stays rejected (persistent)."""
    rng = np.random.default_rng(3)
    rows, params = [], {}
    ends_of = {"a": (100, 60.0), "b": (300, 250.0), "c": (900, 700.0)}  # instance: (τ, L* at τ)
    for instance, best_mean in (("a", 0.05), ("b", 0.2), ("c", 0.8)):
        for seed in range(5):
            l_star = 1000 * best_mean * rng.uniform(0.95, 1.05)
            rows.append({"regime": "r", "instance": instance, "algorithm": "exp3g", "constants": "paper",
                         "T": 1000, "seed": seed, "t": 1000, "pseudo_regret": 2 * l_star**0.5,
                         "realized_regret": 2 * l_star**0.5, "L_star": l_star, "best_arm": 0,
                         "hypotheses_hold": True})  # fmt: skip
            tau, l_end = ends_of[instance]
            regret = 5.0 * l_end**0.3 * (1 + 0.001 * seed)
            params[(instance, "exp3g", "paper", 1000, seed)] = {
                "epoch_ends": [{"t": tau, "L_star": l_end, "pseudo_regret": regret}]
            }
    runs = pd.DataFrame(rows)
    regime = {**REGIME, "x": "L_star"}
    instances = {name: INSTANCES["i"] for name in "abc"}
    summary = summarise("r", regime, instances, runs, 200, params)
    row = fit_exponents("r", regime, runs, summary, 200, params).iloc[0]
    assert row["fitted_at"] == "epoch ends" and row["n_points"] == 3
    assert row["exponent"] == pytest.approx(0.3, abs=1e-3)
    assert row["log_power"] == 1.0
    by_hand = loglog_slope(np.array([60.0, 250.0, 700.0]), np.log([100.0, 300.0, 900.0]))
    assert row["log_slack"] == pytest.approx(by_hand, rel=1e-12) and 0.05 < by_hand < 0.3
    assert row["rejection"] == "persistent"


def test_a_rate_is_consistent_through_the_log_its_o_tilde_hides_and_rejected_without_it():
    """Regret 3·√T·(ln T)^0.9 against Exp3.G's rate √T, which hides one ln T: fitted on 10³ and 10⁴, its
    slope is 0.5 + 0.9·s (s = (ln ln 10⁴ − ln ln 10³)/ln 10 ≈ 0.125, the log's slope there), inside the band
    widened by the one hidden power (0.5 + s) and outside the unwidened one (the drawn rate's slope, 0.5)."""
    from regretlab.analysis.exponents import REJECTED, rate_verdict

    runs = synthetic_runs()
    t = runs["t"].astype(float)
    runs["pseudo_regret"] = 3 * t**0.5 * np.log(np.maximum(t, 2.0)) ** 0.9 * (1 + 1e-4 * runs["seed"])
    summary = summarise("r", REGIME, INSTANCES, runs, 300)
    row = fit_exponents("r", REGIME, runs, summary, 300).iloc[0]
    s = (math.log(math.log(1e4)) - math.log(math.log(1e3))) / math.log(10.0)
    assert row["exponent"] == pytest.approx(0.5 + 0.9 * s, abs=1e-3)
    assert row["log_slack"] == pytest.approx(s, rel=1e-9)
    assert row["bound_slope"] == pytest.approx(0.5, abs=1e-9)
    assert row["rate_verdict"] == "consistent"
    unwidened = rate_verdict(row["exponent"], row["ci_low"], row["ci_high"], 0.5, row["bound_slope"], "upper")
    assert unwidened == REJECTED
