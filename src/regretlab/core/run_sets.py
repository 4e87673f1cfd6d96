"""Playing and writing runs, for every kind alike: one seed batch (:func:`run_and_write`, what ``regretlab
run`` calls) and one run job of the workflow, its runs (instance, horizon, seed batch) of one algorithm and
constants preset in a regime (:class:`regretlab.workflow.jobs.RunPart`), one after the other
(:func:`run_set_and_write`).

The kind's part is its *pipeline* module (:attr:`regretlab.specs.kind_spec.Kind.pipeline`): ``load_instance``,
``instance_at_horizon``, ``run_seeds``, ``SUMMARY_METRICS`` and ``summary_info``; the run scripts import their
kind's pipeline and pass it here.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from types import ModuleType

import pandas as pd

from regretlab.core.io import read_json, read_parquet_metadata, write_run_table
from regretlab.core.seeding import draws_of
from regretlab.core.snapshots import Snapshot, SnapshotPolicy, clear_kept


def play_run_set(
    runs: list[dict],
    instance_paths: dict[str, str],
    load_instance: Callable[[str], object],
    run_one: Callable[[str, object, dict, str], dict],
    directory: str,
    log: logging.Logger,
) -> None:
    """Run and write every run of a run job.

    ``runs`` are ``{"instance", "T", "seeds", "file"}`` dicts; ``instance_paths`` the instance files by name,
    each read once by ``load_instance``; ``run_one(name, instance, run, path)`` runs one and writes its table
    at ``path`` (``file`` under ``directory``), returning a short summary. Each run is logged before it
    starts, so the log of a failed job names the run that failed.
    """
    loaded = {}
    for run in runs:
        name = run["instance"]
        log.info("run instance=%s T=%d seeds=%s", name, run["T"], run["seeds"])
        if name not in loaded:
            loaded[name] = load_instance(instance_paths[name])
        log.info("%s", run_one(name, loaded[name], run, os.path.join(directory, run["file"])))


def run_summary(pipeline: ModuleType, runs: pd.DataFrame, wall_time: float) -> dict:
    """The key columns of a run table and the final (t = T) means of its kind's ``SUMMARY_METRICS``."""
    first = runs.iloc[0]
    final = runs[runs["t"] == first["T"]]
    return {
        "regime": first["regime"],
        "instance": first["instance"],
        "algorithm": first["algorithm"],
        "constants": first["constants"],
        "T": int(first["T"]),
        "seeds": [int(seed) for seed in runs["seed"].unique()],
        **{f"{metric}_mean": float(final[metric].mean()) for metric in pipeline.SUMMARY_METRICS},
        "wall_time_s": round(wall_time, 3),
    }


def restored_summary(pipeline: ModuleType, path: str) -> dict:
    """The summary of a run table restored from an earlier attempt of its job (its wall time is that
    attempt's)."""
    summary = run_summary(pipeline, pd.read_parquet(path), read_parquet_metadata(path)["wall_time_s"])
    return {**summary, "restored": True}


def run_and_write(
    pipeline: ModuleType,
    regime: str,
    instance_name: str,
    instance: object,
    algorithm: str,
    constants: str,
    horizon: int,
    seeds: list[int],
    config: dict,
    path: str | None,
    snapshots: SnapshotPolicy | None = None,
) -> dict:
    """Run a seed batch with the kind's ``pipeline.run_seeds`` (with the draws of the regime ``config`` — the
    regime's entry — shares, :func:`regretlab.core.seeding.draws_of`) and return a short summary.

    With a ``path``, the rows are written atomically as parquet with their provenance (package version, git
    commit, config hash, wall time, the run's metadata: the learner's parameters and hypotheses …) in the
    file's metadata. With ``snapshots``, the batch snapshots its progress and resumes from a snapshot
    (:mod:`regretlab.core.snapshots`), which is removed once the table is written; the table is kept beside it
    until the job completes, and restored (not run again) when a killed job reruns. The regime's ``step``
    for ``algorithm`` (step sizes set by hand), if any, goes to the learner.
    """
    start = time.perf_counter()
    snapshot = (
        None
        if snapshots is None
        else Snapshot(snapshots, regime, algorithm, constants, instance_name, horizon, seeds, config)
    )
    if snapshot is not None and path is not None and snapshot.restore(path):
        return restored_summary(pipeline, path)
    runs, info = pipeline.run_seeds(
        regime,
        instance_name,
        instance,
        algorithm,
        constants,
        horizon,
        seeds,
        draws=draws_of(regime, config),
        snapshot=snapshot,
        **({"step": config["step"][algorithm]} if algorithm in config.get("step", {}) else {}),
    )
    wall_time = time.perf_counter() - start
    if path is not None:
        write_run_table(path, runs, config, wall_time, info, seeds)
    if snapshot is not None:
        snapshot.finish(path)
    return {**run_summary(pipeline, runs, wall_time), **pipeline.summary_info(info)}


def run_set_and_write(
    pipeline: ModuleType,
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
    """Run every run of one run job (:class:`regretlab.workflow.jobs.RunPart`) and write each table under
    ``directory`` (:func:`play_run_set`), with ``snapshots`` (:func:`run_and_write`; the job's kept tables are
    deleted once all are written). Each instance file is read once (``pipeline.load_instance``) and resolved
    for each run's horizon (``pipeline.instance_at_horizon``: a CMDP whose ρ depends on T is rebuilt)."""

    def run_one(name: str, instance: object, run: dict, path: str) -> dict:
        at_horizon = pipeline.instance_at_horizon(instance, config["instances"][name], regime, name, run["T"])
        return run_and_write(
            pipeline,
            regime,
            name,
            at_horizon,
            algorithm,
            constants,
            run["T"],
            run["seeds"],
            config,
            path,
            snapshots,
        )

    def load(path: str) -> object:
        return pipeline.load_instance(read_json(path))

    play_run_set(runs, instance_paths, load, run_one, directory, log)
    if snapshots is not None:
        clear_kept(snapshots, regime, algorithm, constants, runs)
