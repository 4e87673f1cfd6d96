"""The toy kind's pipeline (:attr:`regretlab.specs.kind_spec.Kind.pipeline`): its instances and runs."""

from __future__ import annotations

import numpy as np
import pandas as pd

from regretlab.core.checkpoints import log_checkpoints
from regretlab.core.io import stack_run_frames
from regretlab.core.seeding import environment_and_learner_rngs, job_seed_sequence
from regretlab.toy.algorithms import ALGORITHMS
from regretlab.toy.instance import build_instance as build_instance

#: The metrics whose final means a run's summary shows.
SUMMARY_METRICS = ("toy_pseudo_regret",)


def load_instance(contents: dict) -> dict:
    return contents


def instance_at_horizon(instance: dict, spec: dict, regime: str, instance_name: str, horizon: int) -> dict:
    return instance


def summary_info(info: dict) -> dict:
    return {}


def run_seeds(
    regime: str,
    instance_name: str,
    instance: dict,
    algorithm: str,
    constants: str,
    horizon: int,
    seeds: list[int],
    draws: str | None = None,
    snapshot: object = None,
) -> tuple[pd.DataFrame, dict]:
    """Every seed's checkpoint rows and, per seed, the learner's parameters (a toy run is short: no
    snapshots)."""
    means = np.array(instance["means"])
    checkpoints = log_checkpoints(horizon)
    frames, learners = [], []
    for seed in seeds:
        env_rng, _ = environment_and_learner_rngs(job_seed_sequence(draws or regime, instance_name, seed))
        learner = ALGORITHMS[algorithm].build(len(means), horizon)
        expected = np.empty(horizon)
        for t in range(horizon):
            p = learner.act()
            expected[t] = p @ means
            learner.update((env_rng.random(len(means)) < means).astype(float))
        regret = np.cumsum(expected) - np.arange(1, horizon + 1) * means.min()
        frame = pd.DataFrame({"t": checkpoints, "toy_pseudo_regret": regret[checkpoints - 1]})
        frame.insert(0, "seed", seed)
        frame["hypotheses_hold"] = True
        frames.append(frame)
        learners.append({"seed": seed, "params": learner.params, "hypotheses": learner.hypotheses})
    runs = stack_run_frames(
        frames, regime=regime, instance=instance_name, algorithm=algorithm, constants=constants, T=horizon
    )
    return runs, {"learners": learners}
