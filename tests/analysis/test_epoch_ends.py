"""Fits at epoch ends (regretlab.analysis.epoch_ends): a restarting learner's rate is fitted at the rounds
where its epochs end, not through checkpoints that fall anywhere on its staircase."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from test_analysis import INSTANCES, REGIME, synthetic_runs

from regretlab.analysis.aggregate import aggregate_regime, fit_exponents, summarise
from regretlab.analysis.epoch_ends import EpochEndPoints, epoch_end_points, growth_between_ends
from regretlab.analysis.evidence.items import slope_outcome
from regretlab.analysis.exponents import (
    log_slack,
    loglog_slope,
    measured_decades,
    rejection_kind,
    rejection_text,
)
from regretlab.core.io import write_parquet

#: Epoch ends of each seed's run at T = 10⁴ (seed 3 reaches one reset fewer): t and the regret there, on a
#: staircase that grows like t^0.7 at its ends while the synthetic checkpoints grow like t^0.5.
ENDS = {seed: [{"t": t + 10 * seed, "pseudo_regret": 2.0 * (t + 10 * seed) ** 0.7, "L_star": 0.3 * t}
               for t in (50, 400, 1500, 6000)[: 4 - (seed == 3)]]
        for seed in range(4)}  # fmt: skip


def params_of(runs: pd.DataFrame, ends: dict | None) -> dict:
    keys = runs[["instance", "algorithm", "constants", "T", "seed"]].drop_duplicates()
    return {
        tuple(key): ({"epoch_ends": ends[key[-1]]} if ends is not None and key[3] == 10_000 else {})
        for key in keys.itertuples(index=False, name=None)
    }


def fit(ends: dict | None) -> pd.Series:
    runs = synthetic_runs()
    runs["hypotheses_hold"] = True
    summary = summarise("r", REGIME, INSTANCES, runs, 300)
    return fit_exponents("r", REGIME, runs, summary, 300, params_of(runs, ends)).iloc[0]


def test_a_learner_that_resets_is_fitted_at_its_epoch_ends_every_seed_reached():
    row = fit(ENDS)
    assert row["fitted_at"] == "epoch ends"
    # The ends inside the curve's range [100, 10⁴] that every seed reached: k = 2 and 3 (seed 3 lacks k = 4).
    assert row["n_points"] == 2
    x = [np.mean([ENDS[s][k]["t"] for s in range(4)]) for k in (1, 2)]
    y = [np.mean([ENDS[s][k]["pseudo_regret"] for s in range(4)]) for k in (1, 2)]
    assert row["exponent"] == pytest.approx(loglog_slope(np.array(x), np.array(y)))
    assert row["exponent"] == pytest.approx(0.7, abs=0.01)


def test_a_learner_without_epoch_ends_or_resets_in_range_keeps_the_checkpoint_fit():
    plain = fit(None)
    assert plain["fitted_at"] == "checkpoints" and plain["exponent"] == pytest.approx(0.5, abs=0.05)
    late = {seed: [{"t": 20_000, "pseudo_regret": 1.0, "L_star": 1.0}] for seed in range(4)}
    row = fit(late)  # its only reset after the last checkpoint: every checkpoint lies in the first epoch
    assert row["fitted_at"] == "checkpoints" and row["exponent"] == plain["exponent"]


def test_one_epoch_end_inside_the_range_gives_no_slope_rather_than_a_fit_across_a_reset():
    one = {seed: [{"t": 3000, "pseudo_regret": 50.0, "L_star": 900.0}] for seed in range(4)}
    row = fit(one)
    assert row["fitted_at"] == "epoch ends" and np.isnan(row["exponent"])
    assert row["reason"].startswith("one epoch end reached by every seed")


def test_points_across_instances_use_the_swept_loss_at_each_end():
    """A curve across instances (x: L*) takes each instance's k-th end at its mean L* there."""
    curve = pd.DataFrame(
        {"instance": ["a", "b"], "algorithm": "g", "constants": "paper", "T": 100, "x": [1.0, 90.0]}
    )
    params = {
        ("a", "g", "paper", 100, 0): {"epoch_ends": [{"t": 10, "L_star": 2.0, "regret_best_S": 4.0}]},
        ("b", "g", "paper", 100, 0): {"epoch_ends": [{"t": 10, "L_star": 50.0, "regret_best_S": 9.0},
                                                     {"t": 90, "L_star": 95.0, "regret_best_S": 12.0}]},
    }  # fmt: skip
    points = epoch_end_points(params, curve, "L_star", "regret_best_S")
    assert points.x.tolist() == [2.0, 50.0] and points.labels == ["a k=1", "b k=1"]  # 95 is beyond the curve
    assert [v.tolist() for v in points.values] == [[4.0], [9.0]]
    assert epoch_end_points(params, curve, "L_star", "regret_best_Sbar") is None  # a metric not recorded


