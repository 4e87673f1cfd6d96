"""The cost model behind `regretlab estimate` and the jobs' requests (regretlab.workflow.cost)."""

import math
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from regretlab.bandits.kind import calibration_runs
from regretlab.registry.unit_costs import STARTUP_SECONDS
from regretlab.workflow.config import jobs_of, run_sets, validate_config
from regretlab.workflow.cost import (
    RUN_STARTUP_MINUTES,
    RUNTIME_SAFETY_FACTOR,
    RegimeEstimate,
    estimate,
    format_estimate,
    runtime_minutes,
    wall_seconds,
)
from regretlab.workflow.jobs import RunPart, algorithms_run, job_cost, run_parts, runs_of_part, split_runs

REPO = Path(__file__).resolve().parents[1]


def test_theorem5_jobs_count_their_calibration_runs():
    """A job on Theorem 5's environment 2 first plays `calibration_seeds` runs of length T on environment 1
    (lower_bound.materialise); environment 1 and every other instance play their seeds only."""
    raw = yaml.safe_load((REPO / "tests" / "config" / "default.yaml").read_text(encoding="utf-8"))  # shipped
    config = validate_config(raw, REPO / "schemas" / "config.schema.yaml")
    regime = raw["regimes"]["weak_theorem5_lower_bound"]
    grid = regime["scales"][raw["scale"]]
    env1, env2 = (regime["instances"][name] for name in ("environment_1", "environment_2"))
    assert calibration_runs(env1) == 0 and calibration_runs(env2) == env2["losses"]["calibration_seeds"] > 0
    assert calibration_runs(next(iter(raw["regimes"]["weak_general_best_in_S"]["instances"].values()))) == 0
    (found,) = [e for e in estimate(config) if e.regime == "weak_theorem5_lower_bound"]
    runs_per_horizon = 2 * grid["seeds"] + calibration_runs(env2)  # seeds on both environments, calibration
    per_algorithm = sum(horizon * runs_per_horizon for horizon in grid["horizons"])
    assert found.rounds == len(regime["algorithms"]) * per_algorithm


def _config(path: str, **overrides) -> dict:
    config = validate_config(
        yaml.safe_load((REPO / path).read_text(encoding="utf-8")), REPO / "schemas" / "config.schema.yaml"
    )
    config.update(overrides)
    return config


def _seed_runs(jobs) -> list[tuple]:
    """Every (preset, instance, T, seed) of some runs, in order."""
    return [(job.constants, job.instance, job.T, seed) for job in jobs for seed in job.seeds]


@pytest.mark.parametrize(
    ("path", "scale", "job_minutes"),
    [
        ("tests/config/smoke.yaml", "quick", 1e-6),
        ("tests/config/default.yaml", "quick", 0.05),
        ("tests/config/default.yaml", "paper", 15),
    ],
)
def test_a_split_plays_every_seed_once_in_order_in_jobs_of_the_budget(path, scale, job_minutes):
    config = _config(path, scale=scale, job_minutes=job_minutes)
    whole = _config(path, scale=scale)
    for regime in config["regimes"]:
        for algorithm in algorithms_run(config, regime):
            parts = split_runs(config, regime, algorithm)
            assert len(split_runs(whole, regime, algorithm)) == 1
            # Preset after preset: each preset's runs in order, every seed once.
            presets = [s for s in run_sets(config, regime) if s.algorithm == algorithm]
            assert _seed_runs(job for part in parts for job in part) == _seed_runs(
                job for run_set in presets for job in jobs_of(config, run_set)
            )
            for part in parts:
                seconds = STARTUP_SECONDS + sum(job_cost(config, job).simulation_seconds for job in part)
                # Over budget only as a single run that one seed already makes too long.
                assert seconds <= 60 * job_minutes or (len(part) == 1 and len(part[0].seeds) == 1), part
        parts = run_parts(config, regime)
        assert parts == [
            RunPart(regime, algorithm, k)
            for algorithm in algorithms_run(config, regime)
            for k in range(len(split_runs(config, regime, algorithm)))
        ]
        algorithms = algorithms_run(config, regime)
        assert [runs_of_part(config, part) for part in parts] == [
            part for algorithm in algorithms for part in split_runs(config, regime, algorithm)
        ]


