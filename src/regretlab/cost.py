"""What the run jobs cost, and how the run sets are cut into jobs: one model for the job split
(:func:`split_run_set`, which the DAG is built from), every job's resource request (``rules/resources.smk``,
which SLURM turns into ``--time`` and ``--mem``) and ``regretlab estimate`` (the cost of a whole scale before
it is submitted, and its wall time on N workers). Nothing here changes a result.

A run (one instance, horizon and seed batch, :class:`regretlab.config.RunJob`) plays ``seeds + extra`` runs of
``T`` rounds (bandit) or episodes (CMDP), ``extra`` being Theorem 5's calibration runs. By the unit costs of
its algorithm (:data:`UNIT_COSTS`, microseconds) it takes::

    (seeds + extra) × (run_us + T × (round_us + size_us × size)) × 1e-6 seconds

where ``size`` is the instance's number of arms K (bandit) or of support triples ``(x, a, x')`` of the
occupancy measure, ``Σ_k |X_k| |A| |X_{k+1}|`` (CMDP; the projection and the occupancy are over triples, and
the measured per-episode cost is affine in them where it is not in the number of state–action pairs). A run
job adds :data:`STARTUP_SECONDS` (interpreter, imports, the cached compiled kernels). The same unit costs,
measured on the machine at hand, come from :mod:`regretlab.calibration` (``regretlab estimate --calibrate``).

Job split: with ``job_minutes`` unset (the default) a run job is a whole :class:`~regretlab.config.RunSet`
(one algorithm and preset on every instance, horizon and seed batch of a regime). With ``job_minutes = M``,
a seed batch predicted longer than M minutes is first cut into near-equal batches of consecutive seeds that
fit (down to one seed), then the runs are packed in their stable order into jobs of at most M predicted
minutes (start-up included; a single run longer than M is a job of its own). The split depends only on the
config and the fixed table, never on a calibration, so that Snakemake builds the same DAG everywhere.

The wall-time request of one job, in minutes, is::

    attempt * ceil(RUN_STARTUP_MINUTES + RUNTIME_SAFETY_FACTOR * Σ_runs simulation seconds / 60)

``attempt`` is 1, then 2 on the first retry (profiles/slurm sets ``retries: 1``), so a job killed at its time
limit is retried with more (and resumes from its runs' snapshots, :mod:`regretlab.snapshots`). The safety
factor lives here only: the prediction uses the unit costs as measured. Memory of a job is that of its
largest run, in MB: ``attempt * (RUN_BASE_MEM_MB + data)``, ``data`` its kind's
(:attr:`regretlab.kind_spec.KindCost.data_mb`: a bandit run's loss chunks, nothing for a CMDP run): a run's
memory does not grow with T.
"""

from __future__ import annotations

import heapq
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from regretlab.algorithm_spec import UnitCost
from regretlab.config import RunJob, RunSet, jobs_of, run_sets
from regretlab.kind_spec import KindCost
from regretlab.kinds import KINDS

#: Unit costs by algorithm: the ``unit_cost`` of each registry entry (:class:`regretlab.algorithm_spec.
#: AlgorithmSpec`), measured with :func:`regretlab.calibration.calibrate` (what ``regretlab estimate
#: --calibrate`` runs) on the shipped config's quick-scale instances, process CPU time on the 2-core
#: reference machine: the mean of two calibrations of 40 s (25 s CPU of timed runs each) under a load of
#: ~1 (docs/cluster.md, "The estimate"). Bandit sizes are K (µs per arm and
#: round), CMDP sizes the support triples (µs per triple and episode). Where the config has two sizes of an
#: algorithm's instances the two per-round terms are fitted; otherwise (one size: algorithm5, 2_bipartite,
#: 2_weak_half, 6, 7_half, exploration_leader, UC-O-GDPS at 16 triples) the split between them is
#: an earlier fit's scaled to the measured total (CMDP: PDGD-OPS at 16, 45, 168 and 440 triples, T = 5·10⁴,
#: 5.9–92 µs per episode, affine in the triples within 5 %). To refresh after a kernel change, run the
#: calibration and copy what it prints into the entries (or, from benchmarks/bench_bandits.py's rounds/s r_8
#: and r_64 at K = 8 and 64: size_us = (1e6/r_64 − 1e6/r_8)/56, round_us = 1e6/r_8 − 8 size_us). A changed
#: value can change the split of a run set when ``job_minutes`` is set, hence its run jobs (never results).
UNIT_COSTS: dict[str, UnitCost] = {
    name: spec.unit_cost
    for kind in KINDS.values()
    for name, spec in kind.algorithms.items()
    if spec.unit_cost is not None
}
#: For an algorithm without a measured unit cost (give its entry one from a calibration once known): ten times
#: the costliest entry's, so that its jobs are cut small and their requests generous rather than short.
UNMEASURED = UnitCost(
    run_us=10 * max(c.run_us for c in UNIT_COSTS.values()),
    round_us=10 * max(c.round_us for c in UNIT_COSTS.values()),
    size_us=10 * max(c.size_us for c in UNIT_COSTS.values()),
)
#: Fixed cost of one run job, in seconds: interpreter start, imports, loading the cached compiled kernels,
#: reading the instance files (the smallest run jobs of the shipped config measure 1.3–1.7 s wall; the
#: calibration's start-up probe 1.4–1.5 s CPU once osqp and cvxpy are imported on first use only).
STARTUP_SECONDS = 1.5
#: Multiplies the predicted simulation time in the request: shared nodes, slower CPUs, file-system latency.
RUNTIME_SAFETY_FACTOR = 3
#: Fixed part of every run job's request: interpreter start, imports, numba compilation, files.
RUN_STARTUP_MINUTES = 1
#: Memory of a run job before its loss chunk, in MB (~300 MB peak measured; headroom for other platforms).
RUN_BASE_MEM_MB = 1024


