"""Measuring the cost model's unit costs on the machine at hand (``regretlab estimate --calibrate``).

For every algorithm of a config (narrowed to one regime by the caller if wanted), short runs of it on the
config's own instances, through the functions the workflow's run jobs call (``run_seeds`` of
:mod:`regretlab.bandits.simulate` or :mod:`regretlab.cmdp.runs`, so oracle passes, off-line benchmarks and
table building are included), timed in process CPU time (which other load on the machine inflates little):

* a first run of :data:`SHORT_HORIZON` rounds loads or compiles the compiled kernels; it is timed apart
  (``first_use_seconds``) and not used;
* on the algorithm's smallest and largest instance (by size, K or support triples; instances with extra runs,
  Theorem 5's environment 2, only if there is no other), three runs of :data:`SHORT_HORIZON` rounds (the
  fastest is kept) and one run at a horizon sized by the table to take its share of ``target_seconds``: the
  per-run cost ``run_us`` and the per-round cost at that size are the intercept and slope of time against T;
* two sizes give ``round_us`` and ``size_us`` of :class:`regretlab.specs.algorithm_spec.UnitCost`; one size
  (or a negative slope, i.e. noise) scales the table's ``round_us`` and ``size_us`` by the measured over the
  tabled cost.

The start-up of a run job is the CPU time of a fresh interpreter that imports a run job's modules (the first
algorithm's kind's pipeline) and plays one short run of it on its smallest instance (its kernels are cached by
then). The whole calibration takes about ``target_seconds`` plus the
first uses; predictions from it (:func:`regretlab.workflow.cost.estimate` with ``costs``) use the same split
of the run sets into jobs as the workflow, which never depends on a calibration.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from regretlab.core.seeding import draws_of, job_seed_sequence
from regretlab.registry import unit_costs
from regretlab.registry.kinds import KINDS
from regretlab.specs.algorithm_spec import UnitCost
from regretlab.workflow import jobs
from regretlab.workflow.config import run_jobs, scale_regimes

#: CPU seconds of timed runs a calibration aims at: with the first uses (cached kernels) and the start-up
#: probe, a calibration of the shipped config stays within 30 s on an idle two-core machine.
TARGET_SECONDS = 8.0
#: Horizon of the short runs that time the per-run cost (any algorithm accepts it).
SHORT_HORIZON = 1000
#: The largest horizon a timed run may have (a very fast algorithm reaches its share of the time sooner).
MAX_HORIZON = 50_000_000

#: What a fresh interpreter runs to time a run job's start-up: its kind's pipeline and the run-and-write layer
#: imported, then one seed of a short run (``sys.argv[1]``: the JSON of :func:`_probe_run`).
_STARTUP_PROBE = """
import importlib, json, sys
import numpy as np
job = json.loads(sys.argv[1])
pipeline = importlib.import_module(job["pipeline"])
import regretlab.core.logs, regretlab.core.run_sets
built = pipeline.build_instance(job["entry"], np.random.default_rng(0))
instance = pipeline.instance_at_horizon(built, job["entry"], job["regime"], job["instance"], job["T"])
pipeline.run_seeds(job["regime"], job["instance"], instance, job["algorithm"], job["constants"], job["T"],
                   [0], draws=job["draws"])
