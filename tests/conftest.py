"""Shared fixtures: paths of the repository and its schema; hypothesis derandomised so that every run of the
suite (and CI) draws the same examples."""

from pathlib import Path

import pytest
from hypothesis import settings
from workflow_runs import smoke_run

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


@pytest.fixture(scope="session")
def smoke_dir(tmp_path_factory) -> Path:
    """A directory where the smoke workflow has run once (once per test process)."""
    directory = tmp_path_factory.mktemp("smoke")
    smoke_run(directory)
    return directory
