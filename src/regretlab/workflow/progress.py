"""Progress a person can watch: one line per finished job, with the CPU time the cost model predicts for the
jobs still to run (issue 36, item 7).

The Snakefile's ``onstart`` hands the jobs Snakemake is about to run to :func:`plan` (in the main process,
after the DAG is built); the ``regretlab`` logger plugin (``src/snakemake_logger_plugin_regretlab``, chosen by
``profiles/default``) reports each job's start and end to :data:`PROGRESS` and prints what :meth:`Progress.
finished` returns::

    [ 12/123] bandit_run · small_loss_vs_T · theorem3 · paper · part 1 done in 4 s · left: 3.1 min CPU
    (≈ 1.6 min on 2 cores) · elapsed 0:41

(one line in the log).

A run job's prediction is :func:`regretlab.workflow.cost.predicted_seconds` (its runs at the unit costs, plus
start-up), the falsification job's :func:`regretlab.falsification.cost.predicted_seconds`; every other job
counts the start-up alone. The prediction is the cost model's, not a measurement:
the line says "left", and ``regretlab estimate`` explains the model.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from regretlab.analysis.tables import duration
from regretlab.falsification.cost import predicted_seconds as falsification_seconds
from regretlab.registry.unit_costs import STARTUP_SECONDS
from regretlab.workflow.cost import predicted_seconds
from regretlab.workflow.jobs import RunPart

#: The wildcards that name a run job (:class:`regretlab.workflow.jobs.RunPart`).
RUN_WILDCARDS = ("regime", "algorithm", "part")


def job_label(rule: str, wildcards: dict) -> str:
    """A job in one short phrase: its rule and its wildcards' values, in the order the rule names them."""
    values = [str(wildcards[key]) if key != "part" else f"part {wildcards[key]}" for key in wildcards]
    return " · ".join([rule, *values]) if values else rule


#: Jobs besides the run jobs that cost more than their start-up: rule → config → predicted CPU seconds.
RULE_SECONDS = {"falsification": lambda config: falsification_seconds(config["scale"], config["searches"])}


def job_seconds(config: dict, wildcards: dict, rule: str = "") -> float:
    """The predicted CPU seconds of a job: a run job's by the cost model, a job of :data:`RULE_SECONDS` by
    its own, any other job's start-up."""
    if all(key in wildcards for key in RUN_WILDCARDS) and wildcards["regime"] in config.get("regimes", {}):
        part = RunPart(wildcards["regime"], wildcards["algorithm"], int(wildcards["part"]))
        return predicted_seconds(config, part)
    if rule in RULE_SECONDS:
        return RULE_SECONDS[rule](config)
    return STARTUP_SECONDS


def clock(seconds: float) -> str:
    """Elapsed wall time as ``m:ss`` or ``h:mm:ss``."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass
class Progress:
    """The jobs of one Snakemake invocation: planned (id → label, predicted seconds), started, finished."""

    cores: int = 1
    planned: dict[int, tuple[str, float]] = field(default_factory=dict)
    started: dict[int, float] = field(default_factory=dict)
    done: int = 0
    announced: bool = False
    begun: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def plan(self, jobs: Iterable[tuple[int, str, float]], cores: int) -> None:
        """Record the jobs to run: ``(jobid, label, predicted seconds)`` each."""
        with self.lock:
            self.planned = {jobid: (label, seconds) for jobid, label, seconds in jobs}
            self.cores, self.done, self.begun = max(cores, 1), 0, time.monotonic()
            self.announced = False
            self.started.clear()

    def start(self, jobid: int, label: str) -> None:
        """A job started (its label kept for a job the plan did not know, e.g. after a retry)."""
        with self.lock:
            self.started[jobid] = time.monotonic()
            self.planned.setdefault(jobid, (label, STARTUP_SECONDS))

    def remaining_seconds(self) -> float:
        """Predicted CPU seconds of the planned jobs not finished yet."""
        return sum(seconds for _, seconds in self.planned.values())

    def summary(self) -> str:
        """The opening line: how many jobs, and the predicted CPU time of all of them."""
        with self.lock:
            total = self.remaining_seconds()
            return (
                f"regretlab: {len(self.planned)} jobs to run, predicted {duration(total)} of CPU by the cost "
                f"model (≈ {duration(total / self.cores)} on {self.cores} cores); one line per finished job"
            )

    def finished(self, jobid: int) -> str:
        """The line of a finished job: its number, label, wall time, the predicted CPU time left."""
        with self.lock:
            now = time.monotonic()
            label, _ = self.planned.pop(jobid, (f"job {jobid}", 0.0))
            took = now - self.started.pop(jobid, now)
            self.done += 1
            total = self.done + len(self.planned)
            left = self.remaining_seconds()
            width = len(str(total))
            return (
                f"[{self.done:>{width}}/{total}] {label} done in {duration(took)} · left: "
                f"{duration(left)} CPU (≈ {duration(left / self.cores)} on {self.cores} cores) · "
                f"elapsed {clock(now - self.begun)}"
            )


#: The progress of the running Snakemake invocation: filled by :func:`plan`, read by the logger plugin.
PROGRESS = Progress()


def plan(workflow, config: dict) -> None:
    """From the Snakefile's ``onstart``: record every job Snakemake will run, with its prediction."""
    dag = workflow.dag
    jobs = [
        (dag.jobid(job), job_label(rule, dict(wildcards)), job_seconds(config, wildcards, rule))
        for job in dag.needrun_jobs()
        for wildcards, rule in [(job.wildcards_dict, job.rule.name)]
    ]
    PROGRESS.plan(jobs, workflow.resource_settings.cores or 1)
