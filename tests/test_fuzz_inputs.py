"""Property-based: a valid config or `regretlab run` line with one mutation — a wrong type, a value out of
range, a missing or unknown field, a cross-field rule broken — is rejected before anything runs, with one line
naming the field and what is allowed, and no traceback, job or file."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regretlab.bandits import simulate as bandit_simulate
from regretlab.cli import main
from regretlab.cmdp import runs as cmdp_runs
from regretlab.config import ConfigError, load_schema, validate_config

REPO = Path(__file__).resolve().parents[1]
SCHEMA_PATH = REPO / "schemas" / "config.schema.yaml"
SCHEMA = load_schema(SCHEMA_PATH)
SMOKE_PATH = REPO / "tests" / "config" / "smoke.yaml"
SMOKE = yaml.safe_load(SMOKE_PATH.read_text())
BANDIT, CMDP = "smoke_exp3g", "smoke_cmdp"


def field(path: tuple) -> str:
    """A config path as regretlab.config renders it: regimes.x.scales.quick.horizons[1]."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "<top level>"


def nodes(tree, path=()) -> list[tuple]:
    """Every path below the root of a config tree."""
    children = tree.items() if isinstance(tree, dict) else enumerate(tree) if isinstance(tree, list) else []
    found = []
    for key, child in children:
        found += [(*path, key), *nodes(child, (*path, key))]
    return found


def get(tree, path):
    for part in path:
        tree = tree[part]
    return tree


NODES = nodes(SMOKE)
DICT_NODES = [()] + [path for path in NODES if isinstance(get(SMOKE, path), dict)]


def json_kind(value) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return {str: "string", list: "array", dict: "object", type(None): "null"}[type(value)]


VALUES = {
    "string": st.text(max_size=4),
    "boolean": st.booleans(),
    "null": st.none(),
    "number": st.floats(-10, 10, allow_nan=False).filter(lambda v: v != int(v)),
    "array": st.lists(st.integers(0, 3), max_size=2),
    "object": st.just({"a": 1}),
}


def required_paths() -> list[tuple[tuple, str]]:
    """(parent path, key) of every field the schema requires, for the smoke config's shape."""
    defs = SCHEMA["$defs"]

    def branch(definition: str, key: str, value: str) -> list[str]:
        return next(
            b["then"].get("required", [])
            for b in defs[definition]["allOf"]
            if b["if"]["properties"][key]["const"] == value
        )

    found = [((), key) for key in SCHEMA["required"]]
    for regime in (BANDIT, CMDP):
        base = ("regimes", regime)
        found += [(base, key) for key in defs["regime"]["required"]]
        found += [((*base, "scales", "quick"), key) for key in defs["scale"]["required"]]
    instance = ("regimes", BANDIT, "instances", "cliques_2x3")
    found += [(instance, key) for key in defs["bandit_instance"]["required"]]
    found += [((*instance, "graph"), key) for key in defs["graph"]["required"]]
    found += [((*instance, "graph"), key) for key in branch("graph", "family", "disjoint_cliques")]
    found += [((*instance, "losses"), key) for key in defs["losses"]["required"]]
    found += [((*instance, "losses"), key) for key in branch("losses", "kind", "bernoulli")]
    tiny = ("regimes", CMDP, "instances", "tiny")
    found += [(tiny, key) for key in defs["cmdp_instance"]["required"]]
    return found


def rejects(config: dict, expected_field: str, allowed: str) -> None:
    """``config`` is rejected with one line per problem, one of them naming the field and what is allowed."""
    with pytest.raises(ConfigError) as error:
        validate_config(config, SCHEMA_PATH)
    lines = str(error.value).splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"config field {expected_field}"), lines
    assert allowed in lines[0], lines


@st.composite
def type_mutations(draw):
    path = draw(st.sampled_from(NODES))
    original = get(SMOKE, path)
    kinds = sorted(set(VALUES) - {json_kind(original)})
    return path, draw(st.sampled_from(kinds).flatmap(lambda kind: VALUES[kind]))


@settings(max_examples=60)
@given(type_mutations())
def test_wrong_type_is_rejected(mutation):
    path, value = mutation
    config = copy.deepcopy(SMOKE)
    get(config, path[:-1])[path[-1]] = value
    with pytest.raises(ConfigError) as error:
        validate_config(config, SCHEMA_PATH)
    lines = str(error.value).splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"config field {field(path)}:"), lines
    assert "expected" in lines[0] or "is not one of" in lines[0], lines


