"""One function that runs a bandit algorithm on an instance, used by both the CLI and the workflow."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from regretlab.bandits.algorithms import ALGORITHMS, make_learner
from regretlab.bandits.instance import BanditInstance
from regretlab.bandits.tracking import RECORD_COLUMNS, Tracker
from regretlab.checkpoints import log_checkpoints
from regretlab.io import stack_run_frames, write_run_table
from regretlab.seeding import environment_and_learner_rngs, job_seed_sequence

#: Rounds simulated per call into a compiled kernel: bounds memory at ``CHUNK_ROUNDS × K`` floats.
CHUNK_ROUNDS = 8192


def simulate(
    learner,
    instance: BanditInstance,
    horizon: int,
    env_rng: np.random.Generator,
    checkpoints: np.ndarray | None = None,
) -> pd.DataFrame:
    """Play ``horizon`` rounds; return one row per checkpoint with the columns of ``RECORD_COLUMNS``.

    The frame's ``attrs["L_per_arm"]`` holds every arm's total loss L_i over the horizon (paper 001, §2).
    """
    if horizon < 1:
        raise ValueError(f"horizon must be a positive integer, got {horizon}")
    checkpoints = log_checkpoints(horizon) if checkpoints is None else np.asarray(checkpoints, dtype=np.int64)
    tracker = Tracker(instance.graph.n_arms, checkpoints)
    for t0 in range(0, horizon, CHUNK_ROUNDS):
        losses = instance.environment.draw(env_rng, t0, min(CHUNK_ROUNDS, horizon - t0))
        learner.play(losses, t0, tracker)
    if not tracker.complete:
        raise RuntimeError("the run ended before every checkpoint was recorded (checkpoint beyond horizon?)")
    frame = pd.DataFrame(tracker.records, columns=list(RECORD_COLUMNS))
    frame.attrs["L_per_arm"] = tracker.cum_loss.tolist()
    frame.insert(0, "t", checkpoints)
    frame["best_arm"] = frame["best_arm"].astype(np.int64)
    return frame


def realised_L_star(instance: BanditInstance, horizon: int, env_rng: np.random.Generator) -> float:
    """L* = min_i Σ_t ℓ_{t,i} of the loss sequence ``env_rng`` will produce (a dry pass of the environment).

    Used only to hand the true L* to algorithms whose theorem assumes it known (oracle tuning).
    """
    totals = np.zeros(instance.graph.n_arms)
    for t0 in range(0, horizon, CHUNK_ROUNDS):
        totals += instance.environment.draw(env_rng, t0, min(CHUNK_ROUNDS, horizon - t0)).sum(axis=0)
    return float(totals.min())


def run_seeds(
    regime: str,
    instance_name: str,
    instance: BanditInstance,
    algorithm: str,
    constants: str,
    horizon: int,
    seeds: list[int],
) -> tuple[pd.DataFrame, dict]:
    """Run ``algorithm`` for every seed; return the stacked checkpoint rows and, per seed, the learner's
    parameters and hypotheses.

    Each seed's randomness comes from ``job_seed_sequence(regime, instance_name, seed)``. An algorithm whose
    theorem tunes η with L* gets the true L* of the seed's loss sequence (computed by a dry pass of the same
    environment stream) and the run records ``oracle_L_star = True``. The instance is resolved for the
    horizon first (:meth:`BanditInstance.at_horizon`: a minimax instance's gap depends on T).
    """
    instance = instance.at_horizon(horizon)
    frames, learners = [], []
    needs_oracle = ALGORITHMS[algorithm].needs_L_star if algorithm in ALGORITHMS else False
    for seed in seeds:
        key = job_seed_sequence(regime, instance_name, seed)
        env_rng, learner_rng = environment_and_learner_rngs(key)
        oracle = {}
        if needs_oracle:
            oracle["L_star"] = realised_L_star(instance, horizon, environment_and_learner_rngs(key)[0])
        learner = make_learner(algorithm, instance, horizon, learner_rng, constants, oracle)
        frame = simulate(learner, instance, horizon, env_rng)
        frame.insert(0, "seed", seed)
        frame["hypotheses_hold"] = all(learner.hypotheses.values())
        frames.append(frame)
        learners.append(
            {
                "seed": seed,
                "params": learner.params,
                "hypotheses": learner.hypotheses,
                "L_per_arm": frame.attrs["L_per_arm"],
            }
        )
    runs = stack_run_frames(
        frames, regime=regime, instance=instance_name, algorithm=algorithm, constants=constants, T=horizon
    )
    return runs, {"oracle_L_star": needs_oracle, "learners": learners}


def run_and_write(
    regime: str,
    instance_name: str,
    instance: BanditInstance,
    algorithm: str,
    constants: str,
    horizon: int,
    seeds: list[int],
    config: dict,
    path: str | None,
) -> dict:
    """Run a seed batch (see :func:`run_seeds`) and return a short summary.

    With a ``path``, the rows are written atomically as parquet with their provenance (package version, git
    commit, config hash, wall time, the learner's parameters and hypotheses) in the file's metadata.
    """
    start = time.perf_counter()
    runs, learner_info = run_seeds(regime, instance_name, instance, algorithm, constants, horizon, seeds)
    wall_time = time.perf_counter() - start
    if path is not None:
        write_run_table(path, runs, config, wall_time, learner_info, seeds)
    final = runs[runs["t"] == horizon]
    return {
        "regime": regime,
        "instance": instance_name,
        "algorithm": algorithm,
        "constants": constants,
        "T": horizon,
        "seeds": list(seeds),
        "pseudo_regret_mean": float(final["pseudo_regret"].mean()),
        "L_star_mean": float(final["L_star"].mean()),
        "wall_time_s": round(wall_time, 3),
        **learner_info,
    }