def test_epoch_ends_spanning_less_than_half_a_decade_give_no_slope():
    def ends(first):
        records = [{"t": t, "pseudo_regret": 0.1 * t, "L_star": 1.0} for t in (first, 6000)]
        return dict.fromkeys(range(4), records)

    row = fit(ends(2000))  # 6000 / 2000 = 10^0.48
    assert np.isnan(row["exponent"]) and "span 0.48 decades" in row["reason"]
    assert fit(ends(1800))["exponent"] == pytest.approx(1.0)  # 10^0.52


def test_a_hidden_log_of_another_variable_widens_by_its_slope_along_the_points():
    """Across instances at epoch ends the rounds τ grow along the curve: the Õ's ln T is ln τ there."""
    x, rounds = np.array([100.0, 1000.0]), np.array([1e3, 1e4])
    by_hand = (np.log(np.log(1e4)) - np.log(np.log(1e3))) / np.log(10.0)  # 0.125
    assert log_slack(x, 1.0, rounds) == pytest.approx(by_hand)
    assert log_slack(x, 2.0, rounds) == pytest.approx(2 * by_hand)
    assert log_slack(x, 1.0) == pytest.approx((np.log(np.log(1e3)) - np.log(np.log(100.0))) / np.log(10.0))
    assert log_slack(x, 1.0, np.array([1e4, 1e4])) == 0.0  # one round: its log does not vary
    # A slope 0.6 over the points: beyond 1/2 with x's own logs, not once ln τ's slope (0.125) is allowed.
    values = [np.full(4, 10.0), np.full(4, 10.0 * 10**0.6)]
    rng = np.random.default_rng(0)
    assert rejection_kind(x, values, rng, 50, np.nan, 0.5, np.nan, "upper") == "persistent"
    assert rejection_kind(x, values, rng, 50, np.nan, 0.5, np.nan, "upper", 0.0, (rounds, 1.0)) == (
        "pre-asymptotic"
    )


def test_a_persistence_judged_over_less_than_two_decades_says_over_how_many():
    """A rejection whose points span less than two decades (two epoch ends 0.6 decades apart) is labelled
    with the span it was judged over: "persistent" alone would claim two decades without drift."""
    assert measured_decades(np.array([7000.0, 28000.0])) == pytest.approx(math.log10(4.0))
    assert measured_decades(np.array([1e3, 1e6])) == 2.0
    assert rejection_text("persistent", measured_decades(np.array([7000.0, 28000.0]))) == (
        "persistent over 0.6 decades"
    )
    assert rejection_text("persistent", 2.0) == "persistent"
    assert rejection_text("pre-asymptotic", 0.6) == "pre-asymptotic"
    fit = {"theory_exponent": 0.5, "bound_slope": np.nan, "ci_low": 0.62, "ci_high": 0.67, "exponent": 0.64,
           "rejection": "persistent", "rejection_decades": 0.6, "fitted_at": "epoch ends", "n_points": 2}
    assert slope_outcome(fit, "upper").startswith(
        "rejected over the measured range (persistent over 0.6 decades): 0.64 [0.62, 0.67] at 2 epoch ends"
    )