@settings(max_examples=40)
@given(st.sampled_from(required_paths()))
def test_missing_field_is_rejected(parent_and_key):
    parent, key = parent_and_key
    config = copy.deepcopy(SMOKE)
    del get(config, parent)[key]
    rejects(config, field(parent), f"'{key}' is a required property")


@settings(max_examples=40)
@given(st.sampled_from(DICT_NODES), st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True), st.integers())
def test_unknown_field_is_rejected(parent, key, value):
    config = copy.deepcopy(SMOKE)
    target = get(config, parent)
    if key in target:
        return
    target[key] = value
    with pytest.raises(ConfigError) as error:
        validate_config(config, SCHEMA_PATH)
    lines = str(error.value).splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"config field {field(parent)}"), lines
    assert "allowed fields" in lines[0] or "expected" in lines[0] or "not in algorithms" in lines[0], lines


INSTANCE = ("regimes", BANDIT, "instances", "cliques_2x3")
TINY = ("regimes", CMDP, "instances", "tiny")
QUICK = ("regimes", BANDIT, "scales", "quick")
#: (path, bad values, field the message names, what it says is allowed); cross-field rules included.
OUT_OF_RANGE = [
    (("seeds_per_job",), st.integers(max_value=0), "seeds_per_job", "minimum of 1"),
    (("bootstrap_resamples",), st.integers(max_value=99), "bootstrap_resamples", "minimum of 100"),
    ((*QUICK, "horizons", 0), st.integers(max_value=0), "horizons[0]", "minimum of 1"),
    ((*QUICK, "seeds"), st.integers(max_value=0), "quick.seeds", "minimum of 1"),
    ((*INSTANCE, "losses", "best_mean"), st.floats(1.01, 1e3), "losses.best_mean", "maximum of 1"),
    ((*INSTANCE, "losses", "best_mean"), st.floats(-1e3, -0.01), "losses.best_mean", "minimum of 0"),
    ((*INSTANCE, "losses", "gap"), st.floats(0.71, 1e3), "losses.gap", "best_mean + gap must be at most 1"),
    ((*INSTANCE, "graph", "clique_sizes", 1), st.integers(max_value=0), "clique_sizes[1]", "minimum of 1"),
    ((*INSTANCE, "graph", "clique_sizes"), st.just([1]), "instances.cliques_2x3.graph", "K >= 2"),
    ((*QUICK, "horizons"), st.integers(1, 10**6).map(lambda T: [T]), "quick.horizons", "at least 2 horizons"),
    ((*QUICK, "horizons"), st.just([1, 800]), "quick.horizons", "αT ≥ 4"),
    ((*TINY, "rho"), st.floats(-1e3, -0.01), "tiny.rho", "minimum of 0"),
    ((*TINY, "rho"), st.floats(2.01, 1e3), "instances.tiny", "rho must lie in (0, L] = (0, 2]"),
    ((*TINY, "n_layers"), st.integers(max_value=1), "tiny.n_layers", "minimum of 2"),
    ((*TINY, "n_actions"), st.integers(max_value=1), "tiny.n_actions", "minimum of 2"),
    ((*TINY, "m"), st.integers(max_value=0), "tiny.m", "minimum of 1"),
    ((*TINY, "constraint_spread"), st.floats(1.01, 10), "tiny.constraint_spread", "maximum of 1"),
    ((*TINY, "delta"), st.floats(1.0, 10), "tiny.delta", "maximum of 1"),
]


@settings(max_examples=60)
@given(st.sampled_from(OUT_OF_RANGE).flatmap(lambda case: st.tuples(st.just(case), case[1])))
def test_value_out_of_range_is_rejected(case_and_value):
    (path, _, expected, allowed), value = case_and_value
    config = copy.deepcopy(SMOKE)
    get(config, path[:-1])[path[-1]] = value
    with pytest.raises(ConfigError) as error:
        validate_config(config, SCHEMA_PATH)
    lines = str(error.value).splitlines()
    assert len(lines) == 1, lines
    assert expected in lines[0].split(":")[0] and allowed in lines[0], lines


def test_algorithm_on_a_graph_outside_its_class_is_rejected():
    config = copy.deepcopy(SMOKE)
    regime = config["regimes"][BANDIT]
    regime["instances"]["cliques_2x3"]["graph"] = {"family": "figure1"}
    regime["algorithms"], regime["bounds"] = ["algorithm5"], {"algorithm5": ["theorem14_rate"]}
    rejects(config, f"regimes.{BANDIT}.algorithms", "algorithm5 is valid on self-aware")


