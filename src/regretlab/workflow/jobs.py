"""How an algorithm's runs in a regime are cut into run jobs, the DAG's job split (:func:`split_runs`), and
what each run costs by the fixed unit costs (:func:`job_cost`, :mod:`regretlab.registry.unit_costs`).

With ``job_minutes`` unset (the default) a run job is every run of one algorithm in a regime: each of its
constants presets' :class:`~regretlab.workflow.config.RunSet` (every instance, horizon and seed batch), one
preset after the other, in one process (the start-up and the compiled kernels' load are paid once, and the
presets do not compile the same kernels side by side on a cold cache). With ``job_minutes = M``,
a seed batch predicted longer than M minutes is first cut into near-equal batches of consecutive seeds that
fit (down to one seed), then the runs are packed in their stable order into jobs of at most M predicted
minutes (start-up included; a single run longer than M is a job of its own). The split depends only on the
config and the fixed table, never on a calibration, so that Snakemake builds the same DAG everywhere. The
power scale (:data:`~regretlab.workflow.config.POWER`) runs one job per (instance, T, seed) whatever
``job_minutes`` says: its runs last hours, and each job resumes from its own snapshots.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from regretlab.registry.unit_costs import STARTUP_SECONDS, kind_cost, run_rounds, run_seconds, unit_cost
from regretlab.specs.algorithm_spec import UnitCost
from regretlab.workflow.config import POWER, RunJob, jobs_of, run_sets


@dataclass(frozen=True)
class JobCost:
    """What one run (:class:`RunJob`) simulates and how long the model says it takes."""

    rounds: int
    simulation_seconds: float


def run_size(config: dict, job: RunJob) -> int:
    """The size the unit costs of ``job``'s instance multiply (K, or support triples)."""
    regime = config["regimes"][job.regime]
    return kind_cost(regime).size(job.regime, job.instance, regime["instances"][job.instance])


def job_cost(config: dict, job: RunJob, costs: Mapping[str, UnitCost] | None = None) -> JobCost:
    """Rounds (or episodes) of one run and its predicted simulation time (module docstring), at the unit
    costs ``costs`` (default :data:`UNIT_COSTS`)."""
    regime = config["regimes"][job.regime]
    seeds = len(job.seeds)
    return JobCost(
        run_rounds(regime, job.instance, job.T, seeds),
        run_seconds(job.regime, regime, job.instance, job.algorithm, job.T, seeds, costs),
    )


@dataclass(frozen=True)
class RunPart:
    """One run job of the workflow: part ``part`` of the runs of ``algorithm`` in ``regime``, its presets'
    run sets one after the other (:func:`split_runs`)."""

    regime: str
    algorithm: str
    part: int


def _split_batch(config: dict, job: RunJob, budget: float) -> list[RunJob]:
    """``job`` itself, or its seeds cut into the fewest near-equal consecutive batches that each fit
    ``budget`` seconds (one seed at least; every batch also plays the run's extra runs)."""
    regime = config["regimes"][job.regime]
    per_run = unit_cost(job.algorithm).run_seconds(job.T, run_size(config, job))
    extra = per_run * kind_cost(regime).extra_runs(regime["instances"][job.instance])
    fits = max(1, math.floor((budget - extra) / per_run)) if per_run > 0 else len(job.seeds)
    pieces = math.ceil(len(job.seeds) / min(fits, len(job.seeds)))
    return [replace(job, seeds=tuple(int(s) for s in chunk)) for chunk in np.array_split(job.seeds, pieces)]


@cache
def _split(blob: str) -> tuple[tuple[RunJob, ...], ...]:
    key = json.loads(blob)
    config, (regime, algorithm) = key["config"], key["runs"]
    runs = [job for s in run_sets(config, regime) if s.algorithm == algorithm for job in jobs_of(config, s)]
    if config["scale"] == POWER:  # runs of hours: one job per seed, each resumable on its own
        return tuple((replace(job, seeds=(seed,)),) for job in runs for seed in job.seeds)
    if config.get("job_minutes") is None:
        return (tuple(runs),)
    budget = 60.0 * config["job_minutes"]
    runs = [piece for job in runs for piece in _split_batch(config, job, budget - STARTUP_SECONDS)]
    parts, current, used = [], [], STARTUP_SECONDS
    for job in runs:
        seconds = job_cost(config, job).simulation_seconds
        if current and used + seconds > budget:
            parts.append(tuple(current))
            current, used = [], STARTUP_SECONDS
        current.append(job)
        used += seconds
    parts.append(tuple(current))
    return tuple(parts)


def split_runs(config: dict, regime: str, algorithm: str) -> tuple[tuple[RunJob, ...], ...]:
    """The runs of each run job of ``algorithm`` in ``regime``, in order, preset after preset (module
    docstring): one job with every run when ``job_minutes`` is unset, else jobs of about ``job_minutes``
    predicted minutes at :data:`UNIT_COSTS`."""
    key = {
        "config": {
            "scale": config["scale"],
            "seeds_per_job": config["seeds_per_job"],
            "job_minutes": config.get("job_minutes"),
            "regimes": {regime: config["regimes"][regime]},
        },
        "runs": [regime, algorithm],
    }
    return _split(json.dumps(key))  # dict order kept: the runs stay in config order


def algorithms_run(config: dict, regime: str) -> list[str]:
    """The algorithms ``regime`` runs at the configured scale, in the config's order."""
    return list(dict.fromkeys(s.algorithm for s in run_sets(config, regime)))


def run_parts(config: dict, regime: str) -> list[RunPart]:
    """The run jobs of ``regime`` at the configured scale and job size, in a stable order."""
    return [
        RunPart(regime, algorithm, part)
        for algorithm in algorithms_run(config, regime)
        for part in range(len(split_runs(config, regime, algorithm)))
    ]


def runs_of_part(config: dict, part: RunPart) -> tuple[RunJob, ...]:
    """The runs (constants preset, instance, horizon, seeds) one run job simulates, in order."""
    parts = split_runs(config, part.regime, part.algorithm)
    if not 0 <= part.part < len(parts):
        jobs = f"{part.algorithm} in {part.regime} has {len(parts)} run jobs"
        raise ValueError(f"{jobs} at this job size, not part {part.part}")
    return parts[part.part]
