"""The tool is citable and licensed as pyproject.toml says (issue 36, item 5): CITATION.cff is valid CFF
1.2.0 with the package's version and license, and LICENSE is the MIT licence."""

from __future__ import annotations

import tomllib
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]


def test_citation_file_matches_the_package():
    citation = yaml.safe_load((REPO / "CITATION.cff").read_text(encoding="utf-8"))
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert citation["cff-version"] == "1.2.0"
    assert {"message", "title", "authors", "version", "license", "type"} <= set(citation)
    assert citation["version"] == project["version"] and citation["license"] == project["license"] == "MIT"
    assert all("name" in author or "family-names" in author for author in citation["authors"])


def test_license_is_the_mit_licence():
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Permission is hereby granted, free of charge" in text