def _curve(x_low: float, x_high: float) -> pd.DataFrame:
    """The summary rows of one fit (instance "i", algorithm "a", preset "paper", T = 10⁴) from x_low to
    x_high."""
    return pd.DataFrame({"instance": "i", "algorithm": "a", "constants": "paper", "T": 10_000,
                         "x": [x_low, x_high]})  # fmt: skip


def test_epoch_end_points_are_the_ends_every_seed_reached_inside_the_curves_range_with_their_rounds():
    params = {("i", "a", "paper", 10_000, seed): {"epoch_ends": ENDS[seed]} for seed in range(4)}
    in_t = epoch_end_points(params, _curve(100.0, 10_000.0), "T", "pseudo_regret")
    # Ends k = 1, 2, 3 reached by every seed at t = 65, 415, 1515 on average; the first lies below x = 100.
    assert in_t.x.tolist() == [415.0, 1515.0] and in_t.t.tolist() == [415.0, 1515.0]
    assert in_t.labels == ["i k=2", "i k=3"]
    assert in_t.values[0].tolist() == [2.0 * (400 + 10 * s) ** 0.7 for s in range(4)]
    # Swept in L*: x is the mean L* at each end (0.3·t: 15, 120, 450), t still the ends' rounds.
    in_loss = epoch_end_points(params, _curve(100.0, 10_000.0), "L_star", "pseudo_regret")
    assert in_loss.x.tolist() == pytest.approx([120.0, 450.0]) and in_loss.t.tolist() == [415.0, 1515.0]


def test_growth_between_ends_is_per_decade_from_the_first_end_in_the_window_to_the_last():
    ends = {"epoch_ends": [{"t": 100, "pseudo_regret": 10.0}, {"t": 1000, "pseudo_regret": 50.0},
                           {"t": 10_000, "pseudo_regret": 100.0}]}  # fmt: skip
    # 10 → 100 over two decades: 10^(ln 10 / ln 100) = √10 per decade; from t = 1000: 2 per decade.
    root_ten = pytest.approx(math.sqrt(10.0), rel=1e-12)
    assert growth_between_ends(ends, "pseudo_regret", 100, 10_000) == root_ten
    assert growth_between_ends(ends, "pseudo_regret", 150, 100_000) == pytest.approx(2.0, rel=1e-12)
    assert growth_between_ends(ends, "pseudo_regret", 10, 1000) == pytest.approx(5.0, rel=1e-12)


def test_growth_between_ends_needs_two_ends_half_a_decade_apart_with_positive_values():
    assert growth_between_ends({}, "pseudo_regret", 1, 10**6) is None  # a learner that does not restart
    one = {"epoch_ends": [{"t": 100, "pseudo_regret": 10.0}, {"t": 10_000, "pseudo_regret": 100.0}]}
    assert math.isnan(growth_between_ends(one, "pseudo_regret", 101, 10**6))
    close = {"epoch_ends": [{"t": 1000, "pseudo_regret": 10.0}, {"t": 3000, "pseudo_regret": 20.0}]}
    assert math.isnan(growth_between_ends(close, "pseudo_regret", 1, 10**6))  # 0.48 decades apart
    zero = {"epoch_ends": [{"t": 100, "pseudo_regret": 0.0}, {"t": 10_000, "pseudo_regret": 100.0}]}
    assert math.isnan(growth_between_ends(zero, "pseudo_regret", 1, 10**6))
    assert math.isnan(growth_between_ends(one, "L_star", 1, 10**6))  # the metric is not recorded


