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

from regretlab.bandits.instance import GRAPH_FAMILIES, LOSS_KINDS
from regretlab.cmdp.instance import FAMILIES as CMDP_FAMILIES
from regretlab.workflow import cli
from regretlab.workflow.cli import main
from regretlab.workflow.config import ConfigError, load_schema, validate_config

REPO = Path(__file__).resolve().parents[1]
SCHEMA_PATH = REPO / "schemas" / "config.schema.yaml"
SCHEMA = load_schema(SCHEMA_PATH)
SMOKE_PATH = REPO / "tests" / "config" / "smoke.yaml"
SMOKE = yaml.safe_load(SMOKE_PATH.read_text())
BANDIT, CMDP = "smoke_exp3g", "smoke_cmdp"


def field(path: tuple) -> str:
    """A config path as regretlab.workflow.config renders it: regimes.x.scales.quick.horizons[1]."""
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


#: Types a field accepts besides the smoke config's: seeds may be one count or a list with one per horizon;
#: the searches' lists may be null (every search).
ALSO_ALLOWED = {"seeds": {"array"}, "searches": {"null"}, "power_searches": {"null"}}


@st.composite
def type_mutations(draw):
    path = draw(st.sampled_from(NODES))
    original = get(SMOKE, path)
    kinds = sorted(set(VALUES) - {json_kind(original)} - ALSO_ALLOWED.get(path[-1], set()))
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
    ((*INSTANCE, "graph", "clique_sizes"), st.just([1]), "cliques_2x3.graph.clique_sizes", "K = sum ≥ 2"),
    ((*QUICK, "horizons"), st.integers(1, 10**6).map(lambda T: [T]), "quick.horizons", "at least 2 horizons"),
    ((*QUICK, "horizons"), st.just([1, 800]), "quick.horizons", "αT ≥ 4"),
    ((*TINY, "rho"), st.floats(-1e3, -0.01), "tiny.rho", "minimum of 0"),
    ((*TINY, "rho"), st.floats(2.01, 1e3), "instances.tiny.rho", "rho must lie in (0, L] = (0, 2]"),
    ((*TINY, "n_layers"), st.integers(max_value=0), "tiny.n_layers", "minimum of 1"),
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


# ---- every graph family, loss kind and CMDP family, with bad parameter values ----------------------------

#: One valid entry of every graph family, loss kind and CMDP family (a new one needs an example here).
VALID_GRAPHS = {
    "disjoint_cliques": {"clique_sizes": [3, 3]},
    "figure1": {},
    "strongly_observable": {"clique_sizes": [2, 3], "n_no_self_loop": 2},
    "random_self_aware": {"n_arms": 5, "edge_prob": 0.3},
    "mycielski_complement": {"k": 3},
    "directed_complete_bipartite": {"n_self_loop": 2, "n_no_self_loop": 3},
    "weakly_observable_stars": {"leaf_counts": [2, 2]},
}
VALID_LOSSES = {
    "bernoulli": {"best_mean": 0.3, "gap": 0.2},
    "switching": {"best_mean": 0.3, "decoy_mean": 0.1, "period": 10},
    "minimax": {"best_mean": 0.5, "gap_constant": 1.0},
    "bernoulli_parts": {"best_mean": 0.1, "best_in": "S", "S_mean": 0.4, "S_bar_mean": 0.6},
    "theorem5": {"b": 0.5, "environment": 1, "calibration_seeds": 2},
}
VALID_CMDP = {family: {"family": family, "constraint_spread": 0.1} for family in CMDP_FAMILIES}
VALID_CMDP["chain"] = {"family": "chain", "states_per_layer": 1}  # one state per layer, two actions, m = 1
#: Weakly observable graph families: their regimes run exp3g_weak, the others exp3g.
WEAK = {"directed_complete_bipartite", "weakly_observable_stars"}
#: Words of internal objects a message about a config field must not show instead of the field.
INTERNAL = ("adjacency", "shape", "matrix", "(K, K)", "ndarray", "array(", "Traceback", "KeyError", "G_0")
#: Words that say what is allowed (a range, the allowed values, a bound on a count).
ALLOWED = re.compile(
    r"must|at least|at most|minimum|maximum|one of|lie in|needs?\b|below|above|expected|required|allowed|"
    r"non-empty|out of reach|valid on"
)


def test_every_family_and_kind_has_a_valid_example(schema_path):
    """The sweep below covers every registered graph family, loss kind and CMDP family."""
    assert set(VALID_GRAPHS) == set(GRAPH_FAMILIES), "add the new graph family to VALID_GRAPHS"
    assert set(VALID_LOSSES) == set(LOSS_KINDS), "add the new loss kind to VALID_LOSSES"
    for family, params in VALID_GRAPHS.items():
        validate_config(bandit_config({"family": family, **params}, LOSSES), schema_path)
    for kind, params in VALID_LOSSES.items():
        validate_config(bandit_config(GRAPH, {"kind": kind, **params}), schema_path)
    for spec in VALID_CMDP.values():
        validate_config(cmdp_config(spec), schema_path)


