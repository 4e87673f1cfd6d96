"""envs/*.yaml pin exactly the versions pyproject.toml pins."""

import re
import tomllib
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]


def pins(requirements: list[str]) -> dict[str, str]:
    found = {}
    for requirement in requirements:
        match = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([^\s;]+)", requirement.strip())
        assert match, f"not an exact pin: {requirement!r}"
        found[match.group(1).lower()] = match.group(2)
    return found


def test_conda_envs_pin_the_pyproject_versions():
    project = pins(tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"])
    envs = sorted((REPO / "envs").glob("*.yaml"))
    assert envs
    for env in envs:
        spec = yaml.safe_load(env.read_text())
        pip = next(d["pip"] for d in spec["dependencies"] if isinstance(d, dict) and "pip" in d)
        assert pins([p for p in pip if not p.startswith("-")]) == project, env.name
