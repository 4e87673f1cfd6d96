"""Logging for the workflow's scripts: each job logs to the file its rule's ``log:`` names, and a failing job
leaves its cause there — which job it was (rule, wildcards, seeds) and the full traceback — since Snakemake
points the user to that file. An interrupted job (Ctrl-C: the terminal sends SIGINT to Snakemake and every job
process alike) says so in one line instead: an interruption is no failure, and its traceback would only bury
Snakemake's own summary."""

from __future__ import annotations

import logging
import os
import signal
import sys
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


#: Exit status of an interrupted job: 128 + SIGINT, as a shell reports a process that Ctrl-C ended.
INTERRUPTED_STATUS = 130


def interrupted_line(identity: str) -> str:
    """The one line an interrupted job leaves on stderr (after ``regretlab:``) and in its log."""
    return f"job interrupted, output not written: {identity}"


@contextmanager
def job_log(snakemake) -> Iterator[logging.Logger]:
    """Log a Snakemake ``script:`` job to its rule's ``log:`` file: the job's identity first, then whatever
    the job logs, and — if it raises — the identity again with the traceback, before the exception
    propagates (so Snakemake still reports the job as failed). Every script's body, its library imports
    included, runs inside it.

    A KeyboardInterrupt (SIGINT) ends the job with :func:`interrupted_line` on stderr and in the log, no
    traceback, and exit status :data:`INTERRUPTED_STATUS`; the library writes every file to a temporary name
    and renames it (:mod:`regretlab.core.io`), so nothing truncated is left under an output's name."""
    log = log_to(snakemake.log[0])
    identity = job_identity(snakemake)
    log.info("job %s", identity)
    try:
        yield log
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not interrupt the message
        line = interrupted_line(identity)
        log.error("%s", line)
        print(f"regretlab: {line}", file=sys.stderr, flush=True)
        raise SystemExit(INTERRUPTED_STATUS) from None
    except BaseException:
        log.exception("job failed: %s", identity)
        raise