def unit_cost(algorithm: str, costs: Mapping[str, UnitCost] | None = None) -> UnitCost:
    """The unit cost of ``algorithm`` in ``costs`` (default :data:`UNIT_COSTS`), else :data:`UNMEASURED`."""
    return (UNIT_COSTS if costs is None else costs).get(algorithm, UNMEASURED)


def kind_cost(regime: dict) -> KindCost:
    """The cost model of a regime's kind (:attr:`regretlab.kind_spec.Kind.cost`)."""
    return KINDS[regime["kind"]].cost


@dataclass(frozen=True)
class JobCost:
    """What one run (:class:`RunJob`) simulates and how long the model says it takes."""

    rounds: int
    simulation_seconds: float


def run_rounds(regime: dict, instance: str, T: int, seeds: int = 1) -> int:
    """Rounds (or episodes) that ``seeds`` runs at horizon ``T`` on one instance of ``regime`` (a validated
    config entry) simulate, Theorem 5's calibration runs included."""
    return int(T) * (seeds + kind_cost(regime).extra_runs(regime["instances"][instance]))


def run_seconds(
    regime_name: str,
    regime: dict,
    instance: str,
    algorithm: str,
    T: int,
    seeds: int = 1,
    costs: Mapping[str, UnitCost] | None = None,
) -> float:
    """Predicted simulation seconds of ``seeds`` runs of ``algorithm`` on one instance of a regime at horizon
    ``T`` (``regime`` its validated config entry; no job start-up), at the unit costs ``costs`` (default
    :data:`UNIT_COSTS`; module docstring). Any horizon, not only the config's: the evidence table prices each
    claim's ``T_informative``."""
    runs = run_rounds(regime, instance, T, seeds) // int(T)
    size = kind_cost(regime).size(regime_name, instance, regime["instances"][instance])
    return runs * unit_cost(algorithm, costs).run_seconds(T, size)


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
    """One run job of the workflow: part ``part`` of a :class:`RunSet` (:func:`split_run_set`)."""

    regime: str
    algorithm: str
    constants: str
    part: int

    @property
    def run_set(self) -> RunSet:
        return RunSet(self.regime, self.algorithm, self.constants)


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
    config, run_set = key["config"], RunSet(*key["run_set"])
    runs = jobs_of(config, run_set)
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


def split_run_set(config: dict, run_set: RunSet) -> tuple[tuple[RunJob, ...], ...]:
    """The runs of each run job of ``run_set``, in order (module docstring): one job with every run when
    ``job_minutes`` is unset, else jobs of about ``job_minutes`` predicted minutes at :data:`UNIT_COSTS`."""
    regime = run_set.regime
    key = {
        "config": {
            "scale": config["scale"],
            "seeds_per_job": config["seeds_per_job"],
            "job_minutes": config.get("job_minutes"),
            "regimes": {regime: config["regimes"][regime]},
        },
        "run_set": [regime, run_set.algorithm, run_set.constants],
    }
    return _split(json.dumps(key))  # dict order kept: the runs stay in config order


def run_parts(config: dict, regime: str) -> list[RunPart]:
    """The run jobs of ``regime`` at the configured scale and job size, in a stable order."""
    return [
        RunPart(s.regime, s.algorithm, s.constants, part)
        for s in run_sets(config, regime)
        for part in range(len(split_run_set(config, s)))
    ]


def runs_of_part(config: dict, part: RunPart) -> tuple[RunJob, ...]:
    """The runs (instance, horizon, seeds) one run job simulates, in order."""
    parts = split_run_set(config, part.run_set)
    if not 0 <= part.part < len(parts):
        raise ValueError(f"{part.run_set} has {len(parts)} run jobs at this job size, not part {part.part}")
    return parts[part.part]