#: The losses of every graph family's entry, and the graph of every loss kind's (Theorem 5 and S̄-parts need
#: a weakly observable one).
LOSSES = {"kind": "bernoulli", "best_mean": 0.3, "gap": 0.2}
GRAPH = {"family": "weakly_observable_stars", "leaf_counts": [2, 2]}


def bandit_config(graph: dict, losses: dict) -> dict:
    config = copy.deepcopy(SMOKE)
    regime = config["regimes"][BANDIT]
    regime["instances"] = {"cliques_2x3": {"graph": graph, "losses": losses}}
    weak = graph.get("family") in WEAK
    algorithm, bound = ("exp3g_weak", "exp3g_weak_bound") if weak else ("exp3g", "exp3g_rate")
    regime["algorithms"], regime["bounds"] = [algorithm], {algorithm: [bound]}
    return config


def cmdp_config(spec: dict) -> dict:
    config = copy.deepcopy(SMOKE)
    base = dict(config["regimes"][CMDP]["instances"]["tiny"])
    config["regimes"][CMDP]["instances"] = {"tiny": {**base, **spec}}
    return config


def parameter_values(schema: dict) -> st.SearchStrategy:
    """Values of a parameter's schema type around and beyond its range, allowed names and near misses, and
    now and then a value of the wrong type."""
    if "enum" in schema:
        names = [v for v in schema["enum"]]
        misspelt = [f"{v}x" if isinstance(v, str) else v + 10 for v in names]
        good = st.sampled_from(names + misspelt)
    else:
        kinds = schema.get("type", "number")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        good = st.sampled_from(kinds).flatmap(
            lambda kind: {
                "integer": st.integers(-2, 7),
                "number": st.sampled_from([-0.5, 0.0, 1e-3, 0.05, 0.3, 0.7, 0.99, 1.0, 1.5, 2.5, 4.0]),
                "array": st.lists(st.integers(0, 3), max_size=2),
                "string": st.sampled_from(["", "S"]),
                "object": st.sampled_from([{}, {"reward": [[1, 0]]}]),
                "boolean": st.booleans(),
            }[kind]
        )
    wrong_type = st.sampled_from([None, "x", [1], {"a": 1}, True])
    return st.integers(0, 9).flatmap(lambda roll: wrong_type if roll == 0 else good)


def _branch_parameters(definition: str, key: str, value: str) -> dict:
    defs = SCHEMA["$defs"]
    branch = next(
        b["then"] for b in defs[definition]["allOf"] if b["if"]["properties"][key]["const"] == value
    )
    common = defs[definition].get("properties", {})
    return {
        name: {**common.get(name, {}), **(own if isinstance(own, dict) else {})}
        for name, own in branch.get("properties", {}).items()
        if name != key
    }


@st.composite
def bad_entries(draw):
    """(config, field prefix, the entry's parameters) with some parameters of one graph family, loss kind or
    CMDP family changed or dropped."""
    section = draw(st.sampled_from(["graph", "losses", "cmdp"]))
    if section == "cmdp":
        family = draw(st.sampled_from(sorted(VALID_CMDP)))
        parameters = {
            k: v for k, v in SCHEMA["$defs"]["cmdp_instance"]["properties"].items() if k != "family"
        }
        base = {**SMOKE["regimes"][CMDP]["instances"]["tiny"], **VALID_CMDP[family]}
    elif section == "graph":
        family = draw(st.sampled_from(sorted(VALID_GRAPHS)))
        parameters, base = _branch_parameters("graph", "family", family), dict(VALID_GRAPHS[family])
    else:
        family = draw(st.sampled_from(sorted(VALID_LOSSES)))
        parameters, base = _branch_parameters("losses", "kind", family), dict(VALID_LOSSES[family])
    entry = dict(base)
    if not parameters:  # figure1: nothing to change but a field it does not take
        entry["n_arms"] = draw(st.integers(2, 7))
    for name in draw(st.lists(st.sampled_from(sorted(parameters) or [None]), max_size=3, unique=True)):
        if name is None:
            continue
        if draw(st.integers(0, 9)) == 0:
            entry.pop(name, None)
        else:
            entry[name] = draw(parameter_values(parameters[name]))
    if section == "cmdp":
        if isinstance(entry.get("n_layers"), int) and entry["n_layers"] > 4:
            entry["n_layers"] = 4  # small LPs: the sweep is about messages, not sizes
        return cmdp_config(entry), f"regimes.{CMDP}", set(parameters)
    if section == "graph":
        return bandit_config({"family": family, **entry}, LOSSES), f"regimes.{BANDIT}", set(parameters)
    graph = draw(st.sampled_from([GRAPH, {"family": "disjoint_cliques", "clique_sizes": [3, 3]}]))
    return bandit_config(graph, {"kind": family, **entry}), f"regimes.{BANDIT}", set(parameters)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(bad_entries())
