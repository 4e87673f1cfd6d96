"""What the run jobs cost: one model for every job's resource request (``rules/resources.smk``, which SLURM
turns into ``--time`` and ``--mem``) and for ``regretlab estimate`` (the cost of a whole scale before it is
submitted). Nothing here changes a result.

A run (one instance, horizon and seed batch) simulates ``rounds = T × (seeds in its batch)`` rounds (bandit)
or episodes (CMDP); a run job simulates the runs of one algorithm and constants preset on a whole regime
(:class:`regretlab.config.RunSet`), one after the other. A run's simulation time is ``rounds × size × unit
cost``, where the size and the unit cost depend on the regime's kind
(:data:`KIND_COSTS`): for a bandit, the instance's number of arms K and the algorithm's cost per arm and
round; for a CMDP, the instance's number of (state, action) pairs and the cost per pair and episode. The
wall-time request of one job, in minutes, is::

    attempt * ceil(RUN_STARTUP_MINUTES + RUNTIME_SAFETY_FACTOR * Σ_runs simulation seconds / 60)

``attempt`` is 1, then 2 on the first retry (profiles/slurm sets ``retries: 1``), so a job killed at its time
limit is retried with more. Memory of a job is that of its largest run; of a bandit run, in MB:
``attempt * (RUN_BASE_MEM_MB + CHUNK_COPIES × CHUNK_ROUNDS × K float64)``, of a CMDP run
``attempt * RUN_BASE_MEM_MB``: a run's memory does not grow with T.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from regretlab.bandits.algorithms import ALGORITHMS
from regretlab.bandits.instance import GRAPH_FAMILIES
from regretlab.bandits.simulate import CHUNK_ROUNDS
from regretlab.cmdp import runs as cmdp_runs
from regretlab.config import RunJob, RunSet, batch_seeds, jobs_of, run_sets
from regretlab.seeding import job_seed_sequence

#: Cost of one simulated round per arm, in microseconds, by bandit algorithm: the ``unit_cost_us`` of each
#: registry entry that has one (measurements in regretlab.bandits.algorithms).
ROUND_COST_US_PER_ARM = {
    name: spec.unit_cost_us for name, spec in ALGORITHMS.items() if spec.unit_cost_us is not None
}
#: For a bandit algorithm not yet measured (give its entry a ``unit_cost_us`` from benchmarks/): ten times
#: Exp3.G's.
UNMEASURED_ROUND_COST_US_PER_ARM = 1.0
#: Cost of one constrained-MDP episode, in microseconds, per (state, action) pair of the instance: the
#: compiled episode loop (warm-started projection, true occupancy, every recorded metric) measured 9.3 µs
#: CPU per episode on the small instance (12 pairs) and 181 µs on the medium one (~110 pairs) with
#: benchmarks/bench_cmdp.py, i.e. 0.8–1.7 µs per pair; 3 leaves room for slower cluster cores.
EPISODE_COST_US_PER_PAIR = 3.0
#: Multiplies the estimated simulation time in the request: shared nodes, slower CPUs, file-system latency.
RUNTIME_SAFETY_FACTOR = 3
#: Fixed part of every run job's request: interpreter start, imports, numba compilation, files.
RUN_STARTUP_MINUTES = 1
#: Measured fixed cost of a run job (~5 s for a T = 1000 job), used by the prediction of :func:`estimate`.
RUN_STARTUP_SECONDS = 5.0
#: Memory of a run job before its loss chunk, in MB (~300 MB peak measured; headroom for other platforms).
RUN_BASE_MEM_MB = 1024
#: Copies of the per-chunk loss matrix a bandit run may hold at once (the draw, its conversions, the view).
CHUNK_COPIES = 4


@cache
def _arms(graph_json: str) -> int:
    """K of a graph entry (a random family draws from a throwaway generator: K does not depend on it)."""
    graph = json.loads(graph_json)
    return GRAPH_FAMILIES[graph["family"]](graph, np.random.default_rng(0)).n_arms


def instance_arms(regime: str, instance: str, spec: dict) -> int:
    """K, the number of arms of a bandit instance entry."""
    return _arms(json.dumps(spec["graph"], sort_keys=True))


@cache
def _pairs(regime: str, instance: str, spec_json: str) -> int:
    numbers = cmdp_runs.build_instance(
        json.loads(spec_json), np.random.default_rng(job_seed_sequence(regime, instance, "instance"))
    )["numbers"]
    return numbers["n_states"] * numbers["n_actions"]


def instance_pairs(regime: str, instance: str, spec: dict) -> int:
    """|X||A| of a CMDP instance entry (x_0 and x_L included), from the instance its job builds (~10 ms, once
    per instance), so that every CMDP family :func:`regretlab.cmdp.runs.build_instance` builds is sized."""
    return _pairs(regime, instance, json.dumps(spec, sort_keys=True))


def _bandit_memory_mb(regime: str, instance: str, spec: dict) -> float:
    """A bandit run's base memory plus its loss chunks (CHUNK_COPIES × CHUNK_ROUNDS × K float64), in MB."""
    return RUN_BASE_MEM_MB + CHUNK_COPIES * CHUNK_ROUNDS * instance_arms(regime, instance, spec) * 8 / 2**20


