"""Snakemake logger plugin ``regretlab`` (``--logger regretlab``; profiles/default chooses it): a quiet log
a person can watch. One line when the jobs are planned, one line per finished job with the cost model's
prediction of the CPU time left (:mod:`regretlab.workflow.progress`), and everything that needs a reader as
Snakemake writes it: warnings, errors (with the failed job's log), and the workflow's own messages. Left out:
each job's block of inputs, outputs and reasons, shell commands (the rules run scripts), and Snakemake's
scheduling chatter. A dry run (``-n``), ``-p`` (``--printshellcmds``) or ``--verbose`` prints everything as
Snakemake prints it.

The package lives beside ``regretlab`` so that Snakemake finds it by its name (``snakemake_logger_plugin_*``)
once regretlab is installed."""

from __future__ import annotations

import logging
import sys

from snakemake_interface_logger_plugins.base import LogHandlerBase
from snakemake_interface_logger_plugins.common import LogEvent

from regretlab.workflow.progress import PROGRESS, job_label

#: Snakemake's messages with no event that only narrate its scheduling (their first words).
CHATTER = (
    "Building DAG of jobs",
    "Using shell:",
    "Provided cores:",
    "Provided resources:",
    "Rules claiming more threads",
    "Conda environments: ignored",
    "Singularity containers: ignored",
    "Select jobs to execute",
    "Execute ",
    "Assuming unrestricted shared filesystem usage",
    "Using workflow specific profile",
    "host:",
    "Job stats:",
    "[",  # the time stamp before each job
    "localrule ",
    "rule ",
)
#: Events always printed as Snakemake formats them.
ERRORS = {LogEvent.JOB_ERROR, LogEvent.GROUP_ERROR, LogEvent.ERROR}


class LogHandler(LogHandlerBase):
    """The handler Snakemake instantiates for ``--logger regretlab``."""

    def __post_init__(self) -> None:
        from snakemake.logging import DefaultFilter, DefaultFormatter

        settings = self.common_settings
        self.snakemake_format = DefaultFormatter(settings.quiet, settings.show_failed_logs)
        self.snakemake_filter = DefaultFilter(
            settings.quiet, settings.debug_dag, settings.verbose, settings.dryrun, settings.printshellcmds
        )
        # A dry run, -p (--printshellcmds) or --verbose: everything, as Snakemake's own handler prints it.
        self.full = settings.dryrun or settings.printshellcmds or settings.verbose
        self.stream = sys.stdout if settings.stdout else sys.stderr

    def _write(self, text: str) -> None:
        if text:
            self.stream.write(text.rstrip("\n") + "\n")
            self.stream.flush()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            event = getattr(record, "event", None)
            if self.full or event in ERRORS or record.levelno >= logging.WARNING:
                if self.snakemake_filter.filter(record):
                    self._write(self.snakemake_format.format(record))
            elif event == LogEvent.JOB_INFO:
                PROGRESS.start(record.jobid, job_label(record.rule_name, dict(record.wildcards or {})))
            elif event == LogEvent.JOB_FINISHED:
                self._write(PROGRESS.finished(record.job_id))
            elif event == LogEvent.JOB_STARTED and PROGRESS.planned and not PROGRESS.announced:
                PROGRESS.announced = True
                self._write(PROGRESS.summary())
            elif event is None and record.levelno >= logging.INFO:
                message = record.getMessage()
                if message.strip() and not message.lstrip().startswith(CHATTER):
                    self._write(message)
        except Exception:  # a logger must never stop the workflow
            self.handleError(record)

    @property
    def writes_to_stream(self) -> bool:
        return True

    @property
    def writes_to_file(self) -> bool:
        return False

    @property
    def has_filter(self) -> bool:
        return True

    @property
    def has_formatter(self) -> bool:
        return True

    @property
    def needs_rulegraph(self) -> bool:
        return False
