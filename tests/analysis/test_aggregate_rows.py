"""The aggregate's rows on a toy kind with hand-made runs (regretlab.analysis.aggregate): which bounds a
point gets, what each cell holds (verdict, ceiling, uniform play's and the reference learner's values, the
learner constants a bound reads), the twin families, the fits of curves without a bound, and the run
tables read from disk in a trajectory regime."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from regretlab.analysis import aggregate
from regretlab.analysis.aggregate import (
    aggregate_regime,
    fit_exponents,
    mark_identical,
    summarise,
    with_references,
)
from regretlab.analysis.verdicts import BEYOND_HYPOTHESES, NO_BOUND
from regretlab.core.io import write_parquet
from regretlab.specs.bound_spec import BoundSpec, Point
from regretlab.specs.kind_spec import Metric


def bound(evaluate, **extra) -> BoundSpec:
    return BoundSpec(evaluate, "m", True, "toy", {"t": 1.0, "T": 1.0}, "toy", **extra)


#: ``rb`` reads the learner constant ``c`` (1 when the run has none) at each checkpoint and names ``base``
#: as its reference learner; ``skip`` applies only to instances with ``ok``; ``crossed`` is below the
#: metric and its hypotheses fail; ``capped`` reads the metric at the horizon; ``floor`` is a lower bound.
BOUNDS = {
    "skip": bound(lambda p: 1e6, applies=lambda numbers: numbers.get("ok", False)),
    "rb": bound(lambda p: 1000.0 * p["params"].get("c", 1.0), reference="base", at_checkpoint=True),
    "crossed": bound(lambda p: 0.001, hypotheses=lambda p: False),
    "capped": bound(lambda p: 1000.0 + p["m"]),
    "floor": bound(lambda p: -1000.0, direction="lower"),
}
REGIME = {"kind": "toy", "paper": "001", "theorem": "t", "x": "t", "algorithms": ["a", "base"],
          "bounds": {"a": {"paper": ["skip", "rb", "crossed", "capped", "floor"]}, "base": []}}  # fmt: skip
INSTANCES = {"i": {"numbers": {"K": 2}}}
#: Learner ``a``'s constants per seed.
PARAMS = {("i", "a", "paper", 1000, 0): {"c": 2.0}, ("i", "a", "paper", 1000, 1): {"c": 4.0}}


@pytest.fixture
def toy(monkeypatch):
    """A kind with one metric ``m`` (no trivial bound) whose uniform play is worth 7 and records what it was
    asked; learner ``a``'s ceiling on ``m`` is the run's own ``m``."""
    asked = []

    def uniform_value(instance, metric, point, algorithm):
        assert isinstance(point, Point)
        asked.append((metric, algorithm, point["t"], point["params"]))
        return 7.0

    kind = SimpleNamespace(metrics={"m": Metric("m", "", "")}, uniform_value=uniform_value)
    monkeypatch.setattr(aggregate, "KINDS", {"toy": kind})
    monkeypatch.setattr(aggregate, "BOUNDS", BOUNDS)
    monkeypatch.setattr(aggregate, "ceiling", lambda m, alg, p: p["m"] if alg == "a" else math.nan)
    return asked


def toy_runs() -> pd.DataFrame:
    """Two seeds of ``a`` (m = seed + 1 + t/1000) and of ``base`` (m = seed + 10 + t/1000), T = 1000,
    checkpoints 250, 500, 1000; given in reverse order."""
    rows = [
        {"regime": "r", "instance": "i", "algorithm": algorithm, "constants": "paper", "T": 1000,
         "seed": seed, "t": t, "m": seed + offset + t / 1000, "hypotheses_hold": True}
        for algorithm, offset in (("a", 1.0), ("base", 10.0)) for seed in (0, 1) for t in (250, 500, 1000)
    ]  # fmt: skip
    return pd.DataFrame(rows[::-1])


def test_each_point_gets_the_bounds_that_apply_in_its_presets_order_with_their_verdicts(toy):
    summary = summarise("r", REGIME, INSTANCES, toy_runs(), 20, PARAMS)
    keys = ["algorithm", "t", "bound_name"]
    assert summary[keys].values.tolist() == [
        ["a", t, name] for t in (250, 500, 1000) for name in ("rb", "crossed", "capped", "floor")
    ] + [["base", t, ""] for t in (250, 500, 1000)]
    at = summary[summary["t"] == 500].set_index(["algorithm", "bound_name"])
    assert at.loc[("a", "rb"), "bound_value"] == 3000.0  # the mean of 1000·2 and 1000·4
    assert at.loc[("a", "crossed"), "verdict"] == BEYOND_HYPOTHESES
    assert not at.loc[("a", "crossed"), "hypotheses_hold"] and at.loc[("a", "crossed"), "run_hypotheses_hold"]
    # capped: 1000 + m at the horizon, t = 1000 (m = 2 and 3), whatever the checkpoint.
    assert at.loc[("a", "capped"), "bound_value"] == 1002.5
    # The ceiling of an upper bound is the largest per-seed one (m = 1.5, 2.5), of a lower bound the smallest.
    assert at.loc[("a", "capped"), "ceiling"] == 2.5 and at.loc[("a", "capped"), "verdict"] == "implied"
    assert at.loc[("a", "floor"), "ceiling"] == 1.5 and at.loc[("a", "floor"), "verdict"] == "implied"
    base = at.loc[("base", "")]
    assert base["verdict"] == NO_BOUND and math.isnan(base["trivial_bound"]) and math.isnan(base["ceiling"])
    assert base["mean"] == 11.0 and base["null_uniform"] == 7.0


def test_the_reference_learners_value_is_its_mean_at_the_same_checkpoint(toy):
    summary = summarise("r", REGIME, INSTANCES, toy_runs(), 20, PARAMS)
    rb = summary[summary["bound_name"] == "rb"].set_index("t")["null_reference"]
    assert rb.to_dict() == {250: 10.75, 500: 11.0, 1000: 11.5}  # base's m: 10.5 + t/1000
    assert summary[summary["bound_name"] != "rb"]["null_reference"].isna().all()
    assert with_references(pd.DataFrame()).columns.tolist() == ["null_reference"]
    assert with_references(pd.DataFrame())["null_reference"].dtype == float


def test_uniform_play_is_asked_for_the_rows_metric_and_learner_with_the_first_seeds_constants(toy):
    summarise("r", REGIME, INSTANCES, toy_runs(), 20, PARAMS)
    assert ("m", "a", 500, {"c": 2.0}) in toy and ("m", "base", 500, {}) in toy
    assert {algorithm for _, algorithm, _, _ in toy} == {"a", "base"}


def test_a_run_without_recorded_constants_gives_its_bounds_an_empty_params(toy):
    summary = summarise("r", REGIME, INSTANCES, toy_runs(), 20)
    assert (summary[summary["bound_name"] == "rb"]["bound_value"] == 1000.0).all()  # c = 1 by default


def test_a_bound_that_does_not_apply_to_the_instance_is_left_out_and_the_next_one_kept(toy):
    instances = {"i": {"numbers": {"K": 2, "ok": True}}}
    names = summarise("r", REGIME, instances, toy_runs(), 20, PARAMS)["bound_name"]
    assert list(names[:5]) == ["skip", "rb", "crossed", "capped", "floor"]


def test_a_curve_without_a_bound_is_fitted_with_no_drawn_slope_and_no_theory(toy):
    runs = toy_runs()
    summary = summarise("r", REGIME, INSTANCES, runs, 20, PARAMS)
    fits = fit_exponents("r", REGIME, runs, summary, 20).set_index(["algorithm", "bound_name"])
    base = fits.loc[("base", "")]
    assert math.isnan(base["bound_slope"]) and math.isnan(base["theory_exponent"]) and base["reason"] == ""
    assert base["exponent"] > 0 and base["n_points"] == 3
    assert fits.loc[("a", "capped"), "reason"] == "bound taken at the run's horizon T: flat in t"
    assert fits.loc[("a", "rb"), "bound_slope"] == pytest.approx(0.0, abs=1e-12)  # 3000 at every t
    # In a sweep in T with one horizon each curve is one point: no slope, fitted all the same.
    sweep = {**REGIME, "x": "T"}
    one = fit_exponents("r", sweep, runs, summarise("r", sweep, INSTANCES, runs, 20, PARAMS), 20)
    assert (one["n_points"] == 1).all() and (one["identical_to"] == "").all() and one["exponent"].isna().all()


def test_run_tables_read_from_disk_give_the_summary_of_the_runs_they_hold(toy, tmp_path):
    """One table per learner (their row labels overlap) in a trajectory regime: each point's horizon row is
    its own run's, not another table's row of the same label."""
    runs = toy_runs()
    dirs = []
    for algorithm, frame in runs.groupby("algorithm"):
        (tmp_path / algorithm).mkdir()
        learners = [
            {"seed": key[-1], "params": value} for key, value in PARAMS.items() if key[1] == algorithm
        ]
        write_parquet(
            tmp_path / algorithm / "batch.parquet", frame.reset_index(drop=True), {"learners": learners}
        )
        dirs.append(str(tmp_path / algorithm))
    instance = tmp_path / "i.json"
    instance.write_text('{"numbers": {"K": 2}}')
    summary_path, exponents_path = tmp_path / "s.parquet", tmp_path / "e.parquet"
    aggregate_regime("r", REGIME, [str(instance)], dirs, 20, str(summary_path), str(exponents_path))
    expected = summarise("r", REGIME, INSTANCES, runs, 20, PARAMS)
    pd.testing.assert_frame_equal(pd.read_parquet(summary_path), expected, check_dtype=False)


# ------------------------------------------------------------------------------------------------------------
# Twin families
# ------------------------------------------------------------------------------------------------------------


def points(family: str, rows: list[tuple], bounds=("b",)) -> list[dict]:
    """Summary rows of ``algorithm/constants``: (T, t, runs_hash) per point, one row per bound."""
    algorithm, constants = family.split("/")
    return [{"instance": "i", "algorithm": algorithm, "constants": constants, "T": T, "t": t, "runs_hash": h,
             "bound_name": name} for T, t, h in rows for name in bounds]  # fmt: skip


def twins(rows: list[dict], **config) -> dict:
    marked = mark_identical(pd.DataFrame(rows), config)
    return dict(zip(marked["algorithm"] + "/" + marked["constants"], marked["identical_to"], strict=True))


SAME = [(100, 100, "h1"), (1000, 1000, "h2")]


def test_twins_are_named_after_the_first_family_in_the_regimes_algorithm_order():
    rows = (
        points("b/paper", SAME) + points("a/paper", SAME) + points("z/paper", SAME) + points("y/paper", SAME)
    )
    assert twins(rows, algorithms=["b", "a"]) == {"b/paper": "", "a/paper": "b/paper", "z/paper": "b/paper",
                                                   "y/paper": "b/paper"}  # fmt: skip
    assert twins(rows[2:], algorithms=["b", "a"]) == {
        "a/paper": "",
        "z/paper": "a/paper",
        "y/paper": "a/paper",
    }
    assert twins(rows[4:]) == {"z/paper": "y/paper", "y/paper": ""}  # unlisted: by name


def test_twins_are_named_after_the_first_preset_paper_then_tuned_by_default():
    rows = points("a/tuned", SAME) + points("a/paper", SAME) + points("a/fast", SAME)
    assert twins(rows) == {"a/tuned": "a/paper", "a/paper": "", "a/fast": "a/paper"}
    assert twins(rows, constants=["tuned", "paper"]) == {
        "a/tuned": "",
        "a/paper": "a/tuned",
        "a/fast": "a/tuned",
    }
    assert (
        twins(points("a/paper", SAME) + points("a/fast", SAME)[::-1], constants=["paper"])["a/fast"]
        == "a/paper"
    )
    assert twins(points("a/tuned", SAME) + points("a/fast", SAME)) == {"a/tuned": "", "a/fast": "a/tuned"}


def test_twins_need_the_same_points_whatever_the_row_order_and_the_number_of_bounds():
    trajectory = [(1000, 250, "h1"), (1000, 500, "h2")]
    rows = points("a/paper", trajectory, bounds=("b", "c")) + points("b/paper", trajectory[::-1])
    assert twins(rows, algorithms=["a", "b"]) == {"a/paper": "", "b/paper": "a/paper"}
    other_T = points("a/paper", [(100, 100, "h")]) + points("b/paper", [(200, 100, "h")])
    assert twins(other_T) == {"a/paper": "", "b/paper": ""}
    empty = mark_identical(pd.DataFrame(columns=["algorithm", "constants"]), {})
    assert empty["identical_to"].dtype == pd.Series(dtype=str).dtype and empty.empty
    assert np.array_equal(empty.columns, ["algorithm", "constants", "identical_to"])


def test_twins_at_the_same_hashes_but_other_checkpoints_are_not_twins():
    rows = points("a/paper", [(1000, 250, "h1"), (1000, 500, "h2")])
    rows += points("b/paper", [(1000, 300, "h1"), (1000, 600, "h2")])
    assert twins(rows) == {"a/paper": "", "b/paper": ""}


def test_learner_params_are_keyed_by_the_tables_run_even_for_a_one_row_table(tmp_path):
    row = {
        "regime": "r",
        "instance": "i",
        "algorithm": "a",
        "constants": "paper",
        "T": 10,
        "seed": 3,
        "t": 10,
    }
    write_parquet(
        tmp_path / "one.parquet", pd.DataFrame([row]), {"learners": [{"seed": 3, "params": {"c": 1}}]}
    )
    assert aggregate.learner_params([str(tmp_path / "one.parquet")]) == {("i", "a", "paper", 10, 3): {"c": 1}}
