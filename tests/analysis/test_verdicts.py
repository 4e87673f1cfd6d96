"""Verdicts, bound slopes, unfittable curves, explicit bounds of paper 001 and trajectory points."""

import math
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from regretlab.analysis.aggregate import fit_exponents, summarise
from regretlab.analysis.exponents import bound_regime, bound_slope, fit_exponent
from regretlab.analysis.tables import TABLE1, table1_comparison
from regretlab.analysis.verdicts import (
    VERDICT_KEYS,
    VERDICTS,
    print_violations,
    verdict,
    verdict_table,
    violation_report,
    write_verdict_table,
)
from regretlab.bandits import bounds
from regretlab.registry.theory import BOUNDS, TRIVIAL_BOUNDS

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("upper", True, 100.0, 1000.0, 40.0, 60.0), "holds"),
        (("upper", True, 100.0, 1000.0, 90.0, 110.0), "violated"),  # the interval reaches past the bound
        (("upper", True, 5000.0, 1000.0, 40.0, 60.0), "vacuous"),  # beyond the trivial bound
        (("upper", True, math.inf, 1000.0, 40.0, 60.0), "vacuous"),
        (("upper", True, 100.0, math.nan, 40.0, 60.0), "holds"),  # no trivial bound: never vacuous
        (("upper", False, 1.0, 1000.0, 40.0, 60.0), "rate only"),
        (("reference", True, 1.0, 1000.0, 40.0, 60.0), "reference"),
        (("lower", True, 0.3, 0.0, 0.4, 0.5), "holds"),
        (("lower", True, 0.45, 0.0, 0.4, 0.5), "violated"),
        (("lower", True, 0.0, 0.0, 0.4, 0.5), "vacuous"),  # a ratio is ≥ 0 anyway
        (("lower", False, 0.3, 0.0, 0.4, 0.5), "rate only"),
    ],
)
def test_every_verdict_is_reachable(args, expected):
    assert verdict(*args) == expected


@pytest.mark.parametrize(
    ("args", "kwargs", "expected"),
    [
        # An interval that ends exactly at the bound is on its side: the bound holds.
        (("upper", True, 100.0, 1000.0, 40.0, 100.0), {}, "holds"),
        (("lower", True, 0.4, 0.0, 0.4, 0.5), {}, "holds"),
        # A bound exactly at the trivial bound (or the ceiling) says nothing more than it.
        (("upper", True, 1000.0, 1000.0, 40.0, 60.0), {}, "vacuous"),
        (("lower", True, 0.1, 0.1, 0.4, 0.5), {}, "vacuous"),
        (("upper", True, math.nan, 1000.0, 40.0, 60.0), {}, "vacuous"),
        (("lower", True, -math.inf, math.nan, 0.4, 0.5), {}, "vacuous"),
        (("upper", True, 100.0, 1000.0, 40.0, 60.0), {"ceiling": 100.0}, "implied"),
        (("upper", True, 100.0, 1000.0, 40.0, 60.0), {"ceiling": 100.5}, "holds"),
        (("lower", True, 0.3, 0.0, 0.4, 0.5), {"ceiling": 0.3}, "implied"),
        (("lower", True, 0.3, 0.0, 0.4, 0.5), {"ceiling": 0.2}, "holds"),
        # A bound on a probability inside its binomial interval: inconclusive, at either end as the
        # direction says (an upper bound at the interval's top end is crossed by no seed; a lower one at its
        # bottom end neither).
        (("lower", True, 0.9, 0.0, 0.63, 1.0), {"proportion": True}, "inconclusive"),
        (("lower", True, 1.0, 0.0, 0.63, 1.0), {"proportion": True}, "inconclusive"),
        (("lower", True, 0.63, 0.0, 0.63, 1.0), {"proportion": True}, "holds"),
        (("lower", True, 0.5, 0.0, 0.63, 1.0), {"proportion": True}, "holds"),
        (("upper", True, 0.2, 1.0, 0.1, 0.4), {"proportion": True}, "inconclusive"),
        (("upper", True, 0.1, 1.0, 0.1, 0.4), {"proportion": True}, "inconclusive"),
        (("upper", True, 0.4, 1.0, 0.1, 0.4), {"proportion": True}, "holds"),
        (("upper", True, 0.05, 1.0, 0.1, 0.4), {"proportion": True}, "violated"),
        (("lower", True, 0.9, 0.0, 0.63, 1.0), {}, "violated"),  # not a proportion: crossed
    ],
)
def test_verdict_at_each_boundary(args, kwargs, expected):
    assert verdict(*args, **kwargs) == expected