def test_bad_family_parameters_name_the_field_and_what_is_allowed(case):
    """Whatever a family's, loss kind's or CMDP family's parameters are, validation either accepts them or
    says, one line per problem, which config field is wrong and what it allows — never an internal array or
    a traceback."""
    config, prefix, parameters = case
    try:
        validate_config(config, SCHEMA_PATH)
    except ConfigError as error:
        lines = str(error).splitlines()
    else:
        return
    for line in lines:
        field, _, message = line.partition(": ")
        assert field.startswith(f"config field {prefix}."), line
        assert not any(word in line for word in INTERNAL), line
        assert ALLOWED.search(message), line
        named = field.rsplit(".", 1)[-1].split("[")[0]
        about_a_parameter = named in parameters | {"family", "kind"} or any(
            re.search(rf"\b{re.escape(p)}\b", message) for p in parameters
        )
        assert about_a_parameter or named in ("algorithms", "horizons") or "allowed fields" in message, line


CLIQUES = {"family": "disjoint_cliques", "clique_sizes": [3, 3]}
#: Parameters the schema accepts and the builder rejects: (graph, losses or CMDP entry, the field the message
#: names, what it says is allowed).
BUILDER_REJECTS = [
    ({"family": "disjoint_cliques", "clique_sizes": [1]}, LOSSES, "graph.clique_sizes", "K = sum ≥ 2 arms"),
    (
        {"family": "strongly_observable", "clique_sizes": [1], "n_no_self_loop": 0},
        LOSSES,
        "graph.clique_sizes",
        "+ n_no_self_loop ≥ 2 arms",
    ),
    ({"family": "weakly_observable_stars", "leaf_counts": [1]}, LOSSES, "graph.leaf_counts", "≥ 3 arms"),
    (CLIQUES, {"kind": "bernoulli", "best_mean": 0.5, "gap": 0.6}, "losses.gap", "must be at most 1"),
    (
        {"family": "disjoint_cliques", "clique_sizes": [1, 1]},
        {"kind": "switching", "best_mean": 0.3, "decoy_mean": 0.1, "period": 5},
        "losses.kind",
        "needs n_arms >= 3",
    ),
    (
        CLIQUES,
        {"kind": "switching", "best_mean": 0.95, "decoy_mean": 0.0, "period": 5},
        "losses.best_mean",
        "must be below the decoys' long-run average",
    ),
    (
        CLIQUES,
        {"kind": "bernoulli_parts", "best_mean": 0.1, "best_in": "S_bar", "S_mean": 0.4, "S_bar_mean": 0.6},
        "losses.best_in",
        "allowed: 'S'",
    ),
    (CLIQUES, {"kind": "theorem5", **VALID_LOSSES["theorem5"]}, "losses.kind", "needs a weakly observable"),
    (None, {"family": "binding", "rho": 0.0}, "tiny.rho", "rho must lie in (0, L] = (0, 2]"),
    (None, {"family": "binding", "constraint_spread": 1.0}, "tiny.constraint_spread", "must lie in (0, 1)"),
    (None, {"family": "vacuous", "rho": 2.5}, "tiny.rho", "rho must lie in [0, L] = [0, 2]"),
    (None, {"family": "binding", "rho": 1.99}, "tiny.rho", "out of reach for this draw"),
]


@pytest.mark.parametrize(
    ("graph", "entry", "expected", "allowed"), BUILDER_REJECTS, ids=[c[2] for c in BUILDER_REJECTS]
)
def test_a_builders_rejection_names_the_parameter(graph, entry, expected, allowed):
    """What only the builder can check (a graph's arm count, an environment on this graph, ρ for this draw)
    is reported at the parameter, with what is allowed — not as the builder's internal object."""
    config = cmdp_config(entry) if graph is None else bandit_config(graph, entry)
    rejects(config, f"regimes.{CMDP if graph is None else BANDIT}.instances.", allowed)
    with pytest.raises(ConfigError) as error:
        validate_config(config, SCHEMA_PATH)
    field_part = str(error.value).split(": ", 1)[0]
    assert field_part.endswith(expected) and not any(word in str(error.value) for word in INTERNAL), (
        error.value
    )


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

    monkeypatch.setattr(cli, "run_and_write", started)
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