def test_the_paper_scale_on_a_cluster_is_cut_into_many_short_jobs():
    """profiles/slurm's 15 minutes: more jobs, the same rounds, and on 200 workers a wall time of at most the
    budget (no single run of the paper scale is longer), where whole run sets take longer than the budget."""
    whole = estimate(_config("tests/config/default.yaml", scale="paper"))
    split = estimate(_config("tests/config/default.yaml", scale="paper", job_minutes=15))
    assert sum(e.run_jobs for e in split) > sum(e.run_jobs for e in whole)
    assert sum(e.rounds for e in split) == sum(e.rounds for e in whole)
    wall_split = wall_seconds([s for e in split for s in e.job_seconds], 200)
    wall_whole = wall_seconds([s for e in whole for s in e.job_seconds], 200)
    assert wall_split <= 15 * 60 < wall_whole


@given(st.lists(st.floats(0.0, 1e4), min_size=1, max_size=40), st.integers(1, 50))
def test_wall_time_lies_between_the_bounds_of_any_schedule(jobs, workers):
    wall = wall_seconds(jobs, workers)
    assert wall >= max(jobs) - 1e-9 and wall >= sum(jobs) / workers - 1e-6
    assert wall <= sum(jobs) / workers + max(jobs) + 1e-6  # Graham's bound for any list schedule
    if workers >= len(jobs):
        assert wall == max(jobs)


def test_requests_keep_the_safety_factor_and_the_prediction_does_not():
    config = _config("tests/config/smoke.yaml", scale="quick")
    for regime in config["regimes"]:
        for part in run_parts(config, regime):
            seconds = sum(job_cost(config, job).simulation_seconds for job in runs_of_part(config, part))
            assert runtime_minutes(config, part) == math.ceil(
                RUN_STARTUP_MINUTES + RUNTIME_SAFETY_FACTOR * seconds / 60
            )
            assert runtime_minutes(config, part, attempt=2) == 2 * runtime_minutes(config, part)
    (found,) = [e for e in estimate(config) if e.regime == "smoke_cmdp"]
    assert found.predicted_cpu_hours * 3600 == pytest.approx(sum(found.job_seconds))


def test_the_estimate_prints_seconds_where_hours_round_to_zero():
    tiny = RegimeEstimate("r", "rounds", 1, 1000, 3.6 / 3600, 0.004999, (3.6,))
    large = RegimeEstimate("s", "rounds", 1, 10**9, 0.005, 2.0, (18.0,))
    lines = format_estimate([tiny, large], "quick").splitlines()
    assert lines[2].split()[-4:] == ["3.6", "s", "18", "s"]  # 0.004999 h is 18 s
    assert lines[3].split()[-2:] == ["0.01", "2.00"]  # 0.005 h rounds to 0.01: hours from there


def test_the_estimate_shows_the_last_runs_measured_times_beside_its_prediction():
    """Per regime the hours its runs last took (a regime never run gets a dash; one not estimated is left
    out), their total, and those runs spread on the workers as the prediction's jobs are (longest first, each
    to the least loaded)."""
    first = RegimeEstimate("first", "episodes", 2, 10**6, 1.0, 4.0, (1800.0, 1800.0))
    second = RegimeEstimate("second", "episodes", 1, 10**6, 0.5, 2.0, (1800.0,))
    measured = {"first": [3600.0, 900.0, 900.0], "other": [7200.0]}
    lines = format_estimate([first, second], "power", 2, measured=measured).splitlines()
    assert lines[1].endswith("  last run-h")
    assert lines[2].split()[-3:] == ["1.00", "4.00", "1.50"]  # 5400 s of runs
    assert lines[3].split()[-3:] == ["0.50", "2.00", "—"]
    assert lines[4].split()[-1] == "1.50"  # the estimated regimes' runs only
    # Longest first on 2 workers: 3600 | 900 + 900.
    assert lines[-1] == (
        "last run (archive/power/<regime>/provenance.json, each run's own wall time): "
        "3 runs, 1.50 h in all, longest 1.00 h; on 2 workers 1.00 h"
    )
    assert "last" not in format_estimate([first, second], "power", 2)  # nothing measured: no column, no line