def test_epoch_end_points_keep_the_ends_on_the_range_s_edges_and_order_ties_by_x_alone():
    params = {("i", "a", "paper", 10_000, seed): {"epoch_ends": ENDS[seed]} for seed in range(4)}
    edges = epoch_end_points(params, _curve(415.0, 1515.0), "T", "pseudo_regret")
    assert edges.x.tolist() == [415.0, 1515.0]  # both ends lie exactly on the curve's first and last x
    # Two instances with the same ends: equal x, ordered by x only (instance order kept), never by the values.
    both = {(name, *key[1:]): value for key, value in params.items() for name in ("i", "j")}
    curve = pd.concat([_curve(415.0, 1515.0), _curve(415.0, 1515.0).assign(instance="j")])
    tied = epoch_end_points(both, curve, "T", "pseudo_regret")
    assert tied.labels == ["i k=2", "j k=2", "i k=3", "j k=3"]
    assert tied.x.tolist() == [415.0, 415.0, 1515.0, 1515.0]


def test_epoch_end_points_as_the_figures_read_them_and_half_a_decade_is_enough():
    points = EpochEndPoints(
        x=np.array([1.0, 10**0.5]), values=[np.array([1.0, 3.0]), np.array([2.0, 5.0])],
        t=np.array([10.0, 40.0]), labels=["i k=1", "i k=2"],
    )  # fmt: skip
    drawn = {"x": [1.0, 10**0.5], "mean": [2.0, 3.5], "labels": ["i k=1", "i k=2"]}
    assert json.loads(points.to_json()) == drawn
    assert points.unfit_reason() == ""  # exactly MIN_SPAN_DECADES apart


def test_growth_between_ends_at_its_edges():
    half = {"epoch_ends": [{"t": 1000, "pseudo_regret": 0.5}, {"t": 1000 * 10**0.5, "pseudo_regret": 0.5}]}
    # Ends exactly half a decade apart, values at most 1: a growth (of 1 per decade).
    assert growth_between_ends(half, "pseudo_regret", 1, 10**6) == pytest.approx(1.0)
    last_zero = {"epoch_ends": [{"t": 100, "pseudo_regret": 1.0}, {"t": 10_000, "pseudo_regret": 0.0}]}
    assert math.isnan(growth_between_ends(last_zero, "pseudo_regret", 1, 10**6))
    # From the first end in the window to the last, not to the second: 100 → 10⁴ spans two decades.
    three = {"epoch_ends": [{"t": 100, "pseudo_regret": 10.0}, {"t": 200, "pseudo_regret": 20.0},
                            {"t": 10_000, "pseudo_regret": 100.0}]}  # fmt: skip
    assert growth_between_ends(three, "pseudo_regret", 1, 10**6) == pytest.approx(math.sqrt(10.0))


def test_the_regimes_aggregate_reads_the_epoch_ends_from_its_run_tables(tmp_path):
    """End to end: `aggregate_regime` takes the learners' params from the run tables' metadata to the fits,
    so a restarting learner's curve written to disk is fitted at its epoch ends, as `fit_exponents` fits it
    with the same params in memory."""
    runs = synthetic_runs()
    runs["hypotheses_hold"] = True
    params = params_of(runs, ENDS)
    dirs = []
    for horizon, frame in runs.groupby("T"):
        (tmp_path / str(horizon)).mkdir()
        learners = [{"seed": key[-1], "params": value} for key, value in params.items() if key[3] == horizon]
        table = tmp_path / str(horizon) / "batch.parquet"
        write_parquet(table, frame.reset_index(drop=True), {"learners": learners})
        dirs.append(str(tmp_path / str(horizon)))
    instance = tmp_path / "i.json"
    instance.write_text(json.dumps(INSTANCES["i"]))
    summary_path, exponents_path = tmp_path / "s.parquet", tmp_path / "e.parquet"
    aggregate_regime("r", REGIME, [str(instance)], dirs, 300, str(summary_path), str(exponents_path))
    written = pd.read_parquet(exponents_path).iloc[0]
    assert written["fitted_at"] == "epoch ends" and written["n_points"] == 2
    assert written["exponent"] == pytest.approx(fit(ENDS)["exponent"], rel=1e-12)
