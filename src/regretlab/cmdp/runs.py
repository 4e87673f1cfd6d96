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

import logging
import time

import numpy as np
import pandas as pd

from regretlab.cmdp.algorithms import make_learner
from regretlab.cmdp.dual import paper_dual_box_horizon
from regretlab.cmdp.environments import CMDPEnvironment, make_environment
from regretlab.cmdp.instance import CMDP, constraint_summary, make_cmdp
from regretlab.cmdp.simulate import simulate
from regretlab.io import read_json, read_parquet_metadata, stack_run_frames, write_json, write_run_table
from regretlab.run_sets import play_run_set
from regretlab.seeding import environment_and_learner_rngs, job_seed_sequence
from regretlab.snapshots import Snapshot, SnapshotPolicy, TableProgress, clear_kept


def rho_at(spec: dict, horizon: int | None) -> float:
    """The feasibility parameter of an instance at horizon T: ``rho · (T / rho_reference_T)^(-rho_exponent)``.

    With ``rho_exponent = 0`` (the default) it is ``rho`` at every horizon; Theorem 6's regime uses
    ``rho_exponent = 1/4`` (ρ shrinking like T^{-1/4}, so that Condition 2 fails ever more). ``horizon=None``
    gives ``rho`` itself (the instance file).
    """
    if horizon is None or spec["rho_exponent"] == 0:
        return spec["rho"]
    return spec["rho"] * (horizon / spec["rho_reference_T"]) ** (-spec["rho_exponent"])


def build_instance(spec: dict, rng: np.random.Generator, horizon: int | None = None) -> dict:
    """The JSON-ready instance of a validated ``cmdp`` instance config entry, at horizon ``horizon``.

    ``rng`` (the instance's own SeedSequence) draws the CMDP, then the adversarial sign pattern. The draws do
    not depend on the horizon: only the shift of the constraints that sets ρ (:func:`rho_at`) does.
    """
    cmdp = make_cmdp(
        rng,
        spec["family"],
        spec["n_layers"],
        spec["states_per_layer"],
        spec["n_actions"],
        spec["m"],
        rho_at(spec, horizon),
        spec.get("constraint_spread"),
        spec["risky_constraint"],
    )
    environment = make_environment(
        cmdp,
        rng,
        rewards=spec["rewards"],
        constraints=spec["constraints"],
        noise=spec["noise"],
        period=spec["period"],
        reward_amplitude=spec["reward_amplitude"],
        constraint_amplitude=spec["constraint_amplitude"],
        adversary=spec["adversary"],
    )
    numbers = {
        "L": cmdp.L,
        "m": cmdp.m,
        "n_states": cmdp.n_states,
        "n_actions": cmdp.n_actions,
        "delta": spec["delta"],
        "stochastic_rewards": spec["rewards"] == "stochastic",
        "family": spec["family"],
        **constraint_summary(cmdp).to_dict(),
        "paper_dual_box_T": paper_dual_box_horizon(
            cmdp.m, cmdp.n_states, cmdp.n_actions, cmdp.L, spec["delta"]
        ),
        **adversary_numbers(cmdp, environment),
    }
    return {"cmdp": cmdp.to_dict(), "environment": environment.to_dict(), "numbers": numbers}


def adversary_numbers(cmdp: CMDP, environment: CMDPEnvironment) -> dict:
    """What makes adversarial constraints adversarial, over one full cycle of phases (empty otherwise).

    ``rho_stochastic`` (from the cycle's average ``Ḡ``) against ``rho_adversarial`` (§3.5, one ``q°`` for
    every phase); ``max_G_q_star = max_t max_i [G_t^T q*]_i`` and ``share_G_q_star_above_1``, the share of
    the cycle's episodes where it exceeds line 1248's 1 (:class:`~regretlab.cmdp.environments.Benchmark`);
    ``constraint_swing_max`` and ``constraint_swing_min`` (over the entries that move) of
    :meth:`~regretlab.cmdp.environments.PhaseProcess.swing`.
    """
    constraints = environment.constraints
    if constraints.kind != "adversarial":
        return {}
    cycle = environment.benchmark(cmdp.P, constraints.period * constraints.phases.shape[0])
    swing = constraints.swing()
    moving = swing[swing > 0]
    return {
        "rho_stochastic": cmdp.rho,
        "rho_adversarial": cycle.rho,
        "max_G_q_star": cycle.max_G_q_star,
        "share_G_q_star_above_1": cycle.share_G_q_star_above_1,
        "constraint_swing_max": float(swing.max()),
        "constraint_swing_min": float(moving.min()) if moving.size else 0.0,
    }


def write_instance_file(regime: str, name: str, spec: dict, path: str) -> dict:
    """Build instance ``name`` of ``regime`` from its config entry, with the instance's own SeedSequence, and
    write it as JSON at ``path`` (the workflow's instance job); returns its numbers."""
    instance = build_instance(spec, np.random.default_rng(job_seed_sequence(regime, name, "instance")))
    write_json(path, instance)
    return instance["numbers"]


def instance_at_horizon(instance: dict, spec: dict, regime: str, instance_name: str, horizon: int) -> dict:
    """``instance`` itself, or — when its ρ depends on T (``rho_exponent > 0``) — the same draw rebuilt with
    the ρ of ``horizon`` from the instance's own SeedSequence."""
    if spec["rho_exponent"] == 0:
        return instance
    rng = np.random.default_rng(job_seed_sequence(regime, instance_name, "instance"))
    return build_instance(spec, rng, horizon)


