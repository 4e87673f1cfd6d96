"""Bad values that used to slip through or end in a traceback (issue 35, item 4): NaN and infinities in any
numeric field, horizons past what the kernels count, a key written twice, and an output folder that is a
file. Each is one line naming the field (or file) before any job runs."""

from __future__ import annotations

import copy
import subprocess
import sys

import pytest
import yaml
from test_config import SMOKE, smoke
from workflow_runs import REPO, snakemake

from regretlab.workflow import config_files
from regretlab.workflow.config import ConfigError, validate_config
from regretlab.workflow.config_files import config_syntax_problem

SCHEMA = REPO / "schemas" / "config.schema.yaml"


def first_regime(config: dict) -> dict:
    return next(iter(config["regimes"].values()))


def first_instance(config: dict) -> dict:
    return next(iter(first_regime(config)["instances"].values()))


def set_losses_field(config: dict, value) -> str:
    losses = first_instance(config)["losses"]
    field = next(name for name, v in losses.items() if isinstance(v, float))
    losses[field] = value
    name, instance = next(iter(first_regime(config)["instances"].items()))
    regime = next(iter(config["regimes"]))
    return f"regimes.{regime}.instances.{name}.losses.{field}"


def set_top(name: str):
    def set_field(config: dict, value) -> str:
        config[name] = value
        return name

    return set_field


def set_horizon(config: dict, value) -> str:
    grid = first_regime(config)["scales"]["quick"]
    grid["horizons"] = [*grid["horizons"][:-1], value]
    return f"regimes.{next(iter(config['regimes']))}.scales.quick.horizons[{len(grid['horizons']) - 1}]"


def problems(config: dict) -> list[str]:
    with pytest.raises(ConfigError) as raised:
        validate_config(config, SCHEMA)
    return str(raised.value).splitlines()


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")], ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize(
    "setter",
    [set_losses_field, set_top("snapshot_minutes"), set_top("job_minutes"), set_top("seeds_per_job")],
    ids=["a loss mean", "snapshot_minutes", "job_minutes", "seeds_per_job"],
)
def test_a_non_finite_number_is_one_line_naming_its_field(setter, value):
    config = smoke()
    field = setter(config, value)
    found = problems(config)
    assert f"config field {field}: {value!r} is not a finite number; give a finite number" in found
    assert sum("not a finite number" in line for line in found) == 1


def test_a_horizon_past_the_kernels_integers_is_one_line():
    config = smoke()
    field = set_horizon(config, 10**20)
    assert problems(config) == [
        f"config field {field}: 100000000000000000000 is greater than the maximum of 1000000000000000000"
    ]
    config = smoke()
    set_horizon(config, 10**18)
    validate_config(config, SCHEMA)  # the largest allowed horizon is accepted


@pytest.mark.parametrize(
    "text, line",
    [
        ("scale: quick\nseeds_per_job: 3\nscale: paper\n",
         "line 3, column 1: key 'scale' appears twice (first at line 1); YAML would keep only the last: "
         "remove one"),
        ("regimes:\n  a:\n    kind: bandit\n    kind: cmdp\n", "line 4, column 5: key 'kind' appears twice "
         "(first at line 3); YAML would keep only the last: remove one"),
    ],
)  # fmt: skip
def test_a_repeated_yaml_key_names_its_line(tmp_path, text, line):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    assert config_syntax_problem(path) == f"{str(path)!r} is not valid YAML: {line}"


def test_configs_read_in_c_the_same_as_in_python():
    """The config loader is libyaml's (every Snakemake start parses config.yaml with it) and reads every
    shipped YAML file as the pure-Python loader, whose messages a bad file gets, reads it."""
    assert config_files.SAFE_LOADER is yaml.CSafeLoader
    for path in [REPO / "config.yaml", SCHEMA, *sorted((REPO / "tests" / "config").glob("*.yaml"))]:
        text = path.read_text(encoding="utf-8")
        fast = yaml.load(text, Loader=config_files._UniqueKeyLoader)  # noqa: S506 - safe loaders
        assert fast == yaml.load(text, Loader=config_files._WordingLoader), path  # noqa: S506


def test_a_file_libyaml_refuses_is_worded_by_the_python_loader(tmp_path):
    """libyaml words a syntax error its own way ("did not find expected key"); the line keeps the wording
    and the 1-based position the other tests pin."""
    path = tmp_path / "c.yaml"
    path.write_text("regimes:\n  a: [1, 2\n  b: 3\n")
    with pytest.raises(yaml.YAMLError) as fast:
        yaml.load(path.read_text(), Loader=config_files._UniqueKeyLoader)  # noqa: S506 - a safe loader
    worded = config_syntax_problem(path)
    assert worded.startswith(f"{str(path)!r} is not valid YAML: line 3, column ")
    assert config_files.yaml_error_line(fast.value) not in worded


def test_a_repeated_json_key_is_named(tmp_path):
    path = tmp_path / "c.json"
    path.write_text('{"scale": "quick", "scale": "paper"}')
    assert config_syntax_problem(path) == (
        f"{str(path)!r} is not valid JSON: key 'scale' appears twice; JSON would keep only the last: "
        "remove one"
    )
    path.write_text('{"scale": "quick", "regimes": {"a": {"scale": 1}}}')  # equal keys of two mappings
    assert config_syntax_problem(path) is None


def test_the_cli_names_a_repeated_key_in_one_line(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(SMOKE, sort_keys=False) + "scale: paper\n")
    done = subprocess.run(
        [sys.executable, "-m", "regretlab.workflow.cli", "estimate", "--config", str(path)],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"regretlab: error: --config: {str(path)!r} is not valid YAML: line "
        f"{len(yaml.safe_dump(SMOKE, sort_keys=False).splitlines()) + 1}, column 1: key 'scale' appears "
        "twice (first at line 1); YAML would keep only the last: remove one"
    ]


@pytest.mark.workflow
def test_snakemake_stops_in_one_line_on_a_repeated_key_and_on_results_that_is_a_file(tmp_path):
    config = copy.deepcopy(SMOKE)
    text = yaml.safe_dump(config, sort_keys=False)
    (tmp_path / "dup.yaml").write_text(text + "seeds_per_job: 2\n")
    done = snakemake("--dry-run", "--configfile", "dup.yaml", cwd=tmp_path, check=False)
    lines = [line for line in done.stderr.splitlines() if line.startswith("regretlab: ")]
    assert done.returncode != 0 and len(lines) == 1 and "key 'seeds_per_job' appears twice" in lines[0]
    assert "Traceback" not in done.stderr
    (tmp_path / "ok.yaml").write_text(text)
    (tmp_path / "results").write_text("")
    done = snakemake("--dry-run", "--configfile", "ok.yaml", cwd=tmp_path, check=False)
    lines = [line for line in done.stderr.splitlines() if line.startswith("regretlab: ")]
    assert done.returncode != 0 and lines == [
        "regretlab: 'results' is a file; the workflow writes its outputs into a folder of that name"
    ], done.stderr
    assert "Traceback" not in done.stderr
