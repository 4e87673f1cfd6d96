"""What the run jobs request and what a whole scale costs: every job's resource request
(``rules/resources.smk``, which SLURM turns into ``--time`` and ``--mem``) and ``regretlab estimate`` (the
cost of a whole scale before it is submitted, and its wall time on N workers), from the runs of each job
(:mod:`regretlab.workflow.jobs`) at the unit costs (:mod:`regretlab.registry.unit_costs`). Nothing here
changes a result.

The wall-time request of one job, in minutes, is::

    attempt * ceil(RUN_STARTUP_MINUTES + RUNTIME_SAFETY_FACTOR * Σ_runs simulation seconds / 60)

``attempt`` is 1, then 2 on the first retry (profiles/slurm sets ``retries: 1``), so a job killed at its time
limit is retried with more (and resumes from its runs' snapshots, :mod:`regretlab.core.snapshots`). The safety
factor lives here only: the prediction uses the unit costs as measured. Memory of a job is that of its
largest run, in MB: ``attempt * (RUN_BASE_MEM_MB + data)``, ``data`` its kind's
(:attr:`regretlab.specs.kind_spec.KindCost.data_mb`: a bandit run's loss chunks, nothing for a CMDP run): a
run's memory does not grow with T.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from regretlab.analysis.tables import duration
from regretlab.registry.unit_costs import STARTUP_SECONDS, kind_cost
from regretlab.specs.algorithm_spec import UnitCost
from regretlab.workflow.config import POWER, scale_regimes
from regretlab.workflow.jobs import RunPart, job_cost, run_parts, runs_of_part

#: Multiplies the predicted simulation time in the request: shared nodes, slower CPUs, file-system latency.
RUNTIME_SAFETY_FACTOR = 3
#: Fixed part of every run job's request: interpreter start, imports, numba compilation, files.
RUN_STARTUP_MINUTES = 1
#: Memory of a run job before its loss chunk, in MB (~300 MB peak measured; headroom for other platforms).
RUN_BASE_MEM_MB = 1024


def runtime_minutes(config: dict, part: RunPart, attempt: int = 1) -> int:
    """Wall-time request of one run job, in minutes (module docstring)."""
    seconds = sum(job_cost(config, job).simulation_seconds for job in runs_of_part(config, part))
    return attempt * math.ceil(RUN_STARTUP_MINUTES + RUNTIME_SAFETY_FACTOR * seconds / 60)


def predicted_seconds(config: dict, part: RunPart) -> float:
    """The predicted CPU seconds of one run job: its runs at the unit costs and the start-up (what
    :func:`estimate` sums; the progress lines count it down)."""
    runs = runs_of_part(config, part)
    return STARTUP_SECONDS + sum(job_cost(config, job).simulation_seconds for job in runs)


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
    :data:`UNIT_COSTS`; :func:`regretlab.workflow.calibration.calibrate` measures them) with
    ``startup_seconds`` per job, and the CPU-hours the jobs request (their time limits at the first
    attempt)."""
    estimates = []
    for name in scale_regimes(config):
        regime = config["regimes"][name]
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


def _cpu_hours(hours: float) -> str:
    """CPU-hours to two decimals, or in seconds where those would round to 0.00 (the quick scale's)."""
    return f"{hours:.2f}" if hours >= 0.005 else f"{hours * 3600:.3g} s"


def format_estimate(
    estimates: list[RegimeEstimate],
    scale: str,
    workers: int | None = None,
    predicted: str | None = None,
    job_minutes: float | None = None,
    total_only: bool = False,
    measured: Mapping[str, Sequence[float]] | None = None,
) -> str:
    """The table ``regretlab estimate`` prints: one line per regime and a total (``total_only``: the total
    alone); with ``workers``, the wall time of the run jobs on that many workers. ``predicted`` says where the
    unit costs come from (default: the table of this module). ``measured``: per regime, the wall times of its
    runs the last time they ran (the power scale's archive, :func:`regretlab.workflow.archive.run_seconds`),
    shown beside the prediction, in hours of runs and, with ``workers``, spread on them the same way."""
    measured = {e.regime: measured[e.regime] for e in estimates if measured and e.regime in measured}
    header = ("regime", "run jobs", "rounds/episodes", "predicted CPU-h", "requested CPU-h")
    if measured:
        header += ("last run-h",)

    def last(hours: float | None) -> tuple[str, ...]:
        return (("—" if hours is None else _cpu_hours(hours)),) if measured else ()

    rows = [
        (e.regime, f"{e.run_jobs}", f"{e.rounds:.3g} {e.unit}", _cpu_hours(e.predicted_cpu_hours),
         _cpu_hours(e.requested_cpu_hours),
         *last(sum(measured[e.regime]) / 3600 if e.regime in measured else None))
        for e in estimates
    ]  # fmt: skip
    rows.append(
        (
            "total",
            f"{sum(e.run_jobs for e in estimates)}",
            f"{sum(e.rounds for e in estimates):.3g}",
            _cpu_hours(sum(e.predicted_cpu_hours for e in estimates)),
            _cpu_hours(sum(e.requested_cpu_hours for e in estimates)),
            *last(sum(map(sum, measured.values())) / 3600 if measured else None),
        )
    )
    if total_only:
        rows = rows[-1:]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join([row[0].ljust(widths[0]), *map(str.rjust, row[1:], widths[1:])]) for row in [header, *rows]
    ]
    size = "one job per algorithm" if job_minutes is None else f"jobs of about {job_minutes:g} min"
    if scale == POWER:
        size = "one job per instance, horizon and seed"
    out = [
        f"scale: {scale}" + ("" if job_minutes is None else f" ({size})"),
        *lines,
        predicted
        or f"predicted: {STARTUP_SECONDS:g} s per job + each run at regretlab.registry.unit_costs.UNIT_COSTS",
        f"requested: the jobs' time limits, {RUN_STARTUP_MINUTES} min + {RUNTIME_SAFETY_FACTOR} × the "
        "predicted simulation each, rounded up to minutes (regretlab.workflow.cost)",
    ]
    if workers is not None:
        jobs = [s for e in estimates for s in e.job_seconds]
        total = sum(jobs)
        out.append(
            f"on {workers} worker{'s' if workers > 1 else ''}: {duration(wall_seconds(jobs, workers))} wall "
            f"for the run jobs (longest job {duration(max(jobs, default=0.0))}, CPU time / workers "
            f"{duration(total / workers)}; {size})"
        )
    if measured:
        runs = [s for times in measured.values() for s in times]
        spread = "" if workers is None else f"; on {workers} workers {duration(wall_seconds(runs, workers))}"
        out.append(
            "last run (archive/power/<regime>/provenance.json, each run's own wall time): "
            f"{len(runs)} runs, {duration(sum(runs))} in all, longest {duration(max(runs))}{spread}"
        )
    return "\n".join(out)