def runtime_minutes(config: dict, part: RunPart, attempt: int = 1) -> int:
    """Wall-time request of one run job, in minutes (module docstring)."""
    seconds = sum(job_cost(config, job).simulation_seconds for job in runs_of_part(config, part))
    return attempt * math.ceil(RUN_STARTUP_MINUTES + RUNTIME_SAFETY_FACTOR * seconds / 60)


def mem_mb(config: dict, part: RunPart, attempt: int = 1) -> int:
    """Memory request of one run job, in MB: that of its largest run (they run one after the other)."""
    regime = config["regimes"][part.regime]
    data_mb = kind_cost(regime).data_mb
    memory = max(
        RUN_BASE_MEM_MB + data_mb(job.regime, job.instance, regime["instances"][job.instance])
        for job in runs_of_part(config, part)
    )
    return attempt * math.ceil(memory)


@dataclass(frozen=True)
class RegimeEstimate:
    """The cost of one regime's run jobs at the config's scale and job size.

    ``job_seconds`` is the predicted length of each run job (start-up included), for the wall time on N
    workers (:func:`wall_seconds`)."""

    regime: str
    unit: str
    run_jobs: int
    rounds: int
    predicted_cpu_hours: float
    requested_cpu_hours: float
    job_seconds: tuple[float, ...]


def estimate(
    config: dict, costs: Mapping[str, UnitCost] | None = None, startup_seconds: float = STARTUP_SECONDS
) -> list[RegimeEstimate]:
    """Per regime of a validated config, at its ``scale`` and ``job_minutes``: the run jobs, the rounds
    (bandit) or episodes (CMDP) they simulate, the CPU-hours predicted at the unit costs ``costs`` (default
    :data:`UNIT_COSTS`; :func:`regretlab.calibration.calibrate` measures them) with ``startup_seconds`` per
    job, and the CPU-hours the jobs request (their time limits at the first attempt)."""
    estimates = []
    for name, regime in config["regimes"].items():
        parts = run_parts(config, name)
        costs_of = [[job_cost(config, job, costs) for job in runs_of_part(config, part)] for part in parts]
        seconds = tuple(startup_seconds + sum(c.simulation_seconds for c in group) for group in costs_of)
        estimates.append(
            RegimeEstimate(
                regime=name,
                unit=kind_cost(regime).unit,
                run_jobs=len(parts),
                rounds=sum(c.rounds for group in costs_of for c in group),
                predicted_cpu_hours=sum(seconds) / 3600,
                requested_cpu_hours=sum(runtime_minutes(config, part) for part in parts) / 60,
                job_seconds=seconds,
            )
        )
    return estimates


def wall_seconds(job_seconds: list[float], workers: int) -> float:
    """Wall time of independent jobs on ``workers`` cores: longest jobs first, each to the least loaded
    worker (LPT, within 4/3 of the optimum; never below the longest job nor the total divided by
    ``workers``)."""
    if workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers}")
    loads = [0.0] * min(workers, max(1, len(job_seconds)))
    for seconds in sorted(job_seconds, reverse=True):
        heapq.heapreplace(loads, loads[0] + seconds)
    return max(loads)


def duration(seconds: float) -> str:
    """``42 s``, ``12.5 min`` or ``3.07 h``."""
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.2f} h"


def format_estimate(
    estimates: list[RegimeEstimate],
    scale: str,
    workers: int | None = None,
    predicted: str | None = None,
    job_minutes: float | None = None,
    total_only: bool = False,
) -> str:
    """The table ``regretlab estimate`` prints: one line per regime and a total (``total_only``: the total
    alone); with ``workers``, the wall time of the run jobs on that many workers. ``predicted`` says where the
    unit costs come from (default: the table of this module)."""
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
    if total_only:
        rows = rows[-1:]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join([row[0].ljust(widths[0]), *map(str.rjust, row[1:], widths[1:])]) for row in [header, *rows]
    ]
    size = "one job per algorithm and preset" if job_minutes is None else f"jobs of about {job_minutes:g} min"
    out = [
        f"scale: {scale}" + ("" if job_minutes is None else f" ({size})"),
        *lines,
        predicted or f"predicted: {STARTUP_SECONDS:g} s per job + each run at regretlab.cost.UNIT_COSTS",
        f"requested: the jobs' time limits, {RUN_STARTUP_MINUTES} min + {RUNTIME_SAFETY_FACTOR} × the "
        "predicted simulation each, rounded up to minutes (regretlab.cost)",
    ]
    if workers is not None:
        jobs = [s for e in estimates for s in e.job_seconds]
        total = sum(jobs)
        out.append(
            f"on {workers} worker{'s' if workers > 1 else ''}: {duration(wall_seconds(jobs, workers))} wall "
            f"for the run jobs (longest job {duration(max(jobs, default=0.0))}, CPU time / workers "
            f"{duration(total / workers)}; {size})"
        )
    return "\n".join(out)
