"""`regretlab estimate --calibrate` (regretlab.workflow.calibration): unit costs measured here predict the CPU
time of a small scale within a factor of 2. Calibration and measurement run back to back in this process and
both in process CPU time, so other load on the machine slows them alike and inflates neither much."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import yaml

from regretlab.bandits import instance as bandit_instance
from regretlab.bandits import simulate as bandit_simulate
from regretlab.cmdp import runs as cmdp_runs
from regretlab.core.seeding import job_seed_sequence
from regretlab.workflow import jobs
from regretlab.workflow.calibration import calibrate
from regretlab.workflow.config import validate_config

REPO = Path(__file__).resolve().parents[1]

#: Two instance sizes per kind (so the fit in the size is used), horizons between the calibration's runs and
#: past them, several seeds: a few seconds of simulation in all.
CONFIG = """
scale: quick
seeds_per_job: 2
regimes:
  bandits:
    kind: bandit
    paper: "001"
    theorem: calibration
    x: T
    instances:
      small:
        graph: {family: disjoint_cliques, clique_sizes: [3, 3]}
        losses: {kind: bernoulli, best_mean: 0.3, gap: 0.2}
      large:
        graph: {family: disjoint_cliques, clique_sizes: [4, 4, 4, 4]}
        losses: {kind: bernoulli, best_mean: 0.3, gap: 0.2}
    algorithms: [exp3g, theorem2]
    bounds: {exp3g: [exp3g_rate], theorem2: [theorem2_bound]}
    scales:
      quick: {horizons: [3000, 100000, 400000], seeds: 3}
      paper: {horizons: [3000, 300000], seeds: 3}
  cmdps:
    kind: cmdp
    paper: "000"
    theorem: calibration
    x: T
    instances:
      small:
        {n_layers: 3, states_per_layer: 2, n_actions: 2, m: 1, rho: 2.9, rewards: stochastic,
         constraints: stochastic}
      large:
        {n_layers: 4, states_per_layer: 3, n_actions: 3, m: 1, rho: 3.5, rewards: stochastic,
         constraints: stochastic}
    algorithms: [pdgd_ops]
    bounds: {pdgd_ops: [theorem5_regret]}
    scales:
      quick: {horizons: [2000, 15000], seeds: 3}
      paper: {horizons: [2000, 30000], seeds: 3}
"""


def play_every_run(config: dict) -> float:
    """CPU seconds of every run of ``config``, played as its run jobs play them (instances built once)."""
    total = 0.0
    for regime, spec in config["regimes"].items():
        for part in jobs.run_parts(config, regime):
            for job in jobs.runs_of_part(config, part):
                entry = spec["instances"][job.instance]
                rng = np.random.default_rng(job_seed_sequence(regime, job.instance, "instance"))
                if spec["kind"] == "cmdp":
                    instance, run_seeds = cmdp_runs.build_instance(entry, rng), cmdp_runs.run_seeds
                else:
                    instance, run_seeds = (
                        bandit_instance.build_instance(entry, rng),
                        bandit_simulate.run_seeds,
                    )
                start = time.process_time()
                run_seeds(
                    regime, job.instance, instance, job.algorithm, job.constants, job.T, list(job.seeds)
                )
                total += time.process_time() - start
    return total


def test_calibrated_prediction_is_within_a_factor_of_2_of_the_measured_time():
    config = validate_config(yaml.safe_load(CONFIG), REPO / "schemas" / "config.schema.yaml")
    calibration = calibrate(config, target_seconds=3.0)
    assert set(calibration.costs) == {"exp3g", "theorem2", "pdgd_ops"}
    assert {len(anchors) for anchors in calibration.anchors.values()} == {2}  # both sizes measured
    measured = play_every_run(config)
    predicted = sum(
        jobs.job_cost(config, job, calibration.costs).simulation_seconds
        for regime in config["regimes"]
        for part in jobs.run_parts(config, regime)
        for job in jobs.runs_of_part(config, part)
    )
    assert measured > 1.0, "too small a scale to test the prediction"
    assert 0.5 <= predicted / measured <= 2.0, (predicted, measured, calibration)
