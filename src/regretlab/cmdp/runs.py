"""What the workflow and the CLI call for a constrained-MDP regime: build an instance from its config entry,
run an algorithm for a batch of seeds, write the run table.

The instance file holds the CMDP (P, r̄, Ḡ, OPT, q*, ρ, q°), the environment (the r_t, G_t sequences) and the
numbers the bounds need, among them the instance family and how its constraints act on the offline problem
(``regretlab.cmdp.instance.ConstraintSummary``: λ*, the unconstrained optimum and its violation, ``binds``).
Each seed's randomness comes from ``job_seed_sequence(regime, instance, seed)``,
which spawns the environment's generator (r_t, G_t: the same for every algorithm of a seed) and the
trajectory generator (actions and transitions).
"""

from __future__ import annotations

import pandas as pd

from regretlab.cmdp.algorithms import make_learner
from regretlab.cmdp.environments import CMDPEnvironment
from regretlab.cmdp.instance import CMDP
from regretlab.cmdp.instance_builder import build_instance as build_instance
from regretlab.cmdp.instance_builder import instance_at_horizon as instance_at_horizon
from regretlab.cmdp.instance_builder import rho_at as rho_at
from regretlab.cmdp.simulate import simulate
from regretlab.core.io import stack_run_frames
from regretlab.core.seeding import environment_and_learner_rngs, job_seed_sequence
from regretlab.core.snapshots import Snapshot, TableProgress


def run_seeds(
    regime: str,
    instance_name: str,
    instance: dict,
    algorithm: str,
    constants: str,
    horizon: int,
    seeds: list[int],
    snapshot: Snapshot | None = None,
    draws: str | None = None,
) -> tuple[pd.DataFrame, dict]:
    """Run ``algorithm`` (``pdgd_ops`` or ``uc_o_gdps``) for every seed; return the checkpoint rows and, per
    seed, the run's metadata (constants, OPT, ρ, ζ, Condition 2, epochs, fallbacks, µs per episode).

    Each row carries the seed's ``rho``, ``opt`` and ``lambda_star_l1`` (the benchmark of Definition 2 for
    this horizon and its ``||λ*||_1``), the primal constant ``C``, the dual step ``dual_eta`` and
    ``condition2`` (Condition 2 at this T), which the bounds, the reference lines and the hypotheses of the
    figures use. With a ``snapshot`` (:mod:`regretlab.core.snapshots`) the runs save their progress as they go
    and resume from a saved one. ``draws``: the regime whose SeedSequences the seeds use (None: ``regime``).
    """
    cmdp = CMDP.from_dict(instance["cmdp"])
    environment = CMDPEnvironment.from_dict(instance["environment"])
    delta = instance["numbers"]["delta"]
    progress = TableProgress(snapshot)
    frames, per_seed = [], []
    for seed in seeds:
        if seed not in progress.done:
            env_rng, trajectory_rng = environment_and_learner_rngs(
                job_seed_sequence(regime if draws is None else draws, instance_name, seed)
            )
            learner = make_learner(
                algorithm, cmdp.layer_sizes, cmdp.n_actions, cmdp.m, horizon, delta, constants, rho=cmdp.rho
            )
            frame, meta = simulate(
                learner, cmdp, environment, horizon, env_rng, trajectory_rng, progress=progress.seed(seed)
            )
            frame.insert(0, "seed", seed)
            frame["rho"], frame["opt"], frame["C"] = meta["rho"], meta["opt"], learner.constants.C
            frame["lambda_star_l1"], frame["dual_eta"] = meta["lambda_star_l1"], learner.constants.eta
            frame["condition2"] = meta["condition2"]
            frame["hypotheses_hold"] = True  # hypotheses are per bound (registry.theory)
            progress.done[seed] = (frame, {"seed": seed, **meta})
        frame, meta = progress.done[seed]
        frames.append(frame)
        per_seed.append(meta)
    runs = stack_run_frames(
        frames, regime=regime, instance=instance_name, algorithm=algorithm, constants=constants, T=horizon
    )
    return runs, {"runs": per_seed}



# The kind's pipeline (regretlab.specs.kind_spec.Kind.pipeline): what regretlab.core.run_sets, `regretlab run`
# and the calibration call besides run_seeds.

#: The metrics whose final means a run's summary shows (:func:`regretlab.core.run_sets.run_summary`).
SUMMARY_METRICS = ("regret", "violation")


def load_instance(contents: dict) -> dict:
    """The instance of an instance file's contents: the contents themselves."""
    return contents


def summary_info(info: dict) -> dict:
    """What a run's summary shows of its metadata: nothing (each seed's is in the table's metadata)."""
    return {}