@dataclass(frozen=True)
class KindCost:
    """The cost model of one kind of regime.

    Attributes:
        unit: what a run simulates (``rounds`` or ``episodes``).
        size: (regime, instance, instance entry) → the size the unit cost multiplies (K, |X||A|).
        unit_cost_us: algorithm → microseconds per unit and per size.
        memory_mb: (regime, instance, instance entry) → memory of one job at its first attempt, in MB.
        extra_runs: instance entry → horizon-T runs a job plays besides its seeds' (Theorem 5's calibration
            runs on environment 1, :func:`regretlab.bandits.lower_bound.materialise`).
    """

    unit: str
    size: Callable[[str, str, dict], int]
    unit_cost_us: Callable[[str], float]
    memory_mb: Callable[[str, str, dict], float]
    extra_runs: Callable[[dict], int] = lambda spec: 0


def calibration_runs(spec: dict) -> int:
    """Runs on environment 1 that a job on Theorem 5's environment 2 plays first to find its interval."""
    losses = spec.get("losses", {})
    if losses.get("kind") == "theorem5" and losses.get("environment") == 2:
        return int(losses["calibration_seeds"])
    return 0


#: The cost model of each kind of regime (a key of :data:`regretlab.kinds.KINDS`).
KIND_COSTS: dict[str, KindCost] = {
    "bandit": KindCost(
        unit="rounds",
        size=instance_arms,
        unit_cost_us=lambda algorithm: ROUND_COST_US_PER_ARM.get(algorithm, UNMEASURED_ROUND_COST_US_PER_ARM),
        memory_mb=_bandit_memory_mb,
        extra_runs=calibration_runs,
    ),
    "cmdp": KindCost(
        unit="episodes",
        size=instance_pairs,
        unit_cost_us=lambda algorithm: EPISODE_COST_US_PER_PAIR,
        memory_mb=lambda regime, instance, spec: RUN_BASE_MEM_MB,
    ),
}


@dataclass(frozen=True)
class JobCost:
    """What one run job simulates and how long the model says it takes."""

    rounds: int
    simulation_seconds: float


def run_rounds(regime: dict, instance: str, T: int, seeds: int = 1) -> int:
    """Rounds (or episodes) that ``seeds`` runs at horizon ``T`` on one instance of ``regime`` (a validated
    config entry) simulate, Theorem 5's calibration runs included."""
    return int(T) * (seeds + KIND_COSTS[regime["kind"]].extra_runs(regime["instances"][instance]))


def run_seconds(
    regime_name: str, regime: dict, instance: str, algorithm: str, T: int, seeds: int = 1
) -> float:
    """Predicted simulation seconds of ``seeds`` runs of ``algorithm`` on one instance of a regime at horizon
    ``T`` (``regime`` its validated config entry; no job start-up): rounds × size × unit cost (module
    docstring). Any horizon, not only the config's: the evidence table prices each claim's
    ``T_informative``."""
    model = KIND_COSTS[regime["kind"]]
    size = model.size(regime_name, instance, regime["instances"][instance])
    return run_rounds(regime, instance, T, seeds) * size * model.unit_cost_us(algorithm) * 1e-6