def run_seeds(
    regime: str,
    instance_name: str,
    instance: dict,
    algorithm: str,
    constants: str,
    horizon: int,
    seeds: list[int],
    snapshot: Snapshot | None = None,
) -> tuple[pd.DataFrame, dict]:
    """Run ``algorithm`` (``pdgd_ops`` or ``uc_o_gdps``) for every seed; return the checkpoint rows and, per
    seed, the run's metadata (constants, OPT, ρ, ζ, Condition 2, epochs, fallbacks, µs per episode).

    Each row carries the seed's ``rho``, ``opt`` and ``lambda_star_l1`` (the benchmark of Definition 2 for
    this horizon and its ``||λ*||_1``), the primal constant ``C``, the dual step ``dual_eta`` and
    ``condition2`` (Condition 2 at this T), which the bounds, the reference lines and the hypotheses of the
    figures use. With a ``snapshot`` (:mod:`regretlab.snapshots`) the runs save their progress as they go and
    resume from a saved one.
    """
    cmdp = CMDP.from_dict(instance["cmdp"])
    environment = CMDPEnvironment.from_dict(instance["environment"])
    delta = instance["numbers"]["delta"]
    progress = TableProgress(snapshot)
    frames, per_seed = [], []
    for seed in seeds:
        if seed not in progress.done:
            env_rng, trajectory_rng = environment_and_learner_rngs(
                job_seed_sequence(regime, instance_name, seed)
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
            frame["hypotheses_hold"] = True  # the theorems' hypotheses are per bound (regretlab.theory)
            progress.done[seed] = (frame, {"seed": seed, **meta})
        frame, meta = progress.done[seed]
        frames.append(frame)
        per_seed.append(meta)
    runs = stack_run_frames(
        frames, regime=regime, instance=instance_name, algorithm=algorithm, constants=constants, T=horizon
    )
    return runs, {"runs": per_seed}


def run_and_write(
    regime: str,
    instance_name: str,
    instance: dict,
    algorithm: str,
    constants: str,
    horizon: int,
    seeds: list[int],
    config: dict,
    path: str | None,
    snapshots: SnapshotPolicy | None = None,
) -> dict:
    """Run a seed batch (see :func:`run_seeds`) and return a short summary; with a ``path``, also write the
    rows atomically as parquet with their provenance in the file's metadata. With ``snapshots``, the batch
    snapshots its progress and resumes from a snapshot (:mod:`regretlab.snapshots`), which is removed once
    the table is written; the table is kept beside it until the job completes, and restored (not run again)
    when a killed job reruns."""
    start = time.perf_counter()
    snapshot = (
        None
        if snapshots is None
        else Snapshot(snapshots, regime, algorithm, constants, instance_name, horizon, seeds, config)
    )
    if snapshot is not None and path is not None and snapshot.restore(path):
        return restored_summary(path)
    runs, info = run_seeds(regime, instance_name, instance, algorithm, constants, horizon, seeds, snapshot)
    wall_time = time.perf_counter() - start
    if path is not None:
        write_run_table(path, runs, config, wall_time, info, seeds)
    if snapshot is not None:
        snapshot.finish(path)
    return _summary(runs, wall_time)


def _summary(runs: pd.DataFrame, wall_time: float) -> dict:
    """The key columns of a run table and its final (t = T) means."""
    first = runs.iloc[0]
    final = runs[runs["t"] == first["T"]]
    return {
        "regime": first["regime"],
        "instance": first["instance"],
        "algorithm": first["algorithm"],
        "constants": first["constants"],
        "T": int(first["T"]),
        "seeds": [int(seed) for seed in runs["seed"].unique()],
        "regret_mean": float(final["regret"].mean()),
        "violation_mean": float(final["violation"].mean()),
        "wall_time_s": round(wall_time, 3),
    }


def restored_summary(path: str) -> dict:
    """The summary of a run table restored from an earlier attempt of its job (its wall time is that
    attempt's)."""
    summary = _summary(pd.read_parquet(path), read_parquet_metadata(path)["wall_time_s"])
    return {**summary, "restored": True}


def run_set_and_write(
    regime: str,
    algorithm: str,
    constants: str,
    instance_paths: dict[str, str],
    runs: list[dict],
    config: dict,
    directory: str,
    log: logging.Logger,
    snapshots: SnapshotPolicy | None = None,
) -> None:
    """Run every run of one run job (:class:`regretlab.cost.RunPart`) and write each table under
    ``directory`` (:func:`regretlab.run_sets.play_run_set`), with ``snapshots`` (:func:`run_and_write`; the
    job's kept tables are deleted once all are written); an instance whose ρ depends on T is rebuilt per
    horizon (:func:`instance_at_horizon`)."""

    def run_one(name: str, instance: dict, run: dict, path: str) -> dict:
        at_horizon = instance_at_horizon(instance, config["instances"][name], regime, name, run["T"])
        return run_and_write(
            regime, name, at_horizon, algorithm, constants, run["T"], run["seeds"], config, path, snapshots
        )

    play_run_set(runs, instance_paths, read_json, run_one, directory, log)
    if snapshots is not None:
        clear_kept(snapshots, regime, algorithm, constants, runs)