"""


@dataclass(frozen=True)
class Anchor:
    """One timed instance of an algorithm: where, its size, the horizons run, and what was measured."""

    regime: str
    instance: str
    size: int
    horizons: tuple[int, int]
    run_us: float
    per_round_us: float
    table_per_round_us: float


@dataclass(frozen=True)
class Calibration:
    """Unit costs measured on this machine, with how they were measured."""

    costs: dict[str, UnitCost]
    anchors: dict[str, tuple[Anchor, ...]]
    startup_seconds: float
    first_use_seconds: float
    seconds: float
    cpu_seconds: float


def _runner(config: dict, regime: str, instance: str, algorithm: str) -> Callable[[int], float]:
    """A function T ↦ CPU seconds of one seed of ``algorithm`` on ``instance`` at horizon T, as a run job
    plays it (the instance built from its config entry as its instance job builds it)."""
    spec = config["regimes"][regime]
    entry = spec["instances"][instance]
    draws = draws_of(regime, spec)
    rng = np.random.default_rng(job_seed_sequence(draws, instance, "instance"))
    constants = next(job.constants for job in run_jobs(config, regime) if job.algorithm == algorithm)
    pipeline = KINDS[spec["kind"]].run_pipeline()
    built = pipeline.build_instance(entry, rng)

    def play(horizon: int) -> None:
        at_horizon = pipeline.instance_at_horizon(built, entry, regime, instance, horizon)
        pipeline.run_seeds(regime, instance, at_horizon, algorithm, constants, horizon, [0], draws=draws)

    def timed(horizon: int) -> float:
        start = time.process_time()
        play(horizon)
        return time.process_time() - start

    return timed


def _anchors_of(config: dict, algorithm: str) -> list[tuple[str, str, int]]:
    """(regime, instance, size) of the smallest and largest instance ``algorithm`` runs on (the first met
    among equals), preferring instances without extra runs."""
    found = {}
    for regime in scale_regimes(config):
        spec = config["regimes"][regime]
        model = unit_costs.kind_cost(spec)
        for job in run_jobs(config, regime):
            if job.algorithm == algorithm and (regime, job.instance) not in found:
                extra = model.extra_runs(spec["instances"][job.instance])
                found[regime, job.instance] = (extra > 0, jobs.run_size(config, job))
    plain = [(key, size) for key, (extra, size) in found.items() if not extra] or [
        (key, size) for key, (_, size) in found.items()
    ]
    smallest = min(plain, key=lambda item: item[1])
    largest = max(plain, key=lambda item: item[1])
    ends = [smallest] if smallest[1] == largest[1] else [smallest, largest]
    return [(regime, instance, size) for (regime, instance), size in ends]


def algorithms_of(config: dict) -> list[str]:
    """The algorithms a config runs, in their first order of appearance."""
    return list(
        dict.fromkeys(job.algorithm for regime in scale_regimes(config) for job in run_jobs(config, regime))
    )


def _probe_run(config: dict, regime: str, instance: str, algorithm: str) -> dict:
    """The short run the start-up probe plays: ``algorithm`` on ``instance`` of ``regime`` at
    :data:`SHORT_HORIZON`, as its run job would (its kind's pipeline, its first preset, the regime's
    draws)."""
    spec = config["regimes"][regime]
    constants = next(job.constants for job in run_jobs(config, regime) if job.algorithm == algorithm)
    return {
        "pipeline": KINDS[spec["kind"]].pipeline, "entry": spec["instances"][instance], "regime": regime,
        "instance": instance, "algorithm": algorithm, "constants": constants, "T": SHORT_HORIZON,
        "draws": draws_of(regime, spec),
    }  # fmt: skip


def measure_startup(run: dict) -> float:
    """CPU seconds of a fresh interpreter importing a run job's modules and playing the short ``run``
    (:func:`_probe_run`)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", _STARTUP_PROBE, json.dumps(run)], check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def calibrate(config: dict, target_seconds: float | None = None) -> Calibration:
    """Measure the unit costs of every algorithm of ``config`` (module docstring) with about
    ``target_seconds`` (default :data:`TARGET_SECONDS`) of timed runs."""
    target_seconds = TARGET_SECONDS if target_seconds is None else target_seconds
    begin, begin_cpu = time.perf_counter(), time.process_time()
    algorithms = algorithms_of(config)
    plan = {algorithm: _anchors_of(config, algorithm) for algorithm in algorithms}
    share = target_seconds / max(1, sum(len(anchors) for anchors in plan.values()))
    costs, anchors, first_use = {}, {}, 0.0
    for algorithm in algorithms:
        table = unit_costs.unit_cost(algorithm)
        measured = []
        small = SHORT_HORIZON
        for index, (regime, instance, size) in enumerate(plan[algorithm]):
            timed = _runner(config, regime, instance, algorithm)
            if index == 0:
                first_use += timed(small)
            t_small = min(timed(small) for _ in range(3))
            guess = (table.round_us + table.size_us * size) * 1e-6  # seconds per round by the table
            big = int(min(MAX_HORIZON, max(4 * small, (share - 4 * t_small) / guess)))
            t_big = timed(big)
            per_round = max((t_big - t_small) / (big - small), 1e-9)
            run_us = max(0.0, t_small - small * per_round) * 1e6
            table_round = table.round_us + table.size_us * size
            measured.append(
                Anchor(regime, instance, size, (small, big), run_us, per_round * 1e6, table_round)
            )
        anchors[algorithm] = tuple(measured)
        costs[algorithm] = _fit(table, measured)
    first = algorithms[0]
    startup = measure_startup(_probe_run(config, *plan[first][0][:2], first))
    cpu = time.process_time() - begin_cpu - first_use
    return Calibration(costs, anchors, startup, first_use, time.perf_counter() - begin, cpu)


def _fit(table: UnitCost, anchors: list[Anchor]) -> UnitCost:
    """The unit cost through the anchors' per-round costs (module docstring)."""
    run_us = float(np.mean([a.run_us for a in anchors]))
    if len(anchors) == 2:
        small, large = anchors
        size_us = (large.per_round_us - small.per_round_us) / (large.size - small.size)
        round_us = small.per_round_us - size_us * small.size
        if size_us >= 0 and round_us >= 0:
            return UnitCost(run_us, round_us, size_us)
    factor = float(np.mean([a.per_round_us / a.table_per_round_us for a in anchors]))
    return UnitCost(run_us, table.round_us * factor, table.size_us * factor)


def format_calibration(calibration: Calibration, config: dict) -> str:
    """The calibration table ``regretlab estimate --calibrate`` prints above the estimate."""
    header = ("algorithm", "measured on (size)", "horizons", "µs/run", "µs/round", "table µs/round")
    rows = []
    for algorithm, anchors in calibration.anchors.items():
        for anchor in anchors:
            kind = config["regimes"][anchor.regime]["kind"]
            rows.append(
                (
                    algorithm,
                    f"{anchor.regime}/{anchor.instance} ({KINDS[kind].cost.size_name}={anchor.size})",
                    f"{anchor.horizons[0]:g}, {anchor.horizons[1]:.3g}",
                    f"{anchor.run_us:.0f}",
                    f"{anchor.per_round_us:.3g}",
                    f"{anchor.table_per_round_us:.3g}",
                )
            )
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join([*(c.ljust(w) for c, w in zip(row[:3], widths[:3], strict=True)),
                   *(c.rjust(w) for c, w in zip(row[3:], widths[3:], strict=True))])
        for row in [header, *rows]
    ]  # fmt: skip
    return "\n".join(
        [
            f"calibration on this machine: {calibration.seconds:.1f} s wall, of which "
            f"{calibration.cpu_seconds:.1f} s CPU of timed runs and {calibration.first_use_seconds:.1f} s "
            "CPU of first use of the compiled kernels (compilation or cache load, not used)",
            *lines,
            "job start-up (a fresh interpreter, imports, one short run): "
            f"{calibration.startup_seconds:.1f} s CPU (table {unit_costs.STARTUP_SECONDS:g} s)",
            "",
        ]
    )