def test_a_violation_is_never_hidden_by_vacuity_and_directions_are_checked():
    assert verdict("upper", True, 2000.0, 1000.0, 1500.0, 2500.0) == "violated"
    with pytest.raises(ValueError, match="direction"):
        verdict("above", True, 1.0, 2.0, 0.0, 0.5)


@given(bound=st.floats(1.0, 1e4), low=st.floats(0.0, 1e4), width=st.floats(0.0, 1e4))
def test_a_bound_crossed_where_the_hypotheses_fail_is_beyond_them_not_violated(bound, low, width):
    """Crossed (the interval on the wrong side) is ``violated`` where the theorem's hypotheses hold and
    ``beyond hypotheses`` where they fail; every other verdict is the same either way."""
    args = ("upper", True, bound, 1e6, low, low + width)
    where_they_hold = verdict(*args)
    where_they_fail = verdict(*args, hypotheses_hold=False)
    crossed = low + width > bound
    assert (where_they_hold == "violated") is crossed
    assert where_they_fail == ("beyond hypotheses" if crossed else where_they_hold)


def summary_rows(crossed_holding: bool = False) -> pd.DataFrame:
    """A hand-made aggregate table: two bounds of one algorithm, one point with hypotheses failing where the
    bound is crossed (and, with ``crossed_holding``, one where they hold)."""
    rows = []
    second = ("violated", True) if crossed_holding else ("vacuous", True)
    cases = [
        ("theorem2_bound", True, [("holds", True), second, ("beyond hypotheses", False)]),
        ("theorem2_rate", False, [("rate only", True)] * 3),
    ]
    for bound_name, explicit, verdicts in cases:
        for horizon, (value, hypotheses) in zip((100, 1000, 10000), verdicts, strict=True):
            rows.append(
                {
                    "regime": "r",
                    "algorithm": "theorem2",
                    "constants": "paper",
                    "metric": "pseudo_regret",
                    "bound_name": bound_name,
                    "bound_explicit": explicit,
                    "direction": "upper",
                    "hypotheses_hold": hypotheses,
                    "T": horizon,
                    "verdict": value,
                }
            )
    return pd.DataFrame(rows)


def test_verdict_table_counts_per_bound_and_hypotheses(tmp_path, capsys):
    table = verdict_table([summary_rows()])
    assert list(table.columns[-len(VERDICTS) :]) == list(VERDICTS)
    explicit = table[table["bound_name"] == "theorem2_bound"].set_index("hypotheses_hold")
    assert explicit.loc[True, ["holds", "vacuous", "violated", "points"]].tolist() == [1, 1, 0, 2]
    failing = explicit.loc[False, ["violated", "beyond hypotheses", "T_min", "T_max"]]
    assert failing.tolist() == [0, 1, 10000, 10000]
    rate = table[table["bound_name"] == "theorem2_rate"].iloc[0]
    assert rate["rate only"] == 3 and rate["points"] == 3
    csv, md = tmp_path / "verdicts.csv", tmp_path / "verdicts.md"
    # Only a bound crossed where the hypotheses fail: the report says nothing is violated, and counts it.
    write_verdict_table([summary_rows()], csv, md)
    report = violation_report(csv)
    assert report.splitlines()[0].startswith("regretlab: no bound violated where its theorem's hypotheses")
    assert "violated" not in report.splitlines()[1] and "1 greyed point(s) cross their bound" in report
    assert "no counterexample" in report and "r / theorem2 (paper): theorem2_bound 1" in report
    print_violations(csv)
    assert capsys.readouterr().out.strip() == report
    assert "| r | theorem2 | paper | pseudo_regret | theorem2_bound |" in md.read_text()
    # The legend's trivial bounds are those the verdicts use (theory.TRIVIAL_BOUNDS) at a checkpoint t.
    point = {"t": 7, "T": 10, "opt": 0.5, "L": 3, "ell_bar": 2.0}
    legend = md.read_text().split("\n\n")[0]
    for words, metric, value in [
        ("t for bandit regret", "pseudo_regret", 7),
        ("t·OPT for CMDP regret", "regret", 3.5),
        ("L·t for CMDP violation", "violation", 21),
        ("2L·t for Σ‖q−q̂‖₁", "q_error_l1", 42),
        ("2Lℓ̄t for primal and interval regret", "primal_regret", 84),
        ("0 for the reward ratio and coverage", "reward_ratio", 0),
    ]:
        assert words in legend and TRIVIAL_BOUNDS[metric](point) == pytest.approx(value)
    assert TRIVIAL_BOUNDS["interval_regret_max"](point) == 84 and TRIVIAL_BOUNDS["coverage"](point) == 0
    assert "Σ_t min_i ℓ_{t,i} − L* under Theorem 5's proof bound" in legend
    assert BOUNDS["theorem5_proof_lower"].trivial is bounds.theorem5_floor
    # A violation where they hold is listed as one, and the greyed point still counted apart.
    write_verdict_table([summary_rows(crossed_holding=True)], csv, md)
    report = violation_report(csv).splitlines()
    assert report[0].startswith("regretlab: 1 bound(s) violated where their hypotheses hold")
    assert report[1].endswith("theorem2_bound: 1 of 2 points violated") and "1 greyed point(s)" in report[2]
    write_verdict_table([summary_rows().assign(verdict="holds")], csv, md)
    assert violation_report(csv) == "" and violation_report(tmp_path / "missing.csv") == ""


