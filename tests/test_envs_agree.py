"""envs/*.yaml pin exactly the versions pyproject.toml pins: all of its dependencies, and any tool of its
`test` extra they carry (e.g. mutmut for benchmarks/mutation.py) at the extra's version."""

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
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    project = pins(pyproject["dependencies"])
    extra = pins(pyproject["optional-dependencies"]["test"])
    envs = sorted((REPO / "envs").glob("*.yaml"))
    assert envs
    for env in envs:
        spec = yaml.safe_load(env.read_text())
        pip = next(d["pip"] for d in spec["dependencies"] if isinstance(d, dict) and "pip" in d)
        found = pins([p for p in pip if not p.startswith("-")])
        assert {name: v for name, v in found.items() if name not in extra} == project, env.name
        assert {name: v for name, v in found.items() if name in extra} == {
            name: extra[name] for name in found if name in extra
        }, env.name
