"""Logging for the workflow's scripts: each job logs to the file its rule's ``log:`` names, and a failing job
leaves its cause there — which job it was (rule, wildcards, seeds) and the full traceback — since Snakemake
points the user to that file."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager


def log_to(path: str | os.PathLike) -> logging.Logger:
    """Send this process's log records (and Python warnings) to ``path``; return the regretlab logger."""
    logging.basicConfig(
        filename=path,
        filemode="w",
        level=logging.INFO,
        force=True,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.captureWarnings(True)
    return logging.getLogger("regretlab")


def job_identity(snakemake) -> str:
    """One line naming a job: its rule, its wildcards (regime, instance, algorithm, constants preset, T, seed
    batch) and, for run jobs, its seeds."""
    fields = {"rule": snakemake.rule, **dict(snakemake.wildcards.items())}
    if "seeds" in snakemake.params.keys():
        fields["seeds"] = list(snakemake.params.seeds)
    return " ".join(f"{key}={value}" for key, value in fields.items())


@contextmanager
def job_log(snakemake) -> Iterator[logging.Logger]:
    """Log a Snakemake ``script:`` job to its rule's ``log:`` file: the job's identity first, then whatever
    the job logs, and — if it raises — the identity again with the traceback, before the exception
    propagates (so Snakemake still reports the job as failed). Every script's body runs inside it."""
    log = log_to(snakemake.log[0])
    identity = job_identity(snakemake)
    log.info("job %s", identity)
    try:
        yield log
    except BaseException:
        log.exception("job failed: %s", identity)
        raise
