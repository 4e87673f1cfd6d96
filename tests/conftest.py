"""Shared fixtures: paths of the repository and its schema."""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository root."""
    return REPO


@pytest.fixture(scope="session")
def schema_path() -> Path:
    """schemas/config.schema.yaml."""
    return REPO / "schemas" / "config.schema.yaml"
