"""Shared fixtures: paths of the repository and its schema; hypothesis derandomised so that every run of the
suite (and CI) draws the same examples."""

from pathlib import Path

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parents[1]

settings.register_profile("regretlab", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("regretlab")


@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository root."""
    return REPO


@pytest.fixture(scope="session")
def schema_path() -> Path:
    """schemas/config.schema.yaml."""
    return REPO / "schemas" / "config.schema.yaml"