def test_a_twin_familys_points_are_counted_as_identical_and_say_whose_twin_they_are(tmp_path):
    """Two families with bit-identical runs: the second one's points are counted under ``identical`` (not
    under their own verdicts), with ``identical_to`` naming the first; the first family's are untouched. A
    row with no bound at all is no claim and is not counted."""
    first = summary_rows().assign(identical_to="")
    twin = summary_rows().assign(constants="tuned", identical_to="theorem2/paper")
    baseline = first.iloc[:1].assign(algorithm="uniform", bound_name="", verdict="no bound")
    # A summary written before identical families were marked (no column: NaN once concatenated).
    older = summary_rows().assign(regime="old")
    table = verdict_table([first, twin, baseline, older])
    old = table[table["regime"] == "old"].set_index(["bound_name", "hypotheses_hold"])
    assert old.loc[("theorem2_bound", True), ["holds", "vacuous", "identical", "identical_to"]].tolist() == [
        1,
        1,
        0,
        "",
    ]
    table = table[table["regime"] == "r"].set_index(["constants", "bound_name", "hypotheses_hold"])
    assert "uniform" not in set(table["algorithm"])
    tuned = table.loc[("tuned", "theorem2_bound", True)]
    assert (tuned["identical"], tuned["holds"], tuned["vacuous"], tuned["points"]) == (2, 0, 0, 2)
    assert tuned["identical_to"] == "theorem2/paper"
    assert table.loc[("tuned", "theorem2_bound", False), "beyond hypotheses"] == 0
    paper = table.loc[("paper", "theorem2_bound", True)]
    assert (paper["identical"], paper["holds"], paper["vacuous"], paper["identical_to"]) == (0, 1, 1, "")
    csv = tmp_path / "verdicts.csv"
    write_verdict_table([first, twin], csv, tmp_path / "verdicts.md")
    assert pd.read_csv(csv).columns[0] == "regime"  # no index column
    # A table of rows without a bound has the columns and no row.
    empty = verdict_table([baseline])
    assert empty.empty and list(empty.columns) == [*VERDICT_KEYS, "points", "T_min", "T_max", *VERDICTS]


def test_the_verdict_legend_is_the_shipped_one(tmp_path):
    """The legend written above the table is the one of the committed figures/verdicts.md (a change to it
    goes with regenerated figures)."""
    md = tmp_path / "verdicts.md"
    write_verdict_table([summary_rows()], tmp_path / "verdicts.csv", md)
    shipped = (REPO / "figures" / "verdicts.md").read_text(encoding="utf-8")
    assert md.read_text(encoding="utf-8").split("\n\n")[0] == shipped.split("\n\n")[0]


def test_the_report_names_every_greyed_bound_and_reads_tables_without_that_column(tmp_path):
    rows = pd.concat([summary_rows(), summary_rows().assign(algorithm="exp3g")], ignore_index=True)
    csv = tmp_path / "verdicts.csv"
    write_verdict_table([rows], csv, tmp_path / "verdicts.md")
    last = violation_report(csv).splitlines()[-1]
    assert last.endswith(
        "no counterexample): r / exp3g (paper): theorem2_bound 1, r / theorem2 (paper): theorem2_bound 1"
    )
    assert "and 2 greyed point(s)" in last
    # A verdict table written before the column existed: violations only.
    pd.read_csv(csv).drop(columns=["beyond hypotheses"]).to_csv(csv, index=False)
    assert violation_report(csv) == ""


