"""Playing one run job of the workflow: its runs (instance, horizon, seed batch) of one algorithm and
constants preset in a regime (:class:`regretlab.cost.RunPart`), one after the other, for bandit and CMDP runs
alike."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable


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
