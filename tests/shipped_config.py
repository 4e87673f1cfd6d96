"""The shipped config (tests/config/default.yaml, which test_shipped_files.py keeps equal to config.yaml),
loaded and validated once per process: a dozen test modules read it, several at import, and each loaded and
validated it again (≈ 1 s each, in every worker's collection)."""

from __future__ import annotations

import copy
import functools
from pathlib import Path

from regretlab.workflow.config import validate_config
from regretlab.workflow.config_files import safe_load

REPO = Path(__file__).resolve().parents[1]
SHIPPED = REPO / "tests" / "config" / "default.yaml"
SCHEMA = REPO / "schemas" / "config.schema.yaml"


@functools.cache
def _validated() -> dict:
    return validate_config(safe_load(SHIPPED.read_text(encoding="utf-8")), SCHEMA)


def shipped_config() -> dict:
    """The shipped config, validated: a copy of its own for each caller (a test may edit it)."""
    return copy.deepcopy(_validated())