@given(slope=st.floats(-2, 2), scale=st.floats(0.1, 100))
def test_bound_slope_of_a_power_law_is_its_exponent(slope, scale):
    x = np.array([30.0, 300.0, 3000.0])
    value, reason = bound_slope(x, scale * x**slope)
    assert value == pytest.approx(slope, abs=1e-9) and reason == ""


def test_bound_slope_and_regime_of_a_bound_with_a_lower_order_term():
    x = np.array([1e3, 1e4, 1e5])
    value, _ = bound_slope(x, np.sqrt(x) + 1e4)  # √T + K² with K = 100: flat over this range
    assert value < 0.2 and bound_regime(value, 0.5) == "pre-asymptotic"
    assert bound_regime(0.45, 0.5) == "asymptotic" and bound_regime(float("nan"), 0.5) == "undetermined"
    assert np.isnan(bound_slope(x, np.array([1.0, np.inf, 2.0]))[0])


@pytest.mark.parametrize(
    ("means", "scale", "reason"),
    [
        ([0.0, 0.0, 0.0], 100.0, "≈ 0"),
        ([1e-6, 3e-6, 2e-6], 24.7, "≈ 0"),  # an inert multiplier against ζ = 24.7
        ([-1.0, 2.0, 5.0], float("nan"), "changes sign"),
        ([-1.0, -2.0, -5.0], float("nan"), "≤ 0"),
        ([0.0, 2.0, 5.0], float("nan"), "≤ 0"),
    ],
)
def test_no_slope_on_zero_negative_or_sign_changing_means(means, scale, reason):
    rng = np.random.default_rng(0)
    per_point = [np.full(4, m) for m in means]
    slope, low, high, why = fit_exponent(np.array([1e2, 1e3, 1e4]), per_point, rng, 100, scale)
    assert np.isnan([slope, low, high]).all() and reason in why


def test_algorithm4_proof_rate_switches_from_its_first_rate_to_the_small_loss_term():
    point = {"kappa": 3, "s_bar": 2, "L_star": 0.0, "params": {"eta_start": 0.001}}
    assert bounds.algorithm4_proof_rate(point) == pytest.approx(4 / 0.001 + 25)
    big = {**point, "L_star": 1e8}
    assert bounds.algorithm4_proof_rate(big) == pytest.approx(2 * math.sqrt(4e8) + 25)
    assert not BOUNDS["algorithm4_proof_rate"].explicit


def test_explicit_bounds_are_registered_with_their_trivial_bound():
    for name in ("theorem2_bound", "theorem3_bound"):
        assert BOUNDS[name].explicit and BOUNDS[name].metric in TRIVIAL_BOUNDS
    assert BOUNDS["theorem7_reward_ratio"].direction == "lower"
    assert {spec.direction for spec in BOUNDS.values()} <= {"upper", "lower", "reference"}
    point = {"t": 50, "T": 100, "L": 3, "ell_bar": 2.0}
    assert TRIVIAL_BOUNDS["violation"](point) == 150 and TRIVIAL_BOUNDS["primal_regret"](point) == 600


def per_seed_runs(x_checkpoints: bool) -> tuple[pd.DataFrame, dict]:
    """Theorem 3's runs on one instance, with per-seed L* (hence η); checkpoints 10, 100, 1000 of T = 1000."""
    rows, params = [], {}
    for seed, l_star in enumerate((200.0, 300.0, 400.0)):
        eta = min(math.sqrt(4 / l_star), 1 / 256)
        params[("i", "theorem3", "paper", 1000, seed)] = {"eta": eta, "c": 256.0}
        for t in (10, 100, 1000) if x_checkpoints else (1000,):
            rows.append(
                {
                    "regime": "r",
                    "instance": "i",
                    "algorithm": "theorem3",
                    "constants": "paper",
                    "T": 1000,
                    "seed": seed,
                    "t": t,
                    "pseudo_regret": 5.0 * t**0.5 + seed,
                    "realized_regret": 5.0 * t**0.5,
                    "L_star": l_star * t / 1000,
                    "best_arm": 0,
                    "hypotheses_hold": True,
                }
            )
    return pd.DataFrame(rows), params


REGIME = {"kind": "bandit", "paper": "001", "theorem": "§3.2", "bounds": {"theorem3": ["theorem3_bound"]}}
INSTANCES = {"i": {"numbers": {"K": 4, "s": 3, "alpha": 2, "kappa": 2}}}