# ---- regretlab run ----------------------------------------------------------------------------------------

ARGS = {
    "--config": str(SMOKE_PATH),
    "--regime": BANDIT,
    "--instance": "cliques_2x3",
    "--algorithm": "exp3g",
    "-T": "500",
}
NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True)
NOT_POSITIVE_INT = st.one_of(
    st.integers(max_value=0).map(str),
    st.sampled_from(["1.5", "abc", "1e3", "0x10", "", "1_0_", "٣x"]),
    st.text(alphabet="abc.xyz", min_size=1, max_size=4),
)


@st.composite
def cli_mutations(draw):
    """(arguments, option the message names, what it says is allowed)."""
    args = dict(ARGS)
    seeds = ["0", "1"]
    kinds = ["T", "T_small", "seeds_negative", "seeds_duplicate", "name", "kind_mismatch"]
    kind = draw(st.sampled_from(kinds))
    if kind == "T":
        args["-T"] = draw(NOT_POSITIVE_INT)
        expected = ("-T", "must be a positive integer")
    elif kind == "T_small":
        args["-T"] = "1"
        expected = ("-T", "αT ≥ 4")
    elif kind == "seeds_negative":
        seeds = [*seeds, str(draw(st.integers(max_value=-1)))]
        expected = ("--seeds", "must be non-negative integers")
    elif kind == "seeds_duplicate":
        seeds = [*seeds, draw(st.sampled_from(seeds))]
        expected = ("--seeds", "must be distinct")
    elif kind == "name":
        option = draw(st.sampled_from(["--regime", "--instance", "--algorithm", "--constants"]))
        taken = [BANDIT, CMDP, "cliques_2x3", "exp3g", "paper"]
        args[option] = draw(NAMES.filter(lambda name: name not in taken))
        expected = (option, "must be one of")
    else:
        args.update({"--regime": CMDP, "--instance": "tiny", "-T": "100"})
        expected = ("--algorithm", "must be one of ['pdgd_ops', 'uc_o_gdps']")
    argv = ["run", *[part for option, value in args.items() for part in (option, value)], "--seeds", *seeds]
    return argv, *expected


@pytest.fixture
def no_job(monkeypatch):
    """Any run started fails the test."""

    def started(*args, **kwargs):
        raise AssertionError("a run started")

    monkeypatch.setattr(bandit_simulate, "run_and_write", started)
    monkeypatch.setattr(cmdp_runs, "run_and_write", started)
    monkeypatch.chdir(REPO)


def rejected_in_one_line(argv: list[str], capsys, option: str, allowed: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        raise SystemExit(main(argv))
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert captured.out == "" and len(lines) == 1, lines
    assert re.match(rf"regretlab: error: (argument )?{re.escape(option)}\b", lines[0]), lines
    assert allowed in lines[0], lines


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutation=cli_mutations())
def test_bad_cli_line_is_rejected_before_any_run(mutation, no_job, capsys, tmp_path):
    argv, option, allowed = mutation
    output = tmp_path / "run.parquet"
    rejected_in_one_line([*argv, "--output", str(output)], capsys, option, allowed)
    assert not output.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("where", ["directory", "under_a_file"])
def test_unwritable_output_is_rejected_before_any_run(where, no_job, capsys, tmp_path):
    (tmp_path / "file").write_text("")
    output = tmp_path if where == "directory" else tmp_path / "file" / "run.parquet"
    argv = ["run", *[part for item in ARGS.items() for part in item], "--output", str(output)]
    rejected_in_one_line(argv, capsys, "--output", "directory")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_algorithm_outside_the_graph_class_is_rejected_on_the_cli(no_job, capsys, tmp_path):
    config = copy.deepcopy(SMOKE)
    config["regimes"][BANDIT]["instances"]["cliques_2x3"]["graph"] = {"family": "figure1"}
    path = tmp_path / "figure1.yaml"
    path.write_text(yaml.safe_dump(config))
    args = {**ARGS, "--config": str(path), "--algorithm": "algorithm5"}
    argv = ["run", *[part for item in args.items() for part in item]]
    rejected_in_one_line(argv, capsys, "--algorithm", "algorithm5 is valid on self-aware")