def job_cost(config: dict, job: RunJob) -> JobCost:
    """Rounds (or episodes) of one run job and its predicted simulation time."""
    regime = config["regimes"][job.regime]
    seeds = len(batch_seeds(config, job.regime, job.batch, job.T))
    return JobCost(
        run_rounds(regime, job.instance, job.T, seeds),
        run_seconds(job.regime, regime, job.instance, job.algorithm, job.T, seeds),
    )


def runtime_minutes(config: dict, run_set: RunSet, attempt: int = 1) -> int:
    """Wall-time request of one run job (all the runs of ``run_set``), in minutes (module docstring)."""
    seconds = sum(job_cost(config, job).simulation_seconds for job in jobs_of(config, run_set))
    return attempt * math.ceil(RUN_STARTUP_MINUTES + RUNTIME_SAFETY_FACTOR * seconds / 60)


def mem_mb(config: dict, run_set: RunSet, attempt: int = 1) -> int:
    """Memory request of one run job, in MB: that of its largest run (they run one after the other)."""
    regime = config["regimes"][run_set.regime]
    memory = max(
        KIND_COSTS[regime["kind"]].memory_mb(job.regime, job.instance, regime["instances"][job.instance])
        for job in jobs_of(config, run_set)
    )
    return attempt * math.ceil(memory)


@dataclass(frozen=True)
class RegimeEstimate:
    """The cost of one regime's run jobs at the config's scale."""

    regime: str
    unit: str
    run_jobs: int
    rounds: int
    predicted_cpu_hours: float
    requested_cpu_hours: float


def estimate(config: dict) -> list[RegimeEstimate]:
    """Per regime of a validated config, at its ``scale``: the run jobs, the rounds (bandit) or episodes
    (CMDP) they simulate, the CPU-hours the model predicts (measured startup plus simulation at the measured
    unit costs) and the CPU-hours the jobs request (their wall-time limits at the first attempt)."""
    estimates = []
    for name, regime in config["regimes"].items():
        sets = run_sets(config, name)
        costs = [[job_cost(config, job) for job in jobs_of(config, run_set)] for run_set in sets]
        estimates.append(
            RegimeEstimate(
                regime=name,
                unit=KIND_COSTS[regime["kind"]].unit,
                run_jobs=len(sets),
                rounds=sum(c.rounds for group in costs for c in group),
                predicted_cpu_hours=sum(
                    RUN_STARTUP_SECONDS + sum(c.simulation_seconds for c in group) for group in costs
                )
                / 3600,
                requested_cpu_hours=sum(runtime_minutes(config, run_set) for run_set in sets) / 60,
            )
        )
    return estimates


def format_estimate(estimates: list[RegimeEstimate], scale: str) -> str:
    """The table ``regretlab estimate`` prints: one line per regime and a total."""
    header = ("regime", "run jobs", "rounds/episodes", "predicted CPU-h", "requested CPU-h")
    rows = [
        (e.regime, f"{e.run_jobs}", f"{e.rounds:.3g} {e.unit}", f"{e.predicted_cpu_hours:.2f}",
         f"{e.requested_cpu_hours:.2f}")
        for e in estimates
    ]  # fmt: skip
    rows.append(
        (
            "total",
            f"{sum(e.run_jobs for e in estimates)}",
            f"{sum(e.rounds for e in estimates):.3g}",
            f"{sum(e.predicted_cpu_hours for e in estimates):.2f}",
            f"{sum(e.requested_cpu_hours for e in estimates):.2f}",
        )
    )
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join([row[0].ljust(widths[0]), *map(str.rjust, row[1:], widths[1:])]) for row in [header, *rows]
    ]
    return "\n".join(
        [
            f"scale: {scale}",
            *lines,
            f"predicted: {RUN_STARTUP_SECONDS:g} s per job + the measured cost per round or episode",
            f"requested: the jobs' time limits, {RUN_STARTUP_MINUTES} min + {RUNTIME_SAFETY_FACTOR} × the "
            "predicted simulation each, rounded up to minutes (regretlab.cost)",
        ]
    )