def test_explicit_bound_is_the_mean_of_its_per_run_values_at_the_runs_constants():
    runs, params = per_seed_runs(x_checkpoints=False)
    summary = summarise("r", {**REGIME, "x": "T"}, INSTANCES, runs, 200, params)
    per_run = [
        bounds.theorem3_bound({"K": 4, "s": 3, "T": 1000, "L_star": row.L_star, "params": params[key]})
        for row, key in zip(runs.itertuples(), sorted(params), strict=True)
    ]
    assert summary["bound_value"].iloc[0] == pytest.approx(np.mean(per_run))
    assert summary["verdict"].iloc[0] == "vacuous"  # 64K² ln T alone exceeds T = 1000


def test_trajectory_points_keep_the_run_horizon_for_the_bound():
    runs, params = per_seed_runs(x_checkpoints=True)
    summary = summarise("r", {**REGIME, "x": "t"}, INSTANCES, runs, 200, params)
    assert list(summary["x"]) == [10.0, 100.0, 1000.0] and (summary["T"] == 1000).all()
    np.testing.assert_array_equal(summary["trivial_bound"], [10, 100, 1000])  # regret after t rounds ≤ t
    final = summarise("r", {**REGIME, "x": "T"}, INSTANCES, runs[runs["t"] == 1000], 200, params)
    # The bound of the horizon-T run, with that run's L* at T, at every checkpoint.
    assert (summary["bound_value"] == final["bound_value"].iloc[0]).all()
    fits = fit_exponents("r", {**REGIME, "x": "t"}, runs, summary, 200)
    assert np.isnan(fits["bound_slope"].iloc[0]) and "flat in t" in fits["reason"].iloc[0]
    assert fits["bound_regime"].iloc[0] == "undetermined"


def test_table1_rows_list_their_fits_or_say_not_run():
    fits = pd.DataFrame(
        [
            {
                "regime": "r",
                "algorithm": "algorithm4",
                "constants": "paper",
                "instance": "i",
                "x": "L_star",
                "exponent": 0.1,
                "ci_low": 0.0,
                "ci_high": 0.2,
                "theory_exponent": 0.5,
                "bound_name": "algorithm4_proof_rate",
                "bound_explicit": False,
                "bound_slope": 0.02,
                "bound_regime": "pre-asymptotic",
                "reason": "",
            }
        ]
    )
    table = table1_comparison(fits)
    assert len(table) == len(TABLE1)  # one line per row: one fit, the rest not run
    tested = table[table["regime"] == "r"].iloc[0]
    assert tested["paper's rate"] == "Õ(√((κ+1)L*))" and tested["bound_regime"] == "pre-asymptotic"
    assert (table["regime"] == "not run").sum() == len(TABLE1) - 1


def test_every_bandit_algorithm_tests_exactly_one_table1_row():
    """Each learner's fits land in one row, named by its registry entry: the baselines under Alon et al.'s
    minimax rows, the paper's algorithms (and Theorem 5's learner, which tests "no o(L*) bound") under "our
    work"; the CMDP learners in none."""
    from regretlab.registry.kinds import KINDS

    for algorithm, spec in KINDS["bandit"].algorithms.items():
        assert spec.table1 in TABLE1, algorithm
    assert all(spec.table1 is None for spec in KINDS["cmdp"].algorithms.values())
    minimax = {
        a
        for a, spec in KINDS["bandit"].algorithms.items()
        if TABLE1[spec.table1].column.startswith("minimax")
    }
    assert minimax == {"exp3g", "exp3g_weak"}


def test_the_closing_message_says_when_the_verdicts_are_stale(tmp_path, capsys):
    """After a run that rebuilt a regime's summary but not the verdict table (`snakemake figures/r.png`), the
    closing message says the verdicts are stale instead of repeating them; with every summary older, it
    reports the table."""
    csv, md = tmp_path / "verdicts.csv", tmp_path / "verdicts.md"
    write_verdict_table([summary_rows()], csv, md)
    older, newer = tmp_path / "a.parquet", tmp_path / "b.parquet"
    older.write_text(""), newer.write_text("")
    table_time = os.path.getmtime(csv)
    os.utime(older, (table_time - 10, table_time - 10))
    os.utime(newer, (table_time + 10, table_time + 10))
    fresh = violation_report(csv)
    assert violation_report(csv, [str(older)]) == fresh
    assert violation_report(csv, [str(older), str(newer), str(tmp_path / "absent.parquet")]) == (
        f"regretlab: {csv} is older than the summaries of b: its verdicts are stale; `snakemake {csv}` "
        "updates them"
    )
    print_violations(csv, [str(newer)])
    assert "stale" in capsys.readouterr().out
