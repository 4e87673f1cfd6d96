"""Logging for the workflow's scripts: each job logs to the file its rule's ``log:`` names."""

from __future__ import annotations

import logging
import os


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
